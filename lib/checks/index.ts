/**
 * Manifest checks for any YAML, this project's or a consumer's: the strict
 * Kubernetes 1.28 schema, the API server's field validation, Pod Security
 * "restricted" (v1.28), workload, DaemonSet and metadata rules. They judge
 * manifests, not constructs, so they import none (only the Kubernetes syntax
 * and scheduling rules of ../k8s).
 *
 * An object waives one rule on purpose with the annotation
 * `checks.node-reporter.dev/waive-<rule id>: <reason>`; its findings for that
 * rule are then reported as waived, with the reason, and do not fail.
 *
 * @module node-reporter/checks
 */
import * as fs from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { checkApiValidation } from './api-validation';
import { checkDaemonSetRules, checkPdbsAgainstDaemonSets } from './daemonset';
import { Finding, KubeObject, Problem } from './finding';
import { checkMetadata } from './metadata';
import { checkPodSecurity } from './pod-security';
import { podTemplateOf } from './pod-templates';
import { ALL_RULES, Rule, RULES, Severity, WAIVER_PREFIX } from './rules';
import { checkSchema } from './schema';
import { checkWorkload } from './workload';

export { Finding, KubeObject } from './finding';
export { ALL_RULES, Rule, Severity, WAIVER_PREFIX } from './rules';
export { NodeAgentChecks, NodeAgentChecksProps, ValidationContextLike } from './validation-plugin';

const RULES_BY_ID = new Map<string, Rule>(ALL_RULES.map((r) => [r.id, r]));

function describe(obj: KubeObject): string {
  const kind = typeof obj?.kind === 'string' ? obj.kind : '(no kind)';
  const name = typeof obj?.metadata?.name === 'string' ? obj.metadata.name : '(no name)';
  return `${kind}/${name}`;
}

/** The object's waivers by rule id, and the problems with the waivers themselves. */
function waiversOf(obj: KubeObject): { waivers: Map<string, string>; problems: Problem[] } {
  const waivers = new Map<string, string>();
  const problems: Problem[] = [];
  for (const [key, reason] of Object.entries<unknown>(obj?.metadata?.annotations ?? {})) {
    if (!key.startsWith(WAIVER_PREFIX)) {
      continue;
    }
    const id = key.slice(WAIVER_PREFIX.length);
    const path = `metadata.annotations["${key}"]`;
    if (!RULES_BY_ID.has(id) || id === RULES.waiver.id) {
      problems.push({ rule: RULES.waiver, path, message: `waives ${JSON.stringify(id)}, which is no rule; rules: ${[...RULES_BY_ID.keys()].filter((r) => r !== RULES.waiver.id).join(', ')}` });
    } else if (typeof reason !== 'string' || reason.trim() === '') {
      problems.push({ rule: RULES.waiver, path, message: `waives ${JSON.stringify(id)} without a reason` });
    } else {
      waivers.set(id, reason.trim());
    }
  }
  return { waivers, problems };
}

/** Every finding for one parsed object (rules across objects need {@link checkObjects}). */
export function checkObject(obj: KubeObject, file?: string): Finding[] {
  return findingsOf(obj, file, []);
}

/** Every finding for a set of objects, including the rules across objects (a PodDisruptionBudget that selects a DaemonSet's pods). */
export function checkObjects(objects: readonly KubeObject[], files: readonly (string | undefined)[] = []): Finding[] {
  const across = checkPdbsAgainstDaemonSets(objects);
  return objects.flatMap((obj, i) => findingsOf(obj, files[i], across.get(obj) ?? []));
}

function findingsOf(obj: KubeObject, file: string | undefined, extra: Problem[]): Finding[] {
  const object = describe(obj);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    return [{ rule: RULES.schema, severity: Severity.ERROR, file, object, path: '(document)', message: 'is not a Kubernetes object (a YAML mapping)' }];
  }
  const pod = podTemplateOf(obj);
  const { waivers, problems: waiverProblems } = waiversOf(obj);
  const schema = checkSchema(obj);
  // A field the schema already refuses (a missing required one) is reported once.
  const withoutSchemaDuplicates = (_: unknown, list: Problem[]) => list.filter((p) => !schema.some((s) => s.path === p.path));
  const problems = [
    ...schema,
    ...checkMetadata(obj),
    ...(pod ? checkPodSecurity(pod) : []),
    ...checkWorkload(obj, pod),
    // The API server validates only kinds it serves.
    ...(schema.some((p) => p.rule === RULES.removedApi || p.rule === RULES.unknownKind) ? [] : withoutSchemaDuplicates(checkSchema, checkApiValidation(obj, pod))),
    ...checkDaemonSetRules(obj, pod),
    ...extra,
  ];
  return [
    ...waiverProblems.map((p) => ({ ...p, severity: p.rule.severity, file, object })),
    ...problems.map((p) => ({ ...p, severity: p.rule.severity, file, object, waived: waivers.get(p.rule.id) })),
  ];
}

/** The objects of a multi-document YAML text, and findings for the documents that are not YAML. */
function parseYaml(text: string, file?: string): { objects: KubeObject[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const objects: KubeObject[] = [];
  // kubectl converts YAML with YAML 1.1 rules: unquoted y, n, yes, no, on, off are booleans.
  parseAllDocuments(text, { version: '1.1' }).forEach((doc, i) => {
    const syntax = [...doc.errors, ...doc.warnings];
    if (doc.errors.length > 0) {
      findings.push(...syntax.map((e) => ({
        rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object: `document ${i + 1}`,
        path: `line ${e.linePos?.[0].line ?? '?'}`, message: e.message.split('\n')[0],
      })));
      return;
    }
    let obj: unknown;
    try {
      obj = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      findings.push({ rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object: `document ${i + 1}`, path: '(document)', message: (e as Error).message.split('\n')[0] });
      return;
    }
    if (obj !== null && obj !== undefined) {
      objects.push(obj as KubeObject);
    }
  });
  return { objects, findings };
}

/** Every finding for a multi-document YAML text; duplicate keys and syntax errors are findings too. */
export function checkYaml(text: string, file?: string): Finding[] {
  const { objects, findings } = parseYaml(text, file);
  return [...findings, ...checkObjects(objects, objects.map(() => file))];
}

/** Every finding for some manifest files, judged together (rules across objects span files). */
export function checkFiles(files: readonly string[]): Finding[] {
  return checkTexts(files.map((file) => ({ file, text: fs.readFileSync(file, 'utf-8') })));
}

/** Every finding for some YAML texts (a file's or stdin's), judged together. */
export function checkTexts(inputs: ReadonlyArray<{ readonly file: string; readonly text: string }>): Finding[] {
  const parsed = inputs.map(({ file, text }) => ({ file, ...parseYaml(text, file) }));
  const objects = parsed.flatMap((p) => p.objects);
  const fileOf = parsed.flatMap((p) => p.objects.map(() => p.file));
  return [...parsed.flatMap((p) => p.findings), ...checkObjects(objects, fileOf)];
}

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
