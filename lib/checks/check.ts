/**
 * The checks' pipeline: parse, judge each object by every rule (and the rules
 * across objects), attach waivers. The rules live in the modules it imports.
 */
import * as fs from 'node:fs';
import { checkApiValidation } from './api-validation';
import { checkDaemonSetRules, checkPdbsAgainstDaemonSets } from './daemonset';
import { Finding, KubeObject, Problem } from './finding';
import { checkMetadata } from './metadata';
import { checkPodSecurity } from './pod-security';
import { podTemplateOf } from './pod-templates';
import { ALL_RULES, Rule, RULES, Severity, WAIVER_PREFIX } from './rules';
import { checkSchema } from './schema';
import { checkWorkload } from './workload';
import { parseYaml } from './yaml';

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
