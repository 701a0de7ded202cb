import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

const fixtures = path.join(__dirname, '..', 'fixtures', 'nodes');

/** Runs the command in-process with files from the fixtures and a given stdin. */
function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = {
    readFile: (file) => (file === '-' ? stdin : fs.readFileSync(path.isAbsolute(file) ? file : path.join(fixtures, file), 'utf-8')),
    out: (text) => { out += text; },
    err: (text) => { err += text; },
  };
  const code = main(args, io);
  return { code, out, err };
}

describe('node-reporter eligible', () => {
  test('prints a table, DESIRED, and the command that makes a label-only node eligible', () => {
    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', 'single-unlabelled.json']);

    // THEN
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toBe([
      'NODE        ELIGIBLE  REASON',
      'labex-v135  no        missing label practice-tier',
      '',
      'desired: 0',
      '',
      'Nodes whose only obstacle is the label become eligible with:',
      '  kubectl label node labex-v135 practice-tier=operations',
      '',
    ].join('\n'));
  });

  test('counts the labelled node: desired 1', () => {
    const { out } = run(['eligible', '--nodes', 'single-labelled.json']);
    expect(out).toContain('labex-v135  yes       -');
    expect(out).toContain('desired: 1\n');
    expect(out).not.toContain('kubectl label');
  });

  test('on a kubeadm cluster, names the control-plane taint and how to tolerate it', () => {
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json']);
    expect(out).toContain('cp-1      no        taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated');
    expect(out).toContain('desired: 1\n');
    expect(out).toContain('  kubectl label node worker-2 practice-tier=operations\n');
    expect(out).not.toContain('kubectl label node cp-1');
    expect(out).toContain('--tolerate-control-plane');
    expect(run(['eligible', '--nodes', 'kubeadm-three.json', '--tolerate-control-plane']).out).toContain('desired: 2\n');
  });

  test('overwrites a label that has another value', () => {
    const { out } = run(['eligible', '--nodes', 'troubled.json']);
    expect(out).toContain('batch-1          no        label practice-tier=batch, want operations');
    expect(out).toContain('  kubectl label node batch-1 practice-tier=operations --overwrite\n');
    expect(out).toContain('desired: 2\n');
  });

  test('prints JSON with --json', () => {
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json', '--json']);
    expect(JSON.parse(out)).toEqual({
      desired: 1,
      nodes: [
        { name: 'cp-1', eligible: false, reasons: ['taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated'] },
        { name: 'worker-1', eligible: true, reasons: [] },
        { name: 'worker-2', eligible: false, reasons: ['missing label practice-tier'] },
      ],
    });
  });

  test('takes other selectors, repeatable', () => {
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'kubernetes.io/os=linux', '--selector', 'practice-tier=operations', '--json']);
    expect(JSON.parse(out).desired).toBe(1);
    expect(JSON.parse(run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'kubernetes.io/os=linux', '--json']).out).desired).toBe(2);
  });

  test('reads stdin with --nodes -', () => {
    const { code, out } = run(['eligible', '--nodes', '-', '--json'], fs.readFileSync(path.join(fixtures, 'single-node-object.json'), 'utf-8'));
    expect(code).toBe(0);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test.each([
    ['a missing file', ['--nodes', '/no/such/nodes.json'], 'node-reporter: /no/such/nodes.json: cannot read (no such file)\n'],
    ['a file that is not JSON', ['--nodes', '-'], /^node-reporter: stdin: not JSON \(.*\)\n$/, 'nodes: []'],
    ['JSON that is neither a Node nor a List of Node', ['--nodes', '-'], 'node-reporter: stdin: expected a Node or a List of Node (kubectl get nodes -o json) but got kind "Pod"\n', '{"kind":"Pod"}'],
    ['an empty list', ['--nodes', '-'], 'node-reporter: stdin: the list has no nodes\n', '{"kind":"List","items":[]}'],
    ['a node without a name', ['--nodes', '-'], 'node-reporter: stdin: items[0] has no metadata.name\n', '{"kind":"List","items":[{"kind":"Node"}]}'],
  ])('refuses %s: one line naming the file and the problem, exit 2', (_, args, message, stdin = '') => {
    const { code, out, err } = run(['eligible', ...(args as string[])], stdin as string);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  test.each([
    ['an unknown flag', ['eligible', '--nodes', 'x', '--verbose'], /Unknown option '--verbose'/],
    ['a missing --nodes', ['eligible'], /--nodes FILE is required/],
    ['a selector without =', ['eligible', '--nodes', 'x', '--selector', 'tier'], /--selector must be KEY=VALUE but got "tier"/],
    ['a selector key that is not a label key', ['eligible', '--nodes', 'x', '--selector', 'a b=c'], /'--selector key' must be a qualified name/],
    ['an unknown command', ['eligibel'], /unknown command "eligibel"/],
    ['no command', [], /a command is required/],
  ])('on %s prints the problem and the usage, exit 2', (_, args, message) => {
    const { code, err } = run(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toContain('Usage: node-reporter eligible --nodes FILE');
  });

  test('prints the usage on --help, exit 0', () => {
    const { code, out } = run(['eligible', '--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: node-reporter eligible');
  });

  test('the real bin exits 2 with one line and no stack trace on bad input', () => {
    const result = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(__dirname, '..', '..', 'lib', 'cli', 'bin.ts'), 'eligible', '--nodes', '/no/such/file'], { encoding: 'utf-8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('node-reporter: /no/such/file: cannot read (no such file)\n');
  });
});
