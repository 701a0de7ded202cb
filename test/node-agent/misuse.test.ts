/**
 * The cases of issue 18 ("misuse never harms a cluster") that concern the
 * constructs: each reproduced the harm before its fix.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  CONFIG_CHECKSUM_ANNOTATION,
  NodeAgent,
  NodeAgentProps,
  NodePolicy,
  PodSecurityLevel,
  PodSecurityNamespace,
  RestrictedNamespace,
} from '../../lib';
import { only, synth } from '../util';

function agentIn(chart: Chart, props: Partial<NodeAgentProps> = {}, id = 'Agent'): NodeAgent {
  return new NodeAgent(chart, id, { policy: new NodePolicy(chart, `${id}Policy`), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
}

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' };

describe('a manifest that takes over or is refused', () => {
  test('a privileged agent in a RestrictedNamespace without admit() fails synth instead of having every pod refused', () => {
    const chart = new Chart(Testing.app(), 'monitoring', { namespace: 'monitoring' });
    new RestrictedNamespace(chart, 'Namespace', { name: 'monitoring' });
    agentIn(chart, { hostNetwork: true, podSecurity: privileged });
    expect(() => synth(chart)).toThrow(/\[NamespaceAdmission\] namespace "monitoring" \(monitoring\/Namespace\) enforces Pod Security "restricted", which refuses the pods of monitoring\/Agent \(they need "privileged"\): call admit\(\) on this namespace with the agent, in a PodSecurityNamespace/);
  });

  test('the same agent in a PodSecurityNamespace that admits it synthesizes', () => {
    const chart = new Chart(Testing.app(), 'monitoring', { namespace: 'monitoring' });
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'monitoring' });
    ns.admit(agentIn(chart, { hostNetwork: true, podSecurity: privileged }));
    expect(only(synth(chart), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  test('admit(undefined) is a clear error, not a TypeError', () => {
    const chart = new Chart(Testing.app(), 'm', { namespace: 'm' });
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'm' });
    expect(() => ns.admit(undefined as never)).toThrow(/^m\/Namespace: admit\(\) takes the NodeAgents to admit: argument 1 must be a NodeAgent but got undefined$/);
    expect(() => ns.admit()).toThrow(/none given/);
  });
});

describe('config the documented apply would refuse, or that never rolls', () => {
  test('config data over 256 KiB is refused at construction: client-side apply would fail with "metadata.annotations: Too long"', () => {
    expect(() => agentIn(new Chart(Testing.app(), 'c', { namespace: 'c' }), { config: { data: { 'big.conf': 'x'.repeat(300 * 1024) }, mountPath: '/etc/agent' } }))
      .toThrow(/'config\.data' makes the ConfigMap "node-agent-agent" too large for `kubectl apply`: its annotations would hold \d+ bytes with the last-applied configuration, but the API server allows 262144/);
  });

  test('an object too large for client-side apply is reported once, by the prop that makes it so, not again as the checks\' finding', () => {
    // GIVEN config data over 256 KiB
    const build = () => agentIn(new Chart(Testing.app(), 'c', { namespace: 'c' }), { config: { data: { 'big.conf': 'x'.repeat(300 * 1024) }, mountPath: '/etc/agent' } });
    // WHEN the agent is built THEN its error names the size once
    expect(build).toThrow(/too large for `kubectl apply`/);
    expect(build).not.toThrow(/\[kubectl-apply\]/);
  });

  test('an annotation of 200 KiB is refused the same way (the DaemonSet holds it twice)', () => {
    expect(() => agentIn(new Chart(Testing.app(), 'c', { namespace: 'c' }), { annotations: { 'example.com/blob': 'x'.repeat(200 * 1024) } }))
      .toThrow(/'annotations' makes the DaemonSet "agent" too large for `kubectl apply`/);
  });

  test.each(['.', '..', '..data'])('the ConfigMap key %j is refused (the kubelet owns it)', (key) => {
    expect(() => agentIn(new Chart(Testing.app(), 'c', { namespace: 'c' }), { config: { data: { [key]: 'x' } } }))
      .toThrow(/'config\.data' key must be a key of at most 253 characters/);
  });

  test('configMap.addData() after construction changes the checksum, so the agents roll', () => {
    const chart = new Chart(Testing.app(), 'c', { namespace: 'c' });
    const agent = agentIn(chart, { config: { data: { 'a.conf': 'a' }, mountPath: '/etc/agent' } });
    const before = only(synth(chart), 'DaemonSet').spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION];
    agent.configMap!.addData('b.conf', 'b');
    expect(only(synth(chart), 'DaemonSet').spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION]).not.toBe(before);
  });
});

describe('late or unclear errors', () => {
  test('duplicate hostPaths names are refused at construction, naming the prop', () => {
    expect(() => agentIn(new Chart(Testing.app(), 'c', { namespace: 'c' }), {
      hostPaths: [{ name: 'logs', hostPath: '/var/log', mountPath: '/a' }, { name: 'logs', hostPath: '/var/lib', mountPath: '/b' }], podSecurity: privileged,
    })).toThrow(/'hostPaths\[1\]\.name' must be a volume name no other volume uses but got "logs"/);
  });
});

describe('name clashes across the app', () => {
  test('are found by a second synth in the same tick, after more objects were added', () => {
    // GIVEN an app synthesized once
    const app = new App({ outdir: Testing.app().outdir });
    agentIn(new Chart(app, 'one', { namespace: 'x' }));
    app.synth();

    // WHEN two clashing agents are added and the app synthesized again at once
    agentIn(new Chart(app, 'two', { namespace: 'x' }));

    // THEN
    expect(() => app.synth()).toThrow(/DaemonSet "agent" in namespace "x" is defined by both one\/Agent\/Resource\/Resource and two\/Agent\/Resource\/Resource/);
  });

  test('are found between plain cdk8s objects too', () => {
    const app = new App({ outdir: Testing.app().outdir });
    const chart = new Chart(app, 'plain', { namespace: 'x' });
    agentIn(chart);
    new kplus.ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    new kplus.ConfigMap(chart, 'B', { metadata: { name: 'settings' } });
    expect(() => app.synth()).toThrow(/ConfigMap "settings" in namespace "x" is defined by both plain\/A\/Resource and plain\/B\/Resource/);
  });
});

describe('a name that is no string', () => {
  // Found by the long fuzz run (FUZZ_RUNS=5000): String([Symbol()]) threw a TypeError from the prop checks.
  test.each([
    ['with a config', { config: { data: { 'a.yaml': 'x: 1' } } }],
    ['with a ServiceAccount', { serviceAccount: {} }],
  ])('an array holding a Symbol as the name %s is one error naming the prop, not a TypeError', (_, props) => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'm', { namespace: 'm' });
    // WHEN
    const make = () => agentIn(chart, { name: [Symbol('agent')] as never, ...props } as Partial<NodeAgentProps>);
    // THEN
    expect(make).toThrow(/'name' must be/);
    expect(make).not.toThrow(TypeError);
  });
});
