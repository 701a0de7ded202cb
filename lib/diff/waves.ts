/**
 * A diff of an agent in waves (DaemonSets labelled with one
 * `node-reporter.dev/agent` in a namespace, each its own
 * `node-reporter.dev/wave`): each wave's DaemonSet names its agent and wave,
 * with --nodes how many of the agent's nodes it runs on, and a pod-template
 * change that reaches every wave at once (the canary skipped) is an
 * `all-waves` impact, a warning.
 */
import { KubeObject } from '../checks/finding';
import { waveOf } from '../checks/wave-overlaps';
import { daemonSetsOfManifest, evaluateNodes, KubeNode } from '../eligibility';
import { printable } from '../eligibility/printable';
import { isRecord } from '../k8s/syntax';
import { Impact, ObjectDiff, WaveReach } from './types';

/** A wave's DaemonSet in NEW. */
interface Wave {
  readonly object: KubeObject;
  readonly file: string;
  readonly namespace?: string;
  readonly name: string;
  readonly wave: string;
}

const identity = (kind: string, namespace: string | undefined, name: string) => JSON.stringify([kind, namespace ?? '', name]);

/**
 * The objects of a diff with the waves of NEW marked: agent and wave on each
 * wave's DaemonSet, its reach over the nodes when given, and one `all-waves`
 * impact per agent of two or more waves whose every wave's pod template
 * changes (on its first wave in NEW's order).
 * @param namespaceOf the namespace the diff gives an object (none for cluster-scoped kinds)
 */
export function markWaves(objects: readonly ObjectDiff[], next: readonly { object: KubeObject; file: string }[], nodes: readonly KubeNode[] | undefined,
  namespaceOf: (o: KubeObject) => string | undefined): ObjectDiff[] {
  const agents = new Map<string, Wave[]>();
  for (const { object, file } of next) {
    const labels = object.kind === 'DaemonSet' ? waveOf(object) : undefined;
    if (!labels) continue;
    const namespace = namespaceOf(object);
    const key = JSON.stringify([namespace ?? '', labels.agent]);
    const name = isRecord(object.metadata) && typeof object.metadata.name === 'string' ? object.metadata.name : '';
    agents.set(key, [...(agents.get(key) ?? []), { object, file, namespace, name, wave: labels.wave }]);
  }
  const reach = new Map<string, WaveReach>();
  if (nodes !== undefined) {
    for (const waves of agents.values()) {
      // Each wave evaluated once; the agent's nodes are the union of its waves'.
      const eligible = waves.map((w) => evaluateNodes(nodes, daemonSetsOfManifest([w.object], w.file)[0].scheduling).nodes.map((v) => v.eligible));
      const of = nodes.filter((_, i) => eligible.some((e) => e[i])).length;
      waves.forEach((w, j) => reach.set(identity('DaemonSet', w.namespace, w.name), { nodes: eligible[j].filter(Boolean).length, of }));
    }
  }
  const byIdentity = new Map(objects.map((o) => [identity(o.kind, o.namespace, o.name), o]));
  const allWaves = new Map<string, Impact>();
  for (const waves of agents.values()) {
    const rolled = waves.map((w) => byIdentity.get(identity('DaemonSet', w.namespace, w.name)))
      .filter((o) => o?.change === 'changed' && o.impacts.some((i) => i.kind === 'rollout'));
    if (waves.length < 2 || rolled.length < waves.length) continue;
    const names = waves.map((w) => w.wave);
    const agent = waveOf(waves[0].object)!.agent;
    allWaves.set(identity('DaemonSet', waves[0].namespace, waves[0].name), {
      kind: 'all-waves', warning: true, waves: names,
      message: `the pod template of every wave of agent ${printable(agent, true)} changes in this one change (${names.map((n) => printable(n)).join(', ')}): it reaches every node at once, the canary skipped; change one wave per change, the next after the previous one's kubectl rollout status`,
    });
  }
  return objects.map((o) => {
    if (o.kind !== 'DaemonSet') return o;
    const id = identity(o.kind, o.namespace, o.name);
    const extra = allWaves.get(id);
    const waveReach = reach.get(id);
    if (o.agent === undefined && extra === undefined) return o;
    const { change, impacts, ...head } = o;
    return { ...head, ...(waveReach ? { reach: waveReach } : {}), change, impacts: extra ? [extra, ...impacts] : impacts };
  });
}
