// The OpenTelemetry Collector as its official chart deploys it in daemonset
// mode with the kubeletMetrics, kubernetesAttributes and logsCollection
// presets (open-telemetry/opentelemetry-helm-charts
// charts/opentelemetry-collector 0.158.3, app 0.153.0; `helm template
// opentelemetry-collector ... -n opentelemetry --set mode=daemonset --set
// image.repository=otel/opentelemetry-collector-k8s --set
// presets.kubeletMetrics.enabled=true --set
// presets.kubernetesAttributes.enabled=true --set
// presets.logsCollection.enabled=true --set
// presets.logsCollection.storeCheckpoints=true`), built with props alone.
// Where it differs from the chart, the library's defaults improve on it, and a
// comment says so.
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

/** The collector's image tag (the chart's appVersion). */
export const OTEL_COLLECTOR_VERSION = '0.153.0';

/**
 * The relay.yaml the chart renders with the three presets: the filelog
 * receiver on /var/log/pods (checkpoints in /var/lib/otelcol), the
 * kubeletstats receiver on the node's kubelet, and the k8sattributes
 * processor filtered to the node, beside the chart's default OTLP receiver
 * and debug exporter.
 */
export const RELAY_YAML = `exporters:
  debug: {}
extensions:
  file_storage:
    directory: /var/lib/otelcol
  health_check:
    endpoint: \${env:MY_POD_IP}:13133
processors:
  batch: {}
  k8sattributes:
    extract:
      metadata:
      - k8s.namespace.name
      - k8s.deployment.name
      - k8s.statefulset.name
      - k8s.daemonset.name
      - k8s.cronjob.name
      - k8s.job.name
      - k8s.node.name
      - k8s.pod.name
      - k8s.pod.uid
      - k8s.pod.start_time
    filter:
      node_from_env_var: K8S_NODE_NAME
    passthrough: false
    pod_association:
    - sources:
      - from: resource_attribute
        name: k8s.pod.ip
    - sources:
      - from: resource_attribute
        name: k8s.pod.uid
    - sources:
      - from: connection
  memory_limiter:
    check_interval: 5s
    limit_percentage: 80
    spike_limit_percentage: 25
receivers:
  filelog:
    exclude:
    - /var/log/pods/opentelemetry_opentelemetry-collector*_*/opentelemetry-collector/*.log
    include:
    - /var/log/pods/*/*/*.log
    include_file_name: false
    include_file_path: true
    operators:
    - id: container-parser
      max_log_size: 102400
      type: container
    retry_on_failure:
      enabled: true
    start_at: end
    storage: file_storage
  kubeletstats:
    auth_type: serviceAccount
    collection_interval: 20s
    endpoint: \${env:K8S_NODE_NAME}:10250
  otlp:
    protocols:
      grpc:
        endpoint: \${env:MY_POD_IP}:4317
      http:
        endpoint: \${env:MY_POD_IP}:4318
service:
  extensions:
  - health_check
  - file_storage
  pipelines:
    logs:
      exporters:
      - debug
      processors:
      - k8sattributes
      - memory_limiter
      - batch
      receivers:
      - otlp
      - filelog
    metrics:
      exporters:
      - debug
      processors:
      - k8sattributes
      - memory_limiter
      - batch
      receivers:
      - otlp
      - kubeletstats
    traces:
      exporters:
      - debug
      processors:
      - k8sattributes
      - memory_limiter
      - batch
      receivers:
      - otlp
  telemetry:
    metrics:
      readers:
      - pull:
          exporter:
            prometheus:
              host: \${env:MY_POD_IP}
              port: 8888
`;

