/**
 * The wave-overlap rule (lib/checks/wave-overlaps.ts): two waves of one agent
 * that some node labels bring together are an error naming both
 * DaemonSets and the labels; waves no labels bring together pass. Static:
 * no node list.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkObjects, checkYaml, isBlocking, KubeObject, WAIVER_PREFIX } from '../../lib/checks';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../../lib/k8s/waves';
import { cleanDaemonSet, podOf } from './baseline';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'waves', name), 'utf-8');

/** A clean DaemonSet as one wave of an agent, selecting nodes with one requirement on the rollout-wave label. */
function wave(agent: string, name: string, operator: string, values?: string[]): KubeObject {
  const ds = cleanDaemonSet();
  ds.metadata.name = `${agent}-${name}`;
  ds.metadata.labels = { ...ds.metadata.labels, [AGENT_LABEL]: agent, [WAVE_LABEL]: name };
  ds.spec.selector.matchLabels[WAVE_LABEL] = name;
  ds.spec.template.metadata.labels[WAVE_LABEL] = name;
  podOf(ds).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: ROLLOUT_WAVE_NODE_LABEL, operator, ...(values ? { values } : {}) }] }] } } };
  return ds;
}

const overlaps = (objects: KubeObject[]) => checkObjects(objects).filter((f) => f.rule.id === 'wave-overlap');

describe('check: wave-overlap', () => {
  test('hand-written waves whose last wave forgets the canary label are an error naming both DaemonSets and the node labels', () => {
    // WHEN
    const findings = checkYaml(fixture('overlapping.yaml'), 'overlapping.yaml');

    // THEN exactly one blocking finding, on the last wave, and nothing else
    expect(findings.map((f) => [f.rule.id, f.severity, f.object, f.path, isBlocking(f)])).toEqual([
      ['wave-overlap', 'error', 'DaemonSet/log-shipper', 'spec.template.spec', true],
    ]);
    expect(findings[0].message).toBe('wave "main" of agent "log-shipper" (DaemonSet "log-shipper") and wave "canary" (DaemonSet "log-shipper-canary") can both run on one node: '
      + 'a node labelled kubernetes.io/os=linux, node-reporter.dev/rollout-wave=canary is selected by both, and would run the agent twice');
  });

  test('hand-written disjoint waves pass', () => {
    expect(checkYaml(fixture('disjoint.yaml'), 'disjoint.yaml')).toEqual([]);
  });

  test('reports every pair that meets, once each', () => {
    // GIVEN a last wave that excludes nothing, after canary and early
    const objects = [wave('a', 'canary', 'In', ['canary']), wave('a', 'early', 'In', ['early']), wave('a', 'main', 'Exists')];

    // WHEN / THEN it meets both; canary and early never meet each other
    expect(overlaps(objects).map((f) => [f.object, f.message.match(/DaemonSet "[^"]+"\)/g)])).toEqual([
      ['DaemonSet/a-main', ['DaemonSet "a-main")', 'DaemonSet "a-canary")']],
      ['DaemonSet/a-main', ['DaemonSet "a-main")', 'DaemonSet "a-early")']],
    ]);
  });

  test('an unlabelled node is the witness when two waves both take unlabelled nodes', () => {
    const findings = overlaps([wave('a', 'canary', 'NotIn', ['x']), wave('a', 'main', 'NotIn', ['canary'])]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('a node without labels is selected by both')]);
  });

  test('a nodeName pin is part of the witness', () => {
    // GIVEN a canary pinned to one node, and a last wave that takes every node
    const canary = wave('a', 'canary', 'In', ['canary']);
    delete podOf(canary).affinity;
    podOf(canary).nodeName = 'node-1';

    // WHEN / THEN
    expect(overlaps([canary, wave('a', 'main', 'NotIn', ['early'])]).map((f) => f.message)).toEqual([expect.stringContaining('a node named "node-1" without labels is selected by both')]);
  });

  test('DaemonSets of other agents, other namespaces, the same wave, or without the wave label are not waves of one agent', () => {
    // GIVEN pairs that would meet were they two waves of one agent
    const otherNamespace = wave('a', 'main', 'Exists');
    otherNamespace.metadata.namespace = 'other';
    const noWave = wave('a', 'main', 'Exists');
    delete noWave.metadata.labels[WAVE_LABEL];

    // WHEN / THEN
    expect(overlaps([wave('a', 'canary', 'In', ['canary']), wave('b', 'main', 'Exists')])).toEqual([]);
    expect(overlaps([wave('a', 'canary', 'In', ['canary']), otherNamespace])).toEqual([]);
    expect(overlaps([wave('a', 'canary', 'In', ['canary']), noWave])).toEqual([]);
    expect(overlaps([wave('a', 'main', 'In', ['canary']), wave('a', 'main', 'Exists')])).toEqual([]);
  });

  test('Gt and Lt waves that leave no integer between them pass; one that leaves one is an error', () => {
    const low = wave('a', 'low', 'Lt', ['5']);
    const high = (bound: string) => wave('a', 'high', 'Gt', [bound]);
    expect(overlaps([low, high('3')]).map((f) => f.message)).toEqual([expect.stringContaining(`labelled ${ROLLOUT_WAVE_NODE_LABEL}=4 is selected by both`)]);
    expect(overlaps([low, high('4')])).toEqual([]);
  });

  test('a pod spec whose selection has the wrong shape is left to the schema rule, not crashed on', () => {
    const broken = wave('a', 'main', 'Exists');
    podOf(broken).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms = 'all';
    expect(overlaps([wave('a', 'canary', 'In', ['canary']), broken])).toEqual([]);
  });

  test('a written reason waives it on the wave it is reported on', () => {
    const main = wave('a', 'main', 'Exists');
    main.metadata.annotations = { [`${WAIVER_PREFIX}wave-overlap`]: 'migrating: both run for one release' };
    expect(overlaps([wave('a', 'canary', 'In', ['canary']), main]).map((f) => [f.waived, isBlocking(f)])).toEqual([['migrating: both run for one release', false]]);
  });
});
