// node-problem-detector, as its chart deploys it by default
// (deliveryhero/helm-charts stable/node-problem-detector 2.4.1, app v1.35.1;
// `helm template node-problem-detector ... -n kube-system`), built with props
// alone. Where it differs from the chart, the library's defaults improve on
// it, or a comment says why the difference is forced.
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, TaintEffect } from 'node-reporter';

/** The chart's image tag (set in its values, not derived from the app version). */
export const NODE_PROBLEM_DETECTOR_VERSION = 'v1.35.1';

/** The ConfigMap of custom monitor definitions the chart mounts at /custom-config: empty by default. */
export const CUSTOM_CONFIG = 'node-problem-detector-custom-config';

/**
 * The chart's command: one `sh -c` string, stray spaces and all (the empty
 * custom-plugin-monitor and extra-args parts of its template). The monitors
 * are the image's own /config files.
 */
export const NODE_PROBLEM_DETECTOR_COMMAND = [
  '/bin/sh',
  '-c',
  'exec /node-problem-detector --logtostderr --config.system-log-monitor=/config/kernel-monitor.json,/config/docker-monitor.json,/config/readonly-monitor.json  --prometheus-address=0.0.0.0 --prometheus-port=20257 --k8s-exporter-heartbeat-period=5m0s  ',
];

/** node-problem-detector in kube-system on every node, reporting kernel and runtime problems as node conditions and events. */
export class NodeProblemDetectorChart extends Chart {
  /** The detector. */
  public readonly detector: NodeAgent;

  constructor(scope: Construct, id: string) {
    // kube-system is the cluster's: the chart deploys into it and owns no Namespace.
    super(scope, id, { namespace: 'kube-system' });

    // The chart selects every node (no OS selector, though the image is
    // Linux-only) and tolerates every NoSchedule taint, not NoExecute ones.
    const everyNode = new NodePolicy(this, 'EveryNode', { tolerations: [NodeToleration.everything(TaintEffect.NO_SCHEDULE)] });

    // The chart's empty custom-config ConfigMap: where custom monitor
    // definitions go (as files of /custom-config, enabled by flags). A
    // ConfigMap of the user's, beside the agent: the agent's own `config`
    // needs at least one file and would be named node-problem-detector-config.
    new kplus.ConfigMap(this, 'CustomConfig', {
      metadata: { name: CUSTOM_CONFIG, labels: { 'app.kubernetes.io/name': 'node-problem-detector', 'app.kubernetes.io/instance': 'node-problem-detector' } },
    });

    this.detector = new NodeAgent(this, 'NodeProblemDetector', {
      policy: everyNode,
      name: 'node-problem-detector',
      labels: { 'app.kubernetes.io/name': 'node-problem-detector', 'app.kubernetes.io/instance': 'node-problem-detector' },
      containers: [{
        name: 'node-problem-detector',
        image: `registry.k8s.io/node-problem-detector/node-problem-detector:${NODE_PROBLEM_DETECTOR_VERSION}`,
        command: NODE_PROBLEM_DETECTOR_COMMAND,
        // The k8s exporter reports on this node.
        env: { NODE_NAME: DownwardApi.nodeName() },
        // Prometheus metrics on the pod IP; the chart has no Service by default.
        ports: [{ number: 20257, name: 'exporter', protocol: kplus.Protocol.TCP }],
        // Improved: the chart sets none; these are the upstream manifest's
        // (kubernetes/node-problem-detector deployment/), without its CPU limit.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(80), limit: Size.mebibytes(80) } },
        // The chart's privileged: the kmsg monitors open /dev/kmsg, which the
        // device cgroup denies any non-privileged container (kubernetes/node-problem-detector#698).
        // Improved: a read-only root (it logs to stderr and writes no file);
        // the library lets privilege escalation on, as the API server requires.
        securityContext: { privileged: true },
        mounts: [
          // The chart's mount path, trailing slash and all.
          { volume: 'log', path: '/var/log/', readOnly: true },
          { volume: 'localtime', path: '/etc/localtime', readOnly: true },
          { volume: 'custom-config', path: '/custom-config', readOnly: true },
        ],
      }],
      volumes: [
        // Improved: the chart leaves the type unset; Directory makes the kubelet check it.
        AgentVolume.hostPath('log', '/var/log/', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.hostPath('localtime', '/etc/localtime', { type: kplus.HostPathVolumeType.FILE_OR_CREATE }),
        // 0755: custom plugin monitors are scripts the detector runs.
        AgentVolume.configMap('custom-config', CUSTOM_CONFIG, { defaultMode: 0o755 }),
      ],
      // The image has no USER: the journal and /dev/kmsg are root's.
      runAsUser: 0,
      // The chart's own ClusterRole (the same rights as the cluster's
      // system:node-problem-detector, which the upstream manifest binds instead).
      // The chart's names of the objects the agent replaces, so that this applies over a Helm install in place.
      adopt: { serviceAccountName: 'node-problem-detector', rbacNames: { clusterRole: 'node-problem-detector', clusterRoleBinding: 'node-problem-detector' } },
      serviceAccount: {
        rules: [
          { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
          { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
        ],
      },
      priorityClassName: 'system-node-critical',
      // The chart also writes hostNetwork: false, hostPID: false, hostUsers:
      // true, dnsPolicy: ClusterFirst and a 30 s grace period: the defaults.
      // Its checksum/config pod annotation hashes the empty custom config;
      // the agent's checksum is for its own `config`, which this has none of.
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "node-problem-detector reads the kernel log (/dev/kmsg, privileged only) and the node's journal under /var/log as root",
      },
    });
  }
}
