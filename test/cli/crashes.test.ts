/**
 * Misuse that crashed the CLI with a stack trace (issue 18, "Crashes"), and a
 * hint that suggested a flag the same command refuses (issue 19): each now
 * one line on stderr and exit 2 (or, for check, a finding).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

const nodesFile = path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json');

function run(args: string[], stdin = '', listDir?: Io['listDir']) {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), listDir, out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

const daemonSet = (spec: string) => `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n${spec}`;

describe('eligible --manifest on malformed DaemonSets: one line, exit 2', () => {
  test.each([
    ['no template', daemonSet('  selector: {}\n'), 'stdin: DaemonSet "agent" has no pod template (spec.template.spec)'],
    ['tolerations: 5', daemonSet('  template:\n    spec:\n      tolerations: 5\n'), 'stdin: DaemonSet "agent": spec.template.spec.tolerations must be an array of tolerations but got 5'],
    ['a string term', daemonSet('  template:\n    spec:\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [zone]}}}\n'),
      'stdin: DaemonSet "agent": spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0] must be a node selector term (an object) but got "zone"'],
    ['a null term', daemonSet('  template:\n    spec:\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [null]}}}\n'),
      'stdin: DaemonSet "agent": spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0] must be a node selector term (an object) but got null'],
    ['null terms', daemonSet('  template:\n    spec:\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: null}}}\n'),
      'stdin: DaemonSet "agent": spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms must be an array of node selector terms but got null'],
    ['a nodeSelector of numbers', daemonSet('  template:\n    spec:\n      nodeSelector: {tier: 1}\n'), 'stdin: DaemonSet "agent": spec.template.spec.nodeSelector.tier must be a string but got 1'],
  ])('%s', (_, manifest, message) => {
    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', nodesFile, '--manifest', '-'], manifest);

    // THEN
    expect([code, out, err]).toEqual([2, '', `node-reporter: ${message}\n`]);
  });
});

describe('eligible --manifest with a nodeSelector no node label can satisfy (found by the fuzz test)', () => {
  test('says so instead of printing a kubectl label command, which would throw', () => {
    // GIVEN a nodeSelector value that is not a label value
    const manifest = daemonSet('  template:\n    spec:\n      nodeSelector: {tier: " "}\n');

    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', nodesFile, '--manifest', '-'], manifest);

    // THEN
    expect([code, err]).toEqual([0, '']);
    expect(out).toContain('  (no command for node worker-1: the nodeSelector wants tier=" ", which is not a valid label, so no node can match it)');
  });
});

describe('YAML nested ~800 deep: one line, never "Maximum call stack size exceeded" alone', () => {
  const deep = (depth: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;

  test.each([800, 3000])('eligible --manifest, %d levels', (depth) => {
    const { code, err } = run(['eligible', '--nodes', nodesFile, '--manifest', '-'], deep(depth));
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(2);
    expect(err).toMatch(/^node-reporter: stdin: (nested too deeply to read|nested more than 200 levels deep|has no DaemonSet)/);
  });

  test.each([800, 3000])('check, %d levels: a finding', (depth) => {
    const { code, out } = run(['check', '-'], deep(depth));
    expect(code).toBe(1);
    expect(out).toMatch(/\[yaml-syntax\] nested (too deeply to read|more than 200 levels deep)/);
  });
});

describe('check on odd folders', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-folders-'));
    fs.writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a folder named x.yaml is a folder: searched, never read as a file', () => {
    // GIVEN
    fs.mkdirSync(path.join(dir, 'x.yaml'));
    fs.writeFileSync(path.join(dir, 'x.yaml', 'inner.yml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');

    // WHEN
    const { code, out, err } = run(['check', dir]);

    // THEN
    expect([code, err]).toEqual([0, '']);
    expect(out).toMatch(/checked 2 files, 2 objects at Kubernetes 1\.28 \(the default\): 0 error\(s\), 0 warning\(s\), 0 waived\n$/);
  });

  test('an unreadable subfolder (EACCES) is one line naming it, exit 2', () => {
    // GIVEN a subfolder the process may not list (as root nothing is unreadable, so the error is made)
    fs.mkdirSync(path.join(dir, 'secret'));
    const listDir = (p: string) => {
      if (p.endsWith('secret')) {
        throw Object.assign(new Error(`EACCES: permission denied, scandir '${p}'`), { code: 'EACCES' });
      }
      return fs.readdirSync(p, { withFileTypes: true });
    };

    // WHEN
    const { code, out, err } = run(['check', dir], '', listDir);

    // THEN
    expect([code, out, err]).toEqual([2, '', `node-reporter: ${path.join(dir, 'secret')}: cannot read (EACCES)\n`]);
  });
});

describe('hints never suggest a flag the same command refuses', () => {
  test('eligible --manifest on a tainted control plane suggests a toleration in the manifest, not --tolerate-control-plane', () => {
    // GIVEN a DaemonSet without tolerations, and a kubeadm cluster
    const manifest = daemonSet('  template:\n    spec:\n      containers: [{name: a, image: "a:1"}]\n');

    // WHEN
    const { code, out } = run(['eligible', '--nodes', nodesFile, '--manifest', '-'], manifest);

    // THEN
    expect(code).toBe(0);
    expect(out).toContain('taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated');
    expect(out).not.toContain('--tolerate-control-plane');
    expect(out).toContain('tolerate node-role.kubernetes.io/control-plane:NoSchedule in the DaemonSet\'s pod template');
  });
});
