/**
 * examples/kured.ts against the default render of kubereboot/charts
 * charts/kured 6.1.0 (`helm template kured ... -n kube-system`).
 */
import { Testing } from 'cdk8s';
import { KuredChart } from '../../examples/kured';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('kured');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const kured = containerOf(ds, 'kured');

describe('examples/kured.ts, as its chart renders it', () => {
  test('runs the chart image and command with the chart args, naming its own DaemonSet and namespace', () => {
    expect(ds.metadata).toMatchObject({ name: 'kured', namespace: 'kube-system' });
    expect(kured.image).toBe('ghcr.io/kubereboot/kured:1.23.0');
    expect(kured.command).toEqual(['/usr/bin/kured']);
    expect(kured.args).toEqual([
      '--ds-name=kured', '--ds-namespace=kube-system', '--metrics-port=8080', '--reboot-sentinel=/sentinel/reboot-required',
      '--reboot-command=/bin/systemctl reboot', '--log-format=text', '--concurrency=1',
    ]);
    expect(kured.env).toEqual([{ name: 'KURED_NODE_ID', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    expect(kured.ports).toEqual([{ containerPort: 8080, name: 'metrics', protocol: 'TCP' }]);
    expect(pod.initContainers).toBeUndefined();
  });

  test('probes /metrics as the chart does: after 10 s, every 30 s, 5 s timeout, 5 failures', () => {
    for (const probe of [kured.livenessProbe, kured.readinessProbe]) {
      expect(probe).toEqual({
        httpGet: { path: '/metrics', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 30, successThreshold: 1, timeoutSeconds: 5, failureThreshold: 5,
      });
    }
  });

  test('sees the host PID 1 as privileged root with a read-only root, and reads the sentinel directory /var/run read-only', () => {
    expect(pod).toMatchObject({ hostPID: true });
    expect(pod).not.toHaveProperty('hostNetwork');
    expect(pod).not.toHaveProperty('hostIPC');
    expect(kured.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true, readOnlyRootFilesystem: true, runAsUser: 0, runAsNonRoot: false });
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } });
    expect(mountsOf(kured)).toEqual({ '/sentinel': { volume: 'sentinel', readOnly: true } });
    expect(volumesOf(ds)).toEqual({ sentinel: { hostPath: { path: '/var/run', type: 'Directory' } } });
  });

  test('may drain and cordon any node, but lock (update, patch) only its own DaemonSet in its own namespace', () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete', 'get'] },
      { apiGroups: ['extensions'], resources: ['daemonsets'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
    ]);
    const role = only(objects, 'Role');
    expect(role.metadata).toMatchObject({ name: 'kured', namespace: 'kube-system' });
    expect(role.rules).toEqual([
      { apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] },
      { apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] },
    ]);
    // The name the lock is checked against is the DaemonSet's.
    expect(role.rules[1].resourceNames).toEqual([ds.metadata.name]);
    const subject = { kind: 'ServiceAccount', name: 'kured', namespace: 'kube-system' };
    expect(only(objects, 'RoleBinding')).toMatchObject({ roleRef: { kind: 'Role', name: 'kured' }, subjects: [subject] });
    expect(only(objects, 'ClusterRoleBinding')).toMatchObject({ roleRef: { kind: 'ClusterRole', name: only(objects, 'ClusterRole').metadata.name }, subjects: [subject] });
    expect(pod).toMatchObject({ serviceAccountName: 'kured', automountServiceAccountToken: true });
  });

  test('runs on Linux nodes, control planes included, but not through other taints', () => {
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.affinity).toBeUndefined();
    expect(pod.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Equal', effect: 'NoSchedule' },
      { key: 'node-role.kubernetes.io/master', operator: 'Equal', effect: 'NoSchedule' },
    ]);
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'worker', labels: { 'kubernetes.io/os': 'linux' } } },
      { metadata: { name: 'gpu', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }] } },
      { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'worker']);
  });

  test('rolls one node at a time, keeps 10 revisions, has no priority class and no Service, and needs a privileged namespace it does not own', () => {
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(pod.priorityClassName).toBeUndefined();
    expect(objects.filter((o) => o.kind === 'Service' || o.kind === 'Namespace')).toEqual([]);
    expect(new KuredChart(Testing.app(), 'kured').kured.podSecurityLevel).toBe('privileged');
    expect(Object.keys(ds.metadata.annotations).filter((k) => k.includes('waive-pss-')).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-host-namespaces', 'checks.node-reporter.dev/waive-pss-privilege-escalation', 'checks.node-reporter.dev/waive-pss-privileged',
      'checks.node-reporter.dev/waive-pss-run-as-non-root', 'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
  });
});
