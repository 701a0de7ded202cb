/** `node-reporter check`: the manifest checks on any YAML, for CI. */
import { readTexts } from '../checks/input/files';
import { describeVersionSource } from '../checks/judged-version';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_ANNOTATION, KUBERNETES_VERSIONS, parseKubernetesVersion } from '../checks/versions';
import { NodeListError } from '../eligibility';
import { printable, printableJson, printableLines } from '../eligibility/printable';
import { COMMON_OPTIONS, commonUsage, failOnWarnings, Format, formatOf, parse, UsageError } from './args';
import { Io } from './io';
import { answerHelpOrVersion, version } from './version';

const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'sarif'];

/** The usage of `node-reporter check`, printed by `node-reporter check --help`. */
const CHECK_USAGE = `Usage: node-reporter check FILE|DIR|-... [--kubernetes-version V] [--format text|json|markdown|sarif] [--pod-security LEVEL] [--skip-kind KIND]... [--server-side]

Runs the manifest checks on any YAML (Helm or kustomize output, hand-written files), as an API server of the
Kubernetes version judged by and kubectl apply would judge it: that version's schema and served APIs, the API
server's validation, Pod Security, DaemonSet rules. Folders are searched for *.yaml and *.yml (not folders named .* or node_modules); - reads stdin. Lists are
expanded. Kustomization files, Helm Chart.yaml, values files, chart templates and documents without apiVersion
and kind are set aside with a note. A custom resource is checked against its CustomResourceDefinition when the
input holds it, else reported as not checked (a warning).

  --kubernetes-version V    the Kubernetes version to judge by: ${KUBERNETES_VERSIONS.join(', ')}; default: the one the
                            input's ${KUBERNETES_VERSION_ANNOTATION} annotation names, else ${DEFAULT_KUBERNETES_VERSION}
  --pod-security LEVEL      restricted, baseline or privileged: the Pod Security level of namespaces the input does not
                            hold (default restricted); a Namespace in the input is judged at its own labels
  --skip-kind KIND          do not check objects of this kind (Kind or apiVersion/Kind), repeatable
  --server-side             judge as kubectl apply --server-side (no 256 KiB last-applied annotation)
${commonUsage(FORMATS, 'exit 1 on warnings too (not on waived findings)')}
                            sarif is SARIF 2.1.0 for code scanning; markdown is for a PR comment

Exit codes: 0 clean (warnings allowed), 1 blocking findings (or warnings, with --fail-on-warnings),
2 bad usage or input (no Kubernetes objects at all).`;

const LEVELS = ['restricted', 'baseline', 'privileged'];

/** A Markdown table cell. */
const cell = (text: string | number | undefined) => String(text ?? '').replace(/\\/g, '\\\\').replace(/([|`<>])/g, '\\$1').replace(/\r?\n/g, ' ');

/** `node-reporter check`. */
export function check(args: string[], io: Io): number {
  const { values, positionals } = parse('check', {
    args,
    options: {
      'kubernetes-version': { type: 'string' },
      'pod-security': { type: 'string', default: 'restricted' },
      'skip-kind': { type: 'string', multiple: true },
      'server-side': { type: 'boolean' },
      ...COMMON_OPTIONS,
    },
    strict: true,
    allowPositionals: true,
  });
  const answered = answerHelpOrVersion(values, CHECK_USAGE, io);
  if (answered !== undefined) return answered;
  const format = formatOf('check', values.format, FORMATS);
  const level = values['pod-security'];
  if (!LEVELS.includes(level)) {
    throw new UsageError(`--pod-security must be restricted, baseline or privileged but got ${printable(level, true)}`, 'check');
  }
  const skipKinds = values['skip-kind'] ?? [];
  const badKind = skipKinds.find((k) => !/^([A-Za-z0-9.-]+\/)?([A-Za-z0-9]+\/)?[A-Za-z][A-Za-z0-9]*$/.test(k));
  if (badKind !== undefined) {
    throw new UsageError(`--skip-kind must be a kind (ServiceMonitor) or apiVersion/kind (monitoring.coreos.com/v1/ServiceMonitor) but got ${printable(badKind, true)}`, 'check');
  }
  const chosen = values['kubernetes-version'];
  const parsed = chosen === undefined ? undefined : parseKubernetesVersion(chosen);
  if (parsed !== undefined && 'error' in parsed) {
    throw new UsageError(`--kubernetes-version ${parsed.error}`, 'check');
  }
  if (positionals.length === 0) {
    throw new UsageError('check needs at least one FILE, DIR or -', 'check');
  }
  // Loaded here: the eligibility command must not pay for the schema.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const checks = require('../checks') as typeof import('../checks');
  const report = checks.checkInputs(readTexts(io, positionals), {
    podSecurity: level as 'restricted' | 'baseline' | 'privileged',
    skipKinds,
    apply: values['server-side'] ? 'server-side' : 'client-side',
    kubernetesVersion: chosen,
  });
  const judged = report.kubernetesVersion;
  const why = describeVersionSource(judged.source, '--kubernetes-version');
  const { findings, notes } = report;
  if (report.objects === 0 && findings.length === 0) {
    throw new NodeListError(`no Kubernetes objects in the input (${report.files} file(s) read${notes.length > 0 ? `, ${notes.length} set aside: ${printable(notes[0].message)}` : ''})`);
  }
  const errors = findings.filter(checks.isBlocking).length;
  const waived = findings.filter((f) => f.waived !== undefined).length;
  const warnings = findings.length - errors - waived;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const summary = `checked ${count(report.files, 'file')}, ${count(report.objects, 'object')} at Kubernetes ${judged.version} (${why}): ${checks.formatCounts(findings)}`;
  if (format === 'json') {
    io.out(`${printableJson({
      kubernetesVersion: judged.version, kubernetesVersionSource: why,
      files: report.files, objects: report.objects, errors, warnings, waived,
      notes,
      findings: findings.map((f) => ({ file: f.file, line: f.line, column: f.column, object: f.object, path: f.path, rule: f.rule.id, severity: f.severity, message: f.message, waived: f.waived, fix: f.rule.fix, source: f.rule.citation })),
    })}\n`);
  } else if (format === 'sarif') {
    io.out(`${printableJson(checks.toSarif(findings, { toolVersion: version(), baseDirectory: process.cwd(), notes, kubernetesVersion: { version: judged.version, source: why } }))}\n`);
  } else if (format === 'markdown') {
    const lines = [`### node-reporter check: ${errors > 0 ? 'blocking findings' : 'clean'}`, '', summary];
    if (findings.length > 0) {
      lines.push('', '| Severity | Where | Object | Rule | Message |', '|---|---|---|---|---|',
        ...findings.map((f) => `| ${f.waived !== undefined ? 'waived' : f.severity} | ${cell(`${f.file ?? ''}${f.line !== undefined ? `:${f.line}` : ''}`)} | ${cell(f.object)} | ${cell(f.rule.id)} | ${cell(f.message)} |`));
    }
    if (notes.length > 0) lines.push('', ...notes.map((n) => `- note: ${cell(`${n.file !== undefined ? `${n.file}: ` : ''}${n.message}`)}`));
    io.out(`${printableLines(lines.join('\n'))}\n`);
  } else {
    const noted = notes.map((n) => `note: ${n.file !== undefined ? `${n.file}: ` : ''}${n.message}`);
    io.out(`${printableLines([...findings.map(checks.formatFinding), ...noted, summary].join('\n'))}\n`);
  }
  return errors > 0 || (failOnWarnings(values) && warnings > 0) ? 1 : 0;
}
