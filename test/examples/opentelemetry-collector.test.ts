/**
 * examples/opentelemetry-collector.ts against the render of
 * open-telemetry/opentelemetry-helm-charts charts/opentelemetry-collector
 * 0.158.2 in daemonset mode with the kubeletMetrics, kubernetesAttributes and
 * logsCollection (storeCheckpoints) presets, release opentelemetry-collector
 * in namespace opentelemetry (rendered by hand from the chart's templates):
 * the DaemonSet, its RBAC and its config, by the chart's names. The chart
 * renders no Service in daemonset mode by default.
 *
 * A v1.35.6 API server accepted examples/dist/opentelemetry-collector.k8s.yaml whole
 * (`kubectl apply --dry-run=server --validate=strict`, its namespace made
 * first): 6 objects created, none refused.
 */
import * as YAML from 'yaml';
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('opentelemetry-collector');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const collector = containerOf(ds, 'opentelemetry-collector');

/** The identity the API server keys an object by. */
const keyOf = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('examples/opentelemetry-collector.ts, as the chart renders it in daemonset mode with its presets', () => {
  test('has the chart\'s objects by the chart\'s names (the DaemonSet <fullname>-agent), no Service, in a namespace of its own', () => {
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRole//opentelemetry-collector', 'ClusterRoleBinding//opentelemetry-collector',
      'ConfigMap/opentelemetry/opentelemetry-collector-agent', 'DaemonSet/opentelemetry/opentelemetry-collector-agent',
      'Namespace//opentelemetry', 'ServiceAccount/opentelemetry/opentelemetry-collector',
    ]);
  });

  test('selects by the chart\'s immutable selector, so an apply over a Helm release is no "field is immutable"', () => {
    const selector = { 'app.kubernetes.io/name': 'opentelemetry-collector', 'app.kubernetes.io/instance': 'opentelemetry-collector', 'component': 'agent-collector' };
    expect(ds.spec.selector).toEqual({ matchLabels: selector });
    expect(ds.spec.template.metadata.labels).toMatchObject(selector);
    expect(pod.serviceAccountName).toBe('opentelemetry-collector');
  });

  test('runs the chart\'s image and config with the chart\'s downward-API variables', () => {
    expect(collector.image).toBe('otel/opentelemetry-collector-k8s:0.153.0');
    expect(collector.args).toEqual(['--config=/conf/relay.yaml']);
    const field = (fieldPath: string) => ({ valueFrom: { fieldRef: { fieldPath } } });
    expect(collector.env).toEqual([
      { name: 'MY_POD_IP', ...field('status.podIP') },
      { name: 'OTEL_K8S_NODE_NAME', ...field('spec.nodeName') },
      { name: 'OTEL_K8S_NODE_IP', ...field('status.hostIP') },
      { name: 'OTEL_K8S_NAMESPACE', ...field('metadata.namespace') },
      { name: 'OTEL_K8S_POD_NAME', ...field('metadata.name') },
      { name: 'OTEL_K8S_POD_IP', ...field('status.podIP') },
      { name: 'K8S_NODE_NAME', ...field('spec.nodeName') },
      { name: 'K8S_NODE_IP', ...field('status.hostIP') },
    ]);
    expect(volumesOf(ds).config).toEqual({ configMap: { name: 'opentelemetry-collector-agent', items: [{ key: 'relay', path: 'relay.yaml' }] } });
  });

  test('defines every variable its config reads, so that none expands to empty', () => {
    const relay: string = only(objects, 'ConfigMap').data.relay;
    const read = [...new Set([...relay.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)].map((m) => m[1]))].sort();
    expect(read).toEqual(['K8S_NODE_IP', 'MY_POD_IP', 'OTEL_K8S_NAMESPACE', 'OTEL_K8S_NODE_IP', 'OTEL_K8S_NODE_NAME', 'OTEL_K8S_POD_IP', 'OTEL_K8S_POD_NAME']);
    const defined = collector.env.map((e: Manifest) => e.name);
    expect(defined).toEqual(expect.arrayContaining(read));
    // K8S_NODE_NAME is read by k8sattributes by name (filter.node_from_env_var), not as ${env:}.
    expect(YAML.parse(relay).processors.k8sattributes.filter).toEqual({ node_from_env_var: 'K8S_NODE_NAME' });
  });

  test('merges the three presets into the chart\'s default config as the chart does', () => {
    const relay = YAML.parse(only(objects, 'ConfigMap').data.relay);
    expect(Object.keys(relay.receivers).sort()).toEqual(['filelog', 'jaeger', 'kubeletstats', 'otlp', 'prometheus', 'zipkin']);
    expect(relay.receivers.kubeletstats).toEqual({ auth_type: 'serviceAccount', collection_interval: '20s', endpoint: '${env:K8S_NODE_IP}:10250' });
    expect(relay.receivers.filelog.exclude).toEqual(['/var/log/pods/opentelemetry_opentelemetry-collector*_*/opentelemetry-collector/*.log']);
    expect(relay.receivers.filelog.storage).toBe('file_storage');
    expect(relay.service.extensions).toEqual(['health_check', 'file_storage']);
    const pipelines = Object.fromEntries(Object.entries(relay.service.pipelines as Record<string, Manifest>).map(([k, p]) => [k, `${p.receivers.join(',')} > ${p.processors.join(',')} > ${p.exporters.join(',')}`]));
    expect(pipelines).toEqual({
      logs: 'otlp,filelog > k8sattributes,memory_limiter,batch > debug',
      metrics: 'otlp,prometheus,kubeletstats > k8sattributes,memory_limiter,batch > debug',
      traces: 'otlp,jaeger,zipkin > k8sattributes,memory_limiter,batch > debug',
    });
  });

  test('takes OTLP, Jaeger and Zipkin on the node\'s ports, in the chart\'s order', () => {
    expect(collector.ports.map((p: Manifest) => `${p.name}:${p.containerPort}/${p.protocol}:${p.hostPort}`)).toEqual([
      'jaeger-compact:6831/UDP:6831', 'jaeger-grpc:14250/TCP:14250', 'jaeger-thrift:14268/TCP:14268',
      'otlp:4317/TCP:4317', 'otlp-http:4318/TCP:4318', 'zipkin:9411/TCP:9411',
    ]);
  });

  test('reads the pods\' logs read-only and keeps its checkpoints on the node, as root with gid 0 (logsCollection)', () => {
    expect(mountsOf(collector)).toEqual({
      '/conf': { volume: 'config', readOnly: true },
      '/var/log/pods': { volume: 'varlogpods', readOnly: true },
      '/var/lib/docker/containers': { volume: 'varlibdockercontainers', readOnly: true },
      '/var/lib/otelcol': { volume: 'varlibotelcol', readOnly: false },
    });
    expect(volumesOf(ds).varlibotelcol).toEqual({ hostPath: { path: '/var/lib/otelcol', type: 'DirectoryOrCreate' } });
    expect(collector.securityContext).toMatchObject({ runAsUser: 0, runAsGroup: 0, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });

  test('grants the presets\' ClusterRole rules, no more', () => {
    expect(rulesOf(objects, 'ClusterRole')).toEqual([
      { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'watch', 'list'] },
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes/stats'], verbs: ['get', 'watch', 'list'] },
    ]);
    expect(only(objects, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'opentelemetry-collector', namespace: 'opentelemetry' }]);
  });

  test('is privileged for its host paths, host ports and root, waived by name, and its namespace admits it', () => {
    expect(Object.keys(ds.metadata.annotations).filter((k) => k.includes('waive-pss')).sort()).toEqual([
      'checks.node-reporter.dev/waive-pss-host-ports', 'checks.node-reporter.dev/waive-pss-run-as-non-root',
      'checks.node-reporter.dev/waive-pss-run-as-user', 'checks.node-reporter.dev/waive-pss-volume-types',
    ]);
    expect(only(objects, 'Namespace').metadata).toMatchObject({ name: 'opentelemetry', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
  });
});
