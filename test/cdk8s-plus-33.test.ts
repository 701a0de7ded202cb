/**
 * An app on cdk8s-plus-33 (what `cdk8s init typescript-app` installs) passes
 * its own cdk8s-plus objects to NodeAgent's props: this file type-checks
 * with `tsc` only if the props take them (cdk8s-plus-33's Probe, Handler
 * and EnvFrom are not cdk8s-plus-28's to TypeScript, TS2322), and the agent
 * renders as one built of cdk8s-plus-28's. The packed library in such an
 * app, with the template's tsconfig, is test/package.test.ts's.
 */
import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus28 from 'cdk8s-plus-28';
import * as kplus33 from 'cdk8s-plus-33';
import { AgentContainer, AgentUpdateStrategy, DownwardApi, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel } from '../lib';
import { only, synth } from './util';

/** A realistic agent's props, of one cdk8s-plus module's objects. */
function exporterProps(plus: typeof kplus33, chart: Chart): Omit<NodeAgentProps, 'policy'> {
  const settings = plus.ConfigMap.fromConfigMapName(chart, 'Settings', 'exporter-settings');
  const container: AgentContainer = {
    name: 'node-exporter',
    image: 'quay.io/prometheus/node-exporter:v1.12.1',
    env: { HOST_IP: plus.EnvValue.fromValue('0.0.0.0'), NODE_NAME: DownwardApi.nodeName() },
    envFrom: [plus.Env.fromConfigMap(settings, 'EXPORTER_')],
    ports: [{ number: 9100, name: 'metrics', protocol: plus.Protocol.TCP }],
    liveness: plus.Probe.fromHttpGet('/', { port: 9100, periodSeconds: Duration.seconds(10) }),
    readiness: plus.Probe.fromCommand(['cat', '/tmp/ready']),
    startup: plus.Probe.fromTcpSocket({ port: 9100, failureThreshold: 30 }),
    lifecycle: { postStart: plus.Handler.fromHttpGet('/started', { port: 9100 }), preStop: plus.Handler.fromCommand(['sleep', '5']) },
    resources: { cpu: { request: plus.Cpu.millis(50), limit: plus.Cpu.units(1) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) } },
    imagePullPolicy: plus.ImagePullPolicy.ALWAYS,
    securityContext: { capabilities: { add: [plus.Capability.SYS_TIME] } },
  };
  return {
    name: 'node-exporter',
    containers: [container],
    hostNetwork: true,
    hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host/root', type: plus.HostPathVolumeType.DIRECTORY, propagation: plus.MountPropagation.HOST_TO_CONTAINER }],
    seccompProfile: { type: plus.SeccompProfileType.RUNTIME_DEFAULT },
    dns: { policy: plus.DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET },
    updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: plus.PercentOrAbsolute.percent(10) }),
    podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: "reads the host's root" },
  };
}

function daemonSetWith(plus: typeof kplus33) {
  const chart = new Chart(Testing.app(), 'monitoring', { namespace: 'monitoring' });
  new NodeAgent(chart, 'Exporter', { policy: new NodePolicy(chart, 'Linux', { operatingSystem: 'linux' }), ...exporterProps(plus, chart) });
  return only(synth(chart), 'DaemonSet');
}

describe('an app on cdk8s-plus-33', () => {
  test('passes its own probes, hooks, env sources, CPU and enums to NodeAgent, which renders them as it renders cdk8s-plus-28\'s', () => {
    // GIVEN the same agent of cdk8s-plus-33's objects and of cdk8s-plus-28's (the same API at run time)
    const with33 = daemonSetWith(kplus33);
    const with28 = daemonSetWith(kplus28 as unknown as typeof kplus33);

    // THEN the manifests are the same, and hold what cdk8s-plus-33 rendered
    expect(with33).toEqual(with28);
    const [c] = with33.spec.template.spec.containers;
    expect(c.livenessProbe).toEqual({ failureThreshold: 3, httpGet: { path: '/', port: 9100, scheme: 'HTTP' }, periodSeconds: 10 });
    expect(c.readinessProbe).toEqual({ failureThreshold: 3, exec: { command: ['cat', '/tmp/ready'] } });
    expect(c.startupProbe).toEqual({ failureThreshold: 30, tcpSocket: { port: 9100 } });
    expect(c.lifecycle).toEqual({ postStart: { httpGet: { path: '/started', port: 9100, scheme: 'HTTP' } }, preStop: { exec: { command: ['sleep', '5'] } } });
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'exporter-settings' }, prefix: 'EXPORTER_' }]);
    expect(c.resources).toEqual({ limits: { cpu: '1', memory: '64Mi' }, requests: { cpu: '50m', memory: '32Mi' } });
    expect(c.securityContext.capabilities).toEqual({ add: ['SYS_TIME'], drop: ['ALL'] });
  });

  test('an object that is no cdk8s-plus probe is still refused at construction, by name', () => {
    const chart = new Chart(Testing.app(), 'monitoring', { namespace: 'monitoring' });
    const props = exporterProps(kplus33, chart);
    expect(() => new NodeAgent(chart, 'Exporter', {
      policy: new NodePolicy(chart, 'Linux'),
      ...props,
      containers: [{ ...props.containers[0], liveness: { httpGet: { path: '/' } } as unknown as kplus33.Probe }],
    })).toThrow("monitoring/Exporter: 'containers[0].liveness' must be a cdk8s-plus Probe, e.g. Probe.fromHttpGet(...) but got {\"httpGet\":{\"path\":\"/\"}}");
  });
});
