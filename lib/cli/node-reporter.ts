/**
 * The `node-reporter` command: argument parsing, reading files, printing.
 * The rules live in ../eligibility and ../checks; this only wires them to a
 * terminal. Every failure is one line on stderr and exit 2, never a stack
 * trace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, ParseArgsConfig } from 'node:util';
import { RULES } from '../checks/rules';
import { parseYaml } from '../checks/yaml';
import { DEFAULT_POLICY_KEY, DEFAULT_POLICY_VALUE } from '../defaults';
import { daemonSetsIn, decodeText, EligibilityReport, evaluateNodes, labelNodeCommand, NodeListError, PodScheduling, printable, printableJson, printableLines, readNodeList } from '../eligibility';
import { TAINT_EFFECTS, Toleration } from '../k8s/scheduling';
import { checkDns1123Subdomain, checkLabelValue, checkQualifiedName, editDistance, isRecord } from '../k8s/syntax';
import { CONTROL_PLANE_TAINT_KEY } from '../node-toleration';

/** The usage of `node-reporter eligible`, printed by `node-reporter eligible --help`. */
const ELIGIBLE_USAGE = `Usage: node-reporter eligible --nodes FILE [--selector KEY=VALUE]... [--toleration KEY[=VALUE]:EFFECT]... [--tolerate-control-plane] [--json]
       node-reporter eligible --nodes FILE --manifest FILE [--json]

Shows which nodes a DaemonSet will run on, and why the others are skipped, as the DaemonSet controller decides.

  --nodes FILE              kubectl get nodes -o json|yaml, kubectl get node NAME -o json, or kubectl get --raw /api/v1/nodes; - reads stdin
  --selector KEY=VALUE      the nodeSelector, repeatable (default ${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE})
  --toleration KEY[=VALUE]:EFFECT
                            a toleration (Equal with a value, else Exists), repeatable; EFFECT is NoSchedule, PreferNoSchedule or NoExecute
  --tolerate-control-plane  tolerate node-role.kubernetes.io/control-plane:NoSchedule
  --manifest FILE           judge every DaemonSet in this YAML (e.g. dist/x.k8s.yaml) by its own nodeSelector, node affinity,
                            tolerations, nodeName and host network, one report each; not with --selector or --toleration
  --json                    print {"desired": N, "nodes": [{"name", "eligible", "reasons"}]}
                            (with --manifest: {"daemonSets": [{"name", "namespace", "desired", "nodes"}]})
  -h, --help                show this help

Exit codes: 0 done, 2 bad usage or input.`;

/** The usage of `node-reporter check`, printed by `node-reporter check --help`. */
const CHECK_USAGE = `Usage: node-reporter check FILE|DIR|-... [--format text|json|sarif] [--pod-security LEVEL] [--skip-kind KIND]... [--server-side]

Runs the manifest checks on any YAML (Helm or kustomize output, hand-written files), as a v1.28 API server and
kubectl apply would judge it: the Kubernetes 1.28 schema, the API server's validation, Pod Security, DaemonSet
rules. Folders are searched for *.yaml and *.yml (not folders named .* or node_modules); - reads stdin. Lists are
expanded. Kustomization files, Helm Chart.yaml, values files, chart templates and documents without apiVersion
and kind are set aside with a note. A custom resource is checked against its CustomResourceDefinition when the
input holds it, else reported as not checked (a warning).

  --format text|json|sarif  the report's form (default text); SARIF 2.1.0 for code scanning
  --pod-security LEVEL      restricted, baseline or privileged: the Pod Security level of namespaces the input does not
                            hold (default restricted); a Namespace in the input is judged at its own labels
  --skip-kind KIND          do not check objects of this kind (Kind or apiVersion/Kind), repeatable
  --server-side             judge as kubectl apply --server-side (no 256 KiB last-applied annotation)
  -h, --help                show this help

Exit codes: 0 clean (warnings allowed), 1 blocking findings, 2 bad usage or input (no Kubernetes objects at all).`;

