import { Rule, Severity } from './rules';

/** One problem found in one object. */
export interface Finding {
  /** The rule broken. */
  readonly rule: Rule;
  /** The severity: the rule's, or warning when the object waives the rule. */
  readonly severity: Severity;
  /** The manifest file, when known. */
  readonly file?: string;
  /** The object, `Kind/name` (with `namespace/` before the name when it has one). */
  readonly object: string;
  /** The field, in kubectl notation: `spec.template.spec.containers[0].image`. */
  readonly path: string;
  /** What is wrong, with the value found. */
  readonly message: string;
  /** The reason given in the object's waiver annotation, when waived. */
  readonly waived?: string;
  /** The line of the field (or of the nearest field above it) in the file, from 1, when the input was YAML text. */
  readonly line?: number;
  /** The column of that line, from 1. */
  readonly column?: number;
}

/**
 * A finding before it is attached to an object and a file: the rule, the
 * field and the message. A prop's or a value's problem is lib/k8s' `Problem`
 * (its message line alone); this is that line placed at a field under a rule.
 */
export interface FieldProblem {
  /** The rule broken. */
  readonly rule: Rule;
  /** The field, in kubectl notation. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
}

/** A parsed Kubernetes object, loosely typed: checks judge any manifest. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KubeObject = Record<string, any>;

/**
 * Appends keys to a field path: `join('spec', 'containers', 0)` is
 * `spec.containers[0]`. The base is a path already; keys that are not plain
 * identifiers (label keys) are quoted: `metadata.labels["app.kubernetes.io/name"]`.
 */
export function join(base: string, ...keys: Array<string | number>): string {
  return keys.reduce<string>((path, key) => {
    if (typeof key === 'number') {
      return `${path}[${key}]`;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      return `${path}[${JSON.stringify(key)}]`;
    }
    return path === '' ? key : `${path}.${key}`;
  }, base);
}

/** A value as it appears in a message: JSON, with control and bidirectional characters escaped. */
export { show } from '../k8s/syntax';
