// promtail, as its official chart deploys it by default (grafana/helm-charts
// charts/promtail 6.17.1, app 3.5.1; `helm template promtail ... -n
// promtail`), built with props alone. Upstream has deprecated the chart and
// promtail reached its end of life on 2026-03-02 (Grafana Alloy succeeds
// it): this example shows a log agent as the chart shipped it, a root reader
// of the node's logs with a writable host path for its positions and its
// config in a Secret. Where it differs from the chart, the library's
// defaults improve on it, or the difference is forced, and a comment says which.
import { createHash } from 'node:crypto';
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect } from 'node-reporter';

/** The chart's app version, the image's tag (without a `v`). */
export const PROMTAIL_VERSION = '3.5.1';

/** What the chart's empty snippets (extraServerConfigs, extraScrapeConfigs, extraLimitsConfig) leave: a line of two spaces. */
const SNIPPET = '  ';

/**
 * The chart's default promtail.yaml, byte for byte (its sha256 is the chart's
 * checksum/config): push to loki-gateway, positions on the host, and one
 * job that tails the logs of every pod the API server lists on this node.
 */
export const PROMTAIL_YAML = `server:
  log_level: info
  log_format: logfmt
  http_listen_port: 3101
${SNIPPET}

clients:
  - url: http://loki-gateway/loki/api/v1/push

positions:
  filename: /run/promtail/positions.yaml

scrape_configs:
  # See also https://github.com/grafana/loki/blob/master/production/ksonnet/promtail/scrape_config.libsonnet for reference
  - job_name: kubernetes-pods
    pipeline_stages:
      - cri: {}
    kubernetes_sd_configs:
      - role: pod
    relabel_configs:
      - source_labels:
          - __meta_kubernetes_pod_controller_name
        regex: ([0-9a-z-.]+?)(-[0-9a-f]{8,10})?
        action: replace
        target_label: __tmp_controller_name
      - source_labels:
          - __meta_kubernetes_pod_label_app_kubernetes_io_name
          - __meta_kubernetes_pod_label_app
          - __tmp_controller_name
          - __meta_kubernetes_pod_name
        regex: ^;*([^;]+)(;.*)?$
        action: replace
        target_label: app
      - source_labels:
          - __meta_kubernetes_pod_label_app_kubernetes_io_instance
          - __meta_kubernetes_pod_label_instance
        regex: ^;*([^;]+)(;.*)?$
        action: replace
        target_label: instance
      - source_labels:
          - __meta_kubernetes_pod_label_app_kubernetes_io_component
          - __meta_kubernetes_pod_label_component
        regex: ^;*([^;]+)(;.*)?$
        action: replace
        target_label: component
      - action: replace
        source_labels:
        - __meta_kubernetes_pod_node_name
        target_label: node_name
      - action: replace
        source_labels:
        - __meta_kubernetes_namespace
        target_label: namespace
      - action: replace
        replacement: $1
        separator: /
        source_labels:
        - namespace
        - app
        target_label: job
      - action: replace
        source_labels:
        - __meta_kubernetes_pod_name
        target_label: pod
      - action: replace
        source_labels:
        - __meta_kubernetes_pod_container_name
        target_label: container
      - action: replace
        replacement: /var/log/pods/*$1/*.log
        separator: /
        source_labels:
        - __meta_kubernetes_pod_uid
        - __meta_kubernetes_pod_container_name
        target_label: __path__
      - action: replace
        regex: true/(.*)
        replacement: /var/log/pods/*$1/*.log
        separator: /
        source_labels:
        - __meta_kubernetes_pod_annotationpresent_kubernetes_io_config_hash
        - __meta_kubernetes_pod_annotation_kubernetes_io_config_hash
        - __meta_kubernetes_pod_container_name
        target_label: __path__
${SNIPPET}
${SNIPPET}

limits_config:
${SNIPPET}

tracing:
  enabled: false
`;

/**
 * The namespace `promtail` with promtail on every node, the control planes
 * included: a namespace of its own, so that `kubectl delete -f` of this
 * example leaves every other (fluent-bit's `logging`) running.
 */
export class PromtailChart extends Chart {
  /** The log agent. */
  public readonly promtail: NodeAgent;

