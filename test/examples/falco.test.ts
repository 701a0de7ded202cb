/**
 * examples/falco.ts against the default render of falcosecurity/charts
 * charts/falco 9.1.0 (driver kind `auto`).
 */
import { parse } from 'yaml';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('falco');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const falco = containerOf(ds, 'falco');
const loader = containerOf(ds, 'falco-driver-loader');

const SOCKETS = ['/var/run/docker.sock', '/run/podman/podman.sock', '/run/host-containerd/containerd.sock', '/run/containerd/containerd.sock', '/run/crio/crio.sock', '/run/k3s/containerd/containerd.sock'];
const FALCOCTL_MOUNTS = {
  '/plugins': { volume: 'plugins-install-dir', readOnly: false },
  '/rulesfiles': { volume: 'rulesfiles-install-dir', readOnly: false },
  '/etc/falcoctl': { volume: 'falcoctl-config-volume', readOnly: true },
  '/artifactstate': { volume: 'artifact-state-dir', readOnly: false },
  // Not in the chart: for falcoctl's read-only root.
  '/tmp': { volume: 'falcoctl-tmp', readOnly: false },
  '/home/nonroot': { volume: 'falcoctl-home', readOnly: false },
};

describe('examples/falco.ts, as its chart renders it', () => {
  test('runs falco and the falcoctl follow sidecar, after the driver loader and falcoctl install, with the chart images and args', () => {
    expect(pod.containers.map((c: { name: string; image: string; args: string[] }) => [c.name, c.image, c.args])).toEqual([
      ['falco', 'docker.io/falcosecurity/falco:0.44.1', ['/usr/bin/falco']],
      ['falcoctl-artifact-follow', 'docker.io/falcosecurity/falcoctl:0.13.0', ['artifact', 'follow', '--log-format=json']],
    ]);
    expect(pod.initContainers.map((c: { name: string; image: string; args: string[] }) => [c.name, c.image, c.args])).toEqual([
      ['falco-driver-loader', 'docker.io/falcosecurity/falco-driver-loader:0.44.1', ['auto']],
      ['falcoctl-artifact-install', 'docker.io/falcosecurity/falcoctl:0.13.0', ['artifact', 'install', '--log-format=json']],
    ]);
  });

  test('gives falco and the loader the chart env; the loader reads the ConfigMap of the pod', () => {
    expect(falco.env).toEqual([
      { name: 'HOST_ROOT', value: '/host' },
      { name: 'FALCO_HOSTNAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'FALCO_K8S_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
    expect(loader.env).toEqual([
      { name: 'HOST_ROOT', value: '/host' },
      { name: 'FALCOCTL_DRIVER_CONFIG_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'FALCOCTL_DRIVER_CONFIG_CONFIGMAP', value: 'falco' },
    ]);
    const configMap = only(objects, 'ConfigMap');
    expect(configMap.metadata.name).toBe('falco');
    expect(parse(configMap.data['falco.yaml'])).toMatchObject({ engine: { kind: 'modern_ebpf' }, webserver: { enabled: true, listen_port: 8765, k8s_healthz_endpoint: '/healthz' }, load_plugins: ['container'] });
    expect(parse(configMap.data['falcoctl.yaml']).artifact.install.refs).toEqual(['falco-rules:5', 'ghcr.io/falcosecurity/plugins/plugin/container:0.7.1']);
    expect(parse(configMap.data['falcoctl.yaml']).artifact.follow.refs).toEqual(['falco-rules:5']);
  });

  test('probes /healthz on 8765 with the chart startup, liveness and readiness timings', () => {
    expect(falco.ports).toEqual([{ containerPort: 8765, name: 'web', protocol: 'TCP' }]);
    const httpGet = { path: '/healthz', port: 8765, scheme: 'HTTP' };
    expect(falco.startupProbe).toEqual({ httpGet, initialDelaySeconds: 3, timeoutSeconds: 5, periodSeconds: 5, failureThreshold: 20 });
    for (const probe of [falco.livenessProbe, falco.readinessProbe]) {
      expect(probe).toEqual({ httpGet, timeoutSeconds: 5, periodSeconds: 15, failureThreshold: 3 });
    }
    expect(falco.resources).toEqual({ requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '1', memory: '1Gi' } });
  });

  test('falco mounts the sockets, its emptyDirs, the host paths and falco.yaml by subPath', () => {
    expect(mountsOf(falco)).toEqual({
      // Improved: read-only (the chart leaves them writable).
      ...Object.fromEntries(SOCKETS.map((s, i) => [`/host${s}`, { volume: `container-engine-socket-${i}`, readOnly: true }])),
      '/etc/falco': { volume: 'rulesfiles-install-dir', readOnly: false },
      '/usr/share/falco/plugins': { volume: 'plugins-install-dir', readOnly: false },
      '/etc/falco/config.d': { volume: 'specialized-falco-configs', readOnly: false },
      '/root/.falco': { volume: 'root-falco-fs', readOnly: false },
      // Improved: read-only (the chart's is writable with the loader on).
      '/host/proc': { volume: 'proc-fs', readOnly: true },
      '/host/etc': { volume: 'etc-fs', readOnly: true },
      '/host/dev': { volume: 'dev-fs', readOnly: true },
      '/sys/module': { volume: 'sys-module-fs', readOnly: false },
      '/sys/kernel': { volume: 'sys-fs', readOnly: true },
      '/etc/falco/falco.yaml': { volume: 'config', readOnly: true, subPath: 'falco.yaml' },
    });
  });

  test('the loader mounts the host paths it builds and loads the driver from, writing only /lib/modules and its emptyDirs', () => {
    expect(mountsOf(loader)).toEqual({
      '/root/.falco': { volume: 'root-falco-fs', readOnly: false },
      '/host/proc': { volume: 'proc-fs', readOnly: true },
      '/host/boot': { volume: 'boot-fs', readOnly: true },
      '/host/lib/modules': { volume: 'lib-modules', readOnly: false },
      '/host/usr': { volume: 'usr-fs', readOnly: true },
      '/host/etc': { volume: 'etc-fs', readOnly: true },
      '/etc/falco/config.d': { volume: 'specialized-falco-configs', readOnly: false },
    });
    expect(mountsOf(containerOf(ds, 'falcoctl-artifact-install'))).toEqual(FALCOCTL_MOUNTS);
    expect(mountsOf(containerOf(ds, 'falcoctl-artifact-follow'))).toEqual(FALCOCTL_MOUNTS);
  });

  test('declares the chart volumes: untyped host paths, emptyDirs and the falcoctl.yaml item', () => {
    const volumes = volumesOf(ds);
    expect(volumes).toEqual({
      ...Object.fromEntries(SOCKETS.map((s, i) => [`container-engine-socket-${i}`, { hostPath: { path: s } }])),
      ...Object.fromEntries(['specialized-falco-configs', 'plugins-install-dir', 'rulesfiles-install-dir', 'artifact-state-dir', 'root-falco-fs', 'falcoctl-tmp', 'falcoctl-home'].map((n) => [n, { emptyDir: {} }])),
      'boot-fs': { hostPath: { path: '/boot' } },
      'lib-modules': { hostPath: { path: '/lib/modules' } },
      'usr-fs': { hostPath: { path: '/usr' } },
      'etc-fs': { hostPath: { path: '/etc' } },
      'dev-fs': { hostPath: { path: '/dev' } },
      'sys-module-fs': { hostPath: { path: '/sys/module' } },
      'sys-fs': { hostPath: { path: '/sys/kernel' } },
      'proc-fs': { hostPath: { path: '/proc' } },
      'falcoctl-config-volume': { configMap: { name: 'falco', items: [{ key: 'falcoctl.yaml', path: 'falcoctl.yaml' }] } },
      config: { configMap: { name: 'falco' } },
    });
  });

  test('falco and the loader are privileged root; falcoctl runs as its image user with every restriction', () => {
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, runAsNonRoot: false, seccompProfile: { type: 'RuntimeDefault' } });
    expect(falco.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true, runAsUser: 0, readOnlyRootFilesystem: true });
    expect(loader.securityContext).toMatchObject({ privileged: true, allowPrivilegeEscalation: true, runAsUser: 0, readOnlyRootFilesystem: false });
    for (const name of ['falcoctl-artifact-install', 'falcoctl-artifact-follow']) {
      const c = containerOf(ds, name);
      // Improved: the chart's securityContext is empty.
      expect(c.securityContext).toEqual({
        runAsUser: 65532, runAsGroup: 65532, runAsNonRoot: true, privileged: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] },
      });
      expect(c.env).toEqual([{ name: 'HOME', value: '/home/nonroot' }]);
    }
    expect(pod).not.toHaveProperty('hostPID');
    expect(pod).not.toHaveProperty('hostNetwork');
  });

  test('has the chart namespaced Role on ConfigMaps, bound to its ServiceAccount, and no ClusterRole', () => {
    expect(rulesOf(objects, 'Role')).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'update'] }]);
    const binding = only(objects, 'RoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'falco' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'falco', namespace: 'falco' }]);
    expect(pod).toMatchObject({ serviceAccountName: 'falco', automountServiceAccountToken: true });
    expect(objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Service')).toEqual([]);
  });

  test('runs on every node, the control planes included, but not through other taints', () => {
    expect(pod.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/master', operator: 'Equal', effect: 'NoSchedule' },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Equal', effect: 'NoSchedule' },
    ]);
    expect(pod).not.toHaveProperty('nodeSelector');
    expect(pod).not.toHaveProperty('affinity');
    expect(pod).not.toHaveProperty('priorityClassName');
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: {} }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'old-master', labels: {} }, spec: { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] } },
      { metadata: { name: 'worker', labels: {} } },
      { metadata: { name: 'gpu', labels: {} }, spec: { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'old-master', 'worker']);
  });

  test('rolls one node at a time, rolls on a config change, and needs a privileged namespace', () => {
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(Object.keys(ds.spec.template.metadata.annotations)).toEqual(['node-reporter.dev/config-sha256']);
    expect(only(objects, 'Namespace').metadata).toMatchObject({ name: 'falco', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
    expect(Object.keys(ds.metadata.annotations).sort()).toEqual([
      'checks.node-reporter.dev/waive-hostpath-writable', 'checks.node-reporter.dev/waive-pss-privilege-escalation', 'checks.node-reporter.dev/waive-pss-privileged', 'checks.node-reporter.dev/waive-pss-run-as-non-root',
      'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
  });
});
