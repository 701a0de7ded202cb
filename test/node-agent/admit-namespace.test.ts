/**
 * admit() relaxes a namespace for the agents that deploy into it, and only
 * for those: an agent of another namespace would relax this one to a level
 * none of its pods needs (issue 25, defect 9).
 */
import { App, Chart, Testing } from 'cdk8s';
import { NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel, PodSecurityNamespace, RestrictedNamespace } from '../../lib';
import { only, synth } from '../util';

function agentIn(chart: Chart, props: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
}

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' };

describe('admit() takes only agents of its own namespace', () => {
  test('an agent that deploys into another namespace is refused, and the namespace stays restricted', () => {
    // GIVEN a namespace "monitoring" and a privileged agent that deploys into "logging"
    const app = Testing.app();
    const monitoring = new Chart(app, 'monitoring', { namespace: 'monitoring' });
    const ns = new PodSecurityNamespace(monitoring, 'Namespace', { name: 'monitoring' });
    const other = agentIn(new Chart(app, 'logging', { namespace: 'logging' }), { hostNetwork: true, podSecurity: privileged });

    // WHEN / THEN
    expect(() => ns.admit(other)).toThrow('monitoring/Namespace: admit() takes the NodeAgents to admit: argument 1 (logging/Agent) must be an agent that deploys into namespace "monitoring" but it deploys into "logging": admit it in a namespace of its own chart\'s name');
    expect(only(synth(monitoring), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  test('an agent of a chart with no namespace is refused too, and so by a RestrictedNamespace', () => {
    const app = new App();
    const ns = new RestrictedNamespace(new Chart(app, 'ns'), 'Namespace', { name: 'monitoring' });
    const agent = agentIn(new Chart(app, 'agents'));
    expect(() => ns.admit(agent)).toThrow(/argument 1 \(agents\/Agent\) must be an agent that deploys into namespace "monitoring" but it deploys into no namespace \(its chart has none\)/);
  });

  test("an agent of another chart with the namespace's name is admitted", () => {
    // GIVEN the namespace in one chart, its agent in another of the same namespace
    const app = Testing.app();
    const nsChart = new Chart(app, 'namespace');
    const ns = new PodSecurityNamespace(nsChart, 'Namespace', { name: 'monitoring' });

    // WHEN
    ns.admit(agentIn(new Chart(app, 'agents', { namespace: 'monitoring' }), { hostNetwork: true, podSecurity: privileged }));

    // THEN
    expect(only(synth(nsChart), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });
});
