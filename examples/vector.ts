// Vector as its official chart deploys it in the Agent role:
// vectordotdev/helm-charts charts/vector 0.29.0 (app 0.34.1-distroless-libc),
// rendered by hand from its templates (_helpers.tpl, _pod.tpl, daemonset.yaml,
// configmap.yaml, rbac.yaml, service.yaml, service-headless.yaml) as
// `helm template vector ... -n vector --set role=Agent` would: release
// `vector` in namespace `vector`, so the chart's fullname is `vector`. Built
// with props alone, adopting the chart's selector and names, so that it can
// replace the Helm release in place.
//
// Deliberate differences from the chart (each also said where it is set):
// - the library's secure defaults: capabilities dropped, no privilege
//   escalation, a read-only root, seccomp RuntimeDefault;
// - requests of 10m and 16Mi (the chart sets none; still no limit);
// - the headless Service has the exporter's port only: the chart's default
//   headless Service lists the Aggregator role's seven source ports too,
//   which the agent does not listen on (service-headless.yaml has no Agent
//   branch);
// - the ConfigMap is mounted as a configMap volume, not a projected one with
//   the same single source (same files), and the checksum annotation is the
//   library's (same effect as the chart's checksum/config);
// - the library's labels (managed-by node-reporter, no helm.sh/chart) beside
//   the chart's selector labels, and `vector.dev/exclude` (the chart's
//   podLabels) on every object, not only the pods.
//
// Over the chart's objects as Helm creates them (no last-applied annotation),
// `kubectl apply` of examples/dist/vector.k8s.yaml answers `configured` for
// all eight on a v1.35 server, one DaemonSet, its selector kept; but the
// headless Service keeps the chart's seven extra ports until `kubectl replace
// --save-config -f` of the same file (README: "Taking over an existing
// install", step 3), after which an apply is `unchanged`.
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

/** The chart's default agent.yaml in the Agent role. */
export const VECTOR_AGENT_YAML = `data_dir: /vector-data-dir
api:
  enabled: true
  address: 127.0.0.1:8686
  playground: false
sources:
  kubernetes_logs:
    type: kubernetes_logs
  host_metrics:
    filesystem:
      devices:
        excludes: [binfmt_misc]
      filesystems:
        excludes: [binfmt_misc]
      mountPoints:
        excludes: ["*/proc/sys/fs/binfmt_misc"]
    type: host_metrics
  internal_metrics:
    type: internal_metrics
sinks:
  prom_exporter:
    type: prometheus_exporter
    inputs: [host_metrics, internal_metrics]
    address: 0.0.0.0:9090
  stdout:
    type: console
    inputs: [kubernetes_logs]
    encoding:
      codec: json
`;

/** The namespace `vector` with Vector on every node without a taint. */
export class VectorChart extends Chart {
  /** The agent. */
  public readonly agent: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'vector' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'vector' });

    // The chart sets no nodeSelector, affinity or tolerations.
    const everyNode = new NodePolicy(this, 'EveryNode');

    this.agent = new NodeAgent(this, 'Vector', {
      policy: everyNode,
      name: 'vector',
      component: 'Agent',
      // The chart's podLabels: Vector's kubernetes_logs source skips the pods
      // that carry it, so it does not ship its own console output back to
      // itself. \`labels\` puts it on every object (no prop sets pod labels alone).
      labels: { 'vector.dev/exclude': 'true' },
      // The chart's immutable selector and names (README: "Taking over an existing install").
      adopt: {
        selector: { 'app.kubernetes.io/name': 'vector', 'app.kubernetes.io/instance': 'vector', 'app.kubernetes.io/component': 'Agent' },
        serviceAccountName: 'vector',
        configMapName: 'vector',
        rbacNames: { clusterRole: 'vector', clusterRoleBinding: 'vector' },
      },
      containers: [{
        name: 'vector',
        image: 'timberio/vector:0.34.1-distroless-libc',
        args: ['--config-dir', '/etc/vector/'],
        env: {
          VECTOR_SELF_NODE_NAME: DownwardApi.nodeName(),
          VECTOR_SELF_POD_NAME: DownwardApi.podName(),
          VECTOR_SELF_POD_NAMESPACE: DownwardApi.podNamespace(),
          PROCFS_ROOT: kplus.EnvValue.fromValue('/host/proc'),
          SYSFS_ROOT: kplus.EnvValue.fromValue('/host/sys'),
          // The chart's logLevel.
          VECTOR_LOG: kplus.EnvValue.fromValue('info'),
        },
        ports: [{ name: 'prom-exporter', number: 9090, protocol: kplus.Protocol.TCP }],
        mounts: [
          // Its checkpoints and buffers, kept on the node.
          { volume: 'data', path: '/vector-data-dir', readOnly: false },
          { volume: 'var-log', path: '/var/log/' },
          { volume: 'var-lib', path: '/var/lib' },
          { volume: 'procfs', path: '/host/proc' },
          { volume: 'sysfs', path: '/host/sys' },
        ],
        // The chart sets no security context; the library drops ALL
        // capabilities, forbids privilege escalation, makes the root read-only
        // and sets seccomp RuntimeDefault (improved). Root stays: container
        // logs are root's, 0640.
      }],
      volumes: [
        AgentVolume.hostPath('data', '/var/lib/vector'),
        AgentVolume.hostPath('var-log', '/var/log/'),
        AgentVolume.hostPath('var-lib', '/var/lib/'),
        AgentVolume.hostPath('procfs', '/proc'),
        AgentVolume.hostPath('sysfs', '/sys'),
      ],
      runAsUser: 0,
      // The ConfigMap vector, mounted at /etc/vector/ (the chart projects it).
      // Improved: its checksum rolls a change one node at a time.
      config: { data: { 'agent.yaml': VECTOR_AGENT_YAML }, mountPath: '/etc/vector/' },
      // The kubernetes_logs source reads pods, namespaces and nodes.
      serviceAccount: { rules: [{ apiGroups: [''], resources: ['namespaces', 'nodes', 'pods'], verbs: ['list', 'watch'] }] },
      // The chart's Service vector on the exporter port, and its headless
      // twin vector-headless on the same port only (improved: the chart's
      // also lists 8282, 24224, 5044, 8080, 8125, 9000 and 6000, where no
      // agent listens; the library refuses a Service port that is no
      // container's).
      services: [
        { name: 'vector', ports: [{ port: 'prom-exporter' }] },
        { name: 'vector-headless', headless: true, ports: [{ port: 'prom-exporter' }] },
      ],
      // The chart's terminationGracePeriodSeconds: time to flush its sinks.
      terminationGracePeriodSeconds: 60,
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "vector tails the node's container logs under /var/log and reads /proc and /sys for host metrics, as root",
      },
      waivers: {
        // The chart sets no resources. The library requests 10m and 16Mi and
        // sets no limit; size it for your nodes (README: "Sizing an agent").
        resources: 'the chart sets no resources for vector: sized by its pipelines, per cluster',
      },
    });
    namespace.admit(this.agent);
  }
}
