/**
 * node-reporter diff (issue 23): held-out pairs judged right, the three
 * forms agreeing, the JSON shape, and the exit codes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { Io, main } from '../../lib/cli/node-reporter';
import { diffManifests, formatDiffMarkdown } from '../../lib/diff';
import { objectTitle } from '../../lib/diff/format';
import { readNodeList } from '../../lib/eligibility';
import { PAIRS } from './pairs';

const nodesFile = path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json');
const nodes = readNodeList(fs.readFileSync(nodesFile), 'nodes');
const sourced = (objects: readonly object[]) => objects.map((object) => ({ object, file: 'pair.yaml' }));
const yaml = (objects: readonly object[]) => objects.map((o) => stringify(o)).join('---\n');

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

describe('node-reporter diff judges the held-out pairs', () => {
  test.each(PAIRS.map((p) => [p.name, p] as const))('%s', (_, pair) => {
    // WHEN
    const report = diffManifests(sourced(pair.old), sourced(pair.next));

    // THEN
    const kinds = [...new Set(report.objects.flatMap((o) => o.impacts.map((i) => i.kind)))].sort();
    expect(kinds).toEqual([...pair.impacts].sort());
    expect(report.objects.length).toBeGreaterThan(0);
  });

  test('a new toleration lists the nodes gained with --nodes: the control plane', () => {
    // GIVEN a DaemonSet on every node but the tainted control plane, which then tolerates it
    const ds = (tolerations: object[]) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a', namespace: 'x' }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { tolerations, containers: [{ name: 'a', image: 'a:1' }] } } } });

    // WHEN
    const report = diffManifests(sourced([ds([])]), sourced([ds([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }])]), { nodes });

    // THEN
    const eligibility = report.objects[0].impacts.find((i) => i.kind === 'eligibility')!;
    expect(eligibility).toMatchObject({ gained: ['cp-1'], lost: [], desired: { before: 2, after: 3 }, warning: true });
    expect(eligibility.message).toBe('tolerations added: node-role.kubernetes.io/control-plane:NoSchedule (Exists): desired 2 -> 3; gains 1 node: cp-1');
    const rollout = report.objects[0].impacts.find((i) => i.kind === 'rollout')!;
    expect(rollout).toMatchObject({ rounds: 3, fields: ['spec.template.spec.tolerations'] });
  });

  test('a removed Namespace names what it holds; an added verb on secrets is marked dangerous', () => {
    const [ns] = PAIRS.filter((p) => p.name.startsWith('a removed Namespace'));
    const prune = diffManifests(sourced(ns.old), sourced(ns.next)).objects.find((o) => o.kind === 'Namespace')!.impacts[0];
    expect(prune).toMatchObject({ kind: 'prune', warning: true });
    expect(prune.message).toMatch(/^the Namespace is removed: deleting it deletes ConfigMap\/held, and everything else created in it/);

    const role = (kind: string, verbs: string[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: 'r', namespace: kind === 'Role' ? 'x' : undefined }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs }] });
    // A Role reads the Secrets of one namespace: widened, not dangerous; escalate is, anywhere
    const [widened] = diffManifests(sourced([role('Role', ['get'])]), sourced([role('Role', ['get', 'list', 'escalate'])])).objects[0].impacts;
    expect(widened).toMatchObject({ kind: 'rbac-widened', warning: true, added: ['list secrets', 'escalate secrets'], dangerous: ['escalate secrets (grants "escalate", which let a subject raise its own rights)'] });
    // A ClusterRole's secrets are every namespace's
    const [wide] = diffManifests(sourced([role('ClusterRole', ['get'])]), sourced([role('ClusterRole', ['get', 'list'])])).objects[0].impacts;
    expect(wide).toMatchObject({ warning: true, dangerous: [expect.stringMatching(/^list secrets \(grants secrets in a ClusterRole: every Secret of every namespace/)] });
  });

  test('an immutable impact names the field, the server function and the recipe', () => {
    const [pair] = PAIRS.filter((p) => p.name.startsWith('a DaemonSet selector'));
    const [immutable] = diffManifests(sourced(pair.old), sourced(pair.next)).objects[0].impacts;
    expect(immutable).toMatchObject({ kind: 'immutable', fields: ['spec.selector'], source: expect.stringContaining('ValidateDaemonSetUpdate'), recipe: expect.stringContaining('kubectl delete daemonset/selector -n diff-e2e --cascade=orphan') });
  });
});

describe('node-reporter diff on the command line', () => {
  let dir: string;
  const write = (name: string, objects: readonly object[]) => {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, yaml(objects));
    return file;
  };
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-cli-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const allPairs = () => [write('old/all.yaml', PAIRS.flatMap((p) => p.old)), write('new/all.yaml', PAIRS.flatMap((p) => p.next))];

  test('text, JSON and Markdown carry the same objects, impacts and messages', () => {
    // GIVEN every pair at once
    const [old, next] = allPairs();

    // WHEN
    const text = run(['diff', old, next, '--nodes', nodesFile]);
    const json = JSON.parse(run(['diff', old, next, '--nodes', nodesFile, '-o', 'json']).out);
    const markdown = run(['diff', old, next, '--nodes', nodesFile, '--format', 'markdown']).out;

    // THEN every impact of the JSON is in the text and the Markdown, under its object
    expect(text.code).toBe(1);
    let impacts = 0;
    for (const o of json.objects) {
      const title = objectTitle(o);
      expect(text.out).toContain(`${title} (${o.change})`);
      expect(markdown).toContain(`#### ${title} (${o.change})`);
      for (const i of o.impacts) {
        impacts++;
        expect(text.out).toContain(`${i.warning ? '!' : '-'} ${i.kind}: ${i.message}\n`);
        expect(markdown).toContain(`**${i.kind}**: `);
      }
    }
    expect(markdown.split('\n').filter((l) => /^- (:warning: )?\*\*/.test(l))).toHaveLength(impacts);
    expect(Object.values(json.summary.impacts).reduce((a: number, b) => a + (b as number), 0)).toBe(impacts);
    const summary = text.out.trim().split('\n').pop()!;
    expect(summary).toMatch(new RegExp(`^${json.objects.length} object\\(s\\) differ: ${json.summary.added} added, ${json.summary.removed} removed, ${json.summary.changed} changed`));
    expect(markdown).toContain(`\n${summary}\n`);
    expect(markdown).toContain('<details><summary>What each change does');
  });

  test('the JSON shape: { objects: [{ kind, namespace, name, change, impacts: [{ kind, message, ... }] }], summary }', () => {
    // GIVEN a template change and a removed Namespace
    const [image] = PAIRS;
    const ns = PAIRS.find((p) => p.name.startsWith('a removed Namespace'))!;
    const old = write('old.yaml', [...image.old, ...ns.old]);
    const next = write('new.yaml', image.next);

    // WHEN
    const { code, out } = run(['diff', old, next, '-o', 'json']);

    // THEN
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual(['objects', 'summary']);
    expect(report.objects.map((o: object) => Object.keys(o))).toEqual([
      ['kind', 'apiVersion', 'namespace', 'name', 'change', 'impacts'],
      ['kind', 'apiVersion', 'name', 'change', 'impacts'],
      ['kind', 'apiVersion', 'namespace', 'name', 'change', 'impacts'],
    ]);
    expect(report.objects.map((o: { kind: string; change: string }) => `${o.kind} ${o.change}`)).toEqual(['DaemonSet changed', 'Namespace removed', 'ConfigMap removed']);
    expect(report.objects[0].impacts.map((i: { kind: string }) => i.kind)).toEqual(['rollout', 'image']);
    for (const i of report.objects.flatMap((o: { impacts: object[] }) => o.impacts)) expect(i).toMatchObject({ kind: expect.any(String), message: expect.any(String), warning: expect.any(Boolean) });
    expect(report.summary).toEqual({
      added: 0, removed: 2, changed: 1, unchanged: 0, warnings: 1, kubernetesVersion: '1.28', kubernetesVersionSource: 'the default',
      impacts: { 'immutable': 0, 'rbac-widened': 0, 'pod-security': 0, 'duplicate': 0, 'prune': 2, 'nodes-lost': 0, 'all-waves': 0, 'config-in-place': 0, 'eligibility': 0, 'rollout': 1, 'image': 1, 'resources': 0, 'rbac-narrowed': 0 },
    });
  });

  test('exit codes as kubectl diff: 0 no change, 1 changes, 2 bad input; --fail-on exits 3 on those kinds', () => {
    const [old, next] = allPairs();
    expect(run(['diff', old, old])).toMatchObject({ code: 0, out: expect.stringMatching(/^no change \(\d+ object\(s\) the same\)/) });
    expect(run(['diff', old, next]).code).toBe(1);
    expect(run(['diff', old, next, '--fail-on', 'immutable']).code).toBe(3);
    expect(run(['diff', old, next, '--fail-on', 'image,rbac-widened']).code).toBe(3);
    const [image] = PAIRS;
    const [a, b] = [write('a.yaml', image.old), write('b.yaml', image.next)];
    expect(run(['diff', a, b, '--fail-on', 'immutable,rbac-widened']).code).toBe(1);
    expect(run(['diff', a, b, '--fail-on-warnings']).code).toBe(1);
    expect(run(['diff', old, next, '--strict']).code).toBe(3);
    expect(run(['diff', a, '/no/such.yaml'])).toEqual({ code: 2, out: '', err: 'node-reporter: /no/such.yaml: cannot read (no such file or folder)\n' });
    expect(run(['diff', a, b, '--fail-on', 'restart'])).toMatchObject({ code: 2, err: expect.stringMatching(/^node-reporter diff: --fail-on takes impact kinds \(immutable, .*\) but got "restart"/) });
    expect(run(['diff', a])).toMatchObject({ code: 2, err: expect.stringMatching(/^node-reporter diff: diff takes OLD and NEW/) });
    expect(run(['diff', '-', '-'])).toMatchObject({ code: 2, err: expect.stringMatching(/only one of OLD, NEW and --nodes can read stdin/) });
    expect(run(['diff', a, b, '--kubernetes-version', '1.29'])).toMatchObject({ code: 2, err: expect.stringMatching(/^node-reporter diff: .*1\.29/) });
  });

  test('reads folders and stdin for one side; judges at --kubernetes-version and says so', () => {
    const [image] = PAIRS;
    write('before/ds.yaml', image.old);
    const { code, out } = run(['diff', path.join(dir, 'before'), '-', '--kubernetes-version', '1.35'], yaml(image.next));
    expect(code).toBe(1);
    expect(out).toMatch(/judged as Kubernetes 1\.35 \(--kubernetes-version\)\n$/);
    expect(formatDiffMarkdown(diffManifests([], []))).toContain('no change');
  });
});

