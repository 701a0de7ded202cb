/**
 * Waivers: the annotation `checks.node-reporter.dev/waive-<rule id>: <reason>`
 * on an object turns its findings of that rule into waived ones, reported with
 * the reason. Only the rules marked `waivable` in ./rules.ts can be waived:
 * Pod Security and the recommendations. A waiver of what the API server or
 * kubectl refuses (YAML, schema, API validation, removed APIs) is an error of
 * its own, since no annotation makes the server accept the object.
 */
import { FieldProblem,KubeObject } from './finding';
import { ALL_RULES, RULES, WAIVABLE_RULES, WAIVER_PREFIX } from './rules';

const RULES_BY_ID = new Map(ALL_RULES.map((r) => [r.id, r]));

/** The rules that can be waived, shortly: `pss-*` and the recommendations by id. */
function waivableList(): string {
  return ['pss-*', ...WAIVABLE_RULES.filter((r) => !r.id.startsWith('pss-')).map((r) => r.id)].join(', ');
}

/**
 * Why a rule id cannot be waived (it names no rule, or a rule of the API
 * server or kubectl), as a clause, or undefined when it can be.
 */
export function waiverProblem(id: string): string | undefined {
  const rule = RULES_BY_ID.get(id);
  if (rule === undefined || rule === RULES.waiver) {
    return `no rule has this id; rules that can be waived: ${waivableList()}`;
  }
  if (rule.waivable !== true) {
    const source = rule.citation.split(/[,:(]/)[0].trim();
    return `it is a rule of the API server or kubectl (${source}), which refuses the object whatever its annotations say, so it cannot be waived; only policy and recommendations can (${waivableList()})`;
  }
  return undefined;
}

/** The object's waivers by rule id, and the problems with the waivers themselves. */
export function waiversOf(obj: KubeObject): { waivers: Map<string, string>; problems: FieldProblem[] } {
  const waivers = new Map<string, string>();
  const problems: FieldProblem[] = [];
  for (const [key, reason] of Object.entries<unknown>(obj?.metadata?.annotations ?? {})) {
    if (!key.startsWith(WAIVER_PREFIX)) {
      continue;
    }
    const id = key.slice(WAIVER_PREFIX.length);
    const at = `metadata.annotations["${key}"]`;
    const problem = waiverProblem(id);
    if (problem !== undefined) {
      problems.push({ rule: RULES.waiver, path: at, message: `cannot waive ${JSON.stringify(id)}: ${problem}` });
    } else if (typeof reason !== 'string' || reason.trim() === '') {
      problems.push({ rule: RULES.waiver, path: at, message: `waives ${JSON.stringify(id)} without a reason` });
    } else {
      waivers.set(id, reason.trim());
    }
  }
  return { waivers, problems };
}
