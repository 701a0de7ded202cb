/**
 * `npm run bench`: figures for the speed goals, measured side by side in one
 * run (this machine is shared and noisy, so only ratios are compared).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diffAgainstParse, diffJsonAgainstYaml } from './diff';
import { asJsonList, checksAgainstParse, checksJsonAgainstYaml, manyDaemonSets } from './many-daemonsets';
import { nodeListJson } from './node-list';
import { machine, printTable, sideBySide, timeCommand } from './util';
import { eligibleWavesRows, overlapRows } from './waves';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const root = path.resolve(__dirname, '..');
process.chdir(root);
const cdk8s = path.join(root, 'node_modules', '.bin', 'cdk8s');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-bench-'));

function synthWith(app: string | undefined, out: string, extra: string[] = [], cwd?: string): () => number {
  const args = ['synth', '--no-check-upgrade', '-o', path.join(scratch, out), ...extra];
  return () => timeCommand(cdk8s, app ? [...args, '--app', app] : args, {}, cwd);
}

/**
 * A project folder whose cdk8s.yaml names the plugin as a user's does: the
 * compiled one (build/lib/checks/validation-plugin.js, README "Manifest
 * checks"), for this repository's app. This repository's own cdk8s.yaml
 * names scripts/validation-plugin.js, which loads the plugin's TypeScript
 * sources through tsx on every synth.
 */
function shippedPluginProject(): string {
  execFileSync('npm', ['run', 'build', '--silent']);
  const dir = path.join(scratch, 'shipped-plugin');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), [
    'language: typescript',
    `app: ${JSON.stringify(`${process.execPath} --require ${require.resolve('tsx/cjs')} ${path.join(root, 'main.ts')}`)}`,
    'validations:',
    `  - package: ${JSON.stringify(path.join(root, 'build', 'lib', 'checks', 'validation-plugin.js'))}`,
    '    version: 0.1.0',
    '    class: NodeAgentChecks',
    '',
  ].join('\n'));
  return dir;
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
  // The manifest checks (cdk8s.yaml `validations:`) against the same synth without them: the plugin as users run it, and as this repository's synth loads it.
  const shipped = shippedPluginProject();
  const t = sideBySide({
    checked: synthWith(undefined, 'shipped-checked', [], shipped),
    unchecked: synthWith(undefined, 'shipped-unchecked', ['--no-validate'], shipped),
    sources: synthWith(undefined, 'checked'),
    sourcesUnchecked: synthWith(undefined, 'unchecked', ['--no-validate']),
  }, ROUNDS);
  return [
    ['cdk8s synth with the manifest checks (the compiled plugin, as a user\'s cdk8s.yaml names it)', `${(t.checked / 1000).toFixed(2)} s`, ''],
    ['cdk8s synth --no-validate', `${(t.unchecked / 1000).toFixed(2)} s`, ''],
    ['checks overhead (goal <= 15%)', `${(100 * (t.checked / t.unchecked - 1)).toFixed(0)}%`, ''],
    ['the same in this repository (its cdk8s.yaml loads the plugin\'s TypeScript sources through tsx)', `${(100 * (t.sources / t.sourcesUnchecked - 1)).toFixed(0)}%`, `${(t.sources / 1000).toFixed(2)} s / ${(t.sourcesUnchecked / 1000).toFixed(2)} s; no goal: tsx transpiles the checks at each synth, which no user's synth does`],
  ];
}

function foreignChecksSection(): string[][] {
  // A foreign app of 1,000 objects, synthesized with this project's checks and without them.
  const app = 'node --require tsx/cjs bench/foreign-app.ts 1000';
  const t = sideBySide({
    checked: synthWith(app, 'foreign-checked'),
    unchecked: synthWith(app, 'foreign-unchecked', ['--no-validate']),
  }, ROUNDS);
  // The same objects checked in process, without the CLI around them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkTexts } = require('../lib/checks') as typeof import('../lib/checks');
  const text = fs.readFileSync(path.join(scratch, 'foreign-unchecked', 'foreign.k8s.yaml'), 'utf-8');
  checkTexts([{ file: 'warm-up', text }]);
  const start = process.hrtime.bigint();
  const findings = checkTexts([{ file: 'foreign.k8s.yaml', text }]);
  const inProcess = Number(process.hrtime.bigint() - start) / 1e6;
  return [
    ['foreign app, 1,000 objects: cdk8s synth with the checks / --no-validate', `${(t.checked / 1000).toFixed(2)} s / ${(t.unchecked / 1000).toFixed(2)} s`, ''],
    ['checks per object, from that difference (goal <= 1 ms)', `${((t.checked - t.unchecked) / 1000).toFixed(2)} ms`, `in process: ${(inProcess / 1000).toFixed(2)} ms per object, ${findings.length} findings`],
  ];
}

