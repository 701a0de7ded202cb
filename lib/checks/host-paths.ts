/**
 * Host paths whose writing changes the node itself: its configuration, the
 * kubelet's state, the kernel's knobs, the container runtime. A container
 * that may write one can take the node over, whatever Pod Security level
 * admitted it, so a writable mount of one needs a reason of its own (as a
 * dangerous grant does); a read-only one does not. Linux paths: a Windows
 * node's are other.
 */
import * as path from 'node:path';

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