/** The namespace `opentelemetry` with the collector on every node without a taint. */
export class OpenTelemetryCollectorChart extends Chart {
  /** The collector. */
  public readonly collector: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'opentelemetry' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'opentelemetry' });

    // The chart sets no nodeSelector, affinity or tolerations.
    const everyNode = new NodePolicy(this, 'EveryNode');

    // The chart's receiver ports, each on the node's address too (its
    // daemonset mode sets their hostPort): applications send to their node.
    const port = (name: string, number: number, protocol = kplus.Protocol.TCP) => ({ name, number, protocol, hostPort: number });
    this.collector = new NodeAgent(this, 'Collector', {
      policy: everyNode,
      name: 'opentelemetry-collector',
      component: 'agent-collector',
      // The chart's immutable selector and names, so that the library's apply
      // over a Helm release of the chart is \`configured\`, no "field is
      // immutable" (README: "Taking over an existing install").
      adopt: {
        selector: {
          'app.kubernetes.io/name': 'opentelemetry-collector',
          'app.kubernetes.io/instance': 'opentelemetry-collector',
          'component': 'agent-collector',
        },
        serviceAccountName: 'opentelemetry-collector',
        configMapName: 'opentelemetry-collector-agent',
        rbacNames: { clusterRole: 'opentelemetry-collector', clusterRoleBinding: 'opentelemetry-collector' },
      },
      containers: [{
        name: 'opentelemetry-collector',
        image: `otel/opentelemetry-collector-k8s:${OTEL_COLLECTOR_VERSION}`,
        args: ['--config=/conf/relay.yaml'],
        ports: [
          port('otlp', 4317), port('otlp-http', 4318),
          port('jaeger-compact', 6831, kplus.Protocol.UDP), port('jaeger-grpc', 14250), port('jaeger-thrift', 14268),
          port('zipkin', 9411),
        ],
        env: {
          MY_POD_IP: DownwardApi.podIp(),
          // kubeletMetrics and kubernetesAttributes (daemonset mode): the
          // kubeletstats endpoint and the k8sattributes node filter.
          K8S_NODE_NAME: DownwardApi.nodeName(),
        },
        liveness: kplus.Probe.fromHttpGet('/', { port: 13133 }),
        readiness: kplus.Probe.fromHttpGet('/', { port: 13133 }),
        mounts: [
          { volume: 'varlogpods', path: '/var/log/pods' },
          { volume: 'varlibdockercontainers', path: '/var/lib/docker/containers' },
          // storeCheckpoints: the filelog receiver's offsets survive a restart.
          { volume: 'varlibotelcol', path: '/var/lib/otelcol', readOnly: false },
        ],
        // The chart sets no container security context beyond root; the
        // library drops ALL capabilities, forbids privilege escalation, makes
        // the root read-only and sets seccomp RuntimeDefault (improved).
      }],
      volumes: [
        AgentVolume.hostPath('varlogpods', '/var/log/pods'),
        AgentVolume.hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
        AgentVolume.hostPath('varlibotelcol', '/var/lib/otelcol', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
      ],
      // logsCollection with storeCheckpoints: root and gid 0, as the chart
      // sets, to read the pods' logs (root's, 0640) and write the checkpoints.
      runAsUser: 0,
      runAsGroup: 0,
      // The chart's ConfigMap key `relay`, mounted as /conf/relay.yaml.
      // Improved: its checksum rolls a change one node at a time (the chart's
      // collector keeps its old config until a pod restarts).
      config: { data: { relay: RELAY_YAML }, mountPath: '/conf', files: { relay: 'relay.yaml' } },
      serviceAccount: {
        rules: [
          // kubernetesAttributes.
          { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'watch', 'list'] },
          { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
          // kubeletMetrics.
          { apiGroups: [''], resources: ['nodes/stats'], verbs: ['get', 'watch', 'list'] },
        ],
      },
      // The chart's Service in daemonset mode: each pod's OTLP ports, answered
      // on the sender's own node. Applications send to it by its name.
      services: [{
        name: 'opentelemetry-collector',
        internalTrafficPolicy: 'Local',
        ports: [{ port: 'otlp' }, { port: 'otlp-http' }, { port: 'jaeger-compact' }, { port: 'jaeger-grpc' }, { port: 'jaeger-thrift' }, { port: 'zipkin' }],
      }],
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "the collector tails the node's pod logs under /var/log/pods as root and takes OTLP on the node's ports",
      },
      waivers: {
        // The chart sets no resources. The library requests 10m and 16Mi and
        // sets no limit; size it for your nodes (README: "Sizing an agent").
        resources: 'the chart sets no resources for the collector: sized by its pipelines, per cluster',
      },
    });
    namespace.admit(this.collector);
  }
}
