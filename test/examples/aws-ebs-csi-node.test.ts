/**
 * examples/aws-ebs-csi-node.ts against the default render of
 * kubernetes-sigs/aws-ebs-csi-driver charts/aws-ebs-csi-driver 2.64.0: its
 * Linux DaemonSet `ebs-csi-node` and its Windows one `ebs-csi-node-windows`.
 */
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('aws-ebs-csi-node');
const linux = daemonSetOf(objects, 'ebs-csi-node');
const windows = daemonSetOf(objects, 'ebs-csi-node-windows');

const PLUGIN = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.64.0';
const REGISTRAR = 'public.ecr.aws/csi-components/csi-node-driver-registrar:v2.17.0-eksbuild.5';
const LIVENESS_PROBE = 'public.ecr.aws/csi-components/livenessprobe:v2.19.0-eksbuild.5';

describe('examples/aws-ebs-csi-node.ts, as its chart renders it', () => {
  test('renders both node DaemonSets into kube-system, without a Namespace object', () => {
    expect(objects.filter((o) => o.kind === 'DaemonSet').map((o) => [o.metadata.name, o.metadata.namespace])).toEqual([
      ['ebs-csi-node', 'kube-system'], ['ebs-csi-node-windows', 'kube-system'],
    ]);
    expect(objects.filter((o) => o.kind === 'Namespace')).toEqual([]);
  });

  test.each([['ebs-csi-node', linux], ['ebs-csi-node-windows', windows]])('%s runs the plugin, the registrar and the liveness probe in the chart order, with its images', (_, ds) => {
    expect(ds.spec.template.spec.containers.map((c: { name: string; image: string }) => [c.name, c.image])).toEqual([
      ['ebs-plugin', PLUGIN], ['node-driver-registrar', REGISTRAR], ['liveness-probe', LIVENESS_PROBE],
    ]);
    expect(ds.spec.template.spec.initContainers).toBeUndefined();
    for (const c of ds.spec.template.spec.containers) {
      expect([c.name, c.imagePullPolicy, c.terminationMessagePolicy]).toEqual([c.name, 'IfNotPresent', 'FallbackToLogsOnError']);
    }
  });

  test('the Linux plugin takes the chart args and env, and the mount point prefix of the kubelet', () => {
    const plugin = containerOf(linux, 'ebs-plugin');
    expect(plugin.args).toEqual([
      'node', '--endpoint=$(CSI_ENDPOINT)', '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/', '--logging-format=text', '--v=2',
    ]);
    expect(plugin.env).toEqual([
      { name: 'CSI_ENDPOINT', value: 'unix:/csi/csi.sock' },
      { name: 'CSI_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
    expect(plugin.lifecycle).toEqual({ preStop: { exec: { command: ['/bin/aws-ebs-csi-driver', 'pre-stop-hook'] } } });
    expect(plugin.resources).toEqual({ requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '256Mi' } });
  });

  test('the Linux registrar and liveness probe take the chart args, env and resources', () => {
    const registrar = containerOf(linux, 'node-driver-registrar');
    expect(registrar.args).toEqual(['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--http-endpoint=0.0.0.0:9809', '--v=2']);
    expect(registrar.env).toEqual([
      { name: 'ADDRESS', value: '/csi/csi.sock' },
      { name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' },
    ]);
    const probe = containerOf(linux, 'liveness-probe');
    expect(probe.args).toEqual(['--csi-address=/csi/csi.sock']);
    expect(probe).not.toHaveProperty('env');
    expect(probe).not.toHaveProperty('ports');
    for (const c of [registrar, probe]) {
      expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '32Mi' } });
    }
  });

  test.each([['ebs-csi-node', linux], ['ebs-csi-node-windows', windows]])('%s probes /healthz of the plugin and the registrar with the chart timings', (_, ds) => {
    const plugin = containerOf(ds, 'ebs-plugin');
    const registrar = containerOf(ds, 'node-driver-registrar');
    expect(plugin.ports).toEqual([{ containerPort: 9808, name: 'healthz', protocol: 'TCP' }]);
    expect(registrar.ports).toEqual([{ containerPort: 9809, name: 'healthz-ndr' }]);
    // The chart names the ports; cdk8s-plus probes take their numbers.
    expect(plugin.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 9808, scheme: 'HTTP' }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, failureThreshold: 5 });
    expect(plugin.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 9808, scheme: 'HTTP' }, timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 3 });
    expect(registrar.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 9809, scheme: 'HTTP' }, initialDelaySeconds: 30, periodSeconds: 90, timeoutSeconds: 15, failureThreshold: 3 });
    expect(registrar).not.toHaveProperty('readinessProbe');
    expect(containerOf(ds, 'liveness-probe')).not.toHaveProperty('livenessProbe');
  });

  test('the Linux plugin mounts the kubelet dir Bidirectional, and every host path is writable, per container', () => {
    expect(mountsOf(containerOf(linux, 'ebs-plugin'))).toEqual({
      '/var/lib/kubelet': { volume: 'kubelet-dir', readOnly: false, propagation: 'Bidirectional' },
      '/csi': { volume: 'plugin-dir', readOnly: false },
      '/dev': { volume: 'device-dir', readOnly: false },
    });
    expect(mountsOf(containerOf(linux, 'node-driver-registrar'))).toEqual({
      '/csi': { volume: 'plugin-dir', readOnly: false },
      '/registration': { volume: 'registration-dir', readOnly: false },
      '/var/lib/kubelet/plugins/ebs.csi.aws.com/': { volume: 'probe-dir', readOnly: false },
    });
    expect(mountsOf(containerOf(linux, 'liveness-probe'))).toEqual({ '/csi': { volume: 'plugin-dir', readOnly: false } });
    expect(volumesOf(linux)).toEqual({
      'kubelet-dir': { hostPath: { path: '/var/lib/kubelet', type: 'Directory' } },
      'plugin-dir': { hostPath: { path: '/var/lib/kubelet/plugins/ebs.csi.aws.com/', type: 'DirectoryOrCreate' } },
      'registration-dir': { hostPath: { path: '/var/lib/kubelet/plugins_registry/', type: 'Directory' } },
      'device-dir': { hostPath: { path: '/dev', type: 'Directory' } },
      'probe-dir': { emptyDir: {} },
    });
  });

  test('the Linux pod runs as root, the plugin privileged, the sidecars without escalation; the library adds drop ALL and seccomp', () => {
    const pod = linux.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod).not.toHaveProperty('hostNetwork');
    expect(pod).not.toHaveProperty('hostPID');
    expect(containerOf(linux, 'ebs-plugin').securityContext).toMatchObject({ privileged: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: true });
    for (const name of ['node-driver-registrar', 'liveness-probe']) {
      // Improved: the chart's sidecars keep their capabilities.
      expect(containerOf(linux, name).securityContext).toMatchObject({ privileged: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    }
  });

  test('the Windows plugin takes the chart args and env, and csi-proxy pipes; no Linux-only field anywhere', () => {
    const pod = windows.spec.template.spec;
    const plugin = containerOf(windows, 'ebs-plugin');
    expect(plugin.args).toEqual(['node', '--endpoint=$(CSI_ENDPOINT)', '--logging-format=text', '--v=2']);
    expect(containerOf(windows, 'node-driver-registrar').env).toEqual([
      { name: 'ADDRESS', value: 'unix:/csi/csi.sock' },
      { name: 'DRIVER_REG_SOCK_PATH', value: 'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com\\csi.sock' },
    ]);
    expect(containerOf(windows, 'liveness-probe').args).toEqual(['--csi-address=unix:/csi/csi.sock']);
    // Improved: the chart leaves spec.os unset, so the API server cannot refuse Linux fields.
    expect(pod.os).toEqual({ name: 'windows' });
    // The library's Windows default is non-root; the chart's containers run as their images' users.
    expect(pod.securityContext).toEqual({ runAsNonRoot: true });
    expect(plugin.securityContext).toEqual({ windowsOptions: { runAsUserName: 'ContainerAdministrator' }, runAsNonRoot: false });
    for (const name of ['node-driver-registrar', 'liveness-probe']) {
      expect(containerOf(windows, name).securityContext).toEqual({ runAsNonRoot: false });
      expect(containerOf(windows, name).resources).toEqual({ requests: { cpu: '10m', memory: '150Mi' }, limits: { memory: '150Mi' } });
    }
    expect(JSON.stringify(pod)).not.toMatch(/Bidirectional|"(privileged|seccompProfile|runAsUser|runAsGroup|capabilities|readOnlyRootFilesystem|allowPrivilegeEscalation|fsGroup|hostPID|hostIPC)"/);
  });

  test('the Windows pod mounts the kubelet dirs writable and the three csi-proxy pipes without a type', () => {
    expect(mountsOf(containerOf(windows, 'ebs-plugin'))).toEqual({
      'C:\\var\\lib\\kubelet': { volume: 'kubelet-dir', readOnly: false, propagation: 'None' },
      'C:\\csi': { volume: 'plugin-dir', readOnly: false },
      '\\\\.\\pipe\\csi-proxy-disk-v1': { volume: 'csi-proxy-disk-pipe', readOnly: false },
      '\\\\.\\pipe\\csi-proxy-volume-v1': { volume: 'csi-proxy-volume-pipe', readOnly: false },
      '\\\\.\\pipe\\csi-proxy-filesystem-v1': { volume: 'csi-proxy-filesystem-pipe', readOnly: false },
    });
    expect(mountsOf(containerOf(windows, 'node-driver-registrar'))).toEqual({
      'C:\\csi': { volume: 'plugin-dir', readOnly: false },
      'C:\\registration': { volume: 'registration-dir', readOnly: false },
      'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com': { volume: 'probe-dir', readOnly: false },
    });
    expect(volumesOf(windows)).toEqual({
      'kubelet-dir': { hostPath: { path: 'C:\\var\\lib\\kubelet', type: 'Directory' } },
      'plugin-dir': { hostPath: { path: 'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com', type: 'DirectoryOrCreate' } },
      'registration-dir': { hostPath: { path: 'C:\\var\\lib\\kubelet\\plugins_registry', type: 'Directory' } },
      'csi-proxy-disk-pipe': { hostPath: { path: '\\\\.\\pipe\\csi-proxy-disk-v1' } },
      'csi-proxy-volume-pipe': { hostPath: { path: '\\\\.\\pipe\\csi-proxy-volume-v1' } },
      'csi-proxy-filesystem-pipe': { hostPath: { path: '\\\\.\\pipe\\csi-proxy-filesystem-v1' } },
      'probe-dir': { emptyDir: {} },
    });
  });

  test('both share one ServiceAccount with a token and the chart ClusterRole rules, bound once', () => {
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['ebs-csi-node-sa']);
    for (const ds of [linux, windows]) {
      expect(ds.spec.template.spec).toMatchObject({ serviceAccountName: 'ebs-csi-node-sa', automountServiceAccountToken: true });
    }
    expect(rulesOf(objects, 'ClusterRole')).toEqual([
      { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['patch', 'list', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['get'] },
    ]);
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: only(objects, 'ClusterRole').metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'ebs-csi-node-sa', namespace: 'kube-system' }]);
    // The chart's names, adopted: this applies over a Helm install in place.
    expect([only(objects, 'ClusterRole').metadata.name, binding.metadata.name]).toEqual(['ebs-csi-node-role', 'ebs-csi-node-getter-binding']);
    expect(objects.filter((o) => o.kind === 'Role' || o.kind === 'Service')).toEqual([]);
  });

  test.each([['ebs-csi-node', linux], ['ebs-csi-node-windows', windows]])('%s is node-critical, tolerates every taint, and rolls 10%% of the nodes at a time', (_, ds) => {
    const pod = ds.spec.template.spec;
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [
      { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate', 'auto', 'hybrid'] },
    ] }] } } });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } });
    expect([ds.spec.revisionHistoryLimit, pod.terminationGracePeriodSeconds]).toEqual([10, 30]);
  });

  test('the Linux plugin goes to every Linux node but EKS-managed ones, tainted or not, the Windows one to Windows nodes', () => {
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'draining', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } },
      { metadata: { name: 'fargate', labels: { 'kubernetes.io/os': 'linux', 'eks.amazonaws.com/compute-type': 'fargate' } } },
      { metadata: { name: 'ec2', labels: { 'kubernetes.io/os': 'linux', 'eks.amazonaws.com/compute-type': 'ec2' } } },
      { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } }, spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] } },
      { metadata: { name: 'win-auto', labels: { 'kubernetes.io/os': 'windows', 'eks.amazonaws.com/compute-type': 'auto' } } },
    ];
    const eligible = (ds: typeof linux) => evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name);
    expect(eligible(linux)).toEqual(['cp', 'draining', 'ec2']);
    expect(eligible(windows)).toEqual(['win']);
  });

  test('each selects only its own pods (the chart gives both the same selector), and both need a privileged namespace', () => {
    expect(linux.spec.selector).toEqual({ matchLabels: { app: 'ebs-csi-node' } });
    expect(windows.spec.selector).toEqual({ matchLabels: { app: 'ebs-csi-node-windows' } });
    expect(Object.keys(linux.metadata.annotations).sort()).toEqual([
      'checks.node-reporter.dev/waive-hostpath-writable', 'checks.node-reporter.dev/waive-pss-privilege-escalation', 'checks.node-reporter.dev/waive-pss-privileged', 'checks.node-reporter.dev/waive-pss-run-as-non-root',
      'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
    // A Windows pod is exempt from the Linux-only controls; its host paths still need "privileged".
    expect(Object.keys(windows.metadata.annotations).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-run-as-non-root', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
  });
});
