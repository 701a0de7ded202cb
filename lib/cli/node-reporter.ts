/**
 * The `node-reporter` command: argument parsing, reading files, printing.
 * The rules live in ../eligibility; this only wires them to a terminal.
 */
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_POLICY_KEY, DEFAULT_POLICY_VALUE } from '../defaults';
import { daemonSetsIn, decodeText, EligibilityReport, evaluateNodes, labelNodeCommand, NodeListError, PodScheduling, printable, printableJson, printableLines, readNodeList } from '../eligibility';
import { Toleration } from '../k8s/scheduling';
import { checkDns1123Subdomain, checkLabelValue, checkQualifiedName } from '../k8s/syntax';

/** The usage text, printed by --help and after a usage error. */
export const USAGE = `Usage: node-reporter eligible --nodes FILE [--selector KEY=VALUE]... [--toleration KEY[=VALUE]:EFFECT]... [--tolerate-control-plane] [--json]
       node-reporter eligible --nodes FILE --manifest FILE [--json]
       node-reporter check FILE|DIR|-... [--format text|json|sarif]

check: runs the manifest checks (Kubernetes 1.28 schema, API server validation, Pod Security
"restricted", DaemonSet rules) on any YAML: Helm or kustomize output, hand-written files.
Folders are searched for *.yaml and *.yml. Exit codes: 0 clean (warnings allowed), 1 blocking
findings, 2 bad usage or input.

Shows which nodes a DaemonSet will run on, and why the others are skipped, as the DaemonSet controller decides.

  --nodes FILE              kubectl get nodes -o json|yaml, kubectl get node NAME -o json, or kubectl get --raw /api/v1/nodes; - reads stdin
  --selector KEY=VALUE      the nodeSelector, repeatable (default ${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE})
  --toleration KEY[=VALUE]:EFFECT
                            a toleration (Equal with a value, else Exists), repeatable; EFFECT is NoSchedule, PreferNoSchedule or NoExecute
  --tolerate-control-plane  tolerate node-role.kubernetes.io/control-plane:NoSchedule
  --manifest FILE           judge every DaemonSet in this YAML (e.g. dist/x.k8s.yaml) by its own nodeSelector,
                            node affinity, tolerations and host network, one report each; not with --selector or --toleration
  --json                    print {"desired": N, "nodes": [{"name", "eligible", "reasons"}]}
                            (with --manifest: {"daemonSets": [{"name", "namespace", "desired", "nodes"}]})
  -h, --help                show this help

Exit codes: 0 done, 2 bad usage or input.`;

/** Where the command reads and writes; a test passes its own. */
export interface Io {
  /** Reads a file, or stdin for '-': its bytes, or text. */
  readFile(path: string): string | Uint8Array;
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** The process's own files and streams. */
export const PROCESS_IO: Io = {
  readFile: (path) => fs.readFileSync(path === '-' ? 0 : path),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

class UsageError extends Error {}

/**
 * Label prefixes the kubelet (or the cloud provider) sets from the node
 * itself: labelling them by hand is refused by NodeRestriction or undone.
 */
const SYSTEM_LABEL_PREFIXES = ['kubernetes.io', 'k8s.io', 'beta.kubernetes.io', 'node.kubernetes.io', 'topology.kubernetes.io'];

/** Whether a person may set this node label (node-role.kubernetes.io/* and node.kubernetes.io/exclude-* are theirs). */
export function isUserLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) {
    return true;
  }
  const [prefix, name] = [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix === 'node.kubernetes.io' && name.startsWith('exclude-')) {
    return true;
  }
  return !SYSTEM_LABEL_PREFIXES.includes(prefix);
}

function parseSelector(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at < 0) {
    throw new UsageError(`--selector must be KEY=VALUE but got ${printable(text, true)}`);
  }
  const [key, value] = [text.slice(0, at), text.slice(at + 1)];
  const bad = checkQualifiedName('--selector key', key) ?? checkLabelValue('--selector value', value);
  if (bad !== undefined) {
    throw new UsageError(bad);
  }
  return [key, value];
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function parseToleration(text: string): Toleration {
  const colon = text.lastIndexOf(':');
  const effect = colon < 0 ? '' : text.slice(colon + 1);
  if (colon < 0 || !EFFECTS.includes(effect)) {
    throw new UsageError(`--toleration must be KEY[=VALUE]:EFFECT with EFFECT one of ${EFFECTS.join(', ')} but got ${printable(text, true)}`);
  }
  const head = text.slice(0, colon);
  const at = head.indexOf('=');
  const [key, value] = at < 0 ? [head, undefined] : [head.slice(0, at), head.slice(at + 1)];
  const bad = checkQualifiedName('--toleration key', key) ?? (value !== undefined ? checkLabelValue('--toleration value', value) : undefined);
  if (bad !== undefined) {
    throw new UsageError(bad);
  }
  return value === undefined ? { key, operator: 'Exists', effect } : { key, operator: 'Equal', value, effect };
}

