/**
 * examples/calico-node.ts against projectcalico/calico manifests/calico.yaml
 * at v3.32.0 (e2e/upstream/PROVENANCE.md): the calico-node DaemonSet and the objects it needs, which
 * it adopts by calico.yaml's names.
 *
 * A v1.35.6 API server accepted examples/dist/calico-node.k8s.yaml whole
 * (`kubectl apply --dry-run=server --validate=strict`, its namespace made
 * first): 10 objects created, none refused.
 */
import * as path from 'node:path';
import { readManifest } from '../../e2e/manifests';
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('calico-node');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const node = containerOf(ds, 'calico-node');

/** The identity the API server keys an object by. */
const keyOf = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const servicesEndpoint = { configMapRef: { name: 'kubernetes-services-endpoint', optional: true } };

/** calico.yaml v3.32.0's own objects, as committed verbatim for the adoption e2e. */
const upstream = readManifest(path.join(__dirname, '..', '..', 'e2e', 'upstream', 'calico-v3.32.0.yaml'));
/** A rule with its lists in one order, to compare rules as sets. */
const normalRule = (r: Manifest) => JSON.stringify([r.apiGroups, [...r.resources].sort(), r.resourceNames ?? [], [...r.verbs].sort()]);

describe('examples/calico-node.ts, as calico.yaml deploys it', () => {
  test.each(['calico-node', 'calico-cni-plugin', 'calico-tier-getter'])('grants ClusterRole %s exactly calico.yaml v3.32.0\'s rules', (name) => {
    expect(rulesOf(objects, 'ClusterRole', name).map(normalRule).sort()).toEqual(rulesOf(upstream, 'ClusterRole', name).map(normalRule).sort());
  });

  test('runs calico.yaml v3.32.0\'s images and commands, container for container, with its ConfigMap data', () => {
    const pick = (d: Manifest) => [...d.spec.template.spec.initContainers, ...d.spec.template.spec.containers].map((c: Manifest) => ({ name: c.name, image: c.image, command: c.command }));
    expect(pick(ds)).toEqual(pick(daemonSetOf(upstream)));
    expect(only(objects, 'ConfigMap').data).toEqual(only(upstream, 'ConfigMap', 'calico-config').data);
  });

  test('has calico.yaml\'s objects of calico-node, by its names, and no Namespace of kube-system', () => {
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRole//calico-cni-plugin', 'ClusterRole//calico-node', 'ClusterRole//calico-tier-getter',
      'ClusterRoleBinding//calico-cni-plugin', 'ClusterRoleBinding//calico-node', 'ClusterRoleBinding//calico-tier-getter',
      'ConfigMap/kube-system/calico-config', 'DaemonSet/kube-system/calico-node',
      'ServiceAccount/kube-system/calico-cni-plugin', 'ServiceAccount/kube-system/calico-node',
    ]);
  });

  test('selects by calico.yaml\'s immutable selector and rolls one node at a time', () => {
    expect(ds.spec.selector).toEqual({ matchLabels: { 'k8s-app': 'calico-node' } });
    expect(ds.spec.template.metadata.labels['k8s-app']).toBe('calico-node');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(pod).toMatchObject({ hostNetwork: true, serviceAccountName: 'calico-node', priorityClassName: 'system-node-critical', terminationGracePeriodSeconds: 0, nodeSelector: { 'kubernetes.io/os': 'linux' } });
    expect(pod.tolerations).toEqual([{ effect: 'NoSchedule', operator: 'Exists' }, { key: 'CriticalAddonsOnly', operator: 'Exists' }, { effect: 'NoExecute', operator: 'Exists' }]);
  });

  test('runs calico.yaml\'s three init containers in order and calico-node, each privileged with the optional eBPF endpoint override', () => {
    expect(pod.initContainers.map((c: Manifest) => c.name)).toEqual(['upgrade-ipam', 'install-cni', 'ebpf-bootstrap']);
    for (const name of ['upgrade-ipam', 'install-cni', 'calico-node']) {
      expect(containerOf(ds, name).envFrom).toEqual([servicesEndpoint]);
    }
    for (const name of ['upgrade-ipam', 'install-cni', 'ebpf-bootstrap', 'calico-node']) {
      expect(containerOf(ds, name).securityContext).toMatchObject({ privileged: true });
    }
    expect(mountsOf(containerOf(ds, 'ebpf-bootstrap'))).toMatchObject({
      '/sys/fs': { volume: 'sys-fs', readOnly: false, propagation: 'Bidirectional' },
      '/var/run/calico': { volume: 'var-run-calico', readOnly: false, propagation: 'Bidirectional' },
      '/nodeproc': { volume: 'nodeproc', readOnly: true },
    });
  });

  test('reads its settings from calico-config by key, as calico.yaml does', () => {
    const env = Object.fromEntries(node.env.map((e: Manifest) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({
      DATASTORE_TYPE: 'kubernetes', CLUSTER_TYPE: 'k8s,bgp', CALICO_IPV4POOL_IPIP: 'Always', FELIX_HEALTHENABLED: 'true',
      NODENAME: { fieldRef: { fieldPath: 'spec.nodeName' } },
      CALICO_NETWORKING_BACKEND: { configMapKeyRef: { name: 'calico-config', key: 'calico_backend' } },
      FELIX_IPINIPMTU: { configMapKeyRef: { name: 'calico-config', key: 'veth_mtu' } },
    });
    expect(only(objects, 'ConfigMap').data).toMatchObject({ typha_service_name: 'none', calico_backend: 'bird', veth_mtu: '0' });
    expect(JSON.parse(only(objects, 'ConfigMap').data.cni_network_config.replace('__CNI_MTU__', '0')).plugins.map((p: Manifest) => p.type)).toEqual(['calico', 'portmap']);
  });

  test('mounts the node\'s CNI, Calico and BPF directories as calico.yaml does, the modules and CNI logs read-only', () => {
    expect(mountsOf(node)).toMatchObject({
      '/host/etc/cni/net.d': { volume: 'cni-net-dir', readOnly: false },
      '/lib/modules': { volume: 'lib-modules', readOnly: true },
      '/run/xtables.lock': { volume: 'xtables-lock', readOnly: false },
      '/var/lib/calico': { volume: 'var-lib-calico', readOnly: false },
      '/sys/fs/bpf': { volume: 'bpffs', readOnly: false },
      '/var/log/calico/cni': { volume: 'cni-log-dir', readOnly: true },
    });
    expect(volumesOf(ds)).toMatchObject({
      'bpffs': { hostPath: { path: '/sys/fs/bpf', type: 'Directory' } },
      'xtables-lock': { hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
      'cni-bin-dir': { hostPath: { path: '/opt/cni/bin', type: 'DirectoryOrCreate' } },
    });
    expect(node.resources).toEqual({ requests: { cpu: '250m', memory: '16Mi' } });
  });

  test('gives calico-cni-plugin its own ClusterRole, lets calico-node mint only its token, and binds the tier getter to the controller manager', () => {
    expect(rulesOf(objects, 'ClusterRole', 'calico-node')[0]).toEqual({ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['calico-cni-plugin'], verbs: ['create'] });
    expect(rulesOf(objects, 'ClusterRole', 'calico-cni-plugin')).toHaveLength(3);
    expect(only(objects, 'ClusterRoleBinding', 'calico-cni-plugin').subjects).toEqual([{ kind: 'ServiceAccount', name: 'calico-cni-plugin', namespace: 'kube-system' }]);
    expect(only(objects, 'ClusterRoleBinding', 'calico-tier-getter')).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'calico-tier-getter' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-controller-manager' }],
    });
  });

  test("is privileged by name with a reason, and no waiver beyond Pod Security's and its writable host paths'", () => {
    expect(Object.keys(ds.metadata.annotations).filter((k) => k.startsWith('checks.node-reporter.dev/')).sort()).toEqual([
      'checks.node-reporter.dev/waive-hostpath-writable', 'checks.node-reporter.dev/waive-pss-host-namespaces', 'checks.node-reporter.dev/waive-pss-privilege-escalation', 'checks.node-reporter.dev/waive-pss-privileged',
      'checks.node-reporter.dev/waive-pss-run-as-non-root', 'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types', 'checks.node-reporter.dev/waive-resources',
    ]);
  });
});
