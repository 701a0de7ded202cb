import { execFileSync, spawnSync } from 'node:child_process';
import * as os from 'node:os';

/** Wall-clock milliseconds of one run of a command (in `cwd`, default the current folder); throws if it fails. */
export function timeCommand(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', ...env }, encoding: 'utf-8', cwd });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  }
  return ms;
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs each contender `rounds` times, interleaved (A B A B ...), after one
 * warm-up each, so that load on this shared machine hits all alike. Returns
 * the median milliseconds of each.
 */
export function sideBySide(contenders: Record<string, () => number>, rounds: number): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (const [name, run] of Object.entries(contenders)) {
    run();
    samples[name] = [];
  }
  for (let i = 0; i < rounds; i++) {
    for (const [name, run] of Object.entries(contenders)) {
      samples[name].push(run());
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, median(s)]));
}

/** One line that says which machine the figures come from. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
  let npm = '';
  try {
    npm = execFileSync('npm', ['--version'], { encoding: 'utf-8' }).trim();
  } catch {
    npm = '?';
  }
  return `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, node ${process.version}, npm ${npm}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;
}

/** Prints a table with aligned columns. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  rows.forEach((r) => console.log(line(r)));
}
