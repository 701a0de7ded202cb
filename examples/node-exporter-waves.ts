// node-exporter rolled out in waves (docs/rolling-out-in-waves.md): a new
// release on the canary nodes first, then the early ones, then the rest.
// The same agent as examples/node-exporter.ts (the chart's args, host
// network and port 9100, host paths), in a namespace of its own; this file
// shows the state after the first promotion PR: the canary wave runs the
// chart's 1.12.1, the early wave and the rest still the release before.
//
// Nodes join a wave by the label `node-reporter.dev/rollout-wave=canary` (or
// `early`); every other Linux node, unlabelled ones too, is in the last wave.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect } from 'node-reporter';
import { NODE_EXPORTER_VERSION } from './node-exporter';

/** The release every wave ran before this rollout. */
export const NODE_EXPORTER_PREVIOUS = '1.8.2';

/** The namespace `node-exporter-waves` with node-exporter in three waves: canary, early, rest. */
export class NodeExporterWavesChart extends Chart {
  /** The exporter; its DaemonSet is the last wave, `earlierWaves` the others. */
  public readonly exporter: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'node-exporter-waves' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'node-exporter-waves' });
    const linux = new NodePolicy(this, 'Linux', { operatingSystem: 'linux', tolerations: [NodeToleration.everything(TaintEffect.NO_SCHEDULE)] });
    const probe = () => kplus.Probe.fromHttpGet('/', { port: 9100, initialDelaySeconds: Duration.seconds(0), periodSeconds: Duration.seconds(10) });
    const image = (version: string) => `quay.io/prometheus/node-exporter:v${version}`;

    this.exporter = new NodeAgent(this, 'NodeExporter', {
      policy: linux,
      name: 'node-exporter',
      containers: [{
        name: 'node-exporter',
        // What every wave runs unless it says otherwise: the last wave gets a new release last.
        image: image(NODE_EXPORTER_PREVIOUS),
        args: ['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root', '--web.listen-address=[$(HOST_IP)]:9100'],
        env: { HOST_IP: kplus.EnvValue.fromValue('0.0.0.0') },
        // With host networking this is the host port 9100 too: when a node moves between waves, the
        // new wave's pod waits in the scheduler until the old one has let the port go.
        ports: [{ number: 9100, name: 'metrics', protocol: kplus.Protocol.TCP }],
        liveness: probe(),
        readiness: probe(),
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) } },
      }],
      hostNetwork: true,
      hostPID: true,
      hostPaths: [
        { name: 'proc', hostPath: '/proc', mountPath: '/host/proc', type: kplus.HostPathVolumeType.DIRECTORY },
        { name: 'sys', hostPath: '/sys', mountPath: '/host/sys', type: kplus.HostPathVolumeType.DIRECTORY },
        { name: 'root', hostPath: '/', mountPath: '/host/root', type: kplus.HostPathVolumeType.DIRECTORY, propagation: kplus.MountPropagation.HOST_TO_CONTAINER },
      ],
      serviceAccount: { automountToken: false },
      // One Service over every wave's pods (it selects node-reporter.dev/agent: node-exporter).
      metrics: { port: 'metrics' },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "node-exporter reports the node's own metrics: it reads the host's root, processes and network interfaces",
      },
      // Promotion is one PR per wave: set the next wave's image; when the last wave's turn comes, set the
      // container's image and drop the overrides (which then change nothing).
      waves: [
        { name: 'canary', image: image(NODE_EXPORTER_VERSION) },
        { name: 'early' },
        { name: 'rest' },
      ],
    });
    namespace.admit(this.exporter);
  }
}
