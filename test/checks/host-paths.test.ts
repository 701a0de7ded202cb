/**
 * The hostpath-writable rule (lib/checks/host-paths.ts): a writable mount of
 * a sensitive host path is an error in any YAML, unless waived with a
 * reason; a read-only mount passes.
 */
import { checkObjects, isBlocking, KubeObject, WAIVER_PREFIX } from '../../lib/checks';
import { cleanDaemonSet, podOf } from './baseline';

function mounting(hostPath: string, readOnly?: boolean, annotations: Record<string, string> = {}): KubeObject {
  const ds = cleanDaemonSet();
  ds.metadata.annotations = annotations;
  podOf(ds).volumes = [{ name: 'host', hostPath: { path: hostPath } }];
  podOf(ds).containers[0].volumeMounts = [{ name: 'host', mountPath: '/host', ...(readOnly !== undefined ? { readOnly } : {}) }];
  return ds;
}

const writable = (obj: KubeObject) => checkObjects([obj], [], { podSecurity: 'privileged' }).filter((f) => f.rule.id === 'hostpath-writable');

describe('check: hostpath-writable', () => {
  test("a writable mount of the node's root is an error naming the container, the volume, the path and the mount", () => {
    // GIVEN / WHEN
    const findings = writable(mounting('/'));
    // THEN
    expect(findings.map((f) => [f.path, f.severity, isBlocking(f)])).toEqual([['spec.template.spec.containers[0].volumeMounts[0]', 'error', true]]);
    expect(findings[0].message).toMatch(/^container "\S+" mounts volume "host" \(host path \/, the node's root filesystem\) writable at \/host$/);
  });

  test('a read-only mount, or one of a path that is not sensitive, passes', () => {
    // GIVEN / WHEN / THEN
    expect(writable(mounting('/', true))).toEqual([]);
    expect(writable(mounting('/var/log'))).toEqual([]);
  });

  test('a waiver with a reason admits it, reported as waived', () => {
    // GIVEN / WHEN
    const findings = writable(mounting('/etc/cni/net.d', false, { [`${WAIVER_PREFIX}hostpath-writable`]: 'installs the CNI configuration' }));
    // THEN
    expect(findings.map((f) => [f.waived, isBlocking(f)])).toEqual([['installs the CNI configuration', false]]);
  });
});
