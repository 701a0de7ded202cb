/**
 * `diff` on more than one config of one object (issue 33): NEW holding an
 * object twice, and a ConfigMap or Secret that pods read in place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffManifests, formatDiffText } from '../../lib/diff';
import { readNodeList } from '../../lib/eligibility';

const nodes = readNodeList(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json')), 'nodes');
type Obj = Record<string, unknown>;
const sourced = (objects: readonly Obj[], file = 'x.yaml') => objects.map((object) => ({ object, file }));
const configMap = (level: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'x' }, data: { 'agent.conf': `level=${level}` } });
const secret = (token: string): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'x' }, stringData: { token } });
const daemonSet = (mount: Obj, volume: Obj): Obj => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'x' },
  spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { volumes: [{ name: 'cfg', ...volume }], containers: [{ name: 'main', image: 'a:1', volumeMounts: [{ name: 'cfg', mountPath: '/etc/agent', ...mount }] }] } } },
});
const fromConfigMap = { configMap: { name: 'cfg' } };

describe('diff: NEW holding one object twice', () => {
  test('two differing copies are a duplicate warning, not "no change", even when the last is OLD\'s', () => {
    // GIVEN OLD with the ConfigMap, NEW with another copy first and OLD's last
    const report = diffManifests(sourced([configMap('info')]), [...sourced([configMap('debug')], 'a.yaml'), ...sourced([configMap('info')], 'b.yaml')]);

    // THEN
    expect(report.summary.unchanged).toBe(0);
    expect(report.objects).toHaveLength(1);
    expect(report.objects[0].impacts).toEqual([expect.objectContaining({ kind: 'duplicate', warning: true, fields: ['data["agent.conf"]'] })]);
    expect(report.objects[0].impacts[0].message).toBe('NEW holds this object 2 times (a.yaml, b.yaml): kubectl apply applies each in turn and the last wins; the copies differ (data["agent.conf"]), so the object changes 2 times on the way');
    expect(formatDiffText(report)).toContain('! duplicate: NEW holds this object 2 times');
  });

  test('two equal copies are a duplicate finding without a warning', () => {
    const report = diffManifests(sourced([]), sourced([configMap('info'), configMap('info')]));
    expect(report.objects[0]).toMatchObject({ change: 'added', impacts: [expect.objectContaining({ kind: 'duplicate', warning: false })] });
  });
});

describe('diff: a ConfigMap or Secret read in place', () => {
  test('a changed ConfigMap a DaemonSet mounts names the DaemonSet and, with --nodes, its nodes; no rollout paces it', () => {
    // GIVEN a DaemonSet mounting the ConfigMap, unchanged
    const ds = daemonSet({}, fromConfigMap);

    // WHEN the ConfigMap changes
    const report = diffManifests(sourced([configMap('info'), ds]), sourced([configMap('debug'), ds]), { nodes });

    // THEN
    const [impact] = report.objects[0].impacts;
    expect(impact).toMatchObject({ kind: 'config-in-place', warning: true, workloads: ['DaemonSet x/agent'], nodes: ['worker-1', 'worker-2'] });
    expect(impact.message).toMatch(/^mounted and read in place by DaemonSet x\/agent \(container main\) on 2 node\(s\): worker-1, worker-2: the kubelet updates the files in every pod at once .*no rollout paces it/);
  });

  test('a Secret in a projected volume is read in place too; its stringData is compared as stored', () => {
    const ds = daemonSet({}, { projected: { sources: [{ secret: { name: 'creds' } }] } });
    expect(diffManifests(sourced([secret('a'), ds]), sourced([secret('b'), ds])).objects[0].impacts.map((i) => i.kind)).toEqual(['config-in-place']);
    expect(diffManifests(sourced([secret('a'), ds]), sourced([{ ...secret('a'), stringData: undefined, data: { token: 'YQ==' } }, ds])).objects.flatMap((o) => o.impacts)).toEqual([]);
  });

  test('a DaemonSet that --nodes shows on no node makes it no warning', () => {
    const ds = daemonSet({}, fromConfigMap) as { spec: { template: { spec: Obj } } };
    ds.spec.template.spec.nodeSelector = { 'example.com/none': 'true' };
    const [impact] = diffManifests(sourced([configMap('info'), ds]), sourced([configMap('debug'), ds]), { nodes }).objects[0].impacts;
    expect(impact).toMatchObject({ kind: 'config-in-place', warning: false, nodes: [] });
  });

  test.each<[string, Obj, Obj]>([
    ['a subPath mount, which the kubelet never updates', { subPath: 'agent.conf' }, fromConfigMap],
    ['another ConfigMap', {}, { configMap: { name: 'other' } }],
  ])('%s is no config-in-place', (_, mount, volume) => {
    const ds = daemonSet(mount, volume);
    expect(diffManifests(sourced([configMap('info'), ds]), sourced([configMap('debug'), ds])).objects[0].impacts).toEqual([]);
  });
});