function manyDaemonSetsSection(): string[][] {
  // 10,000 DaemonSets in one file, checked in process, against their YAML parse alone.
  const text = manyDaemonSets(10_000);
  const t = checksAgainstParse(text, Math.max(1, Math.ceil(ROUNDS / 2)));
  return [
    [`checks, 10,000 DaemonSets in one file (${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MiB) / its YAML parse`, `${(t.checks / 1000).toFixed(2)} s / ${(t.parse / 1000).toFixed(2)} s`, `${t.findings} findings`],
    ['ratio checks / parse (goal <= 1.5x)', `${(t.checks / t.parse).toFixed(2)}x`, ''],
  ];
}

function diffSection(): string[][] {
  // node-reporter diff of 10,000 DaemonSets against 10,000 with a new image each, against the YAML parse of both.
  const t = diffAgainstParse(10_000, Math.max(1, Math.ceil(ROUNDS / 2)));
  return [
    [`diff, 10,000 DaemonSets each changed (${(t.bytes / 2 ** 20).toFixed(1)} MiB in two files) / their YAML parse`, `${(t.diff / 1000).toFixed(2)} s / ${(t.parse / 1000).toFixed(2)} s`, `${t.objects} objects changed`],
    ['ratio diff / parse (goal <= 1.5x)', `${(t.diff / t.parse).toFixed(2)}x`, ''],
  ];
}

function jsonInputSection(): string[][] {
  // The same 10,000 DaemonSets as a kubectl JSON List and as YAML: check, then diff (every image changed), side by side.
  const yaml = manyDaemonSets(10_000);
  const json = asJsonList(yaml);
  const rounds = Math.max(1, Math.ceil(ROUNDS / 2));
  const c = checksJsonAgainstYaml(yaml, json, rounds);
  const d = diffJsonAgainstYaml(10_000, rounds);
  return [
    [`check, 10,000 DaemonSets as a kubectl JSON List (${(Buffer.byteLength(json) / 2 ** 20).toFixed(1)} MiB) / as YAML`, `${(c.json / 1000).toFixed(2)} s / ${(c.yaml / 1000).toFixed(2)} s`, `${c.findings} findings in each`],
    ['ratio check JSON / YAML (goal <= 0.33)', (c.json / c.yaml).toFixed(2), ''],
    [`diff, the same as two JSON Lists (${(d.bytes / 2 ** 20).toFixed(1)} MiB) / as YAML`, `${(d.json / 1000).toFixed(2)} s / ${(d.yaml / 1000).toFixed(2)} s`, `${d.objects} objects changed in each`],
    ['ratio diff JSON / YAML (goal <= 0.33)', (d.json / d.yaml).toFixed(2), ''],
  ];
}

