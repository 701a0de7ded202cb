/**
 * examples/opentelemetry-collector.ts against the render of
 * open-telemetry/opentelemetry-helm-charts charts/opentelemetry-collector
 * 0.158.3 in daemonset mode with the kubeletMetrics, kubernetesAttributes and
 * logsCollection (storeCheckpoints) presets: the DaemonSet, its RBAC and its
 * Service, by the chart's names.
 *
 * A v1.35.6 API server accepted examples/dist/opentelemetry-collector.k8s.yaml whole
 * (`kubectl apply --dry-run=server --validate=strict`, its namespace made
 * first): 7 objects created, none refused.
 */
import { Manifest, only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('opentelemetry-collector');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const collector = containerOf(ds, 'opentelemetry-collector');

/** The identity the API server keys an object by. */
const keyOf = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('examples/opentelemetry-collector.ts, as the chart renders it in daemonset mode with its presets', () => {
  test('has the chart\'s objects by the chart\'s names, in a namespace of its own', () => {
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRole//opentelemetry-collector', 'ClusterRoleBinding//opentelemetry-collector',
      'ConfigMap/opentelemetry/opentelemetry-collector-agent', 'DaemonSet/opentelemetry/opentelemetry-collector',
      'Namespace//opentelemetry', 'Service/opentelemetry/opentelemetry-collector', 'ServiceAccount/opentelemetry/opentelemetry-collector',
    ]);
  });

  test('selects by the chart\'s immutable selector, so an apply over a Helm release is no "field is immutable"', () => {
    const selector = { 'app.kubernetes.io/name': 'opentelemetry-collector', 'app.kubernetes.io/instance': 'opentelemetry-collector', 'component': 'agent-collector' };
    expect(ds.spec.selector).toEqual({ matchLabels: selector });
    expect(ds.spec.template.metadata.labels).toMatchObject(selector);
    expect(pod.serviceAccountName).toBe('opentelemetry-collector');
  });

  test('runs the chart\'s image and config with K8S_NODE_NAME for kubeletstats and k8sattributes', () => {
    expect(collector.image).toBe('otel/opentelemetry-collector-k8s:0.153.0');
    expect(collector.args).toEqual(['--config=/conf/relay.yaml']);
    expect(collector.env).toEqual([
      { name: 'MY_POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'K8S_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
    const relay = only(objects, 'ConfigMap').data.relay;
    expect(relay).toContain('endpoint: ${env:K8S_NODE_NAME}:10250');
    expect(relay).toContain('node_from_env_var: K8S_NODE_NAME');
    expect(volumesOf(ds).config).toEqual({ configMap: { name: 'opentelemetry-collector-agent', items: [{ key: 'relay', path: 'relay.yaml' }] } });
  });

  test('takes OTLP, Jaeger and Zipkin on the node\'s ports, and the Service answers on the sender\'s node', () => {
    expect(collector.ports.map((p: Manifest) => `${p.name}:${p.containerPort}/${p.protocol}:${p.hostPort}`)).toEqual([
      'otlp:4317/TCP:4317', 'otlp-http:4318/TCP:4318', 'jaeger-compact:6831/UDP:6831',
      'jaeger-grpc:14250/TCP:14250', 'jaeger-thrift:14268/TCP:14268', 'zipkin:9411/TCP:9411',
    ]);
    const service = only(objects, 'Service');
    expect(service.spec.internalTrafficPolicy).toBe('Local');
    expect(service.spec.selector).toEqual(ds.spec.selector.matchLabels);
    expect(service.spec.ports.map((p: Manifest) => p.name)).toEqual(['otlp', 'otlp-http', 'jaeger-compact', 'jaeger-grpc', 'jaeger-thrift', 'zipkin']);
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
