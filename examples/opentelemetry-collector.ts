// The OpenTelemetry Collector as its official chart deploys it in daemonset
// mode with the kubeletMetrics, kubernetesAttributes and logsCollection
// presets: open-telemetry/opentelemetry-helm-charts charts/opentelemetry-collector
// 0.158.2 (app 0.153.0), rendered by hand from its templates (_helpers.tpl,
// _config.tpl, _pod.tpl, daemonset.yaml, configmap-agent.yaml) as
// `helm template opentelemetry-collector ... -n opentelemetry --set
// mode=daemonset --set image.repository=otel/opentelemetry-collector-k8s --set
// presets.kubeletMetrics.enabled=true --set
// presets.kubernetesAttributes.enabled=true --set
// presets.logsCollection.enabled=true --set
// presets.logsCollection.storeCheckpoints=true` would: release
// `opentelemetry-collector` in namespace `opentelemetry`, so the chart's
// fullname is `opentelemetry-collector`. Built with props alone, adopting the
// chart's DaemonSet, selector and names, so that an apply over the Helm
// release updates it in place.
//
// Deliberate differences from the chart (each also said where it is set):
// - the library's secure defaults: capabilities dropped, no privilege
//   escalation, a read-only root, seccomp RuntimeDefault, host paths
//   read-only but the checkpoint directory;
// - requests of 10m and 16Mi (the chart sets none; still no limit);
// - the config volume is named `config`, not `opentelemetry-collector-configmap`,
//   and its checksum annotation is the library's (same effect as the chart's
//   checksum/config: a config change rolls the pods);
// - the library's labels (managed-by node-reporter, no helm.sh/chart) beside
//   the chart's selector labels.
// The chart renders no Service in daemonset mode unless service.enabled=true,
// so there is none here: applications send to their node's host ports.
//
// Over the chart's objects as Helm creates them (no last-applied annotation),
// `kubectl apply` of examples/dist/opentelemetry-collector.k8s.yaml answers
// `configured` for all six on a v1.35 server, one DaemonSet, its selector
// kept; but the pod template keeps the chart's unused volume
// opentelemetry-collector-configmap and its checksum/config annotation until
// `kubectl replace --save-config -f` of the same file (README: "Taking over
// an existing install", step 3), after which an apply is `unchanged`.
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

/** The collector's image tag (the chart's appVersion). */
export const OTEL_COLLECTOR_VERSION = '0.153.0';

/**
 * The relay.yaml the chart renders with the three presets, as its
 * `daemonsetConfig` merges them into its default `config` and writes it with
 * toYaml (keys sorted): the chart's default receivers (OTLP, Jaeger, Zipkin
 * and a prometheus receiver scraping the collector's own metrics), the
 * filelog receiver on /var/log/pods with its checkpoints in /var/lib/otelcol
 * (logsCollection, storeCheckpoints), the kubeletstats receiver on the
 * node's kubelet by the node's IP (kubeletMetrics), and the k8sattributes
 * processor filtered to the node, first in every pipeline
 * (kubernetesAttributes).
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
      - k8s.pod.name
      - k8s.pod.uid
      - k8s.node.name
      - k8s.pod.start_time
      - k8s.deployment.name
      - k8s.replicaset.name
      - k8s.replicaset.uid
      - k8s.daemonset.name
      - k8s.daemonset.uid
      - k8s.job.name
      - k8s.job.uid
      - k8s.container.name
      - k8s.cronjob.name
      - k8s.statefulset.name
      - k8s.statefulset.uid
      - container.image.tag
      - container.image.name
      - k8s.cluster.uid
      - service.namespace
      - service.name
      - service.version
      - service.instance.id
      otel_annotations: true
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
  jaeger:
    protocols:
      grpc:
        endpoint: \${env:MY_POD_IP}:14250
      thrift_compact:
        endpoint: \${env:MY_POD_IP}:6831
      thrift_http:
        endpoint: \${env:MY_POD_IP}:14268
  kubeletstats:
    auth_type: serviceAccount
    collection_interval: 20s
    endpoint: \${env:K8S_NODE_IP}:10250
  otlp:
    protocols:
      grpc:
        endpoint: \${env:MY_POD_IP}:4317
      http:
        endpoint: \${env:MY_POD_IP}:4318
  prometheus:
    config:
      scrape_configs:
      - job_name: opentelemetry-collector
        scrape_interval: 10s
        static_configs:
        - targets:
          - \${env:MY_POD_IP}:8888
  zipkin:
    endpoint: \${env:MY_POD_IP}:9411
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
      - prometheus
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
      - jaeger
      - zipkin
  telemetry:
    metrics:
      readers:
      - pull:
          exporter:
            prometheus:
              host: \${env:MY_POD_IP}
              port: 8888
    resource:
      host.name: \${env:OTEL_K8S_NODE_NAME}
      k8s.namespace.name: \${env:OTEL_K8S_NAMESPACE}
      k8s.node.ip: \${env:OTEL_K8S_NODE_IP}
      k8s.node.name: \${env:OTEL_K8S_NODE_NAME}
      k8s.pod.ip: \${env:OTEL_K8S_POD_IP}
      k8s.pod.name: \${env:OTEL_K8S_POD_NAME}
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

    // The chart's enabled `ports`, in its order (a range over the map: by
    // name), each on the node's address too (in daemonset mode it sets their
    // hostPort): applications send to their node.
    const port = (name: string, number: number, protocol = kplus.Protocol.TCP) => ({ name, number, protocol, hostPort: number });
    this.collector = new NodeAgent(this, 'Collector', {
      policy: everyNode,
      // The chart's DaemonSet is `<fullname>-agent`; another name would be a
      // second DaemonSet with the same selector beside the Helm release's.
      name: 'opentelemetry-collector-agent',
      component: 'agent-collector',
      partOf: 'opentelemetry-collector',
      // The chart's immutable selector (selectorLabels and the daemonset
      // mode's component) and names, so that the library's apply over a Helm
      // release of the chart is `configured`, no "field is immutable" (README:
      // "Taking over an existing install").
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
          port('jaeger-compact', 6831, kplus.Protocol.UDP), port('jaeger-grpc', 14250), port('jaeger-thrift', 14268),
          port('otlp', 4317), port('otlp-http', 4318), port('zipkin', 9411),
        ],
        env: {
          MY_POD_IP: DownwardApi.podIp(),
          // The collector's own telemetry resource (service.telemetry.resource).
          OTEL_K8S_NODE_NAME: DownwardApi.nodeName(),
          OTEL_K8S_NODE_IP: DownwardApi.hostIp(),
          OTEL_K8S_NAMESPACE: DownwardApi.podNamespace(),
          OTEL_K8S_POD_NAME: DownwardApi.podName(),
          OTEL_K8S_POD_IP: DownwardApi.podIp(),
          // kubeletMetrics and kubernetesAttributes (daemonset mode): the
          // k8sattributes node filter and the kubeletstats endpoint.
          K8S_NODE_NAME: DownwardApi.nodeName(),
          K8S_NODE_IP: DownwardApi.hostIp(),
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
        AgentVolume.hostPath('varlibotelcol', '/var/lib/otelcol', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
      ],
      // logsCollection with storeCheckpoints: root and gid 0, as the chart
      // sets, to read the pods' logs (root's, 0640) and write the checkpoints.
      runAsUser: 0,
      runAsGroup: 0,
      // The chart's ConfigMap key `relay`, mounted as /conf/relay.yaml. Its
      // checksum rolls a change one node at a time, as the chart's does.
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