function manyVariantsSection(): string[][] {
  // One app of N variant charts, with this library's linear rendering and with
  // cdk8s' own Chart.toJson (which re-resolves and re-validates the whole app for
  // every chart: the app-wide checks keep their result until the app changes),
  // and the same tree of plain constructs under Chart.toJson (cdk8s alone).
  const app = path.join(root, 'bench', 'many-variants-app.ts');
  const runApp = (n: number, mode: string, passes = 0) => {
    const out = path.join(scratch, `variants-${mode}-${n}`);
    const start = process.hrtime.bigint();
    const env = { ...process.env, BENCH_PASSES: String(passes) };
    const result = spawnSync(process.execPath, ['--require', 'tsx/cjs', app, String(n), out, ...(mode === 'ours' ? [] : [`--${mode}`])], { encoding: 'utf-8', env });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) {
      throw new Error(result.stderr);
    }
    // Whole-process wall time, as a user waits for it; the app reports its peak memory.
    const { maxRssMiB, passMs, classes } = JSON.parse(result.stdout) as { maxRssMiB: number; passMs?: number; classes: number };
    return { ms, maxRssMiB, passMs: passMs ?? 0, classes };
  };
  const rows: string[][] = [];
  const sizes = [1, 10, 100, 1000];
  type Run = ReturnType<typeof runApp>;
  const ours = new Map<number, Run>();
  const stock = new Map<number, Run>();
  // The same tree of plain constructs: what cdk8s' Chart.toJson costs with none of this library's code.
  const bare = new Map<number, Run>();
  // The same tree whose ApiObjects hold the same manifests: cdk8s alone writing the same YAML (1000 charts only).
  let rendered: Run = { ms: 0, maxRssMiB: 0, passMs: 0, classes: 0 };
  // The same again, with one class per class of the library's tree: the floor of any library whose tree this is (1000 charts only).
  let classes: Run = { ms: 0, maxRssMiB: 0, passMs: 0, classes: 0 };
  for (const n of sizes) {
    runApp(n, 'ours'); // warm-up (tsx cache)
    // Three rounds, the median of each: this machine's run-to-run spread is about 10%.
    const runs = Array.from({ length: 3 }, () => [runApp(n, 'ours'), runApp(n, 'stock'), runApp(n, 'bare'), ...(n === 1000 ? [runApp(n, 'bare-rendered'), runApp(n, 'bare-classes')] : [])]);
    const pick = (i: number) => runs.map((r) => r[i]).sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
    ours.set(n, pick(0));
    stock.set(n, pick(1));
    bare.set(n, pick(2));
    if (n === 1000) [rendered, classes] = [pick(3), pick(4)];
  }
  const same = spawnSync('diff', ['-r', path.join(scratch, 'variants-ours-1000'), path.join(scratch, 'variants-stock-1000')]).status === 0;
  for (const n of sizes) {
    const o = ours.get(n)!;
    const s = stock.get(n)!;
    rows.push([`synth ${n} variant chart(s): time, peak memory`, `${(o.ms / 1000).toFixed(2)} s, ${o.maxRssMiB.toFixed(0)} MiB`,
      `${(o.ms / ours.get(1)!.ms).toFixed(1)}x one chart; cdk8s Chart.toJson: ${(s.ms / 1000).toFixed(2)} s (${(s.ms / stock.get(1)!.ms).toFixed(1)}x)`]);
  }
  // Both ways held to the goal side by side: the app-wide checks must not make cdk8s' own per-chart rendering quadratic.
  rows.push(['1000 charts / 1 chart: App.synth, cdk8s Chart.toJson (goal <= 8x each)',
    `${(ours.get(1000)!.ms / ours.get(1)!.ms).toFixed(1)}x, ${(stock.get(1000)!.ms / stock.get(1)!.ms).toFixed(1)}x`, same ? 'output identical to cdk8s Chart.toJson' : 'OUTPUT DIFFERS']);
  // cdk8s' own share of the second: its walks of the app for each chart, over a tree of the same size.
  rows.push(['cdk8s Chart.toJson alone: 1000 charts of the same tree in plain constructs (--bare)',
    `${(bare.get(1000)!.ms / 1000).toFixed(2)} s`, `${(bare.get(1000)!.ms / bare.get(1)!.ms).toFixed(1)}x its one chart, ${(bare.get(1000)!.ms / stock.get(1)!.ms).toFixed(1)}x one variant chart with Chart.toJson`]);
  // The library's cost over cdk8s alone, whole processes side by side (issue 36).
  rows.push(['ratio 1000 charts, stock Chart.toJson / --bare (goal <= 1.5x)', `${(stock.get(1000)!.ms / bare.get(1000)!.ms).toFixed(2)}x`, '']);
  // The same with the same manifests written by cdk8s alone: what remains is building the agents and their checks.
  rows.push(['cdk8s Chart.toJson alone writing the same manifests (--bare-rendered): time; stock / it', `${(rendered.ms / 1000).toFixed(2)} s`, `${(stock.get(1000)!.ms / rendered.ms).toFixed(2)}x`]);
  // The same once more from a tree of as many classes as the library's: what cdk8s' passes cost for this tree whatever its code does.
  rows.push(['cdk8s Chart.toJson alone writing the same manifests from as many classes (--bare-classes): time; it / --bare; stock / it',
    `${(classes.ms / 1000).toFixed(2)} s`, `${(classes.ms / bare.get(1000)!.ms).toFixed(2)}x; ${(stock.get(1000)!.ms / classes.ms).toFixed(2)}x`]);
  // One of cdk8s' own validation passes over each app of 1000 charts (the median pass of 300): what stock Chart.toJson pays per chart.
  const pass = (mode: string) => [1, 2, 3].map(() => runApp(1000, mode, 300).passMs).sort((a, b) => a - b)[1];
  const [oursPass, barePass, classesPass] = [pass('stock'), pass('bare'), pass('bare-classes')];
  rows.push(['one cdk8s validation pass over the 1000 charts (Chart.toJson of a one-ConfigMap chart): stock / --bare / --bare-classes',
    `${oursPass.toFixed(2)} ms / ${barePass.toFixed(2)} ms / ${classesPass.toFixed(2)} ms`,
    `stock / --bare ${(oursPass / barePass).toFixed(2)}x: as many constructs, of ${stock.get(1000)!.classes} classes against ${bare.get(1000)!.classes}`]);
  return rows;
}

