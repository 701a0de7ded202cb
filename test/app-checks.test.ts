/**
 * The app-wide checks (name clashes, namespace admission) run once per
 * change of the app, not once per validation pass: cdk8s' own Chart.toJson
 * validates the whole app for every chart, which made an app of N charts
 * rendered chart by chart cost O(N²) in them (issue 25, defect 11). They
 * still see the app as it is now (issue 18): every change is counted.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from '../lib';
import { appCheck } from '../lib/app-checks';

function agentIn(chart: Chart, props: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
}

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' };

describe("the app checks under cdk8s' own Chart.toJson", () => {
  test('run once for many charts rendered one by one while nothing changes, and again after a change', () => {
    // GIVEN an app of three charts and a check that counts its runs
    const app = Testing.app();
    const charts = ['a', 'b', 'c'].map((id) => new Chart(app, id, { namespace: id }));
    charts.forEach((c) => agentIn(c));
    let runs = 0;
    appCheck(charts[0], 'Counting', (constructs: readonly IConstruct[]) => {
      runs++;
      return constructs.length > 0 ? [] : ['empty'];
    });

    // WHEN each chart is rendered, twice
    charts.forEach((c) => c.toJson());
    charts.forEach((c) => c.toJson());

    // THEN the checks ran once
    expect(runs).toBe(1);

    // WHEN a construct is added anywhere, deep in a chart
    new kplus.ConfigMap(charts[1], 'Late', { metadata: { name: 'late' } });
    charts.forEach((c) => c.toJson());

    // THEN they ran again, once
    expect(runs).toBe(2);
  });

  test('see objects added after a pass: a clash added between two toJson calls is found', () => {
    // GIVEN a chart rendered once
    const app = Testing.app();
    const one = new Chart(app, 'one', { namespace: 'x' });
    agentIn(one);
    expect(() => one.toJson()).not.toThrow();

    // WHEN a clashing agent is added in another chart
    agentIn(new Chart(app, 'two', { namespace: 'x' }));

    // THEN
    expect(() => one.toJson()).toThrow(/\[NameClashes\] DaemonSet "agent" in namespace "x" is defined by both one\/Agent\/Resource\/Resource and two\/Agent\/Resource\/Resource/);
  });

  test('see a clash removed: after tryRemoveChild the chart renders', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'plain', { namespace: 'x' });
    agentIn(chart);
    new kplus.ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    new kplus.ConfigMap(chart, 'B', { metadata: { name: 'settings' } });
    expect(() => chart.toJson()).toThrow(/ConfigMap "settings" in namespace "x" is defined by both plain\/A\/Resource and plain\/B\/Resource/);

    // WHEN
    chart.node.tryRemoveChild('B');

    // THEN
    expect(() => chart.toJson()).not.toThrow();
  });

  test("see a namespace's level change: admit() after a refused pass lets the agent in", () => {
    // GIVEN a privileged agent its namespace refuses
    const app = Testing.app();
    const chart = new Chart(app, 'm', { namespace: 'm' });
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'm' });
    const agent = agentIn(chart, { hostNetwork: true, podSecurity: privileged });
    expect(() => chart.toJson()).toThrow(/\[NamespaceAdmission\] namespace "m" \(m\/Namespace\) enforces Pod Security "restricted", which refuses the pods of m\/Agent/);

    // WHEN
    ns.admit(agent);

    // THEN
    expect(() => chart.toJson()).not.toThrow();
  });

  test('App.synth sees what changed after an earlier synth', () => {
    const app = new App({ outdir: Testing.app().outdir });
    agentIn(new Chart(app, 'one', { namespace: 'x' }));
    app.synth();
    agentIn(new Chart(app, 'two', { namespace: 'x' }));
    expect(() => app.synth()).toThrow(/\[NameClashes\] DaemonSet "agent" in namespace "x"/);
  });
});