  /** Its config, as the chart keeps it: a Secret, since a client's credentials may go into it. */
  public readonly configSecret: kplus.k8s.KubeSecret;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'promtail' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'promtail' });

    // The chart selects every node and tolerates the control planes' NoSchedule taints.
    const everyNode = new NodePolicy(this, 'EveryNode', {
      tolerations: [NodeToleration.exists('node-role.kubernetes.io/master', TaintEffect.NO_SCHEDULE), NodeToleration.controlPlane()],
    });

    // NodeAgentProps.config makes a ConfigMap; the chart's is a Secret, so it
    // is a Secret of this chart, mounted as a volume of the agent. In `data`,
    // not `stringData`: the server stores stringData as data, so a
    // stringData Secret is "configured" by every `kubectl apply`.
    this.configSecret = new kplus.k8s.KubeSecret(this, 'Config', {
      metadata: { name: 'promtail', labels: { app: 'promtail' } },
      data: { 'promtail.yaml': Buffer.from(PROMTAIL_YAML).toString('base64') },
    });

    this.promtail = new NodeAgent(this, 'Promtail', {
      policy: everyNode,
      name: 'promtail',
      // The chart's checksum of the config, so that a change rolls the pods
      // (here on the DaemonSet too: `annotations` go on both).
      annotations: { 'checksum/config': createHash('sha256').update(PROMTAIL_YAML).digest('hex') },
      containers: [{
        name: 'promtail',
        image: `docker.io/grafana/promtail:${PROMTAIL_VERSION}`,
        args: ['-config.file=/etc/promtail/promtail.yaml'],
        env: { HOSTNAME: DownwardApi.nodeName() },
        ports: [{ number: 3101, name: 'http-metrics', protocol: kplus.Protocol.TCP }],
        // The chart probes the port by name; cdk8s-plus probes take its number. No liveness probe, as in the chart.
        readiness: kplus.Probe.fromHttpGet('/ready', {
          port: 3101, initialDelaySeconds: Duration.seconds(10), periodSeconds: Duration.seconds(10), timeoutSeconds: Duration.seconds(1), successThreshold: 1, failureThreshold: 5,
        }),
        // Improved: the chart sets none.
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) } },
        // The chart already drops ALL, forbids privilege escalation and makes
        // the root read-only; the library adds seccomp RuntimeDefault.
        mounts: [
          { volume: 'config', path: '/etc/promtail' },
          // Where promtail keeps how far it has read each file.
          { volume: 'run', path: '/run/promtail', readOnly: false },
          { volume: 'containers', path: '/var/lib/docker/containers' },
          { volume: 'pods', path: '/var/log/pods' },
        ],
      }],
      volumes: [
        AgentVolume.secret('config', this.configSecret.name),
        // Improved: the chart leaves every type unset. The positions directory
        // is created if missing (the chart relies on the runtime doing so).
        AgentVolume.hostPath('run', '/run/promtail', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        // Only Docker nodes have it: untyped, as in the chart, or the pod would not start on the others.
        AgentVolume.hostPath('containers', '/var/lib/docker/containers'),
        // Improved: the kubelet's pod log directory, on every node that runs pods.
        AgentVolume.hostPath('pods', '/var/log/pods', { type: kplus.HostPathVolumeType.DIRECTORY }),
      ],
      // The chart's podSecurityContext: the pods' log files are root's, 0640.
      runAsUser: 0,
      runAsGroup: 0,
      // The chart's names of the objects the agent replaces, so that this applies over a Helm install in place.
      adopt: { serviceAccountName: 'promtail', rbacNames: { clusterRole: 'promtail', clusterRoleBinding: 'promtail' } },
      serviceAccount: {
        // Improved: the chart grants get, list and watch on nodes, nodes/proxy,
        // services, endpoints and pods; its config discovers only pods
        // (kubernetes_sd_configs role pod). nodes/proxy would reach every
        // kubelet's API. Add the rest back with scrape jobs that need them.
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] }],
      },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "promtail tails the node's pod logs, which only root may read, and keeps its read positions on the node",
      },
    });
    namespace.admit(this.promtail);
  }
}
