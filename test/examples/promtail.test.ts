/**
 * examples/promtail.ts against the default render of grafana/helm-charts
 * charts/promtail 6.17.1.
 */
import { createHash } from 'node:crypto';
import { parse } from 'yaml';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('promtail');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const promtail = containerOf(ds, 'promtail');

/** The chart's pod annotation checksum/config: the sha256 of its promtail.yaml. */
const CHART_CONFIG_CHECKSUM = '2ef0f14afc8ed4b72495a244ef20e42a4bc14afd488033fe94e04c341b97529a';

describe('examples/promtail.ts, as its chart renders it', () => {
  test('runs the chart image with the chart args and env, reading its config from the Secret', () => {
    expect(pod.containers.map((c: { name: string }) => c.name)).toEqual(['promtail']);
    expect(pod.initContainers).toBeUndefined();
    expect(promtail.image).toBe('docker.io/grafana/promtail:3.5.1');
    expect(promtail.args).toEqual(['-config.file=/etc/promtail/promtail.yaml']);
    expect(promtail.env).toEqual([{ name: 'HOSTNAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
    expect(promtail.ports).toEqual([{ containerPort: 3101, name: 'http-metrics', protocol: 'TCP' }]);
  });

  test("keeps the chart's promtail.yaml byte for byte in a Secret of the chart's name, and rolls the pods by its checksum", () => {
    const secret = only(objects, 'Secret');
    expect(secret.metadata.name).toBe('promtail');
    const text = Buffer.from(secret.data['promtail.yaml'], 'base64').toString('utf-8');
    // The chart's checksum is of the text it renders: equal only if every byte is.
    expect(createHash('sha256').update(text).digest('hex')).toBe(CHART_CONFIG_CHECKSUM);
    expect(ds.spec.template.metadata.annotations).toEqual({ 'checksum/config': CHART_CONFIG_CHECKSUM });
    const config = parse(text);
    expect(config.positions).toEqual({ filename: '/run/promtail/positions.yaml' });
    expect(config.server.http_listen_port).toBe(3101);
    expect(config.scrape_configs.map((j: { kubernetes_sd_configs: unknown }) => j.kubernetes_sd_configs)).toEqual([[{ role: 'pod' }]]);
    expect(volumesOf(ds).config).toEqual({ secret: { secretName: 'promtail' } });
    expect(objects.filter((o) => o.kind === 'ConfigMap')).toEqual([]);
  });

  test('probes /ready on the metrics port with the chart timings, and nothing else', () => {
    expect(promtail.readinessProbe).toEqual({
      httpGet: { path: '/ready', port: 3101, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 5,
    });
    expect(promtail).not.toHaveProperty('livenessProbe');
    expect(promtail).not.toHaveProperty('startupProbe');
  });

  test('mounts its positions writable and the logs read-only', () => {
    expect(mountsOf(promtail)).toEqual({
      '/etc/promtail': { volume: 'config', readOnly: true },
      '/run/promtail': { volume: 'run', readOnly: false },
      '/var/lib/docker/containers': { volume: 'containers', readOnly: true },
      '/var/log/pods': { volume: 'pods', readOnly: true },
    });
    expect(volumesOf(ds)).toEqual({
      config: { secret: { secretName: 'promtail' } },
      // Improved: typed where every node has the path or may get it.
      run: { hostPath: { path: '/run/promtail', type: 'DirectoryOrCreate' } },
      containers: { hostPath: { path: '/var/lib/docker/containers' } },
      pods: { hostPath: { path: '/var/log/pods', type: 'Directory' } },
    });
  });

  test('runs as root with the chart container restrictions, and seccomp RuntimeDefault', () => {
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.securityContext).not.toHaveProperty('fsGroup');
    expect(promtail.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, privileged: false });
    expect(promtail.resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } });
    expect(pod).not.toHaveProperty('hostNetwork');
  });

  test('may list and watch pods cluster-wide with its token, and no more (the chart also grants nodes/proxy)', () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] }]);
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'promtail', namespace: 'promtail' }]);
    expect(pod).toMatchObject({ serviceAccountName: 'promtail', automountServiceAccountToken: true });
    expect(objects.filter((o) => o.kind === 'Role' || o.kind === 'Service')).toEqual([]);
  });

  test('runs on every node, the control planes included, through their NoSchedule taints only', () => {
    expect(pod.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(pod).not.toHaveProperty('nodeSelector');
    expect(pod).not.toHaveProperty('affinity');
    expect(pod).not.toHaveProperty('priorityClassName');
    const nodes: KubeNode[] = [
      { metadata: { name: 'cp', labels: {} }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'cp-evicting', labels: {} }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoExecute' }] } },
      { metadata: { name: 'worker', labels: {} } },
      { metadata: { name: 'dedicated', labels: {} }, spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'worker']);
  });

  test('rolls one node at a time and needs a privileged namespace for its host paths', () => {
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(only(objects, 'Namespace').metadata).toMatchObject({ name: 'promtail', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
    expect(Object.keys(ds.metadata.annotations).filter((k) => k.startsWith('checks.')).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-run-as-non-root', 'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
  });
});
