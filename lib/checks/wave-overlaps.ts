/**
 * The waves of one agent (DaemonSets labelled with the same
 * `node-reporter.dev/agent` and different `node-reporter.dev/wave`, in one
 * namespace) must never meet on a node: two waves that can both select some
 * node run two copies of the agent there. Static: decided over every
 * possible node by ./overlaps, with no node list.
 */
import { NodeSelectorTerm } from '../k8s/scheduling';
import { isRecord } from '../k8s/syntax';
import { AGENT_LABEL, WAVE_LABEL } from '../k8s/waves';
import { FieldProblem, KubeObject, show } from './finding';
import { NodeSelectionLike, SharedNode, sharedNode } from './overlaps';
import { RULES } from './rules';

/** The agent and wave a DaemonSet's metadata labels name. */
export interface WaveOf {
  /** The `node-reporter.dev/agent` label. */
  readonly agent: string;
  /** The `node-reporter.dev/wave` label. */
  readonly wave: string;
}

/** The agent and wave of an object, or undefined when it does not carry both labels (as strings). */
export function waveOf(obj: KubeObject): WaveOf | undefined {
  const labels = isRecord(obj) && isRecord(obj.metadata) && isRecord(obj.metadata.labels) ? obj.metadata.labels : undefined;
  const agent = labels?.[AGENT_LABEL];
  const wave = labels?.[WAVE_LABEL];
  return typeof agent === 'string' && typeof wave === 'string' ? { agent, wave } : undefined;
}

/**
 * The node selection of a pod spec, or undefined when its fields have shapes
 * no node selection has (the schema rule reports those).
 */
export function nodeSelectionOf(spec: unknown): NodeSelectionLike | undefined {
  if (!isRecord(spec)) return undefined;
  const { nodeSelector, affinity, nodeName } = spec;
  if (nodeSelector !== undefined && !(isRecord(nodeSelector) && Object.values(nodeSelector).every((v) => typeof v === 'string'))) return undefined;
  if (nodeName !== undefined && typeof nodeName !== 'string') return undefined;
  const required = isRecord(affinity) && isRecord(affinity.nodeAffinity) ? affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined;
  if (required !== undefined && !(isRecord(required) && Array.isArray(required.nodeSelectorTerms) && required.nodeSelectorTerms.every(isTerm))) return undefined;
  return {
    nodeSelector: nodeSelector as Record<string, string> | undefined,
    affinity: required === undefined ? undefined : { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: required.nodeSelectorTerms as NodeSelectorTerm[] } } },
    nodeName: nodeName as string | undefined,
  };
}

function isTerm(term: unknown): term is NodeSelectorTerm {
  const requirements = (list: unknown) => list === undefined || (Array.isArray(list) && list.every((r) => isRecord(r) && typeof r.key === 'string'
    && typeof r.operator === 'string' && (r.values === undefined || (Array.isArray(r.values) && r.values.every((v: unknown) => typeof v === 'string')))));
  return isRecord(term) && requirements(term.matchExpressions) && requirements(term.matchFields);
}

/** A node in words: its labels (and name), for a message. */
export function describeSharedNode(node: SharedNode): string {
  const labels = Object.entries(node.labels).map(([k, v]) => `${k}=${v}`);
  const named = node.name !== undefined ? ` named ${show(node.name)}` : '';
  return labels.length === 0 ? `a node${named} without labels` : `a node${named} labelled ${labels.join(', ')}`;
}

/**
 * Waves of one agent that can meet on a node: a finding on the later
 * DaemonSet of each such pair (in input order), naming both and the labels
 * of a node both select.
 */
export function checkWaveOverlaps(objects: readonly KubeObject[]): Map<KubeObject, FieldProblem[]> {
  const result = new Map<KubeObject, FieldProblem[]>();
  const groups = new Map<string, { obj: KubeObject; wave: string; selection: NodeSelectionLike }[]>();
  for (const obj of objects) {
    if (!isRecord(obj) || obj.kind !== 'DaemonSet') continue;
    const wave = waveOf(obj);
    const selection = nodeSelectionOf(obj.spec?.template?.spec);
    if (!wave || !selection) continue;
    // One agent is one name in one namespace: JSON keeps the pair apart whatever characters they hold.
    const key = JSON.stringify([obj.metadata?.namespace ?? '', wave.agent]);
    const group = groups.get(key) ?? [];
    for (const earlier of group) {
      if (earlier.wave === wave.wave) continue;
      const node = sharedNode(earlier.selection, selection);
      if (node) {
        result.set(obj, [...(result.get(obj) ?? []), {
          rule: RULES.waveOverlap, path: 'spec.template.spec',
          message: `wave ${show(wave.wave)} of agent ${show(wave.agent)} (DaemonSet ${show(obj.metadata?.name)}) and wave ${show(earlier.wave)} (DaemonSet ${show(earlier.obj.metadata?.name)}) can both run on one node: ${describeSharedNode(node)} is selected by both, and would run the agent twice`,
        }]);
      }
    }
    group.push({ obj, wave: wave.wave, selection });
    groups.set(key, group);
  }
  return result;
}
