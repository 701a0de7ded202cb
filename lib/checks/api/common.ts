/**
 * Helpers of the API-validation rules: the server's message forms ("Unsupported value",
 * "Invalid value") and the checks of values several API groups share.
 */
import { KubeObject, show } from '../finding';
import { Rule } from '../rules';

/** Records one problem: the rule, the field path and the message. */
export type Add = (rule: Rule, path: string, message: string) => void;

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is KubeObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of an array field; anything else is the schema check's to report. */
export const list = (value: unknown): KubeObject[] => (Array.isArray(value) ? value.filter(isObject) : []);

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
