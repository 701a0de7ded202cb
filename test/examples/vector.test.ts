/**
 * examples/vector.ts against the render of vectordotdev/helm-charts
 * charts/vector 0.29.0 in the Agent role (`helm template vector ... -n vector
 * --set role=Agent`, rendered by hand from the chart's templates): the
 * DaemonSet, its RBAC and its two Services, by the chart's names.
 *
 * A v1.35.6 API server accepted examples/dist/vector.k8s.yaml whole
 * (`kubectl apply --dry-run=server --validate=strict`, its namespace made
 * first): 8 objects created, none refused.
 */
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('vector');
const ds = daemonSetOf(objects);
const vector = containerOf(ds, 'vector');

/** The identity the API server keys an object by. */
const keyOf = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('examples/vector.ts, as the chart renders it in the Agent role', () => {
  test('has the chart\'s objects by the chart\'s names, the headless Service beside the other, in a namespace of its own', () => {
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRole//vector', 'ClusterRoleBinding//vector', 'ConfigMap/vector/vector', 'DaemonSet/vector/vector', 'Namespace//vector',
      'Service/vector/vector', 'Service/vector/vector-headless', 'ServiceAccount/vector/vector',
    ]);
  });

  test('selects by the chart\'s immutable selector, and both Services select its pods on the exporter port', () => {
    const selector = { 'app.kubernetes.io/name': 'vector', 'app.kubernetes.io/instance': 'vector', 'app.kubernetes.io/component': 'Agent' };
    expect(ds.spec.selector).toEqual({ matchLabels: selector });
    expect(ds.spec.template.metadata.labels).toMatchObject(selector);
    const services = objects.filter((o) => o.kind === 'Service');
    for (const service of services) {
      expect(service.spec.selector).toEqual(selector);
      expect(service.spec.ports.map((p: Manifest) => `${p.name}:${p.port}`)).toEqual(['prom-exporter:9090']);
    }
    expect(only(objects, 'Service', 'vector-headless').spec.clusterIP).toBe('None');
    expect(only(objects, 'Service', 'vector').spec.clusterIP).toBeUndefined();
  });

  test('labels its pods vector.dev/exclude, as the chart\'s podLabels do, so that it does not ship its own logs', () => {
    expect(ds.spec.template.metadata.labels['vector.dev/exclude']).toBe('true');
    expect(ds.spec.selector.matchLabels).not.toHaveProperty(['vector.dev/exclude']);
  });

  test('gives its pods the chart\'s 60 seconds to stop', () => {
    expect(ds.spec.template.spec.terminationGracePeriodSeconds).toBe(60);
  });

  test('runs the chart\'s image and arguments with its self and host-root variables and log level', () => {
    expect(vector.image).toBe('timberio/vector:0.34.1-distroless-libc');
    expect(vector.args).toEqual(['--config-dir', '/etc/vector/']);
    expect(vector.env).toEqual([
      { name: 'VECTOR_SELF_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'VECTOR_SELF_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'VECTOR_SELF_POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'PROCFS_ROOT', value: '/host/proc' },
      { name: 'SYSFS_ROOT', value: '/host/sys' },
      { name: 'VECTOR_LOG', value: 'info' },
    ]);
    expect(ds.spec.template.spec.serviceAccountName).toBe('vector');
  });

  test('mounts the node\'s logs, /var/lib, /proc and /sys read-only and only its data directory writable', () => {
    expect(mountsOf(vector)).toEqual({
      '/etc/vector/': { volume: 'config', readOnly: true },
      '/vector-data-dir': { volume: 'data', readOnly: false },
      '/var/log/': { volume: 'var-log', readOnly: true },
      '/var/lib': { volume: 'var-lib', readOnly: true },
      '/host/proc': { volume: 'procfs', readOnly: true },
      '/host/sys': { volume: 'sysfs', readOnly: true },
    });
    expect(volumesOf(ds)).toMatchObject({ data: { hostPath: { path: '/var/lib/vector' } }, procfs: { hostPath: { path: '/proc' } } });
    expect(only(objects, 'ConfigMap').data['agent.yaml']).toContain('data_dir: /vector-data-dir\n');
  });

  test('lists and watches pods, namespaces and nodes, no more', () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([{ apiGroups: [''], resources: ['namespaces', 'nodes', 'pods'], verbs: ['list', 'watch'] }]);
  });

  test('is privileged for its host paths and root, waived by name, and its namespace admits it', () => {
    expect(vector.securityContext).toMatchObject({ runAsUser: 0, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(vector.securityContext).not.toHaveProperty('runAsGroup');
    expect(Object.keys(ds.metadata.annotations).filter((k) => k.includes('waive-pss')).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-run-as-non-root', 'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
    expect(only(objects, 'Namespace').metadata).toMatchObject({ name: 'vector', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
  });
});
