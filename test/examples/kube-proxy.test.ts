/**
 * examples/kube-proxy.ts against the objects kubeadm v1.35 creates for
 * kube-proxy (cmd/kubeadm/app/phases/addons/proxy), which it adopts.
 */
import { Testing } from 'cdk8s';
import { BOOTSTRAP_TOKEN_GROUP, KubeProxyChart } from '../../examples/kube-proxy';
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, volumesOf } from './upstream';

const objects = objectsOf('kube-proxy');
const ds = daemonSetOf(objects);
const proxy = containerOf(ds, 'kube-proxy');
const pod = ds.spec.template.spec;

/** The identity the API server keys an object by. */
const keyOf = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('examples/kube-proxy.ts, as kubeadm deploys it', () => {
  test('has exactly kubeadm\'s objects, by kubeadm\'s names, and no Namespace of kube-system', () => {
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRoleBinding//kubeadm:node-proxier', 'ConfigMap/kube-system/kube-proxy', 'DaemonSet/kube-system/kube-proxy',
      'Role/kube-system/kube-proxy', 'RoleBinding/kube-system/kube-proxy', 'ServiceAccount/kube-system/kube-proxy',
    ]);
  });

  test('selects by kubeadm\'s immutable selector, so an apply over kubeadm\'s DaemonSet is no "field is immutable"', () => {
    expect(ds.spec.selector).toEqual({ matchLabels: { 'k8s-app': 'kube-proxy' } });
    expect(ds.spec.template.metadata.labels['k8s-app']).toBe('kube-proxy');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  });

  test('runs kubeadm\'s command, privileged, on the host network, as root with the image\'s group', () => {
    expect(proxy.image).toBe('registry.k8s.io/kube-proxy:v1.35.6');
    expect(proxy.command).toEqual(['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)']);
    expect(proxy.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    expect(proxy.securityContext).toMatchObject({ privileged: true, runAsUser: 0 });
    expect(proxy.securityContext).not.toHaveProperty('runAsGroup');
    expect(pod).toMatchObject({ hostNetwork: true, priorityClassName: 'system-node-critical', serviceAccountName: 'kube-proxy', nodeSelector: { 'kubernetes.io/os': 'linux' }, tolerations: [{ operator: 'Exists' }] });
    // kubeadm sets no resources: requests only, no limit, waived with a reason.
    expect(proxy.resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' } });
  });

  test('mounts kubeadm\'s ConfigMap, the xtables lock read-write and the kernel modules read-only', () => {
    expect(mountsOf(proxy)).toEqual({
      '/var/lib/kube-proxy': { volume: 'config', readOnly: true },
      '/run/xtables.lock': { volume: 'xtables-lock', readOnly: false },
      '/lib/modules': { volume: 'lib-modules', readOnly: true },
    });
    expect(volumesOf(ds)).toEqual({
      'config': { configMap: { name: 'kube-proxy' } },
      'xtables-lock': { hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
      'lib-modules': { hostPath: { path: '/lib/modules' } },
    });
    const config = only(objects, 'ConfigMap');
    expect(Object.keys(config.data).sort()).toEqual(['config.conf', 'kubeconfig.conf']);
    expect(config.data['config.conf']).toContain('kubeconfig: /var/lib/kube-proxy/kubeconfig.conf');
  });

  test('binds system:node-proxier as kubeadm:node-proxier, and lets the bootstrap tokens\' Group read the ConfigMap, as kubeadm does', () => {
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-proxier' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'kube-proxy', namespace: 'kube-system' }]);
    expect(only(objects, 'Role').rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'], verbs: ['get'] }]);
    expect(only(objects, 'RoleBinding')).toMatchObject({
      roleRef: { kind: 'Role', name: 'kube-proxy' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: BOOTSTRAP_TOKEN_GROUP }],
    });
  });

  test('talks to the API server it is given, by address', () => {
    const config = only(Testing.synth(new KubeProxyChart(Testing.app(), 'kube-proxy', { server: 'https://10.0.0.1:6443', clusterCIDR: '10.1.0.0/16' })), 'ConfigMap');
    expect(config.data['kubeconfig.conf']).toContain('    server: https://10.0.0.1:6443\n');
    expect(config.data['config.conf']).toContain('clusterCIDR: 10.1.0.0/16\n');
  });
});
