// A metrics exporter in the style of node-exporter: host network and PID, the
// host's root read-only, port 9100, Linux nodes only, every taint tolerated.
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentUpdateStrategy, NodeAgent, NodePolicy, NodeRequirement, NodeToleration, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

/** The namespace `monitoring` with node-exporter on every Linux node but Fargate's. */
export class NodeExporterChart extends Chart {
  /** The exporter. */
  public readonly exporter: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'monitoring' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'monitoring' });

    const linux = new NodePolicy(this, 'Linux', {
      operatingSystem: 'linux',
      // Fargate "nodes" are virtual: there is no host to report on.
      matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate')],
      tolerations: [NodeToleration.everything()],
    });

    this.exporter = new NodeAgent(this, 'NodeExporter', {
      policy: linux,
      name: 'node-exporter',
      containers: [{
        name: 'node-exporter',
        image: 'quay.io/prometheus/node-exporter:v1.8.2',
        args: ['--path.rootfs=/host/root', '--web.listen-address=:9100'],
        ports: [{ number: 9100, name: 'metrics' }],
        readiness: kplus.Probe.fromHttpGet('/', { port: 9100 }),
        liveness: kplus.Probe.fromHttpGet('/', { port: 9100 }),
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) } },
      }],
      hostNetwork: true,
      hostPID: true,
      hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host/root' }],
      priorityClassName: 'system-node-critical',
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.percent(10) }),
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "node-exporter reports the node's own metrics: it reads the host's root, processes and network interfaces",
      },
    });
    // The namespace enforces the level the exporter needs (privileged).
    namespace.admit(this.exporter);
  }
}
