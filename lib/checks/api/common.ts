/**
 * Helpers of the API-validation rules: the server's message forms ("Unsupported value",
 * "Invalid value") and the checks of values several API groups share.
 */
import { checkLabelValue, checkQualifiedName, isRecord } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { Rule, RULES } from '../rules';

/** Records one problem: the rule, the field path and the message. */
export type Add = (rule: Rule, path: string, message: string) => void;

export { isRecord };

/** ValidateLabels (apimachinery unversioned validation): each key a qualified name, each value a label value; anything but an object is the schema's. */
export function checkLabels(add: Add, rule: Rule, path: string, labels: unknown): void {
  if (!isRecord(labels)) return;
  for (const [key, value] of Object.entries(labels)) {
    const keyProblem = checkQualifiedName('key', key);
    const problem = keyProblem ?? checkLabelValue('value', value);
    if (problem) add(rule, join(path, key), invalid(keyProblem ? key : value, problem)!);
  }
}

/** The objects of an array field; anything else is the schema check's to report. */
export const list = (value: unknown): KubeObject[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** An integer JSON number. */
export const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The server's "Unsupported value" message, with the values it supports. */
export function unsupported(value: unknown, supported: readonly string[]): string {
  return `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => show(s)).join(', ')}`;
}

/** The syntax problem of a value, with the server's "Invalid value" prefix. */
export function invalid(value: unknown, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `Invalid value: ${show(value)}: ${problem.replace(/^'[^']*'( key)? must be /, 'must be ').replace(/ but got .*$/, '')}`;
}

/** An IntOrString count or percentage: its value, and whether it is valid (non-negative, at most 100%). */
export function intOrPercent(add: Add, rule: Rule, path: string, value: unknown): { zero: boolean } | undefined {
  if (value === undefined || value === null) return undefined;
  if (isInt(value)) {
    if (value < 0) add(rule, path, `Invalid value: ${value}: must be greater than or equal to 0`);
    return { zero: value === 0 };
  }
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (!m) {
      add(rule, path, `Invalid value: ${show(value)}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`);
      return undefined;
    }
    if (Number(m[1]) > 100) add(rule, path, `Invalid value: ${show(value)}: must not be greater than 100%`);
    return { zero: Number(m[1]) === 0 };
  }
  return undefined;
}

/** ValidateNonnegativeField. */
export function checkNonNegative(add: Add, rule: Rule, path: string, value: unknown): void {
  if (isInt(value) && value < 0) add(rule, path, `Invalid value: ${value}: must be greater than or equal to 0`);
}

/**
 * ValidateLabelSelector (apimachinery/pkg/apis/meta/v1/validation): label
 * keys and values in matchLabels; each expression a qualified key, an
 * operator of In, NotIn, Exists or DoesNotExist, values as the operator wants
 * them, each a label value.
 */
export function checkLabelSelector(add: Add, path: string, selector: unknown): void {
  if (!isRecord(selector)) return;
  checkLabels(add, RULES.apiLabelSelector, join(path, 'matchLabels'), selector.matchLabels);
  list(selector.matchExpressions).forEach((r, i) => {
    const at = join(path, 'matchExpressions', i);
    const values: unknown[] = Array.isArray(r.values) ? r.values : [];
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length === 0) add(RULES.apiLabelSelector, join(at, 'values'), "Required value: must be specified when `operator` is 'In' or 'NotIn'");
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length > 0) add(RULES.apiLabelSelector, join(at, 'values'), "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else {
      add(RULES.apiLabelSelector, join(at, 'operator'), `Invalid value: ${show(r.operator)}: not a valid selector operator`);
    }
    const keyProblem = checkQualifiedName('key', r.key);
    if (keyProblem) add(RULES.apiLabelSelector, join(at, 'key'), invalid(r.key, keyProblem)!);
    values.forEach((v, j) => {
      const problem = checkLabelValue('value', v);
      if (problem) add(RULES.apiLabelSelector, join(at, 'values', j), invalid(v, problem)!);
    });
  });
}
