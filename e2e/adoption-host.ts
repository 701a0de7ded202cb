/**
 * The host paths the kubelet creates for the adoption e2e's pods (hostPath
 * volumes of type DirectoryOrCreate or FileOrCreate: /run/xtables.lock,
 * /var/lib/calico, ...): those absent when the run starts are removed at its
 * end, once the pods are gone, so that the host is as before
 * (`e2e/cluster.sh host-state` lists them).
 */
import * as fs from 'node:fs';
import { kubectl } from './kubectl';
import { createdHostPaths, parseManifest } from './manifests';

/** The host paths the kubelet would create for the manifests' pods that do not exist now. */
export function absentHostPaths(manifests: string[]): string[] {
  return createdHostPaths(manifests.flatMap((m) => parseManifest(m, 'adoption manifest'))).filter((p) => !fs.existsSync(p));
}

/** Waits (up to a minute) for the pods of the selector in the namespace to be gone, then removes the paths. */
export function removeHostPaths(paths: string[], namespace: string, selector: string): void {
  kubectl(['-n', namespace, 'wait', '--for=delete', 'pod', '-l', selector, '--timeout=60s'], { allowFail: true });
  for (const p of paths.filter((h) => fs.existsSync(h))) {
    fs.rmSync(p, { recursive: true, force: true });
    console.log(`   removed ${p}, which the kubelet created for a hostPath volume`);
  }
}