function readInput(io: Io, file: string): { bytes: string | Uint8Array; source: string } {
  const source = file === '-' ? 'stdin' : printable(file);
  try {
    return { bytes: io.readFile(file), source };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new NodeListError(`${source}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? printable((e as Error).message)})`);
  }
}

function readNodes(io: Io, file: string) {
  const { bytes, source } = readInput(io, file);
  return readNodeList(bytes, source);
}

function readManifest(io: Io, file: string): unknown[] {
  const { bytes, source } = readInput(io, file);
  const docs = parseAllDocuments(decodeText(bytes), { uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const error = list.flatMap((d) => d.errors)[0];
  if (error) {
    throw new NodeListError(`${source}: not YAML (${printable(error.message.split('\n')[0])})`);
  }
  let objects: unknown[];
  try {
    objects = list.map((d) => d.toJS({ maxAliasCount: 100 })).filter((o) => o !== null);
  } catch (e) {
    throw new NodeListError(`${source}: not usable YAML (${printable((e as Error).message.split('\n')[0])})`);
  }
  if (!objects.some((o) => typeof o === 'object' && o !== null && (o as { kind?: unknown }).kind === 'DaemonSet')) {
    throw new NodeListError(`${source}: has no DaemonSet`);
  }
  return objects;
}

function table(report: EligibilityReport): string {
  const rows = [['NODE', 'ELIGIBLE', 'REASON'], ...report.nodes.map((n) => [printable(n.name), n.eligible ? 'yes' : 'no', n.reasons.join('; ') || '-'])];
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`);
  lines.push('', `desired: ${report.desired}`);

  const fixes: string[] = [];
  for (const node of report.nodes) {
    if (!node.missingLabels) {
      continue;
    }
    const system = Object.keys(node.missingLabels).filter((k) => !isUserLabel(k));
    if (system.length > 0) {
      fixes.push(`  (node ${printable(node.name)}: ${system.join(', ')} ${system.length > 1 ? 'are' : 'is'} set by the kubelet or the cloud provider from the node itself and cannot be labelled by hand; select the nodes by a label of your own instead)`);
      continue;
    }
    const overwrite = node.reasons.some((r) => r.startsWith('label '));
    const name = checkDns1123Subdomain('nodeName', node.name) === undefined ? node.name : undefined;
    fixes.push(name !== undefined ? `  ${labelNodeCommand(name, node.missingLabels, overwrite)}` : `  (no command for node ${printable(node.name, true)}: not a valid node name)`);
  }
  if (fixes.length > 0) {
    lines.push('', 'Nodes whose only obstacle is the label become eligible with:', ...fixes);
  }
  if (report.nodes.some((n) => n.reasons.some((r) => r.startsWith('taint node-role.kubernetes.io/control-plane:')))) {
    lines.push('', 'Control-plane nodes are tainted; --tolerate-control-plane (NodeToleration.controlPlane() in the policy) lets the agent run there.');
  }
  return `${lines.join('\n')}\n`;
}

const verdicts = (report: EligibilityReport) => report.nodes.map(({ name, eligible: ok, reasons }) => ({ name, eligible: ok, reasons }));

function eligible(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: {
      'nodes': { type: 'string' },
      'selector': { type: 'string', multiple: true },
      'toleration': { type: 'string', multiple: true },
      'tolerate-control-plane': { type: 'boolean' },
      'manifest': { type: 'string' },
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
  if (values.manifest !== undefined) {
    if (values.selector || values.toleration || values['tolerate-control-plane']) {
      throw new UsageError('--manifest judges each DaemonSet by its own scheduling fields; leave out --selector, --toleration and --tolerate-control-plane');
    }
    const objects = readManifest(io, values.manifest);
    const reports = daemonSetsIn(objects, readNodes(io, values.nodes));
    if (values.json) {
      io.out(`${printableJson({ daemonSets: reports.map((r) => ({ name: r.name, namespace: r.namespace, desired: r.desired, nodes: verdicts(r) })) })}\n`);
    } else {
      io.out(reports.map((r) => `DaemonSet ${r.namespace ? `${printable(r.namespace)}/` : ''}${printable(r.name)}\n${table(r)}`).join('\n'));
    }
    return 0;
  }
  const selectors = (values.selector ?? [`${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE}`]).map(parseSelector);
  const seen = new Map<string, string>();
  for (const [key, value] of selectors) {
    if (seen.has(key)) {
      throw new UsageError(`--selector repeats the key ${printable(key, true)} (${printable(key)}=${printable(seen.get(key)!)} and ${printable(key)}=${printable(value)}): a node label has one value`);
    }
    seen.set(key, value);
  }
  const scheduling: PodScheduling = {
    nodeSelector: Object.fromEntries(selectors),
    tolerations: [
      ...(values['tolerate-control-plane'] ? [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] : []),
      ...(values.toleration ?? []).map(parseToleration),
    ],
  };
  const report = evaluateNodes(readNodes(io, values.nodes), scheduling);
  if (values.json) {
    io.out(`${printableJson({ desired: report.desired, nodes: verdicts(report) })}\n`);
  } else {
    io.out(table(report));
  }
  return 0;
}

/** The YAML files of the arguments: files as given, folders searched for *.yaml and *.yml, in name order. */
function manifestFiles(args: string[]): string[] {
  const files: string[] = [];
  for (const arg of args) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(arg);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new NodeListError(`${printable(arg)}: cannot read (${code === 'ENOENT' ? 'no such file or folder' : code})`);
    }
    if (stat.isDirectory()) {
      const found = (fs.readdirSync(arg, { recursive: true }) as string[])
        .filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => `${arg.replace(/\/+$/, '')}/${f}`);
      if (found.length === 0) {
        throw new NodeListError(`${printable(arg)}: no *.yaml or *.yml files`);
      }
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  return files;
}

function check(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    options: { format: { type: 'string', default: 'text' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (!['text', 'json', 'sarif'].includes(values.format!)) {
    throw new UsageError(`--format must be text, json or sarif but got ${printable(values.format!, true)}`);
  }
  if (positionals.length === 0) {
    throw new UsageError('check needs at least one FILE, DIR or -');
  }
  // Loaded here: the eligibility command must not pay for the schema.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const checks = require('../checks') as typeof import('../checks');
  const stdin = positionals.includes('-') ? [{ file: 'stdin', text: decodeText(readInput(io, '-').bytes) }] : [];
  const files = manifestFiles(positionals.filter((p) => p !== '-'));
  const findings = checks.checkTexts([...stdin, ...files.map((file) => ({ file, text: decodeText(readInput(io, file).bytes) }))]);
  if (values.format === 'json') {
    io.out(`${printableJson({
      errors: findings.filter(checks.isBlocking).length,
      warnings: findings.filter((f) => !checks.isBlocking(f) && f.waived === undefined).length,
      waived: findings.filter((f) => f.waived !== undefined).length,
      findings: findings.map((f) => ({ file: f.file, object: f.object, path: f.path, rule: f.rule.id, severity: f.severity, message: f.message, waived: f.waived, fix: f.rule.fix, source: f.rule.citation })),
    })}\n`);
  } else if (values.format === 'sarif') {
    io.out(`${printableJson(checks.toSarif(findings))}\n`);
  } else {
    io.out(`${printableLines(checks.formatReport(findings))}\n`);
  }
  return findings.some(checks.isBlocking) ? 1 : 0;
}

/**
 * Runs the command with these arguments (without `node` and the script).
 * @returns the exit code: 0 done (check: clean), 1 (check) blocking findings, 2 bad usage or input
 */
export function main(argv: string[], io: Io = PROCESS_IO): number {
  const [command, ...rest] = argv;
  try {
    if (command === 'eligible') {
      return eligible(rest, io);
    }
    if (command === 'check') {
      return check(rest, io);
    }
    if (command === '--help' || command === '-h') {
      io.out(`${USAGE}\n`);
      return 0;
    }
    throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${printable(command, true)}`);
  } catch (e) {
    if (e instanceof NodeListError) {
      io.err(`node-reporter: ${e.message}\n`);
      return 2;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))) {
      io.err(`node-reporter: ${printable((e as Error).message)}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
}
