/**
 * Which nodes a DaemonSet runs on, decided as the DaemonSet controller
 * decides it, from node objects and the pod's scheduling fields.
 *
 * "The DaemonSet controller creates a Pod for each eligible node and adds the
 * spec.affinity.nodeAffinity field of the Pod to match the target host", and
 * a node is eligible when the pod's nodeSelector and required node affinity
 * match it and it has no NoSchedule or NoExecute taint the pod does not
 * tolerate: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#how-daemon-pods-are-scheduled
 * (pkg/controller/daemon: NodeShouldRunDaemonPod).
 *
 * This module knows Kubernetes objects, not cdk8s: it takes plain node
 * objects (as `kubectl get nodes -o json` prints them) and plain pod fields.
 */
import { Affinity, affinityMatches, NodeSelectorTerm, Taint, termParseProblem, tolerates, Toleration } from '../k8s/scheduling';
import { printable } from './printable';

export { requirementMatches, selectorMatches, tolerates } from '../k8s/scheduling';

/** A node as the API returns it; only the fields eligibility reads. */
export interface KubeNode {
  /** The node's name and labels. */
  readonly metadata?: KubeNodeMetadata;
  /** The node's taints. */
  readonly spec?: KubeNodeSpec;
}

/** The metadata of a {@link KubeNode}. */
export interface KubeNodeMetadata {
  /** The node's name. */
  readonly name?: string;
  /** The node's labels. */
  readonly labels?: Record<string, string>;
}

/** The spec of a {@link KubeNode}. */
export interface KubeNodeSpec {
  /** The node's taints. */
  readonly taints?: readonly NodeTaint[];
  /** Whether the node is cordoned; it then also carries the unschedulable taint, which DaemonSet pods tolerate. */
  readonly unschedulable?: boolean;
}

/** A node taint (`kubectl taint node NAME key=value:effect`). */
export type NodeTaint = Taint;

/** The fields of a pod spec that decide where a DaemonSet pod runs. */
export interface PodScheduling {
  /** Labels a node must carry, each with exactly this value. */
  readonly nodeSelector?: Record<string, string>;
  /** The pod's own tolerations; the DaemonSet controller adds {@link DAEMONSET_TOLERATIONS}. */
  readonly tolerations?: readonly Toleration[];
  /** Only `nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` matters here. */
  readonly affinity?: Affinity;
  /** Host-network pods also tolerate `node.kubernetes.io/network-unavailable`. */
  readonly hostNetwork?: boolean;
  /** A template with a node name runs on that node only (the controller's fitsNodeName). */
  readonly nodeName?: string;
}

/** The verdict for one node. */
export interface NodeVerdict {
  /** The node's name. */
  readonly name: string;
  /** Whether the DaemonSet runs a pod on it. */
  readonly eligible: boolean;
  /** Why not, one reason per obstacle; empty when eligible. */
  readonly reasons: string[];
  /**
   * The node labels that would make it eligible, when labels are its only
   * obstacle (a missing label or one with another value); undefined otherwise.
   */
  readonly missingLabels?: Record<string, string>;
}

/** The verdicts for a list of nodes. */
export interface EligibilityReport {
  /** How many nodes run a pod: the DESIRED of `kubectl get daemonset`. */
  readonly desired: number;
  /** One verdict per node, in the input order. */
  readonly nodes: NodeVerdict[];
}

/**
 * The tolerations the DaemonSet controller adds to every DaemonSet pod
 * (pkg/controller/daemon/util: AddOrUpdateDaemonPodTolerations;
 * https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations).
 * So cordoned and pressured nodes still get DaemonSet pods, and pods already
 * running on not-ready or unreachable nodes are not evicted; but those nodes
 * also carry not-ready or unreachable NoSchedule taints, which keep new pods off.
 */
export const DAEMONSET_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** Added only for pods with hostNetwork. */
const HOST_NETWORK_TOLERATION: Toleration = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };

/** What evaluateNode derives from the pod alone: worked out once for a list of nodes. */
interface PreparedPod {
  /** The required terms the controller can parse (the others match no node). */
  readonly parsedTerms?: readonly NodeSelectorTerm[];
  /** Why each term it cannot parse matches no node, by the term's index. */
  readonly unparsable: ReadonlyArray<readonly [number, string]>;
  /** The pod's tolerations and those the DaemonSet controller adds. */
  readonly tolerations: readonly Toleration[];
}

function prepare(pod: PodScheduling): PreparedPod {
  const terms = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const problems = (terms ?? []).map((t) => termParseProblem(t));
  return {
    parsedTerms: terms?.filter((_, i) => problems[i] === undefined),
    unparsable: problems.flatMap((p, i) => (p === undefined ? [] : [[i, p] as const])),
    tolerations: [...(pod.tolerations ?? []), ...DAEMONSET_TOLERATIONS, ...(pod.hostNetwork ? [HOST_NETWORK_TOLERATION] : [])],
  };
}

