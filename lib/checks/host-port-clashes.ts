/**
 * Two DaemonSets that bind the same host port on nodes they can share: on
 * such a node only the first pod runs, the other stays Pending ("didn't
 * have free ports for the requested pod ports"). The scheduler's NodePorts
 * plugin (pkg/scheduler/framework/plugins/nodeports, v1.35: fitsPorts,
 * HostPortInfo.CheckConflict) refuses a pod whose host port, protocol and
 * host IP (0.0.0.0, or empty, meets every IP) another pod on the node holds;
 * DaemonSet pods are scheduled by it too (pkg/controller/daemon since 1.12).
 * A host-network pod binds its container ports (pkg/apis/core/v1
 * defaultHostNetworkPorts). Whether two DaemonSets can share a node is
 * ./overlaps' question; waves of one agent share their ports by design and
 * are judged by ./wave-overlaps.
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem, KubeObject, show } from './finding';
import { NodeSelectionLike, sharedNode } from './overlaps';
import { RULES } from './rules';
import { describeSharedNode, nodeSelectionOf, waveOf } from './wave-overlaps';

/** A host port a pod binds on its node. */
export interface BoundPort {
  /** The port number. */
  readonly port: number;
  /** TCP, UDP or SCTP. */
  readonly protocol: string;
  /** The host IP it binds, '' for every one. */
  readonly hostIP: string;
  /** The field that binds it, relative to the pod spec (`containers[0].ports[1].hostPort`). */
  readonly path: string;
}

/** Something that binds host ports on the nodes it selects: a DaemonSet of the input, or an agent of an app. */
export interface HostPortUser {
  /** How a message names it: `DaemonSet "name"`, or an agent's construct path. */
  readonly name: string;
  /** The host ports it binds. */
  readonly ports: readonly BoundPort[];
  /** The nodes it runs on. */
  readonly selection: NodeSelectionLike;
  /** Its agent, when it is one wave of one: waves of one agent are never compared. */
  readonly agent?: string;
}

/** The host ports a pod spec binds: each container's `hostPort`, or on the host network its `containerPort`. */
export function boundHostPorts(spec: unknown, extra: readonly number[] = []): BoundPort[] {
  if (!isRecord(spec)) return [];
  const bound: BoundPort[] = [];
  for (const list of ['initContainers', 'containers'] as const) {
    (Array.isArray(spec[list]) ? spec[list] : []).forEach((c: unknown, i: number) => {
      (isRecord(c) && Array.isArray(c.ports) ? c.ports : []).forEach((p: unknown, j: number) => {
        if (!isRecord(p)) return;
        const port = typeof p.hostPort === 'number' && p.hostPort > 0 ? p.hostPort : spec.hostNetwork === true && typeof p.containerPort === 'number' ? p.containerPort : undefined;
        if (port === undefined) return;
        const field = typeof p.hostPort === 'number' && p.hostPort > 0 ? 'hostPort' : 'containerPort';
        bound.push({ port, protocol: typeof p.protocol === 'string' ? p.protocol : 'TCP', hostIP: typeof p.hostIP === 'string' && p.hostIP !== '0.0.0.0' ? p.hostIP : '', path: `${list}[${i}].ports[${j}].${field}` });
      });
    });
  }
  for (const port of extra) bound.push({ port, protocol: 'TCP', hostIP: '', path: 'boundHostPorts' });
  return bound;
}

function conflicts(a: BoundPort, b: BoundPort): boolean {
  return a.port === b.port && a.protocol === b.protocol && (a.hostIP === '' || b.hostIP === '' || a.hostIP === b.hostIP);
}

/**
 * Every clash among the users, in their order: the later user, its port,
 * and the message naming both, the port and a node both select. `together`
 * says whether two users can be applied side by side (alternatives cannot).
 */
export function hostPortClashes<T extends HostPortUser>(users: readonly T[], together: (a: T, b: T) => boolean = () => true): Array<{ user: T; port: BoundPort; message: string }> {
  const clashes: Array<{ user: T; port: BoundPort; message: string }> = [];
  // Only users that bind a port someone else binds are compared.
  const byPort = new Map<number, number[]>();
  users.forEach((u, i) => new Set(u.ports.map((p) => p.port)).forEach((port) => byPort.set(port, [...(byPort.get(port) ?? []), i])));
  users.forEach((later, j) => {
    const seen = new Set<number>();
    for (const port of later.ports) {
      for (const i of byPort.get(port.port) ?? []) {
        const earlier = users[i];
        if (i >= j || seen.has(i) || (later.agent !== undefined && later.agent === earlier.agent)) continue;
        if (!earlier.ports.some((p) => conflicts(p, port)) || !together(earlier, later)) continue;
        const node = sharedNode(earlier.selection, later.selection);
        if (!node) continue;
        seen.add(i);
        clashes.push({ user: later, port, message: `host port ${port.port}/${port.protocol} of ${later.name} is bound by ${earlier.name} too, on nodes both select (${describeSharedNode(node)}): only one of them can run there` });
      }
    }
  });
  return clashes;
}

/** The hostport-clash findings of the input's DaemonSets, on the later DaemonSet of each pair. */
export function checkHostPortClashes(objects: readonly KubeObject[]): Map<KubeObject, FieldProblem[]> {
  const users: Array<HostPortUser & { obj: KubeObject }> = [];
  for (const obj of objects) {
    if (!isRecord(obj) || obj.kind !== 'DaemonSet') continue;
    const spec = obj.spec?.template?.spec;
    const selection = nodeSelectionOf(spec);
    const ports = boundHostPorts(spec);
    if (!selection || ports.length === 0) continue;
    const wave = waveOf(obj);
    users.push({ obj, name: `DaemonSet ${show(obj.metadata?.name)}`, ports, selection, agent: wave ? JSON.stringify([obj.metadata?.namespace ?? '', wave.agent]) : undefined });
  }
  const result = new Map<KubeObject, FieldProblem[]>();
  for (const { user, port, message } of hostPortClashes(users)) {
    const obj = user.obj;
    result.set(obj, [...(result.get(obj) ?? []), { rule: RULES.hostPortClash, path: `spec.template.spec.${port.path}`, message }]);
  }
  return result;
}
