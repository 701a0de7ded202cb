/**
 * examples/node-problem-detector.ts against the default render of
 * deliveryhero/helm-charts stable/node-problem-detector 2.4.1
 * (`helm template node-problem-detector ... -n kube-system`).
 */
import { Testing } from 'cdk8s';
import { NodeProblemDetectorChart } from '../../examples/node-problem-detector';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('node-problem-detector');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const npd = containerOf(ds, 'node-problem-detector');

describe('examples/node-problem-detector.ts, as its chart renders it', () => {
  test("runs the chart image with the chart's sh -c command, the image's three monitors and metrics on 20257", () => {
    expect(ds.metadata).toMatchObject({ name: 'node-problem-detector', namespace: 'kube-system' });
    expect(npd.image).toBe('registry.k8s.io/node-problem-detector/node-problem-detector:v1.35.1');
    expect(npd.command).toEqual([
      '/bin/sh', '-c',
      'exec /node-problem-detector --logtostderr --config.system-log-monitor=/config/kernel-monitor.json,/config/docker-monitor.json,/config/readonly-monitor.json  --prometheus-address=0.0.0.0 --prometheus-port=20257 --k8s-exporter-heartbeat-period=5m0s  ',
    ]);
    expect(npd.args).toBeUndefined();
    expect(npd.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    expect(npd.ports).toEqual([{ containerPort: 20257, name: 'exporter', protocol: 'TCP' }]);
    // The chart has no probes, init containers or Service by default.
    expect([npd.livenessProbe, npd.readinessProbe, npd.startupProbe, pod.initContainers]).toEqual([undefined, undefined, undefined, undefined]);
    expect(objects.filter((o) => o.kind === 'Service')).toEqual([]);
  });

  test('is privileged root (for /dev/kmsg and the journal), with a read-only root and no host namespace', () => {
    expect(npd.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true, readOnlyRootFilesystem: true, runAsUser: 0, runAsNonRoot: false });
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod).toMatchObject({ dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
    expect(pod).not.toHaveProperty('hostNetwork');
    expect(pod).not.toHaveProperty('hostPID');
    expect(pod).not.toHaveProperty('hostIPC');
  });

  test('reads /var/log/ and /etc/localtime read-only, and the empty custom config at /custom-config with mode 0755', () => {
    expect(mountsOf(npd)).toEqual({
      '/var/log/': { volume: 'log', readOnly: true },
      '/etc/localtime': { volume: 'localtime', readOnly: true },
      '/custom-config': { volume: 'custom-config', readOnly: true },
    });
    expect(volumesOf(ds)).toEqual({
      // Improved: the chart leaves the type unset.
      'log': { hostPath: { path: '/var/log/', type: 'Directory' } },
      'localtime': { hostPath: { path: '/etc/localtime', type: 'FileOrCreate' } },
      'custom-config': { configMap: { name: 'node-problem-detector-custom-config', defaultMode: 0o755 } },
    });
    const config = only(objects, 'ConfigMap');
    expect(config.metadata).toMatchObject({ name: 'node-problem-detector-custom-config', namespace: 'kube-system' });
    expect(config.data).toBeUndefined();
  });

  test("reports conditions on its node and events with the chart's own ClusterRole", () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
    ]);
    expect(only(objects, 'ClusterRoleBinding')).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: only(objects, 'ClusterRole').metadata.name },
      subjects: [{ kind: 'ServiceAccount', name: 'node-problem-detector', namespace: 'kube-system' }],
    });
    expect(objects.filter((o) => o.kind === 'Role' || o.kind === 'RoleBinding')).toEqual([]);
    expect(pod).toMatchObject({ serviceAccountName: 'node-problem-detector', automountServiceAccountToken: true });
  });

  test('runs on every node through NoSchedule taints, not NoExecute ones, at system-node-critical priority', () => {
    expect(pod.nodeSelector).toBeUndefined();
    expect(pod.affinity).toBeUndefined();
    expect(pod.tolerations).toEqual([{ effect: 'NoSchedule', operator: 'Exists' }]);
    expect(pod.priorityClassName).toBe('system-node-critical');
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'unreachable', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } },
      { metadata: { name: 'worker', labels: { 'kubernetes.io/os': 'linux' } } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'worker']);
  });

  test('rolls one node at a time and needs a privileged namespace it does not own', () => {
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([]);
    expect(new NodeProblemDetectorChart(Testing.app(), 'npd').detector.podSecurityLevel).toBe('privileged');
  });
});