/** Evaluates one node. Its name must be present (see `readNodeList`). */
export function evaluateNode(node: KubeNode, pod: PodScheduling): NodeVerdict {
  return evaluatePrepared(node, pod, prepare(pod));
}

function evaluatePrepared(node: KubeNode, pod: PodScheduling, prepared: PreparedPod): NodeVerdict {
  const name = node.metadata?.name ?? '';
  const labels = node.metadata?.labels ?? {};
  const reasons: string[] = [];
  const missingLabels: Record<string, string> = {};
  // pkg/controller/daemon: predicates, fitsNodeName.
  const pinned = pod.nodeName !== undefined && pod.nodeName !== '' && pod.nodeName !== name;
  if (pinned) {
    reasons.push(`spec.nodeName is ${printable(pod.nodeName, true)}`);
  }

  for (const [key, want] of Object.entries(pod.nodeSelector ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(labels, key)) {
      reasons.push(`missing label ${printable(key)}`);
      missingLabels[key] = want;
    } else if (labels[key] !== want) {
      reasons.push(`label ${printable(key)}=${printable(labels[key])}, want ${printable(want)}`);
      missingLabels[key] = want;
    }
  }
  const labelReasons = reasons.length;

  const terms = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms !== undefined && !affinityMatches(prepared.parsedTerms!, name, labels, true)) {
    // A term the controller cannot parse matches no node: say which, as nothing else would.
    const unparsable = prepared.unparsable;
    reasons.push(unparsable.length === 0 ? 'required node affinity does not match'
      : `required node affinity does not match (${unparsable.map(([i, p]) => `term ${i} matches no node: ${printable(p)}`).join('; ')})`);
  }

  const tolerations = prepared.tolerations;
  for (const taint of node.spec?.taints ?? []) {
    // PreferNoSchedule never keeps a DaemonSet pod off a node.
    if ((taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerations.some((t) => tolerates(t, taint))) {
      reasons.push(`taint ${printable(taint.key ?? '')}${taint.value ? `=${printable(taint.value)}` : ''}:${printable(taint.effect ?? '')} not tolerated`);
    }
  }

  const onlyLabels = !pinned && labelReasons > 0 && reasons.length === labelReasons;
  return { name, eligible: reasons.length === 0, reasons, missingLabels: onlyLabels ? missingLabels : undefined };
}

/** Evaluates every node: the verdicts and the DESIRED count. */
export function evaluateNodes(nodes: readonly KubeNode[], pod: PodScheduling): EligibilityReport {
  const prepared = prepare(pod);
  const verdicts = nodes.map((node) => evaluatePrepared(node, pod, prepared));
  return { desired: verdicts.filter((v) => v.eligible).length, nodes: verdicts };
}

/**
 * The scheduling fields of a synthesized DaemonSet (or any workload with a
 * pod template), so that what is evaluated is exactly what will be applied.
 */
export function schedulingOfWorkload(manifest: WorkloadLike): PodScheduling {
  const spec = manifest.spec?.template?.spec;
  if (!spec) {
    throw new Error('the manifest has no pod template (spec.template.spec)');
  }
  return { nodeSelector: spec.nodeSelector, tolerations: spec.tolerations, affinity: spec.affinity, hostNetwork: spec.hostNetwork, nodeName: spec.nodeName };
}

/** What {@link schedulingOfPolicy} reads of a policy: a `NodePolicy` or `LabeledNodePolicy`. */
export interface PolicyLike {
  /** The pod scheduling fields of the policy. */
  podScheduling(): PodScheduling;
}

/** The scheduling fields a policy gives the pods of its DaemonSets: exactly what they render. */
export function schedulingOfPolicy(policy: PolicyLike): PodScheduling {
  return policy.podScheduling();
}

/** The metadata of a {@link WorkloadLike}. */
export interface WorkloadMetadata {
  /** The workload's name. */
  readonly name?: string;
  /** The workload's namespace. */
  readonly namespace?: string;
}

/** A pod template: what eligibility reads of it. */
export interface PodTemplateLike {
  /** The pod spec's scheduling fields. */
  readonly spec?: PodScheduling;
}

/** The spec of a {@link WorkloadLike}. */
export interface WorkloadSpecLike {
  /** The pod template. */
  readonly template?: PodTemplateLike;
}

/** A DaemonSet as synthesized: what {@link schedulingOf} reads. */
export interface WorkloadLike {
  /** The kind, e.g. `DaemonSet`. */
  readonly kind?: string;
  /** The name and namespace. */
  readonly metadata?: WorkloadMetadata;
  /** The pod template. */
  readonly spec?: WorkloadSpecLike;
}

/**
 * The scheduling fields of a policy (a `NodePolicy`) or of a synthesized
 * workload manifest: eligibility for either.
 */
export function schedulingOf(source: PolicyLike | WorkloadLike): PodScheduling {
  return typeof (source as PolicyLike).podScheduling === 'function' ? schedulingOfPolicy(source as PolicyLike) : schedulingOfWorkload(source as WorkloadLike);
}
