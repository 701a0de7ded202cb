/**
 * Two agents of one app that bind one host port on nodes both can select
 * fail synth, naming both and the port (the checks' hostport-clash rule,
 * asked across the app once per validation pass). Agents whose nodes cannot
 * meet, and the waves of one agent, pass.
 */
import { App, Chart, Testing } from 'cdk8s';
import { AgentContainer, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel } from '../lib';

const exporter = (port: number): AgentContainer => ({ name: 'exporter', image: 'example.com/exporter:1', ports: [{ name: 'metrics', number: port, hostPort: port }] } as AgentContainer);
const hostPorts = { level: PodSecurityLevel.PRIVILEGED, reason: 'Prometheus scrapes the exporter on the node' };

function agent(chart: Chart, id: string, policy: NodePolicy, extra: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, id, { policy, name: id.toLowerCase(), containers: [exporter(9100)], podSecurity: hostPorts, updateStrategy: undefined, ...extra } as NodeAgentProps);
}

describe('host ports across the agents of an app', () => {
  test('two agents binding one host port on the same nodes fail synth, naming both and the port', () => {
    // GIVEN
    const app = new App({ outdir: Testing.app().outdir });
    const chart = new Chart(app, 'test', { namespace: 'monitoring' });
    const linux = new NodePolicy(chart, 'Linux', { operatingSystem: 'linux' });
    agent(chart, 'NodeExporter', linux);
    agent(chart, 'Other', linux, { containers: [exporter(9100)] });
    // WHEN / THEN
    expect(() => app.synth()).toThrow(/host port 9100\/TCP of test\/Other is bound by test\/NodeExporter too, on nodes both select \(a node labelled kubernetes\.io\/os=linux\): only one of them can run there/);
  });

  test('agents in two charts of one app clash too', () => {
    // GIVEN
    const app = new App({ outdir: Testing.app().outdir });
    const a = new Chart(app, 'a', { namespace: 'monitoring' });
    const b = new Chart(app, 'b', { namespace: 'logging' });
    agent(a, 'NodeExporter', new NodePolicy(a, 'Linux', { operatingSystem: 'linux' }));
    agent(b, 'Other', new NodePolicy(b, 'Any'));
    // WHEN / THEN
    expect(() => app.synth()).toThrow(/host port 9100\/TCP of b\/Other is bound by a\/NodeExporter too/);
  });

  test('agents on Linux and on Windows nodes, or on other ports, pass', () => {
    // GIVEN
    const app = new App({ outdir: Testing.app().outdir });
    const chart = new Chart(app, 'test', { namespace: 'monitoring' });
    agent(chart, 'NodeExporter', new NodePolicy(chart, 'Linux', { operatingSystem: 'linux' }));
    agent(chart, 'WinExporter', new NodePolicy(chart, 'Windows', { operatingSystem: 'windows' }));
    agent(chart, 'Other', new NodePolicy(chart, 'Linux2', { operatingSystem: 'linux' }), { containers: [exporter(9101)] });
    // WHEN / THEN
    expect(() => app.synth()).not.toThrow();
  });
});