describe('the diff guide (docs/diff.md)', () => {
  test('the sample output is what the command prints for v1 -> v2 of this repository', () => {
    // GIVEN the block after the README's diff recipe
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'diff.md'), 'utf-8');
    const sample = /# Review a change: `node-reporter diff`[\s\S]*?```sh\n[\s\S]*?```\n\n```\n([\s\S]*?)```/.exec(readme)![1];
    const dist = path.join(__dirname, '..', '..', 'dist');

    // WHEN
    const { code, out } = run(['diff', path.join(dist, 'node-reporter-v1.k8s.yaml'), path.join(dist, 'node-reporter-v2.k8s.yaml'), '--nodes', nodesFile]);

    // THEN
    expect(code).toBe(1);
    expect(out).toBe(sample);
  });

  test('the JSON example has the shape the command prints', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'diff.md'), 'utf-8');
    const example = JSON.parse(/\*\*JSON\*\* \(`--format json`, stable\):\n\n```json\n([\s\S]*?)```/.exec(readme)![1]);
    const [pair] = PAIRS.filter((p) => p.name.startsWith('a DaemonSet selector'));
    const real = diffManifests(sourced(pair.old), sourced(pair.next), { nodes });
    expect(Object.keys(example)).toEqual(Object.keys(real));
    expect(Object.keys(example.objects[0])).toEqual(Object.keys(real.objects[0]));
    expect(Object.keys(example.summary).sort()).toEqual(Object.keys(real.summary).sort());
    expect(Object.keys(example.summary.impacts)).toEqual(Object.keys(real.summary.impacts));
    expect(Object.keys(example.objects[0].impacts[0])).toEqual(Object.keys(real.objects[0].impacts[0]));
  });
});
