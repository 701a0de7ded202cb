/**
 * examples/node-exporter.ts against the default render of
 * prometheus-community/helm-charts charts/prometheus-node-exporter 4.56.1.
 */
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, volumesOf } from './upstream';

const objects = objectsOf('node-exporter');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const exporter = containerOf(ds, 'node-exporter');

describe('examples/node-exporter.ts, as its chart renders it', () => {
  test('runs the chart image with the chart args, listening on every interface of the host network', () => {
    expect(exporter.image).toBe('quay.io/prometheus/node-exporter:v1.12.1');
    expect(exporter.args).toEqual([
      '--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root', '--path.udev.data=/host/root/run/udev/data', '--web.listen-address=[$(HOST_IP)]:9100',
    ]);
    expect(exporter.env).toEqual([{ name: 'HOST_IP', value: '0.0.0.0' }]);
    expect(exporter.ports).toEqual([{ containerPort: 9100, hostPort: 9100, name: 'metrics', protocol: 'TCP' }]);
    expect(pod).toMatchObject({ hostNetwork: true, hostPID: true });
    expect(pod).not.toHaveProperty('hostIPC');
  });

  test('mounts /proc, /sys and / read-only, the root with HostToContainer propagation', () => {
    expect(mountsOf(exporter)).toEqual({
      '/host/proc': { volume: 'proc', readOnly: true },
      '/host/sys': { volume: 'sys', readOnly: true },
      '/host/root': { volume: 'root', readOnly: true, propagation: 'HostToContainer' },
    });
    // Improved: the chart leaves the types unset.
    expect(volumesOf(ds)).toEqual({
      proc: { hostPath: { path: '/proc', type: 'Directory' } },
      sys: { hostPath: { path: '/sys', type: 'Directory' } },
      root: { hostPath: { path: '/', type: 'Directory' } },
    });
  });

  test('runs as nobody with the chart pod security context, and more: drop ALL, no escalation, seccomp', () => {
    expect(pod.securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, fsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } });
    expect(exporter.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });

  test('probes / on the metrics port as the chart does, every 10 s', () => {
    for (const probe of [exporter.livenessProbe, exporter.readinessProbe]) {
      expect(probe).toMatchObject({ httpGet: { path: '/', port: 9100, scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 });
    }
  });

  test('runs on Linux nodes that are not virtual, through every NoSchedule taint but no NoExecute one', () => {
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{ matchExpressions: [
      { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
      { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] },
    ] }]);
    expect(pod.tolerations).toEqual([{ effect: 'NoSchedule', operator: 'Exists' }]);
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'evicting', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } },
      { metadata: { name: 'fargate', labels: { 'kubernetes.io/os': 'linux', 'eks.amazonaws.com/compute-type': 'fargate' } } },
      { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp']);
  });

  test('has the chart Service on 9100, annotated for Prometheus, and a ServiceAccount without a token', () => {
    const service = only(objects, 'Service');
    expect(service.spec).toEqual({ type: 'ClusterIP', ports: [{ name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' }], selector: { app: 'node-exporter' } });
    expect(service.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    expect(pod).toMatchObject({ serviceAccountName: 'node-exporter', automountServiceAccountToken: false });
    expect(objects.filter((o) => /Role/.test(o.kind))).toEqual([]);
  });

  test('rolls one node at a time, keeps 10 revisions, and needs a privileged namespace', () => {
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(ds.spec.template.metadata.annotations).toEqual({ 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true' });
    expect(only(objects, 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });
});
