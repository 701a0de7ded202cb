/**
 * One convention across the commands (issue 23, item 3): --format/-o,
 * --fail-on-warnings (--strict), --version/-v and `version`, help per
 * command, and an unknown flag that names the one meant.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

const root = path.join(__dirname, '..', '..');
const nodes = path.join(root, 'test', 'fixtures', 'nodes', 'kubeadm-three.json');
const manifest = path.join(root, 'dist', 'node-reporter-v1.k8s.yaml');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

/** A custom resource without its CRD: a warning, not an error. */
const monitor = 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: m, namespace: x}\nspec: {}\n';

describe('the flags every command shares', () => {
  test.each([['--version'], ['-v'], ['-V'], ['version'], ['check', '--version'], ['eligible', '-v'], ['version', '--format', 'text']])('%s prints the version and the Kubernetes versions the checks judge by, exit 0', (...args) => {
    expect(run(args)).toEqual({ code: 0, out: `${version}\nKubernetes versions: 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36 (default 1.28)\n`, err: '' });
  });

  test('node-reporter version --format json prints it as JSON', () => {
    expect(JSON.parse(run(['version', '-o', 'json']).out)).toEqual({ version, kubernetesVersions: ['1.28', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36'], defaultKubernetesVersion: '1.28' });
  });

  test.each(['check', 'eligible', 'version'])('%s --help prints its own usage, with the shared flags', (command) => {
    const { code, out } = run([command, '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^Usage: node-reporter ${command}`));
    expect(out).toContain('--format');
    expect(out).toContain('-h, --help');
    if (command !== 'version') {
      for (const flag of ['-o, --format', '--fail-on-warnings', '--strict', '-v, --version']) expect(out).toContain(flag);
    }
  });

  test.each([
    [['check', '-', '--json'], 'node-reporter check: unknown option "--json"; did you mean --format json? (see node-reporter check --help)\n'],
    [['check', '-', '--output', 'json'], 'node-reporter check: unknown option "--output"; did you mean --format? (see node-reporter check --help)\n'],
    [['check', '-', '--warnings-as-errors'], 'node-reporter check: unknown option "--warnings-as-errors"; did you mean --fail-on-warnings? (see node-reporter check --help)\n'],
    [['eligible', '--nodes', nodes, '--markdown'], 'node-reporter eligible: unknown option "--markdown"; did you mean --format markdown? (see node-reporter eligible --help)\n'],
    [['eligible', '--nodes', nodes, '--show-node'], 'node-reporter eligible: unknown option "--show-node"; did you mean --show-nodes? (see node-reporter eligible --help)\n'],
    [['eligible', '--nodes', nodes, '--format', 'sarif'], 'node-reporter eligible: --format must be text, json or markdown but got "sarif" (see node-reporter eligible --help)\n'],
  ])('%j: one line naming the flag meant, exit 2', (args, message) => {
    expect(run(args, monitor)).toEqual({ code: 2, out: '', err: message });
  });

  test('check: warnings exit 0, and 1 with --fail-on-warnings or --strict', () => {
    expect(run(['check', '-'], monitor).code).toBe(0);
    expect(run(['check', '-', '--fail-on-warnings'], monitor).code).toBe(1);
    expect(run(['check', '-', '--strict'], monitor).code).toBe(1);
    // a clean input stays 0 when strict
    expect(run(['check', manifest, '--strict']).code).toBe(0);
  });

  test('eligible: a DaemonSet on no node exits 0, and 1 with --fail-on-warnings or --strict', () => {
    const none = ['eligible', '--nodes', nodes, '--selector', 'tier=none'];
    expect(run(none).code).toBe(0);
    expect(run([...none, '--fail-on-warnings']).code).toBe(1);
    expect(run([...none, '--strict']).code).toBe(1);
    expect(run(['eligible', '--nodes', nodes, '--selector', 'practice-tier=operations', '--strict']).code).toBe(0);
  });

  test('check --format markdown: the summary and one table row per finding, the same counts as text and JSON', () => {
    // GIVEN
    const text = run(['check', '-'], monitor).out;
    const json = JSON.parse(run(['check', '-', '-o', 'json'], monitor).out);

    // WHEN
    const { code, out } = run(['check', '-', '-o', 'markdown'], monitor);

    // THEN
    expect(code).toBe(0);
    const summary = text.trim().split('\n').pop()!;
    expect(out).toContain(`\n${summary}\n`);
    expect(out.split('\n').filter((l) => l.startsWith('| warning |'))).toHaveLength(json.warnings);
    expect(out).toContain('crd-not-in-input');
  });
});