/** The usage printed by `node-reporter --help`. */
export const USAGE = `Usage: node-reporter COMMAND [OPTIONS]

  eligible   which nodes a DaemonSet runs on, and why not on the others
  check      the manifest checks on any YAML, for CI
  --version  print the version

Run node-reporter COMMAND --help for a command's options.`;

/** Where the command reads and writes; a test passes its own. */
export interface Io {
  /** Reads a file, or stdin for '-': its bytes, or text. */
  readFile(path: string): string | Uint8Array;
  /** Lists a folder (fs.readdirSync with file types, by default). */
  listDir?(path: string): fs.Dirent[];
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** The process's own files and streams. */
export const PROCESS_IO: Io = {
  readFile: (file) => fs.readFileSync(file === '-' ? 0 : file),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Bad usage: one line, with where to read the usage. */
class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

/** The package's version, from its package.json (beside lib/ in the sources, beside build/ in the package). */
export function version(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf-8')) as { name?: string; version?: string };
      if (pkg.name === 'node-reporter' && typeof pkg.version === 'string') return pkg.version;
    }
  }
  return 'unknown';
}

/** The candidate nearest to a misspelt word (at most 2 edits), if any. */
function nearest(word: string, candidates: readonly string[]): string | undefined {
  const scored = candidates.map((c) => [c, editDistance(word, c)] as const).filter(([, d]) => d <= 2).sort((a, b) => a[1] - b[1]);
  return scored[0]?.[0];
}

/** parseArgs, with its errors made short and helpful: the option, and the one meant. */
function parse<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options;
  try {
    return parseArgs(config);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = (e as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const flags = Object.keys(options ?? {}).map((o) => `--${o}`);
      const meant = nearest(unknown[1].split('=')[0], flags);
      throw new UsageError(`unknown option ${printable(unknown[1], true)}${meant ? `; did you mean ${meant}?` : ''}`, command);
    }
    const positional = /^Unexpected argument '([^']+)'/.exec(message);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && positional) {
      throw new UsageError(`unexpected argument ${printable(positional[1], true)}`, command);
    }
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(printable(message.split('\n')[0]), command);
    }
    throw e;
  }
}

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
    throw new UsageError(`--selector must be KEY=VALUE but got ${printable(text, true)}`, 'eligible');
  }
  const [key, value] = [text.slice(0, at), text.slice(at + 1)];
  const bad = checkQualifiedName('--selector key', key) ?? checkLabelValue('--selector value', value);
  if (bad !== undefined) {
    throw new UsageError(bad, 'eligible');
  }
  return [key, value];
}

function parseToleration(text: string): Toleration {
  const colon = text.lastIndexOf(':');
  const effect = colon < 0 ? '' : text.slice(colon + 1);
  if (colon < 0 || !TAINT_EFFECTS.includes(effect)) {
    throw new UsageError(`--toleration must be KEY[=VALUE]:EFFECT with EFFECT one of ${TAINT_EFFECTS.join(', ')} but got ${printable(text, true)}`, 'eligible');
  }
  const head = text.slice(0, colon);
  const at = head.indexOf('=');
  const [key, value] = at < 0 ? [head, undefined] : [head.slice(0, at), head.slice(at + 1)];
  const bad = checkQualifiedName('--toleration key', key) ?? (value !== undefined ? checkLabelValue('--toleration value', value) : undefined);
  if (bad !== undefined) {
    throw new UsageError(bad, 'eligible');
  }
  return value === undefined ? { key, operator: 'Exists', effect } : { key, operator: 'Equal', value, effect };
}

function cannotRead(source: string, e: unknown): NodeListError {
  const code = (e as NodeJS.ErrnoException).code;
  return new NodeListError(`${source}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? printable((e as Error).message)})`);
}

