/**
 * `npm run bench`: figures for the speed goals, measured side by side in one
 * run (this machine is shared and noisy, so only ratios are compared).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine, printTable, sideBySide, timeCommand } from './util';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const root = path.resolve(__dirname, '..');
process.chdir(root);
const cdk8s = path.join(root, 'node_modules', '.bin', 'cdk8s');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-bench-'));

function synthWith(app: string | undefined, out: string, extra: string[] = []): () => number {
  const args = ['synth', '--no-check-upgrade', '-o', path.join(scratch, out), ...extra];
  return () => timeCommand(cdk8s, app ? [...args, '--app', app] : args);
}

function synthSection(): string[][] {
  // The cdk8s template's way (`app: npx ts-node main.ts`) against this project's cdk8s.yaml.
  const t = sideBySide({
    ours: synthWith(undefined, 'ours'),
    template: synthWith('npx ts-node main.ts', 'template'),
  }, ROUNDS);
  const same = spawnSync('diff', ['-r', path.join(scratch, 'ours'), path.join(scratch, 'template')]).status === 0;
  return [
    ['cdk8s synth (tsx app, cdk8s.yaml)', `${(t.ours / 1000).toFixed(2)} s`, ''],
    ['cdk8s synth (npx ts-node main.ts)', `${(t.template / 1000).toFixed(2)} s`, ''],
    ['ratio ours / template (goal <= 0.5)', (t.ours / t.template).toFixed(2), same ? 'identical output' : 'OUTPUT DIFFERS'],
  ];
}

function checksSection(): string[][] {
  // The manifest checks (cdk8s.yaml `validations:`) against the same synth without them.
  const t = sideBySide({
    checked: synthWith(undefined, 'checked'),
    unchecked: synthWith(undefined, 'unchecked', ['--no-validate']),
  }, ROUNDS);
  return [
    ['cdk8s synth with the manifest checks', `${(t.checked / 1000).toFixed(2)} s`, ''],
    ['cdk8s synth --no-validate', `${(t.unchecked / 1000).toFixed(2)} s`, ''],
    ['checks overhead (goal <= 30%)', `${(100 * (t.checked / t.unchecked - 1)).toFixed(0)}%`, ''],
  ];
}

function testSection(): string[][] {
  const t = sideBySide({
    jest: () => timeCommand(path.join(root, 'node_modules', '.bin', 'jest'), ['--silent']),
    npmTest: () => timeCommand('npm', ['test', '--silent']),
  }, Math.max(1, Math.ceil(ROUNDS / 2)));
  return [
    ['jest (unit tests only)', `${(t.jest / 1000).toFixed(2)} s`, ''],
    ['npm test (tsc + eslint + jest)', `${(t.npmTest / 1000).toFixed(2)} s`, ''],
  ];
}

console.log(`machine: ${machine()}`);
console.log(`rounds: ${ROUNDS} (median, interleaved, after one warm-up each)\n`);
printTable(['benchmark', 'figure', 'note'], [...synthSection(), ...checksSection(), ...testSection()]);
fs.rmSync(scratch, { recursive: true, force: true });
