/**
 * Findings as people and tools read them: a text report, and SARIF for
 * code-scanning tools.
 */
import { Finding } from './finding';
import { Severity } from './rules';

/** Whether a finding fails synth: an error that is not waived. */
export function isBlocking(finding: Finding): boolean {
  return finding.severity === Severity.ERROR && finding.waived === undefined;
}

/** The findings as SARIF 2.1.0, for code-scanning tools; waived findings are suppressed in source, with their reason. */
export function toSarif(findings: readonly Finding[]): object {
  const used = [...new Map(findings.map((f) => [f.rule.id, f.rule])).values()];
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'node-reporter checks',
          informationUri: 'https://kubernetes.io/docs/concepts/security/pod-security-standards/',
          rules: used.map((r) => ({ id: r.id, shortDescription: { text: r.citation }, help: { text: r.fix }, defaultConfiguration: { level: r.severity === Severity.ERROR ? 'error' : 'warning' } })),
        },
      },
      results: findings.map((f) => ({
        ruleId: f.rule.id,
        level: f.severity === Severity.ERROR ? 'error' : 'warning',
        message: { text: `${f.object} ${f.path}: ${f.message}` },
        locations: [{
          ...(f.file !== undefined ? { physicalLocation: { artifactLocation: { uri: f.file } } } : {}),
          logicalLocations: [{ fullyQualifiedName: `${f.object}:${f.path}` }],
        }],
        ...(f.waived !== undefined ? { suppressions: [{ kind: 'inSource', justification: f.waived }] } : {}),
      })),
    }],
  };
}

/** A finding as a person can act on it: where and what, then the rule, the fix and any waiver. */
export function formatFinding(f: Finding): string {
  const status = f.waived !== undefined ? `waived ${f.severity}` : f.severity;
  const where = [f.file, f.object, f.path].filter((x) => x !== undefined).join(': ');
  const waived = f.waived !== undefined ? `\n    waived: ${f.waived}` : '';
  return `${where}: ${status} [${f.rule.id}] ${f.message}\n    rule: ${f.rule.citation}\n    fix: ${f.rule.fix}${waived}`;
}

/** The findings as a report, with a closing count. */
export function formatReport(findings: readonly Finding[]): string {
  const errors = findings.filter(isBlocking).length;
  const waived = findings.filter((f) => f.waived !== undefined).length;
  const warnings = findings.length - errors - waived;
  return [...findings.map(formatFinding), `${errors} error(s), ${warnings} warning(s), ${waived} waived`].join('\n');
}
