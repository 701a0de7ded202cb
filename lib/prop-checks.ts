/**
 * How a construct asks the manifest checks about its props, so that each
 * Kubernetes rule has one home (lib/checks/api) and the constructs restate
 * none. The construct writes the part of the manifest its props make (a
 * fragment: `{ ports: [{ containerPort: 70000 }] }`), runs the checks' own
 * function on it, and names each finding by the prop it came from, through a
 * table of manifest paths to props, in the props' words:
 *
 *   'containers[0].ports[0].number' must be between 1 and 65535, inclusive but got 70000
 *
 * It runs with the other prop checks, before anything is rendered, so that
 * every bad prop is still reported at once. Data flows one way: this imports
 * the checks; the checks know nothing of props.
 */
import type { Add } from './checks/api/common';
import type { KubeObject } from './checks/finding';
import { Severity } from './checks/rules';
import { Problem, show, subject } from './k8s/syntax';

/**
 * One row of a table from manifest paths (relative to the fragment) to props
 * (relative to the prop asked about): a pattern anchored at the start, and
 * its replacement as in `String.replace` (`$1` for a group). What follows the
 * match is kept; a path no row matches is its own prop.
 */
export type PropPath = readonly [RegExp, string];

/** The prop, relative to the prop asked about, that a manifest path of the fragment comes from. */
export function propOfPath(path: string, table: readonly PropPath[]): string {
  const row = table.find(([pattern]) => pattern.test(path));
  return row ? path.replace(row[0], row[1]) : path;
}

const STEP = /^(?:\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;

/** The value at a manifest path (`ports[0].containerPort`, `labels["app.kubernetes.io/name"]`) of an object, if any. */
export function valueAt(obj: unknown, path: string): unknown {
  let value = obj;
  let rest = path;
  while (rest !== '') {
    const m = STEP.exec(rest);
    if (!m || typeof value !== 'object' || value === null) return undefined;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]) as string);
    value = (value as Record<string | number, unknown>)[key];
    rest = rest.slice(m[0].length);
  }
  return value;
}

/** A reason of the API server's ("must be ...", or its own words) as the rest of a sentence that names the prop. */
function asMust(reason: string): string {
  return /^(must|should|may not|cannot) /.test(reason) ? reason : `must be valid (${reason})`;
}

/**
 * The checks' message (the API server's forms: "Invalid value: v: why",
 * "Unsupported value", "Duplicate value", "Required value", "Forbidden") in
 * the props' words: `'prop' must ... but got <value>`.
 */
export function propMessage(prop: string, message: string, value: unknown): Problem {
  const shown = show(value);
  const who = subject(prop);
  const after = (prefix: string) => (message.startsWith(prefix) ? message.slice(prefix.length) : undefined);
  const invalid = after(`Invalid value: ${shown}: `);
  if (invalid !== undefined) return `${who} ${asMust(invalid)} but got ${shown}`;
  const supported = after(`Unsupported value: ${shown}: supported values: `);
  if (supported !== undefined) return `${who} must be one of ${supported} but got ${shown}`;
  const duplicate = after('Duplicate value: ');
  // The field's own value when it has one ("http", a host port), else the server's account of what repeats ("port 80 with protocol TCP").
  if (duplicate !== undefined) return `${who} must be unique but got ${value !== undefined && typeof value !== 'object' ? shown : duplicate}`;
  if (message.startsWith('Not found')) return `${who} must name one that exists but got ${shown}`;
  const required = after('Required value');
  if (required !== undefined) return required.startsWith(': must ') ? `${who} ${required.slice(2)}` : `${who} must be set${required === '' ? '' : ` (${required.slice(2)})`}`;
  const forbidden = after('Forbidden: ');
  if (forbidden !== undefined) return `${who} must be unset (${forbidden}) but got ${shown}`;
  // A rule across fields: "Invalid value: "": cannot set `allowPrivilegeEscalation` to false and `privileged` to true".
  const across = /^Invalid value: (?:""|\S+): (.*)$/.exec(message);
  return across ? `${who} ${across[1]}` : `${who}: ${message}`;
}

/**
 * The refusals of the checks' function `run` on the fragment, each named by
 * the prop it came from (`prop` and the table's row), in the props' words.
 * Warnings are not refusals: the manifest checks report those.
 */
export function askChecks(prop: string, fragment: KubeObject, table: readonly PropPath[], run: (add: Add) => void): Problem[] {
  const problems: Problem[] = [];
  run((rule, path, message) => {
    if (rule.severity !== Severity.ERROR) return;
    const relative = propOfPath(path, table);
    const named = prop === '' ? relative : relative === '' ? prop : relative.startsWith('[') ? `${prop}${relative}` : `${prop}.${relative}`;
    problems.push(propMessage(named, message, valueAt(fragment, path)));
  });
  return problems;
}