function readInput(io: Io, file: string): { bytes: string | Uint8Array; source: string } {
  const source = file === '-' ? 'stdin' : printable(file);
  try {
    return { bytes: io.readFile(file), source };
  } catch (e) {
    throw cannotRead(source, e);
  }
}

function readNodes(io: Io, file: string) {
  const { bytes, source } = readInput(io, file);
  return readNodeList(bytes, source);
}

function readManifest(io: Io, file: string): { objects: unknown[]; source: string } {
  const { bytes, source } = readInput(io, file);
  // As kubectl and \`check\` read it: YAML 1.1, the last of a repeated key, a List's items.
  const { documents, findings } = parseYaml(decodeText(bytes), source);
  const broken = findings.find((f) => f.rule === RULES.yamlSyntax);
  if (broken) {
    const message = `${broken.message}${broken.line !== undefined ? ` at line ${broken.line}` : ''}`;
    throw new NodeListError(`${source}: ${/^nested/.test(message) ? message : `not YAML (${printable(message)})`}`);
  }
  const objects = documents.flatMap(({ value }) => (isRecord(value) && Array.isArray(value.items) ? value.items : [value]));
  if (!objects.some((o) => isRecord(o) && o.kind === 'DaemonSet')) {
    throw new NodeListError(`${source}: has no DaemonSet`);
  }
  return { objects, source };
}

/** The report as a table, with the fixes that apply; `controlPlaneHint` is the fix for a tainted control plane. */
function table(report: EligibilityReport, controlPlaneHint: string): string {
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
    // A manifest's nodeSelector may want what no label can hold: then there is no command to print.
    const invalid = Object.entries(node.missingLabels).find(([k, v]) => checkQualifiedName('key', k) !== undefined || checkLabelValue('value', v) !== undefined);
    if (invalid) {
      fixes.push(`  (no command for node ${printable(node.name)}: the nodeSelector wants ${printable(invalid[0])}=${printable(invalid[1], true)}, which is not a valid label, so no node can match it)`);
    } else {
      fixes.push(name !== undefined ? `  ${labelNodeCommand(name, node.missingLabels, overwrite)}` : `  (no command for node ${printable(node.name, true)}: not a valid node name)`);
    }
  }
  if (fixes.length > 0) {
    lines.push('', 'Nodes whose only obstacle is the label become eligible with:', ...fixes);
  }
  if (report.nodes.some((n) => n.reasons.some((r) => r.startsWith(`taint ${CONTROL_PLANE_TAINT_KEY}:`)))) {
    lines.push('', controlPlaneHint);
  }
  return `${lines.join('\n')}\n`;
}

const verdicts = (report: EligibilityReport) => report.nodes.map(({ name, eligible: ok, reasons }) => ({ name, eligible: ok, reasons }));

