/**
 * diff of an agent in waves (lib/diff/waves.ts): a wave's DaemonSet names
 * its agent and wave (and, with --nodes, how many of the agent's nodes it
 * runs on); a change of every wave's pod template at once is an `all-waves`
 * warning, and `--fail-on all-waves` exits 3 only then.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Io, main } from '../../lib/cli/node-reporter';
import { diffManifests, formatDiffMarkdown, formatDiffText } from '../../lib/diff';
import { readNodeList } from '../../lib/eligibility';

const fixtures = path.join(__dirname, '..', 'fixtures', 'waves');
const disjoint = fs.readFileSync(path.join(fixtures, 'disjoint.yaml'), 'utf-8');
const nodesFile = path.join(fixtures, 'nodes.json');
const nodes = readNodeList(fs.readFileSync(nodesFile), 'nodes');

/** The fixture's waves with a new image in the named DaemonSets. */
function promoted(...daemonSets: string[]): string {
  return disjoint.split('---\n').map((doc) => (daemonSets.some((n) => doc.includes(`  name: ${n}\n`)) ? doc.replace('image: busybox:1.36', 'image: busybox:1.37') : doc)).join('---\n');
}
const objects = (text: string) => parseAllDocuments(text).map((d) => ({ object: d.toJS(), file: 'waves.yaml' }));

function run(args: string[]) {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => fs.readFileSync(file), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

describe('diff of an agent in waves', () => {
  test('a change to the canary names its agent and wave and, with --nodes, how many of the agent\'s nodes it reaches', () => {
    // WHEN
    const report = diffManifests(objects(disjoint), objects(promoted('log-shipper-canary')), { nodes });

    // THEN
    expect(report.objects.map((o) => [o.name, o.agent, o.wave, o.reach, o.impacts.map((i) => i.kind)])).toEqual([
      ['log-shipper-canary', 'log-shipper', 'canary', { nodes: 1, of: 5 }, ['rollout', 'image']],
    ]);
    expect(formatDiffText(report).split('\n')[0]).toBe('~ DaemonSet monitoring/log-shipper-canary (changed; agent log-shipper, wave canary: 1 of 5 nodes)');
    expect(formatDiffMarkdown(report)).toContain('| ~ | DaemonSet monitoring/log-shipper-canary (agent log-shipper, wave canary: 1 of 5 nodes) | changed | rollout, image |');
    expect(formatDiffMarkdown(report)).toContain('#### DaemonSet monitoring/log-shipper-canary (changed; agent log-shipper, wave canary: 1 of 5 nodes)');
    expect(report.summary.impacts['all-waves']).toBe(0);
  });

  test('without --nodes the wave is named, without a reach', () => {
    const [o] = diffManifests(objects(disjoint), objects(promoted('log-shipper-canary'))).objects;
    expect([o.agent, o.wave, o.reach]).toEqual(['log-shipper', 'canary', undefined]);
    expect(formatDiffText({ objects: [o], summary: diffManifests([], []).summary }).split('\n')[0]).toBe('~ DaemonSet monitoring/log-shipper-canary (changed; agent log-shipper, wave canary)');
  });

  test('a pod-template change to every wave at once is one all-waves warning, on the first wave', () => {
    // WHEN
    const report = diffManifests(objects(disjoint), objects(promoted('log-shipper-canary', 'log-shipper-early', 'log-shipper')));

    // THEN
    expect(report.objects.map((o) => [o.name, o.impacts.map((i) => i.kind)])).toEqual([
      ['log-shipper-canary', ['all-waves', 'rollout', 'image']], ['log-shipper-early', ['rollout', 'image']], ['log-shipper', ['rollout', 'image']],
    ]);
    const [allWaves] = report.objects[0].impacts;
    expect(allWaves).toMatchObject({ kind: 'all-waves', warning: true, waves: ['canary', 'early', 'main'] });
    expect(allWaves.message).toMatch(/^the pod template of every wave of agent "log-shipper" changes in this one change \(canary, early, main\)/);
    expect([report.summary.impacts['all-waves'], report.summary.warnings]).toEqual([1, 1]);
  });

  test('two of three waves changed, or one, is no all-waves', () => {
    expect(diffManifests(objects(disjoint), objects(promoted('log-shipper-canary', 'log-shipper-early'))).summary.impacts['all-waves']).toBe(0);
    expect(diffManifests(objects(disjoint), objects(promoted('log-shipper'))).summary.impacts['all-waves']).toBe(0);
  });

  test('a change that is no rollout (a label of the DaemonSet only) is no all-waves', () => {
    const relabelled = disjoint.replace(/ {4}app: log-shipper\n {4}node-reporter/g, '    app: log-shipper\n    team: logs\n    node-reporter');
    const report = diffManifests(objects(disjoint), objects(relabelled));
    expect(report.objects.map((o) => o.impacts.map((i) => i.kind))).toEqual([[], [], []]);
  });

  test('a single DaemonSet without wave labels names no agent and gives no all-waves', () => {
    const plain = (image: string) => [{ object: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a', namespace: 'x' }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image }] } } } }, file: 'a.yaml' }];
    const report = diffManifests(plain('a:1'), plain('a:2'), { nodes });
    expect(report.objects.map((o) => ['agent' in o, 'wave' in o, 'reach' in o, o.impacts.map((i) => i.kind)])).toEqual([[false, false, false, ['rollout', 'image']]]);
  });

  describe('on the command line', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-waves-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, text: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    };

    test('--fail-on all-waves exits 3 only when every wave changes at once', () => {
      // GIVEN
      const old = write('old.yaml', disjoint);
      const canary = write('canary.yaml', promoted('log-shipper-canary'));
      const every = write('every.yaml', promoted('log-shipper-canary', 'log-shipper-early', 'log-shipper'));

      // WHEN / THEN
      expect(run(['diff', old, canary, '--fail-on', 'all-waves']).code).toBe(1);
      expect(run(['diff', old, every, '--fail-on', 'all-waves']).code).toBe(3);
      expect(run(['diff', old, every]).code).toBe(1);
      const json = JSON.parse(run(['diff', old, canary, '--nodes', nodesFile, '-o', 'json']).out);
      expect(json.objects[0]).toMatchObject({ kind: 'DaemonSet', name: 'log-shipper-canary', agent: 'log-shipper', wave: 'canary', reach: { nodes: 1, of: 5 }, change: 'changed' });
      expect(run(['diff', old, every]).out).toContain('    ! all-waves: the pod template of every wave of agent "log-shipper" changes in this one change (canary, early, main)');
    });
  });
});
