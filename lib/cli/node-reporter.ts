/**
 * The `node-reporter` command: argument parsing, reading files, printing.
 * The rules live in ../eligibility; this only wires them to a terminal.
 */
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_POLICY_KEY, DEFAULT_POLICY_VALUE } from '../defaults';
import { EligibilityReport, evaluateNodes, labelNodeCommand, NodeListError, PodScheduling, readNodeList } from '../eligibility';
import { checkLabelValue, checkQualifiedName } from '../k8s/syntax';

/** The usage text, printed by --help and after a usage error. */
export const USAGE = `Usage: node-reporter eligible --nodes FILE [--selector KEY=VALUE]... [--tolerate-control-plane] [--json]

Shows which nodes the node-reporter DaemonSet will run on, and why the others are skipped.

  --nodes FILE              kubectl get nodes -o json (or get node NAME -o json); - reads stdin
  --selector KEY=VALUE      the nodeSelector, repeatable (default ${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE})
  --tolerate-control-plane  tolerate node-role.kubernetes.io/control-plane:NoSchedule
  --json                    print {"desired": N, "nodes": [{"name", "eligible", "reasons"}]}
  -h, --help                show this help

Exit codes: 0 done, 2 bad usage or input.`;

/** Where the command reads and writes; a test passes its own. */
export interface Io {
  /** Reads a file, or stdin for '-'. */
  readFile(path: string): string;
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** The process's own files and streams. */
export const PROCESS_IO: Io = {
  readFile: (path) => fs.readFileSync(path === '-' ? 0 : path, 'utf-8'),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

class UsageError extends Error {}

function parseSelector(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at < 0) {
    throw new UsageError(`--selector must be KEY=VALUE but got ${JSON.stringify(text)}`);
  }
  const [key, value] = [text.slice(0, at), text.slice(at + 1)];
  const bad = checkQualifiedName('--selector key', key) ?? checkLabelValue('--selector value', value);
  if (bad !== undefined) {
    throw new UsageError(bad);
  }
  return [key, value];
}

function readNodes(io: Io, file: string) {
  const source = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new NodeListError(`${source}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? (e as Error).message})`);
  }
  return readNodeList(text, source);
}

function table(report: EligibilityReport): string {
  const rows = [['NODE', 'ELIGIBLE', 'REASON'], ...report.nodes.map((n) => [n.name, n.eligible ? 'yes' : 'no', n.reasons.join('; ') || '-'])];
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`);
  lines.push('', `desired: ${report.desired}`);

  const fixes: string[] = [];
  for (const node of report.nodes) {
    if (node.missingLabels) {
      const overwrite = node.reasons.some((r) => r.startsWith('label '));
      try {
        fixes.push(`  ${labelNodeCommand(node.name, node.missingLabels, overwrite)}`);
      } catch {
        // A node name from the file that is not a valid name gets no shell command.
        fixes.push(`  (no command for node ${JSON.stringify(node.name)}: not a valid node name)`);
      }
    }
  }
  if (fixes.length > 0) {
    lines.push('', 'Nodes whose only obstacle is the label become eligible with:', ...fixes);
  }
  if (report.nodes.some((n) => n.reasons.some((r) => r.startsWith('taint node-role.kubernetes.io/control-plane:')))) {
    lines.push('', 'Control-plane nodes are tainted; --tolerate-control-plane (NodeToleration.controlPlane() in the policy) lets the agent run there.');
  }
  return `${lines.join('\n')}\n`;
}

function eligible(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: {
      'nodes': { type: 'string' },
      'selector': { type: 'string', multiple: true },
      'tolerate-control-plane': { type: 'boolean' },
      'json': { type: 'boolean' },
      'help': { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (values.nodes === undefined) {
    throw new UsageError('--nodes FILE is required');
  }
  const selectors = values.selector ?? [`${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE}`];
  const scheduling: PodScheduling = {
    nodeSelector: Object.fromEntries(selectors.map(parseSelector)),
    tolerations: values['tolerate-control-plane'] ? [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] : [],
  };
  const report = evaluateNodes(readNodes(io, values.nodes), scheduling);
  if (values.json) {
    io.out(`${JSON.stringify({ desired: report.desired, nodes: report.nodes.map(({ name, eligible: ok, reasons }) => ({ name, eligible: ok, reasons })) })}\n`);
  } else {
    io.out(table(report));
  }
  return 0;
}

/**
 * Runs the command with these arguments (without `node` and the script).
 * @returns the exit code: 0 done, 2 bad usage or input
 */
export function main(argv: string[], io: Io = PROCESS_IO): number {
  const [command, ...rest] = argv;
  try {
    if (command === 'eligible') {
      return eligible(rest, io);
    }
    if (command === '--help' || command === '-h') {
      io.out(`${USAGE}\n`);
      return 0;
    }
    throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${JSON.stringify(command)}`);
  } catch (e) {
    if (e instanceof NodeListError) {
      io.err(`node-reporter: ${e.message}\n`);
      return 2;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))) {
      io.err(`node-reporter: ${(e as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
}
