/**
 * examples/node-inventory.ts, the project's own busybox agent (no upstream
 * chart): what the e2e runs on the node, rolls and prunes.
 */
import { spawnSync } from 'node:child_process';
import { Testing } from 'cdk8s';
import { NodeInventoryChart, NodeInventoryChartProps } from '../../examples/node-inventory';
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('node-inventory');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const prepare = containerOf(ds, 'prepare');
const inventory = containerOf(ds, 'inventory');

function synthWith(props: NodeInventoryChartProps): Manifest[] {
  return Testing.synth(new NodeInventoryChart(Testing.app(), 'node-inventory', props));
}

function names(manifests: Manifest[]): string[] {
  return manifests.map((o) => `${o.kind}/${o.metadata.name}`);
}

const CHECKSUM = 'node-reporter.dev/config-sha256';

describe('examples/node-inventory.ts', () => {
  test('runs only busybox:1.36, the one image besides pause that the e2e node has', () => {
    expect(pod.initContainers.map((c: Manifest) => c.name)).toEqual(['prepare']);
    expect(pod.containers.map((c: Manifest) => c.name)).toEqual(['inventory']);
    expect([prepare.image, inventory.image]).toEqual(['busybox:1.36', 'busybox:1.36']);
  });

  test('prepares the host directory as root with CHOWN alone, and hands it to nobody', () => {
    // GIVEN the host path the kubelet creates when it is missing
    expect(volumesOf(ds).data).toEqual({ hostPath: { path: '/var/lib/node-inventory', type: 'DirectoryOrCreate' } });

    // THEN the init container changes its owner, as root with every capability dropped but CHOWN
    expect(prepare.command).toEqual(['sh', '-c', 'chown 65534:65534 /data']);
    expect(prepare.securityContext).toEqual({
      runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, privileged: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['CHOWN'] },
    });
    expect(mountsOf(prepare)['/data']).toEqual({ volume: 'data', readOnly: false });
  });

  test("puts the end of a failed container's log into its status, so that the reason shows without its log", () => {
    expect([prepare.terminationMessagePolicy, inventory.terminationMessagePolicy]).toEqual(['FallbackToLogsOnError', 'FallbackToLogsOnError']);
  });

  test('writes the inventory into the host directory as nobody, without any capability', () => {
    expect(inventory.securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(inventory.securityContext.capabilities.add).toBeUndefined();
    expect(mountsOf(inventory)).toEqual({
      '/data': { volume: 'data', readOnly: false },
      '/etc/node-inventory': { volume: 'config', readOnly: true },
    });
    expect(inventory.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    // Ready once the first inventory is there.
    expect(inventory.readinessProbe).toMatchObject({ exec: { command: ['test', '-s', '/data/node.txt'] }, periodSeconds: 2 });
  });

  test("the main container's script is valid sh, sources the config and stops on SIGTERM", () => {
    const [shell, flag, script] = inventory.command;
    expect([shell, flag]).toEqual(['sh', '-c']);
    // WHEN sh parses it without running it
    const parsed = spawnSync('sh', ['-n', '-c', script], { encoding: 'utf-8' });

    // THEN
    expect([parsed.status, parsed.stderr]).toEqual([0, '']);
    expect(script).toContain('. /etc/node-inventory/inventory.conf');
    expect(script).toContain("trap 'exit 0' TERM");
    expect(script).toContain('mv /data/node.txt.tmp /data/node.txt');
    expect(pod.terminationGracePeriodSeconds).toBe(5);
  });

  test('its config is a ConfigMap whose checksum on the pod template changes with the config, and only then', () => {
    // GIVEN
    const configMap = only(objects, 'ConfigMap');
    expect(configMap.metadata).toMatchObject({ name: 'node-agent-node-inventory', namespace: 'node-inventory' });
    expect(configMap.data['inventory.conf']).toMatch(/^INTERVAL=\d+$/m);

    // WHEN synthesized with another config, and again with the default
    const changed = daemonSetOf(synthWith({ config: 'INTERVAL=5\nPROC_FILES="loadavg"\n' }));
    const again = daemonSetOf(synthWith({}));

    // THEN only the checksum annotation of the pod template differs
    expect(changed.spec.template.metadata.annotations[CHECKSUM]).toMatch(/^[0-9a-f]{64}$/);
    expect(changed.spec.template.metadata.annotations[CHECKSUM]).not.toBe(ds.spec.template.metadata.annotations[CHECKSUM]);
    expect({ ...changed.spec.template, metadata: undefined }).toEqual({ ...ds.spec.template, metadata: undefined });
    expect(again).toEqual(ds);
  });

  test('reads nodes and the non-resource URL /metrics cluster-wide, and everything `view` grants', () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
    ]);
    const subjects = [{ kind: 'ServiceAccount', name: 'node-agent-node-inventory', namespace: 'node-inventory' }];
    const bindings = objects.filter((o) => o.kind === 'ClusterRoleBinding');
    expect(bindings.map((b) => [b.metadata.name, b.roleRef.name, b.subjects])).toEqual([
      ['node-agent:node-inventory:node-inventory', 'node-agent:node-inventory:node-inventory', subjects],
      // An existing ClusterRole, which the manifest does not hold.
      ['node-agent:node-inventory:node-inventory:view', 'view', subjects],
    ]);
    expect(objects.filter((o) => o.kind === 'ClusterRole' && o.metadata.name === 'view')).toEqual([]);
  });

  test('may update and patch its own DaemonSet only (the lock), in its own namespace', () => {
    const role = only(objects, 'Role');
    expect(role.metadata).toMatchObject({ name: 'node-agent:node-inventory', namespace: 'node-inventory' });
    expect(role.rules).toEqual([{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['node-inventory'], verbs: ['update', 'patch'] }]);
    expect(role.rules[0].resourceNames).toEqual([ds.metadata.name]);
    expect(only(objects, 'RoleBinding')).toMatchObject({
      metadata: { namespace: 'node-inventory' },
      roleRef: { kind: 'Role', name: 'node-agent:node-inventory' },
      subjects: [{ kind: 'ServiceAccount', name: 'node-agent-node-inventory', namespace: 'node-inventory' }],
    });
  });

  test('mounts no API token: the shell never calls the API server', () => {
    expect(pod).toMatchObject({ serviceAccountName: 'node-agent-node-inventory', automountServiceAccountToken: false });
  });

  test('without workloads and the lock, a later version drops exactly the view binding, the Role and its RoleBinding', () => {
    // WHEN
    const smaller = synthWith({ workloads: false, lock: false });

    // THEN
    expect(names(objects).filter((n) => !names(smaller).includes(n))).toEqual([
      'Role/node-agent:node-inventory', 'RoleBinding/node-agent:node-inventory', 'ClusterRoleBinding/node-agent:node-inventory:node-inventory:view',
    ]);
    expect(names(smaller).filter((n) => !names(objects).includes(n))).toEqual([]);
    const dropped = (props: NodeInventoryChartProps) => names(objects).filter((n) => !names(synthWith(props)).includes(n));
    expect(dropped({ workloads: false })).toEqual(['ClusterRoleBinding/node-agent:node-inventory:node-inventory:view']);
    expect(dropped({ lock: false })).toEqual(['Role/node-agent:node-inventory', 'RoleBinding/node-agent:node-inventory']);
    expect(daemonSetOf(smaller)).toEqual(ds);
  });

  test('lives in a namespace of its own, which enforces the level it needs: privileged, for the host path', () => {
    const namespace = only(objects, 'Namespace');
    expect(namespace.metadata.name).toBe('node-inventory');
    expect(namespace.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
    expect(new Set(objects.filter((o) => o.kind !== 'Namespace' && !/^Cluster/.test(o.kind)).map((o) => o.metadata.namespace))).toEqual(new Set(['node-inventory']));
    expect(Object.keys(ds.metadata.annotations).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-capabilities', 'checks.node-reporter.dev/waive-pss-run-as-non-root',
      'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
  });

  test('carries its own version, not busybox\'s tag, in the recommended labels', () => {
    expect(ds.metadata.labels).toMatchObject({ 'app.kubernetes.io/name': 'node-inventory', 'app.kubernetes.io/instance': 'node-inventory', 'app.kubernetes.io/version': '0.1.0', 'app.kubernetes.io/component': 'inventory' });
  });
});
