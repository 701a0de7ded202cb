/**
 * examples/nvidia-device-plugin.ts against the default render of
 * NVIDIA/k8s-device-plugin deployments/helm/nvidia-device-plugin 0.20.0
 * (`helm template nvidia-device-plugin ... -n nvidia-device-plugin`).
 */
import { Testing } from 'cdk8s';
import { NvidiaDevicePluginChart } from '../../examples/nvidia-device-plugin';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, volumesOf } from './upstream';

const objects = objectsOf('nvidia-device-plugin');
const plugin = daemonSetOf(objects, 'nvidia-device-plugin');
const mps = daemonSetOf(objects, 'nvidia-device-plugin-mps-control-daemon');
const ctr = containerOf(plugin, 'nvidia-device-plugin-ctr');
const image = 'nvcr.io/nvidia/k8s-device-plugin:v0.20.0';

const gpuTerms = [
  { matchExpressions: [{ key: 'feature.node.kubernetes.io/pci-10de.present', operator: 'In', values: ['true'] }] },
  { matchExpressions: [{ key: 'feature.node.kubernetes.io/cpu-model.vendor_id', operator: 'In', values: ['NVIDIA'] }] },
  { matchExpressions: [{ key: 'nvidia.com/gpu.present', operator: 'In', values: ['true'] }] },
];

const nodes: KubeNode[] = [
  { metadata: { name: 'nfd-pci', labels: { 'feature.node.kubernetes.io/pci-10de.present': 'true' } }, spec: { taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }] } },
  { metadata: { name: 'gfd', labels: { 'nvidia.com/gpu.present': 'true' } }, spec: { taints: [{ key: 'CriticalAddonsOnly', effect: 'NoExecute' }] } },
  { metadata: { name: 'mps', labels: { 'nvidia.com/gpu.present': 'true', 'nvidia.com/mps.capable': 'true' } } },
  { metadata: { name: 'gpu-evicting', labels: { 'nvidia.com/gpu.present': 'true' } }, spec: { taints: [{ key: 'nvidia.com/gpu', effect: 'NoExecute' }] } },
  { metadata: { name: 'cpu-only', labels: { 'kubernetes.io/os': 'linux' } } },
];

function eligible(ds: typeof plugin): string[] {
  return evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name);
}