function eligible(args: string[], io: Io): number {
  const { values } = parse('eligible', {
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
    io.out(`${ELIGIBLE_USAGE}\n`);
    return 0;
  }
  if (values.nodes === undefined) {
    throw new UsageError('--nodes FILE is required', 'eligible');
  }
  if (values.manifest !== undefined) {
    if (values.manifest === '-' && values.nodes === '-') {
      throw new UsageError('--nodes and --manifest cannot both read stdin (-): give one of them a file', 'eligible');
    }
    if (values.selector || values.toleration || values['tolerate-control-plane']) {
      throw new UsageError('--manifest judges each DaemonSet by its own scheduling fields; leave out --selector, --toleration and --tolerate-control-plane', 'eligible');
    }
    const { objects, source } = readManifest(io, values.manifest);
    const reports = daemonSetsIn(objects, readNodes(io, values.nodes), source);
    if (values.json) {
      io.out(`${printableJson({ daemonSets: reports.map((r) => ({ name: r.name, namespace: r.namespace, desired: r.desired, nodes: verdicts(r) })) })}\n`);
    } else {
      // --manifest takes no --tolerate-control-plane: the fix belongs in the manifest.
      const hint = `Control-plane nodes are tainted; tolerate ${CONTROL_PLANE_TAINT_KEY}:NoSchedule in the DaemonSet's pod template (NodeToleration.controlPlane() in the policy) to run there.`;
      io.out(reports.map((r) => `DaemonSet ${r.namespace ? `${printable(r.namespace)}/` : ''}${printable(r.name)}\n${table(r, hint)}`).join('\n'));
    }
    return 0;
  }
  const selectors = (values.selector ?? [`${DEFAULT_POLICY_KEY}=${DEFAULT_POLICY_VALUE}`]).map(parseSelector);
  const seen = new Map<string, string>();
  for (const [key, value] of selectors) {
    if (seen.has(key)) {
      throw new UsageError(`--selector repeats the key ${printable(key, true)} (${printable(key)}=${printable(seen.get(key)!)} and ${printable(key)}=${printable(value)}): a node label has one value`, 'eligible');
    }
    seen.set(key, value);
  }
  const scheduling: PodScheduling = {
    nodeSelector: Object.fromEntries(selectors),
    tolerations: [
      ...(values['tolerate-control-plane'] ? [{ key: CONTROL_PLANE_TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' }] : []),
      ...(values.toleration ?? []).map(parseToleration),
    ],
  };
  const report = evaluateNodes(readNodes(io, values.nodes), scheduling);
  if (values.json) {
    io.out(`${printableJson({ desired: report.desired, nodes: verdicts(report) })}\n`);
  } else {
    io.out(table(report, 'Control-plane nodes are tainted; --tolerate-control-plane (NodeToleration.controlPlane() in the policy) lets the agent run there.'));
  }
  return 0;
}

/** Folders a search skips: hidden ones (.git, .github) and installed packages. */
const SKIPPED_FOLDERS = /^(\..+|node_modules)$/;

/** The *.yaml and *.yml files under a folder, in name order; symbolic links followed once. An unreadable folder is one line. */
function yamlFilesUnder(root: string, io: Io): string[] {
  const files: string[] = [];
  const visited = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    let entries: fs.Dirent[];
    try {
      real = fs.realpathSync(dir);
      entries = io.listDir ? io.listDir(dir) : fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw cannotRead(printable(dir), e);
    }
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const file = path.join(dir, entry.name);
      let folder = entry.isDirectory();
      let plain = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const stat = fs.statSync(file);
          folder = stat.isDirectory();
          plain = stat.isFile();
        } catch {
          continue; // a dangling link names nothing to check
        }
      }
      if (folder && !SKIPPED_FOLDERS.test(entry.name)) walk(file);
      else if (plain && /\.ya?ml$/.test(entry.name)) files.push(file);
    }
  };
  walk(root);
  return files;
}

