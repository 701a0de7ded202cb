/**
 * Defaults that fit any agent: none that a faithful translation of an
 * upstream agent would have to discover and undo.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentUpdateStrategy, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel } from '../../lib';
import { Manifest, only, synth } from '../util';

function build(props: Partial<NodeAgentProps>): () => Manifest {
  return () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'agents' });
    new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'collector', containers: [{ name: 'collector', image: 'example.com/collector:0.120.0' }], ...props });
    return only(synth(chart), 'DaemonSet');
  };
}

describe('runAsGroup', () => {
  test('is not invented when runAsUser is set: the collector runs as 10001 with the image\'s gid (0)', () => {
    const pod = build({ runAsUser: 10001 })().spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsUser: 10001 });
    expect(pod.securityContext).not.toHaveProperty('runAsGroup');
    expect(pod.containers[0].securityContext).toMatchObject({ runAsUser: 10001, runAsNonRoot: true });
    expect(pod.containers[0].securityContext).not.toHaveProperty('runAsGroup');
  });

  test('is 65534 with the default uid, and what is written when written', () => {
    expect(build({})().spec.template.spec.securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534 });
    expect(build({ runAsUser: 10001, runAsGroup: 0 })().spec.template.spec.containers[0].securityContext).toMatchObject({ runAsUser: 10001, runAsGroup: 0 });
  });
});

describe('the version label', () => {
  const sidecarFirst: Partial<NodeAgentProps> = { containers: [{ name: 'config-reloader', image: 'example.com/reloader:v0.8.0' }, { name: 'collector', image: 'example.com/collector:0.120.0' }] };

  test('comes from the main container, the one named like the agent, not from a sidecar listed first', () => {
    expect(build(sidecarFirst)().metadata.labels['app.kubernetes.io/version']).toBe('0.120.0');
  });

  test('comes from mainContainer when it is named, or from the version prop', () => {
    expect(build({ ...sidecarFirst, mainContainer: 'config-reloader' })().metadata.labels['app.kubernetes.io/version']).toBe('v0.8.0');
    expect(build({ ...sidecarFirst, version: '0.120.0-custom' })().metadata.labels['app.kubernetes.io/version']).toBe('0.120.0-custom');
    expect(build({ ...sidecarFirst, mainContainer: 'nope' })).toThrow(/'mainContainer' must be the name of one of the containers \("config-reloader", "collector"\) but got "nope"/);
  });
});

describe('a surge on a host-network agent', () => {
  const hostNetwork: Partial<NodeAgentProps> = {
    hostNetwork: true,
    podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'programs the node network' },
    updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }),
  };

  test('is refused until the agent says which node ports it binds, naming the prop and the waiver', () => {
    expect(build(hostNetwork)).toThrow(/'boundHostPorts' must be set for a host-network agent with a surge: the node ports it binds \(\[\] when none\), since a surge pod could never bind a port the old pod holds; or waive 'hostport-surge' in 'waivers' with a reason/);
  });

  test('runs when it binds none, and is refused when it binds some, as with declared ports', () => {
    expect(build({ ...hostNetwork, boundHostPorts: [] })().spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    expect(build({ ...hostNetwork, boundHostPorts: [10249, 10256] })).toThrow(/'updateStrategy' must be a rolling update without surge \(maxSurge 0\) for an agent that binds host ports/);
  });

  test('runs with a waiver and its reason, which the DaemonSet carries', () => {
    const ds = build({ ...hostNetwork, waivers: { 'hostport-surge': 'binds with SO_REUSEPORT' } })();
    expect(ds.metadata.annotations['checks.node-reporter.dev/waive-hostport-surge']).toBe('binds with SO_REUSEPORT');
  });

  test('boundHostPorts without hostNetwork, or not ports, is refused', () => {
    expect(build({ boundHostPorts: [] })).toThrow(/'boundHostPorts' must be unset without hostNetwork/);
    expect(build({ ...hostNetwork, boundHostPorts: [0] })).toThrow(/'boundHostPorts' must be an array of port numbers from 1 to 65535/);
  });
});
