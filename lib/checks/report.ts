/**
 * Findings as people and tools read them: a text report, and SARIF for
 * code-scanning tools.
 */
import * as path from 'node:path';
import { Finding } from './finding';
import type { Note } from './input/manifests';
import { Severity } from './rules';

/** Whether a finding fails synth: an error that is not waived. */
export function isBlocking(finding: Finding): boolean {
  return finding.severity === Severity.ERROR && finding.waived === undefined;
}

/** What {@link toSarif} says about the run besides the findings. */
export interface SarifOptions {
  /** The tool's version, for `tool.driver.version`. */
  readonly toolVersion?: string;
  /** The folder file URIs are relative to (the working folder, for code scanning). @default process.cwd() */
  readonly baseDirectory?: string;
  /** What the run set aside, as notifications. */
  readonly notes?: readonly Note[];
  /** The Kubernetes version judged by and where it came from, for the run's `properties`. */
  readonly kubernetesVersion?: {
    /** The Kubernetes minor, `1.35`. */
    readonly version: string;
    /** Where it came from, as the report names it (`--kubernetes-version`, `the default`). */
    readonly source: string;
  };
}

/** A file as a SARIF URI: relative to the base folder, with forward slashes, percent-encoded. */
function uriOf(file: string, base: string): string {
  const relative = path.relative(base, path.resolve(base, file)).split(path.sep).join('/');
  return relative.split('/').map(encodeURIComponent).join('/');
}

/**
 * The findings as SARIF 2.1.0, for code-scanning tools: each result with its
 * file (a URI relative to the working folder) and region (the line and column
 * of the field, or of the nearest field above it); waived findings are
 * suppressed in source, with their reason.
 */
export function toSarif(findings: readonly Finding[], options: SarifOptions = {}): object {
  const base = options.baseDirectory ?? process.cwd();
  const used = [...new Map(findings.map((f) => [f.rule.id, f.rule])).values()];
  const fileOf = (file: string | undefined) => (file !== undefined && file !== 'stdin' ? file : undefined);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'node-reporter checks',
          ...(options.toolVersion !== undefined ? { version: options.toolVersion, semanticVersion: options.toolVersion } : {}),
          informationUri: 'https://kubernetes.io/docs/concepts/security/pod-security-standards/',
          rules: used.map((r) => ({ id: r.id, shortDescription: { text: r.citation }, help: { text: r.fix }, defaultConfiguration: { level: r.severity === Severity.ERROR ? 'error' : 'warning' } })),
        },
      },
      ...(options.kubernetesVersion !== undefined ? { properties: { kubernetesVersion: options.kubernetesVersion.version, kubernetesVersionSource: options.kubernetesVersion.source } } : {}),
      invocations: [{
        executionSuccessful: true,
        toolExecutionNotifications: (options.notes ?? []).map((n) => ({
          level: 'note',
          message: { text: n.message },
          ...(fileOf(n.file) ? { locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(n.file!, base) } } }] } : {}),
        })),
      }],
      results: findings.map((f) => ({
        ruleId: f.rule.id,
        level: f.severity === Severity.ERROR ? 'error' : 'warning',
        message: { text: `${f.object} ${f.path}: ${f.message}` },
        locations: [{
          ...(fileOf(f.file) ? {
            physicalLocation: {
              artifactLocation: { uri: uriOf(f.file!, base) },
              ...(f.line !== undefined ? { region: { startLine: f.line, ...(f.column !== undefined ? { startColumn: f.column } : {}) } } : {}),
            },
          } : {}),
          logicalLocations: [{ fullyQualifiedName: `${f.object}:${f.path}` }],
        }],
        ...(f.waived !== undefined ? { suppressions: [{ kind: 'inSource', justification: f.waived }] } : {}),
      })),
    }],
  };
}

/** Where a finding is: `file:line:column`, then the object and the field. */
function where(f: Finding): string {
  const file = f.file === undefined ? undefined : f.line === undefined ? f.file : `${f.file}:${f.line}${f.column !== undefined ? `:${f.column}` : ''}`;
  return [file, f.object, f.path].filter((x) => x !== undefined).join(': ');
}

/** A finding as a person can act on it: where and what, then the rule, the fix and any waiver. */
export function formatFinding(f: Finding): string {
  const status = f.waived !== undefined ? `waived ${f.severity}` : f.severity;
  const waived = f.waived !== undefined ? `\n    waived: ${f.waived}` : '';
  return `${where(f)}: ${status} [${f.rule.id}] ${f.message}\n    rule: ${f.rule.citation}\n    fix: ${f.rule.fix}${waived}`;
}

/** The counts of the findings: `2 error(s), 1 warning(s), 0 waived`. */
export function formatCounts(findings: readonly Finding[]): string {
  const errors = findings.filter(isBlocking).length;
  const waived = findings.filter((f) => f.waived !== undefined).length;
  return `${errors} error(s), ${findings.length - errors - waived} warning(s), ${waived} waived`;
}

/** The findings as a report, with a closing count. */
export function formatReport(findings: readonly Finding[]): string {
  return [...findings.map(formatFinding), formatCounts(findings)].join('\n');
}