function eligibilitySection(): string[][] {
  // The shipped bin (built JavaScript) on a 5,000-node list, against a bare
  // `node -e` that only reads and parses the same file.
  execFileSync('npm', ['run', 'build', '--silent']);
  const nodes = path.join(scratch, 'nodes-5000.json');
  fs.writeFileSync(nodes, nodeListJson(5000));
  const bin = path.join(root, 'build', 'lib', 'cli', 'bin.js');
  const t = sideBySide({
    eligible: () => timeCommand(process.execPath, [bin, 'eligible', '--nodes', nodes]),
    parseOnly: () => timeCommand(process.execPath, ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(nodes)}, 'utf-8'))`]),
  }, ROUNDS);
  const mib = (fs.statSync(nodes).size / 2 ** 20).toFixed(1);
  // Peak memory of one more run, read by a preload as the process exits.
  const rss = path.join(scratch, 'rss.js');
  fs.writeFileSync(rss, "process.on('exit', () => require('fs').writeSync(2, `maxRSS ${process.resourceUsage().maxRSS}\\n`));\n");
  const peak = (args: string[]) => Number(/maxRSS (\d+)/.exec(spawnSync(process.execPath, ['--require', rss, ...args], { encoding: 'utf-8' }).stderr)?.[1] ?? NaN) / 1024;
  const peaks = { eligible: peak([bin, 'eligible', '--nodes', nodes]), parseOnly: peak(['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(nodes)}, 'utf-8'))`]) };
  return [
    [`node-reporter eligible, 5,000 nodes (${mib} MiB)`, `${(t.eligible / 1000).toFixed(2)} s`, `peak memory ${peaks.eligible.toFixed(0)} MiB (the parse alone: ${peaks.parseOnly.toFixed(0)} MiB)`],
    ['node -e: read and parse the same file', `${(t.parseOnly / 1000).toFixed(2)} s`, ''],
    ['ratio (goal <= 2x)', `${(t.eligible / t.parseOnly).toFixed(2)}x`, ''],
  ];
}

function wavesSection(): string[][] {
  // The shipped bin again (built here too, for BENCH_ONLY=waves), and check's static overlap in process.
  execFileSync('npm', ['run', 'build', '--silent']);
  return [...eligibleWavesRows(root, scratch, ROUNDS), ...overlapRows(ROUNDS)];
}

function testSection(): string[][] {
  const t = sideBySide({
    unit: () => timeCommand('npm', ['run', 'test:unit', '--silent']),
    npmTest: () => timeCommand('npm', ['test', '--silent']),
  }, Math.max(1, Math.ceil(ROUNDS / 2)));
  return [
    ['npm run test:unit (the on-save loop: unit tests, no packing or CLI runs)', `${(t.unit / 1000).toFixed(2)} s`, ''],
    ['npm test (tsc + eslint + jest)', `${(t.npmTest / 1000).toFixed(2)} s`, ''],
  ];
}

console.log(`machine: ${machine()}`);
console.log(`rounds: ${ROUNDS} (median, interleaved, after one warm-up each)\n`);
/** BENCH_ONLY=checks runs only the sections whose name holds it (the whole bench takes many minutes). */
const ONLY = process.env.BENCH_ONLY;

/** A section's rows; a section that fails says so in the table, and the others still run. */
function section(rows: () => string[][], name: string): string[][] {
  if (ONLY !== undefined && ONLY !== '' && !name.includes(ONLY)) {
    return [];
  }
  try {
    return rows();
  } catch (e) {
    process.exitCode = 1;
    return [[name, 'FAILED', (e as Error).message.split('\n')[0]]];
  }
}

printTable(['benchmark', 'figure', 'note'], [
  ...section(synthSection, 'synth vs template'),
  ...section(checksSection, 'checks overhead'),
  ...section(foreignChecksSection, 'foreign app checks'),
  ...section(manyDaemonSetsSection, 'checks on 10,000 DaemonSets'),
  ...section(diffSection, 'diff of 10,000 DaemonSets'),
  ...section(jsonInputSection, 'JSON input'),
  ...section(manyVariantsSection, 'many variants'),
  ...section(eligibilitySection, 'eligibility'),
  ...section(wavesSection, 'eligibility and check on waves'),
  ...section(testSection, 'tests'),
]);
fs.rmSync(scratch, { recursive: true, force: true });
