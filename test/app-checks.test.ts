/**
 * The app-wide checks (name clashes, namespace admission) run once per
 * change of the app, not once per validation pass: cdk8s' own Chart.toJson
 * validates the whole app for every chart, which made an app of N charts
 * rendered chart by chart cost O(N²) in them (issue 25, defect 11). They
 * still see the app as it is now (issue 18): every change is seen, without
 * patching constructs for every tree in the process.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from '../lib';
import { appCheck, appCheckRuns, appTreeWalks } from '../lib/app-checks';

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

  test('run once, not once per chart, when each of N charts is rendered with Testing.synth in a loop or the app synthesized chart by chart', () => {
    // GIVEN an app of 30 charts, each with an agent, its namespace and a ConfigMap
    const app = new App({ outdir: Testing.app().outdir });
    const charts = Array.from({ length: 30 }, (_, i) => new Chart(app, `c${i}`, { namespace: `n${i}` }));
    charts.forEach((c) => {
      new PodSecurityNamespace(c, 'Namespace', { name: c.namespace! });
      agentIn(c);
      new kplus.ConfigMap(c, 'Settings', { metadata: { name: 'settings' } });
    });
    const before = appCheckRuns();

    // WHEN each chart is rendered by cdk8s' own Chart.toJson, which validates the whole app each time
    charts.forEach((c) => Testing.synth(c));

    // THEN the app-wide checks ran over the app once (O(1) in the charts, where once per chart made it O(N²))
    expect(appCheckRuns() - before).toBe(1);

    // WHEN the app is synthesized: one validation pass, then one per chart
    app.synth();

    // THEN nothing changed, so they did not run again
    expect(appCheckRuns() - before).toBe(1);
  });

  test('see a clashing chart added after every chart was rendered once', () => {
    // GIVEN charts rendered one by one
    const app = Testing.app();
    const charts = ['a', 'b', 'c'].map((id) => new Chart(app, id, { namespace: id }));
    charts.forEach((c) => agentIn(c));
    charts.forEach((c) => expect(() => c.toJson()).not.toThrow());

    // WHEN a chart whose agent has the name of b's, in b's namespace, is added
    agentIn(new Chart(app, 'late', { namespace: 'b' }));

    // THEN rendering any chart, a first one included, reports the clash
    expect(() => charts[0].toJson()).toThrow(/\[NameClashes\] DaemonSet "agent" in namespace "b" is defined by both b\/Agent\/Resource\/Resource and late\/Agent\/Resource\/Resource/);
  });

  test('see a construct replaced by another of the same count: one removed and a clashing one added', () => {
    // GIVEN a chart of two ConfigMaps of different names, rendered
    const app = Testing.app();
    const chart = new Chart(app, 'swap', { namespace: 'x' });
    agentIn(chart);
    new kplus.ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    new kplus.ConfigMap(chart, 'B', { metadata: { name: 'other' } });
    expect(() => chart.toJson()).not.toThrow();

    // WHEN B is removed and C, named as A, takes its place
    chart.node.tryRemoveChild('B');
    new kplus.ConfigMap(chart, 'C', { metadata: { name: 'settings' } });

    // THEN
    expect(() => chart.toJson()).toThrow(/ConfigMap "settings" in namespace "x" is defined by both swap\/A\/Resource and swap\/C\/Resource/);
  });

  test("leave constructs' Node as it is: loading them patches no method of a library the user also uses", () => {
    jest.isolateModules(() => {
      // GIVEN constructs' own Node methods
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Node } = require('constructs') as typeof import('constructs');
      const proto = Node.prototype as unknown as Record<string, unknown>;
      const own = Object.fromEntries(Object.getOwnPropertyNames(proto).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)?.value]));

      // WHEN the library is loaded
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../lib');

      // THEN every one is the same function
      expect(Object.fromEntries(Object.getOwnPropertyNames(proto).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)?.value]))).toEqual(own);
      for (const name of Object.keys(own)) {
        expect(Object.getOwnPropertyDescriptor(proto, name)?.value).toBe(own[name]);
      }
    });
  });
});

describe('the app checks know the app unchanged without walking it', () => {
  function thirtyCharts(app: App): Chart[] {
    const charts = Array.from({ length: 30 }, (_, i) => new Chart(app, `c${i}`, { namespace: `n${i}` }));
    charts.forEach((c) => agentIn(c));
    return charts;
  }

  test('walk the tree in no pass while nothing was added and the last results were clean', () => {
    // GIVEN an app of 30 charts, checked once
    const app = new App({ outdir: Testing.app().outdir });
    const charts = thirtyCharts(app);
    charts[0].toJson();
    const walks = appTreeWalks();

    // WHEN every chart is rendered by cdk8s' Chart.toJson
    charts.forEach((c) => c.toJson());

    // THEN no pass walked the tree
    expect(appTreeWalks() - walks).toBe(0);
  });

  test('walk the tree in each pass while the last results hold a problem, and see its removal', () => {
    // GIVEN two ConfigMaps of one name
    const app = Testing.app();
    const chart = new Chart(app, 'plain', { namespace: 'x' });
    agentIn(chart);
    new kplus.ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    new kplus.ConfigMap(chart, 'B', { metadata: { name: 'settings' } });
    expect(() => chart.toJson()).toThrow(/ConfigMap "settings"/);
    const walks = appTreeWalks();

    // WHEN rendered again, unchanged
    expect(() => chart.toJson()).toThrow(/ConfigMap "settings"/);

    // THEN that pass walked the tree, since a removal alone could have cleared the problem
    expect(appTreeWalks() - walks).toBe(1);
    chart.node.tryRemoveChild('B');
    expect(() => chart.toJson()).not.toThrow();
  });

  test('see a removal after clean results: what remains is still checked when something is added', () => {
    // GIVEN a clean chart, rendered
    const app = Testing.app();
    const chart = new Chart(app, 'r', { namespace: 'x' });
    agentIn(chart);
    new kplus.ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    expect(() => chart.toJson()).not.toThrow();

    // WHEN A is removed (not counted) and a ConfigMap of A's name added
    chart.node.tryRemoveChild('A');
    new kplus.ConfigMap(chart, 'B', { metadata: { name: 'settings' } });

    // THEN the removed one is not held against the new one
    expect(() => chart.toJson()).not.toThrow();

    // WHEN another of that name is added
    new kplus.ConfigMap(chart, 'C', { metadata: { name: 'settings' } });

    // THEN the clash is seen
    expect(() => chart.toJson()).toThrow(/ConfigMap "settings" in namespace "x" is defined by both r\/B\/Resource and r\/C\/Resource/);
  });

  test("answer the app's locked as constructs does: false, then true after lock(), which refuses a new child", () => {
    // GIVEN an app with an agent (its checks count additions through the app node's locked)
    const app = Testing.app();
    const chart = new Chart(app, 'l', { namespace: 'x' });
    agentIn(chart);
    expect(app.node.locked).toBe(false);

    // WHEN
    app.node.lock();

    // THEN
    expect(app.node.locked).toBe(true);
    expect(() => new kplus.ConfigMap(chart, 'Late')).toThrow(/Cannot add children/);
  });

  test('walk every pass when additions cannot be counted (the app node already has a locked of its own), and still see an addition', () => {
    // GIVEN an app whose node answers locked itself, so that no addition is counted
    const app = new App({ outdir: Testing.app().outdir });
    Object.defineProperty(app.node, 'locked', { configurable: true, get: () => false });
    const charts = thirtyCharts(app);
    charts[0].toJson();
    const walks = appTreeWalks();

    // WHEN every chart is rendered
    charts.forEach((c) => c.toJson());

    // THEN each pass walked the tree
    expect(appTreeWalks() - walks).toBe(30);

    // WHEN a clashing agent is added
    agentIn(new Chart(app, 'late', { namespace: 'n3' }));

    // THEN it is seen
    expect(() => charts[0].toJson()).toThrow(/\[NameClashes\] DaemonSet "agent" in namespace "n3"/);
  });
});
