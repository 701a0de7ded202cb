/**
 * Host paths whose writing changes the node itself: its configuration, the
 * kubelet's state, the kernel's knobs, the container runtime. A container
 * that may write one can take the node over, whatever Pod Security level
 * admitted it, so a writable mount of one needs a reason of its own (as a
 * dangerous grant does); a read-only one does not. Linux paths: a Windows
 * node's are other.
 */
import * as path from 'node:path';
import { isRecord } from '../k8s/syntax';
import { FieldProblem } from './finding';
import { PodTemplate } from './pod-templates';
import { RULES } from './rules';

/** Trees whose every path is sensitive. */
const TREES = [
  '/etc', '/proc', '/sys', '/dev', '/boot', '/root', '/usr', '/bin', '/sbin', '/lib', '/lib64',
  '/var/lib/kubelet', '/var/lib/containerd', '/var/lib/docker', '/var/lib/containers', '/var/lib/etcd',
];

/** The container runtimes' sockets (containerd, CRI-O, Docker, cri-dockerd): the runtime runs anything asked of it, privileged. */
const SOCKETS = [
  '/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock',
  '/run/crio/crio.sock', '/var/run/crio/crio.sock',
  '/run/docker.sock', '/var/run/docker.sock',
  '/run/cri-dockerd.sock', '/var/run/cri-dockerd.sock',
];

/**
 * Why a host path is sensitive to write, if it is: `/` itself, a path in
 * one of the trees, a runtime's socket, or a directory above one (`/var`
 * holds `/var/lib/kubelet`).
 */
export function sensitiveHostPath(hostPath: string): string | undefined {
  if (typeof hostPath !== 'string' || !hostPath.startsWith('/')) return undefined;
  const p = path.posix.normalize(hostPath).replace(/(.)\/$/, '$1');
  if (p === '/') return 'the node\'s root filesystem';
  const within = (dir: string) => p === dir || p.startsWith(`${dir}/`);
  const tree = TREES.find(within);
  if (tree) return `in ${tree}`;
  const socket = SOCKETS.find((s) => s === p);
  if (socket) return 'a container runtime\'s socket';
  const above = [...TREES, ...SOCKETS].find((s) => s.startsWith(`${p}/`));
  return above ? `holds ${above}` : undefined;
}

/**
 * The pod's writable mounts of sensitive host paths (a mount without
 * `readOnly: true` of a hostPath volume), one problem per mount, in the
 * pod's order (init containers first).
 */
export function checkWritableHostPaths(pod: PodTemplate | undefined): FieldProblem[] {
  if (!pod) return [];
  const spec = pod.spec;
  const hostPaths = new Map<string, string>();
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (isRecord(v) && isRecord(v.hostPath) && typeof v.hostPath.path === 'string') hostPaths.set(String(v.name), v.hostPath.path);
  }
  const problems: FieldProblem[] = [];
  for (const list of ['initContainers', 'containers'] as const) {
    (Array.isArray(spec[list]) ? spec[list] : []).forEach((c: unknown, i: number) => {
      (isRecord(c) && Array.isArray(c.volumeMounts) ? c.volumeMounts : []).forEach((m: unknown, j: number) => {
        const hostPath = isRecord(m) && m.readOnly !== true ? hostPaths.get(String(m.name)) : undefined;
        const why = hostPath !== undefined ? sensitiveHostPath(hostPath) : undefined;
        if (why === undefined || !isRecord(c) || !isRecord(m)) return;
        problems.push({
          rule: RULES.hostPathWritable,
          path: `${pod.specPath ? `${pod.specPath}.` : ''}${list}[${i}].volumeMounts[${j}]`,
          message: `container "${String(c.name)}" mounts volume "${String(m.name)}" (host path ${hostPath}, ${why}) writable at ${String(m.mountPath)}`,
        });
      });
    });
  }
  return problems;
}
