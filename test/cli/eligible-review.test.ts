/**
 * `eligible` for reviews (issue 23, item 2): --manifest takes files, folders
 * and repeats; the summary leads; rows only when few or asked; Markdown; and
 * the nodes gained and lost between two manifests (--before).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

const daemonSet = (name: string, template: object) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: 'agents' }, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'a', image: 'a:1' }], ...template } } } });
const node = (name: string, labels: Record<string, string> = {}, taints: object[] = []) => ({ kind: 'Node', metadata: { name, labels }, spec: { taints } });
const controlPlane = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

describe('node-reporter eligible for reviews', () => {
  let dir: string;
  let nodesFile: string;
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eligible-review-'));
    nodesFile = write('nodes.json', JSON.stringify({ kind: 'List', items: [node('cp-1', {}, [controlPlane]), node('worker-1', { tier: 'a' }), node('worker-2')] }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('--manifest takes a folder (as dist/ is) and repeats, one report per DaemonSet', () => {
    // GIVEN two files in a folder and a third elsewhere
    const folder = path.join(dir, 'dist');
    write('dist/a.k8s.yaml', daemonSet('a', {}));
    write('dist/sub/b.yaml', daemonSet('b', { nodeSelector: { tier: 'a' } }));
    const c = write('c.yaml', daemonSet('c', { tolerations: [{ operator: 'Exists' }] }));

    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', nodesFile, '--manifest', folder, '--manifest', c, '-o', 'json']);

    // THEN
    expect([code, err]).toEqual([0, '']);
    expect(JSON.parse(out).daemonSets.map((d: { name: string; desired: number }) => [d.name, d.desired])).toEqual([['a', 2], ['b', 1], ['c', 3]]);
  });

  test('the real dist/ folder works (it failed with EISDIR)', () => {
    const { code, out } = run(['eligible', '--nodes', nodesFile, '--manifest', path.join(__dirname, '..', '..', 'dist')]);
    expect(code).toBe(0);
    expect(out).toMatch(/^DaemonSet practice-daemon\/node-reporter\ndesired: 0 \(0 of 3 nodes eligible, 3 skipped\)\n/);
  });

  test('a 3,000-node run starts with its summary and leaves the rows out unless --show-nodes', () => {
    // GIVEN 3,000 nodes, a third of them control planes
    const many = Array.from({ length: 3000 }, (_, i) => node(`node-${i}`, {}, i % 3 === 0 ? [controlPlane] : []));
    const file = write('many.json', JSON.stringify({ kind: 'List', items: many }));

    // WHEN
    const short = run(['eligible', '--nodes', file, '--selector', 'kubernetes.io/os=linux']);
    const long = run(['eligible', '--nodes', file, '--selector', 'kubernetes.io/os=linux', '--show-nodes']);

    // THEN
    expect(short.out.split('\n').slice(0, 5)).toEqual([
      'desired: 0 (0 of 3000 nodes eligible, 3000 skipped)',
      'skipped by reason:',
      '  3000  missing label kubernetes.io/os',
      '  1000  taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated',
      '',
    ]);
    expect(short.out).toContain('(3000 nodes: the rows are left out; --show-nodes prints them)');
    expect(short.out.split('\n').length).toBeLessThan(20);
    expect(long.out.split('\n').filter((l) => l.startsWith('node-'))).toHaveLength(3000);
    expect(long.out.startsWith('desired: 0 (0 of 3000 nodes')).toBe(true);
  });

  test('--format markdown: a heading per DaemonSet, the summary, the rows folded', () => {
    const file = write('a.yaml', daemonSet('a', {}));
    const { code, out } = run(['eligible', '--nodes', nodesFile, '--manifest', file, '-o', 'markdown']);
    expect(code).toBe(0);
    expect(out).toContain('### DaemonSet agents/a\n\n**desired: 2** (2 of 3 nodes eligible, 1 skipped)\n');
    expect(out).toContain('| 1 | taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated |');
    expect(out).toContain('<details><summary>3 nodes</summary>');
    expect(out).toContain('| worker-1 | yes | - |');
  });

  test('--before lists the nodes each DaemonSet gains and loses over one node list', () => {
    // GIVEN a DaemonSet that gains a toleration of the control plane, and one that gains a selector
    // (JSON objects one after another, as kubectl reads them: it refuses --- between JSON objects)
    const before = write('before.yaml', [daemonSet('a', {}), daemonSet('b', {})].join('\n'));
    const after = write('after.yaml', [daemonSet('a', { tolerations: [{ key: controlPlane.key, operator: 'Exists', effect: 'NoSchedule' }] }), daemonSet('b', { nodeSelector: { tier: 'a' } })].join('\n'));

    // WHEN
    const text = run(['eligible', '--nodes', nodesFile, '--manifest', after, '--before', before]);
    const json = JSON.parse(run(['eligible', '--nodes', nodesFile, '--manifest', after, '--before', before, '-o', 'json']).out);

    // THEN
    expect(text.code).toBe(0);
    expect(text.out).toContain('DaemonSet agents/a\nchange: desired 2 -> 3; gains 1 node: cp-1\n');
    expect(text.out).toContain('DaemonSet agents/b\nchange: desired 2 -> 1; loses 1 node: worker-2\n');
    expect(json.daemonSets.map((d: { change: object }) => d.change)).toEqual([
      { desiredBefore: 2, desiredAfter: 3, gained: ['cp-1'], lost: [] },
      { desiredBefore: 2, desiredAfter: 1, gained: [], lost: ['worker-2'] },
    ]);
  });

  test('--before without --manifest, and a manifest set without a DaemonSet, are one line each, exit 2', () => {
    expect(run(['eligible', '--nodes', nodesFile, '--before', nodesFile]).err).toMatch(/^node-reporter eligible: --before compares with --manifest/);
    const empty = write('empty/ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n');
    expect(run(['eligible', '--nodes', nodesFile, '--manifest', path.dirname(empty)])).toEqual({ code: 2, out: '', err: `node-reporter: ${path.dirname(empty)}: has no DaemonSet\n` });
  });

  test("the eligibility guide's sample output is what the command prints", () => {
    // GIVEN the block the README shows for the kubeadm fixture
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'eligibility.md'), 'utf-8');
    const sample = /For `test\/fixtures\/nodes\/kubeadm-three.json`[\s\S]*?```\n([\s\S]*?)```/.exec(readme)![1];

    // WHEN
    const { out } = run(['eligible', '--nodes', path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json'), '--selector', 'practice-tier=operations']);

    // THEN
    expect(out).toBe(sample);
  });
});
