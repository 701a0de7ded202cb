// prometheus-node-exporter, as its official chart deploys it by default
// (prometheus-community/helm-charts charts/prometheus-node-exporter 4.56.1,
// app 1.12.1; `helm template node-exporter ... -n monitoring`), built with
// props alone. Where it differs from the chart, the library's defaults
// improve on it, and a comment says so.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { NodeAgent, NodePolicy, NodeRequirement, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect } from 'node-reporter';

/** The chart's app version, in the image tag and the version label. */
export const NODE_EXPORTER_VERSION = '1.12.1';

/** The namespace `monitoring` with node-exporter on every Linux node but virtual ones. */
export class NodeExporterChart extends Chart {
  /** The exporter. */
  public readonly exporter: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'monitoring' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'monitoring' });

    const linux = new NodePolicy(this, 'Linux', {
      operatingSystem: 'linux',
      // The chart's default affinity: no virtual nodes (there is no host to report on).
      matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate'), NodeRequirement.notIn('type', 'virtual-kubelet')],
      // The chart tolerates every NoSchedule taint, not NoExecute ones.
      tolerations: [NodeToleration.everything(TaintEffect.NO_SCHEDULE)],
    });

    const probe = () => kplus.Probe.fromHttpGet('/', {
      port: 9100, initialDelaySeconds: Duration.seconds(0), periodSeconds: Duration.seconds(10), timeoutSeconds: Duration.seconds(1), failureThreshold: 3,
    });
    this.exporter = new NodeAgent(this, 'NodeExporter', {
      policy: linux,
      name: 'node-exporter',
      labels: {
        'app.kubernetes.io/component': 'metrics',
        'app.kubernetes.io/part-of': 'prometheus-node-exporter',
      },
      annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true' },
      containers: [{
        name: 'node-exporter',
        image: `quay.io/prometheus/node-exporter:v${NODE_EXPORTER_VERSION}`,
        args: [
          '--path.procfs=/host/proc',
          '--path.sysfs=/host/sys',
          '--path.rootfs=/host/root',
          '--path.udev.data=/host/root/run/udev/data',
          '--web.listen-address=[$(HOST_IP)]:9100',
        ],
        // The chart's listenOnAllInterfaces default.
        env: { HOST_IP: kplus.EnvValue.fromValue('0.0.0.0') },
        // With host networking the port is also the host port: the API server
        // gives the chart's pods the same hostPort, here it is explicit.
        ports: [{ number: 9100, name: 'metrics', protocol: kplus.Protocol.TCP }],
        // The chart probes the port by name; cdk8s-plus probes take its number.
        liveness: probe(),
        readiness: probe(),
        // Improved: the chart sets none; an agent on every node gets small, bounded ones.
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) } },
        // The chart sets only readOnlyRootFilesystem; the library also drops ALL
        // capabilities, forbids privilege escalation and sets seccomp RuntimeDefault.
      }],
      // Improved: dnsPolicy ClusterFirstWithHostNet (the chart's ClusterFirst falls back to the node's resolver).
      hostNetwork: true,
      hostPID: true,
      // Improved: the chart's host paths have no type; Directory makes the kubelet check them.
      hostPaths: [
        { name: 'proc', hostPath: '/proc', mountPath: '/host/proc', type: kplus.HostPathVolumeType.DIRECTORY },
        { name: 'sys', hostPath: '/sys', mountPath: '/host/sys', type: kplus.HostPathVolumeType.DIRECTORY },
        // The filesystem collector must see what the node mounts after the pod starts.
        { name: 'root', hostPath: '/', mountPath: '/host/root', type: kplus.HostPathVolumeType.DIRECTORY, propagation: kplus.MountPropagation.HOST_TO_CONTAINER },
      ],
      runAsUser: 65534,
      runAsGroup: 65534,
      fsGroup: 65534,
      // The chart's names of the objects the agent replaces, so that this applies over a Helm install in place.
      adopt: { serviceAccountName: 'node-exporter', serviceNames: { metrics: 'node-exporter' } },
      // The chart's ServiceAccount has no rights and mounts no token.
      serviceAccount: { automountToken: false },
      // The chart's Service: ClusterIP 9100, annotated for Prometheus; no ServiceMonitor by default.
      metrics: { port: 'metrics' },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "node-exporter reports the node's own metrics: it reads the host's root, processes and network interfaces",
      },
    });
    // The namespace enforces the level the exporter needs (privileged).
    namespace.admit(this.exporter);
  }
}
