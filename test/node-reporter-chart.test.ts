import { Chart, Testing } from 'cdk8s';
import { ConfigMap } from 'cdk8s-plus-28';
import { LabeledNodePolicy, NodeReporterChart, NodeReporterDaemonSet, NodeToleration } from '../lib';
import { only, synth, synthYaml } from './util';

describe.each(['v1', 'v2'])('NodeReporterChart %s', (version) => {
  // GIVEN the deployable variant, as main.ts builds it
  const chart = () => new NodeReporterChart(Testing.app(), `node-reporter-${version}`, { version });

  test('synthesizes the reviewed manifest', () => {
    expect(synthYaml(chart())).toMatchSnapshot();
  });

  test('puts the Namespace first, restricted, without a namespace of its own', () => {
    // WHEN
    const manifests = synth(chart());

    // THEN
    expect(manifests.map((m) => m.kind)).toEqual(['Namespace', 'DaemonSet']);
    const ns = manifests[0];
    expect(ns.metadata.name).toBe('practice-daemon');
    expect(ns.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(ns.metadata).not.toHaveProperty('namespace');
  });

  test('runs the DaemonSet node-reporter in practice-daemon on nodes labelled practice-tier=operations', () => {
    const ds = only(synth(chart()), 'DaemonSet');
    expect(ds.apiVersion).toBe('apps/v1');
    expect(ds.metadata.name).toBe('node-reporter');
    expect(ds.metadata.namespace).toBe('practice-daemon');
    expect(ds.spec.template.spec.nodeSelector).toEqual({ 'practice-tier': 'operations' });
    expect(ds.spec.template.spec).not.toHaveProperty('affinity');
  });

  test(`reports version=${version} with the node name from the Downward API`, () => {
    const [container] = only(synth(chart()), 'DaemonSet').spec.template.spec.containers;
    expect(container.command).toEqual(['sh', '-c', `while true; do echo node=\${NODE_NAME} version=${version}; sleep 15; done`]);
    expect(container.env).toEqual([{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]);
  });

  test('records the version as the change-cause that rollout history shows', () => {
    const ds = only(synth(chart()), 'DaemonSet');
    expect(ds.metadata.annotations['kubernetes.io/change-cause']).toBe(`node-reporter ${version}`);
  });
});

describe('NodeReporterChart variants', () => {
  test('v2 differs from v1 only where the version string stands', () => {
    // GIVEN
    const v1 = synthYaml(new NodeReporterChart(Testing.app(), 'node-reporter-v1', { version: 'v1' }));
    const v2 = synthYaml(new NodeReporterChart(Testing.app(), 'node-reporter-v2', { version: 'v2' }));

    // THEN
    expect(v1).not.toEqual(v2);
    expect(v2.replace(/\bv2\b/g, 'v1')).toEqual(v1);
  });

  test('synthesizes byte-identical YAML every time', () => {
    const once = synthYaml(new NodeReporterChart(Testing.app(), 'node-reporter-v1', { version: 'v1' }));
    const twice = synthYaml(new NodeReporterChart(Testing.app(), 'node-reporter-v1', { version: 'v1' }));
    expect(twice).toBe(once);
  });

  test('deploys into another namespace and policy when asked', () => {
    // WHEN
    const manifests = synth(new NodeReporterChart(Testing.app(), 'c', {
      version: 'v9', namespace: 'monitoring', policyKey: 'node-role.example.com/agents', policyValue: 'true',
    }));

    // THEN
    expect(only(manifests, 'Namespace').metadata.name).toBe('monitoring');
    const ds = only(manifests, 'DaemonSet');
    expect(ds.metadata.namespace).toBe('monitoring');
    expect(ds.spec.template.spec.nodeSelector).toEqual({ 'node-role.example.com/agents': 'true' });
  });

  test('throws when the namespace is not a DNS-1123 label', () => {
    expect(() => new NodeReporterChart(Testing.app(), 'c', { version: 'v1', namespace: 'Practice_Daemon' }))
      .toThrow(/^c: 'namespace' must be a DNS-1123 label .* but got "Practice_Daemon"$/);
  });
});

describe('NodeReporterChart rendering in linear time', () => {
  test('renders exactly what cdk8s\' own Chart.toJson renders', () => {
    // GIVEN an app of several variants, one with every option that adds an object field
    const app = Testing.app();
    const charts = ['v1', 'v2', 'v3'].map((version) => new NodeReporterChart(app, `node-reporter-${version}`, {
      version, tolerations: version === 'v3' ? [NodeToleration.controlPlane()] : undefined, labels: { team: 'platform' },
    }));

    // THEN
    for (const chart of charts) {
      expect(chart.toJson()).toEqual(Chart.prototype.toJson.call(chart));
    }
  });

  test('still validates the chart when rendered alone', () => {
    const chart = new NodeReporterChart(Testing.app(), 'c', { version: 'v1' });
    chart.node.addValidation({ validate: () => ['broken on purpose'] });
    expect(() => chart.toJson()).toThrow('Validation failed with the following errors:\n  [c] broken on purpose');
  });

  test('runs the app-wide checks on its own objects when rendered alone, as cdk8s\' Chart.toJson does', () => {
    // GIVEN a chart holding two ConfigMaps of one name
    const chart = new NodeReporterChart(Testing.app(), 'c', { version: 'v1' });
    new ConfigMap(chart, 'A', { metadata: { name: 'settings' } });
    new ConfigMap(chart, 'B', { metadata: { name: 'settings' } });

    // THEN rendering the chart alone (Testing.synth) reports the clash, as the stock render does
    expect(() => Chart.prototype.toJson.call(chart)).toThrow(/\[NameClashes\] ConfigMap "settings"/);
    expect(() => Testing.synth(chart)).toThrow('Validation failed with the following errors:\n  [NameClashes] ConfigMap "settings" in namespace "practice-daemon" is defined by both c/A/Resource and c/B/Resource');
  });
});

describe('NodeReporterChart and the namespace', () => {
  test('refuses to create a namespace the cluster owns', () => {
    expect(() => new NodeReporterChart(Testing.app(), 'x', { version: 'v1', namespace: 'kube-system' }))
      .toThrow(/^x: 'namespace' must be a namespace this library may own, not one the cluster owns .* but got "kube-system"$/);
  });

  test('deploys into an existing namespace without emitting the Namespace object, and states the level it needs', () => {
    // WHEN
    const chart = new NodeReporterChart(Testing.app(), 'x', { version: 'v1', namespace: 'monitoring', createNamespace: false });

    // THEN
    const objects = synth(chart);
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet']);
    expect(objects[0].metadata.namespace).toBe('monitoring');
    expect(chart.ns).toBeUndefined();
    expect(chart.podSecurityLevel).toBe('restricted');
  });

  test('may deploy into kube-system when it does not own it', () => {
    const chart = new NodeReporterChart(Testing.app(), 'x', { version: 'v1', namespace: 'kube-system', createNamespace: false });
    expect(synth(chart).map((o) => `${o.kind}/${o.metadata.namespace}`)).toEqual(['DaemonSet/kube-system']);
  });
});

describe('NodeReporterChart names across charts', () => {
  test('lets variant charts share object names: they are applied one instead of the other', () => {
    const app = Testing.app();
    new NodeReporterChart(app, 'node-reporter-v1', { version: 'v1' });
    new NodeReporterChart(app, 'node-reporter-v2', { version: 'v2' });
    expect(() => app.synth()).not.toThrow();
  });

  test('fails synth for two plain charts with a reporter of one name in one namespace, naming both paths', () => {
    // GIVEN
    const app = Testing.app();
    for (const id of ['a', 'b']) {
      const chart = new Chart(app, id, { namespace: 'x' });
      new NodeReporterDaemonSet(chart, 'Reporter', { policy: new LabeledNodePolicy(chart, 'Policy', { key: 'tier', value: 'edge' }), version: 'v1' });
    }

    // THEN
    expect(() => app.synth()).toThrow(/\[NameClashes\] DaemonSet "node-reporter" in namespace "x" is defined by both a\/Reporter\/Resource\/Resource and b\/Reporter\/Resource\/Resource/);
  });

  test('fails synth for a plain chart that repeats a variant chart\'s DaemonSet', () => {
    const app = Testing.app();
    new NodeReporterChart(app, 'node-reporter-v1', { version: 'v1' });
    const other = new Chart(app, 'other', { namespace: 'practice-daemon' });
    new NodeReporterDaemonSet(other, 'Reporter', { policy: new LabeledNodePolicy(other, 'Policy', { key: 'tier', value: 'edge' }), version: 'v1' });
    expect(() => app.synth()).toThrow(/is defined by both node-reporter-v1\/NodeReporter\/Resource\/Resource and other\/Reporter\/Resource\/Resource/);
  });
});
