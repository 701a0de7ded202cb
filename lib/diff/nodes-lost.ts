/**
 * nodes-lost: a DaemonSet change that takes its pods off nodes. The
 * DaemonSet controller does not roll that out: a pod on a node the new
 * template no longer fits is deleted in the next sync, every such node at
 * once, whatever maxUnavailable says (pkg/controller/daemon/daemon_controller.go:
 * podsShouldBeOnNode puts a pod whose node fails NodeShouldRunDaemonPod on
 * the delete list; syncNodes deletes them all; only the rolling update of
 * pods that stay, in update.go, is paced by maxUnavailable; the same in
 * v1.28 to v1.36).
 */
import { KubeObject } from '../checks/finding';
import { compareEligibility, daemonSetsOfManifest, evaluateNodes, KubeNode } from '../eligibility';
import { nameList } from '../eligibility/format';
import { Impact } from './types';

/**
 * The share of a DaemonSet's nodes above which losing them is a warning
 * (every node lost is one too): half.
 */
export const NODES_LOST_WARNING_SHARE = 0.5;

const SOURCE = 'pkg/controller/daemon/daemon_controller.go: podsShouldBeOnNode, syncNodes (v1.28 to v1.36)';

/** The nodes a changed DaemonSet leaves, over a node list: DESIRED before and after and the nodes' names. */
export function nodesLeft(old: KubeObject, next: KubeObject, nodes: readonly KubeNode[], source: string): { before: number; after: number; lost: readonly string[] } | undefined {
  if (old.kind !== 'DaemonSet' || next.kind !== 'DaemonSet') return undefined;
  const [before] = daemonSetsOfManifest([old], source);
  const [after] = daemonSetsOfManifest([next], source);
  const change = compareEligibility(evaluateNodes(nodes, before.scheduling), evaluateNodes(nodes, after.scheduling));
  return { before: change.desiredBefore, after: change.desiredAfter, lost: change.lost };
}

/** What the controller does with the pods of lost nodes, as a clause of the rollout line. */
export function lostNodesClause(lost: number): string {
  return `the ${lost} pod(s) on nodes it no longer fits are deleted at once, not paced by maxUnavailable (podsShouldBeOnNode)`;
}

/**
 * nodes-lost, over --nodes: a DaemonSet that runs on fewer nodes; a warning
 * when it runs on none, or loses more than NODES_LOST_WARNING_SHARE of them.
 */
export function nodesLostImpact(old: KubeObject, next: KubeObject, nodes: readonly KubeNode[] | undefined, source: string): Impact | undefined {
  if (nodes === undefined) return undefined;
  const left = nodesLeft(old, next, nodes, source);
  if (left === undefined || left.lost.length === 0) return undefined;
  const { before, after, lost } = left;
  const share = before === 0 ? 0 : lost.length / before;
  const warning = after === 0 || share > NODES_LOST_WARNING_SHARE;
  const what = after === 0 ? 'runs on no node any more' : `loses ${lost.length} of its ${before} node(s) (${Math.round(share * 100)}%)`;
  return {
    kind: 'nodes-lost', warning, lost, desired: { before, after }, source: SOURCE,
    message: `${what}: desired ${before} -> ${after}; ${lostNodesClause(lost.length)}: ${nameList(lost)}`,
  };
}