describe('examples/nvidia-device-plugin.ts: the plugin, as its chart renders it', () => {
  test('runs the chart image and command with the MPS root and every GPU visible', () => {
    expect(plugin.metadata).toMatchObject({ namespace: 'nvidia-device-plugin' });
    expect(ctr.image).toBe(image);
    expect(ctr.command).toEqual(['nvidia-device-plugin']);
    expect(ctr.args).toBeUndefined();
    expect(ctr.env).toEqual([
      { name: 'MPS_ROOT', value: '/run/nvidia/mps' },
      { name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' },
      { name: 'NVIDIA_DRIVER_CAPABILITIES', value: 'compute,utility' },
    ]);
    // The chart has no ports, probes or init containers by default.
    expect([ctr.ports, ctr.livenessProbe, ctr.readinessProbe, plugin.spec.template.spec.initContainers]).toEqual([undefined, undefined, undefined, undefined]);
  });

  test("writes the kubelet's device-plugins directory (which must exist), the MPS and CDI directories", () => {
    expect(mountsOf(ctr)).toEqual({
      '/var/lib/kubelet/device-plugins': { volume: 'kubelet-device-plugins-dir', readOnly: false },
      '/dev/shm': { volume: 'mps-shm', readOnly: false },
      '/mps': { volume: 'mps-root', readOnly: false },
      '/var/run/cdi': { volume: 'cdi-root', readOnly: false },
    });
    expect(volumesOf(plugin)).toEqual({
      'kubelet-device-plugins-dir': { hostPath: { path: '/var/lib/kubelet/device-plugins', type: 'Directory' } },
      'mps-root': { hostPath: { path: '/run/nvidia/mps', type: 'DirectoryOrCreate' } },
      'mps-shm': { hostPath: { path: '/run/nvidia/mps/shm' } },
      'cdi-root': { hostPath: { path: '/var/run/cdi', type: 'DirectoryOrCreate' } },
    });
  });

  test("keeps the chart's no escalation and drop ALL, as root, and adds seccomp and a read-only root", () => {
    expect(ctr.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true, runAsUser: 0 });
    expect(ctr.securityContext.capabilities.add).toBeUndefined();
    expect(plugin.spec.template.spec.securityContext).toMatchObject({ runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } });
    expect(plugin.spec.template.spec).not.toHaveProperty('hostPID');
  });

  test("runs on nodes labelled a GPU node in any of the chart's three ways, through its tolerations", () => {
    const spec = plugin.spec.template.spec;
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual(gpuTerms);
    expect(spec.nodeSelector).toBeUndefined();
    expect(spec.tolerations).toEqual([
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(spec.priorityClassName).toBe('system-node-critical');
    expect(eligible(plugin)).toEqual(['nfd-pci', 'gfd', 'mps']);
  });

  test('has no API token (improved: no default container uses the API) and rolls one node at a time', () => {
    expect(plugin.spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(plugin.spec.template.spec.serviceAccountName).toBeUndefined();
    expect(objects.filter((o) => /ServiceAccount|Role/.test(o.kind))).toEqual([]);
    expect(plugin.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  });
});

describe('examples/nvidia-device-plugin.ts: the MPS control daemon the chart renders beside it', () => {
  const init = containerOf(mps, 'mps-control-daemon-mounts');
  const daemon = containerOf(mps, 'mps-control-daemon-ctr');

  test('mounts the shared-memory tmpfs on the host from a privileged init container with Bidirectional propagation', () => {
    expect(mps.spec.template.spec.initContainers.map((c: { name: string }) => c.name)).toEqual(['mps-control-daemon-mounts']);
    expect(init).toMatchObject({ image, command: ['mps-control-daemon', 'mount-shm'] });
    expect(init.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true });
    expect(mountsOf(init)).toEqual({ '/mps': { volume: 'mps-root', readOnly: false, propagation: 'Bidirectional' } });
  });

  test('runs the daemon privileged in the host PID namespace, with the shared memory and MPS root writable', () => {
    expect(daemon).toMatchObject({ image, command: ['mps-control-daemon'] });
    expect(daemon.env).toEqual([
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'NVIDIA_VISIBLE_DEVICES', value: 'all' },
      { name: 'NVIDIA_DRIVER_CAPABILITIES', value: 'compute,utility' },
    ]);
    expect(daemon.securityContext).toMatchObject({ privileged: true, runAsUser: 0 });
    expect(mountsOf(daemon)).toEqual({ '/dev/shm': { volume: 'mps-shm', readOnly: false }, '/mps': { volume: 'mps-root', readOnly: false } });
    expect(volumesOf(mps)).toEqual({
      'mps-root': { hostPath: { path: '/run/nvidia/mps', type: 'DirectoryOrCreate' } },
      'mps-shm': { hostPath: { path: '/run/nvidia/mps/shm' } },
    });
    expect(mps.spec.template.spec).toMatchObject({ hostPID: true, priorityClassName: 'system-node-critical' });
  });

  test('runs only on GPU nodes labelled MPS-capable, and selects its own pods, not the plugin\'s (improved)', () => {
    const spec = mps.spec.template.spec;
    expect(spec.nodeSelector).toEqual({ 'nvidia.com/mps.capable': 'true' });
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual(gpuTerms);
    expect(spec.tolerations).toEqual(plugin.spec.template.spec.tolerations);
    expect(eligible(mps)).toEqual(['mps']);
    expect(mps.spec.selector).not.toEqual(plugin.spec.selector);
  });
});

describe('examples/nvidia-device-plugin.ts: the namespace', () => {
  test('enforces privileged, the level both agents need', () => {
    const chart = new NvidiaDevicePluginChart(Testing.app(), 'nvidia');
    expect([chart.plugin.podSecurityLevel, chart.mpsControlDaemon.podSecurityLevel]).toEqual(['privileged', 'privileged']);
    expect(only(objects, 'Namespace').metadata).toMatchObject({ name: 'nvidia-device-plugin', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
  });
});