/** The YAML files of the arguments: files as given, folders searched. */
function manifestFiles(args: string[], io: Io): string[] {
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
      const found = yamlFilesUnder(arg, io);
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

const LEVELS = ['restricted', 'baseline', 'privileged'];
const FORMATS = ['text', 'json', 'sarif'];

function check(args: string[], io: Io): number {
  const { values, positionals } = parse('check', {
    args,
    options: {
      'format': { type: 'string', default: 'text' },
      'pod-security': { type: 'string', default: 'restricted' },
      'skip-kind': { type: 'string', multiple: true },
      'server-side': { type: 'boolean' },
      'help': { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    io.out(`${CHECK_USAGE}\n`);
    return 0;
  }
  const format = values.format;
  if (!FORMATS.includes(format)) {
    throw new UsageError(`--format must be text, json or sarif but got ${printable(format, true)}`, 'check');
  }
  const level = values['pod-security'];
  if (!LEVELS.includes(level)) {
    throw new UsageError(`--pod-security must be restricted, baseline or privileged but got ${printable(level, true)}`, 'check');
  }
  const skipKinds = values['skip-kind'] ?? [];
  const badKind = skipKinds.find((k) => !/^([A-Za-z0-9.-]+\/)?([A-Za-z0-9]+\/)?[A-Za-z][A-Za-z0-9]*$/.test(k));
  if (badKind !== undefined) {
    throw new UsageError(`--skip-kind must be a kind (ServiceMonitor) or apiVersion/kind (monitoring.coreos.com/v1/ServiceMonitor) but got ${printable(badKind, true)}`, 'check');
  }
  if (positionals.length === 0) {
    throw new UsageError('check needs at least one FILE, DIR or -', 'check');
  }
  // Loaded here: the eligibility command must not pay for the schema.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const checks = require('../checks') as typeof import('../checks');
  const stdin = positionals.includes('-') ? [{ file: 'stdin', text: decodeText(readInput(io, '-').bytes) }] : [];
  const files = manifestFiles(positionals.filter((p) => p !== '-'), io);
  const report = checks.checkInputs([...stdin, ...files.map((file) => ({ file, text: decodeText(readInput(io, file).bytes) }))], {
    podSecurity: level as 'restricted' | 'baseline' | 'privileged',
    skipKinds,
    apply: values['server-side'] ? 'server-side' : 'client-side',
  });
  const { findings, notes } = report;
  if (report.objects === 0 && findings.length === 0) {
    throw new NodeListError(`no Kubernetes objects in the input (${report.files} file(s) read${notes.length > 0 ? `, ${notes.length} set aside: ${printable(notes[0].message)}` : ''})`);
  }
  const errors = findings.filter(checks.isBlocking).length;
  const waived = findings.filter((f) => f.waived !== undefined).length;
  if (format === 'json') {
    io.out(`${printableJson({
      files: report.files, objects: report.objects, errors, warnings: findings.length - errors - waived, waived,
      notes,
      findings: findings.map((f) => ({ file: f.file, line: f.line, column: f.column, object: f.object, path: f.path, rule: f.rule.id, severity: f.severity, message: f.message, waived: f.waived, fix: f.rule.fix, source: f.rule.citation })),
    })}\n`);
  } else if (format === 'sarif') {
    io.out(`${printableJson(checks.toSarif(findings, { toolVersion: version(), baseDirectory: process.cwd(), notes }))}\n`);
  } else {
    const noted = notes.map((n) => `note: ${n.file !== undefined ? `${n.file}: ` : ''}${n.message}`);
    const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const summary = `checked ${count(report.files, 'file')}, ${count(report.objects, 'object')}: ${checks.formatCounts(findings)}`;
    io.out(`${printableLines([...findings.map(checks.formatFinding), ...noted, summary].join('\n'))}\n`);
  }
  return errors > 0 ? 1 : 0;
}

const COMMANDS: Record<string, (args: string[], io: Io) => number> = { eligible, check };

/**
 * Runs the command with these arguments (without `node` and the script).
 * @returns the exit code: 0 done (check: clean), 1 (check) blocking findings, 2 bad usage or input
 */
export function main(argv: string[], io: Io = PROCESS_IO): number {
  const [command, ...rest] = argv;
  try {
    if (command === '--help' || command === '-h') {
      io.out(`${USAGE}\n`);
      return 0;
    }
    if (command === '--version' || command === '-V') {
      io.out(`${version()}\n`);
      return 0;
    }
    if (command === undefined) {
      throw new UsageError('a command is required: eligible or check');
    }
    const run = Object.prototype.hasOwnProperty.call(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) {
      const meant = nearest(command, Object.keys(COMMANDS));
      throw new UsageError(`unknown command ${printable(command, true)}${meant ? `; did you mean "${meant}"?` : ': the commands are eligible and check'}`);
    }
    return run(rest, io);
  } catch (e) {
    if (e instanceof NodeListError) {
      io.err(`node-reporter: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`node-reporter${e.command ? ` ${e.command}` : ''}: ${printable(e.message)} (see node-reporter ${e.command ? `${e.command} ` : ''}--help)\n`);
      return 2;
    }
    throw e;
  }
}
