/**
 * The one home of "a key that is no prop": TypeScript catches a misspelt
 * prop, JavaScript does not, and a dropped key (`matchlabels`) silently
 * changes what is rendered. Every construct and every nested record of props
 * (an entry of `hostPaths`, a wave) refuses an unknown key here, naming it,
 * with the closest valid key when one is close, or where the key belongs when
 * it is another construct's prop.
 */
import { editDistance, Problem, problem, show, subject } from './k8s/syntax';

/** What a record of props may hold. */
export interface KeyRules {
  /** The valid keys. */
  readonly known: readonly string[];
  /** The type, for a message that would otherwise list many keys (`NodeAgentProps`). */
  readonly what?: string;
  /** Keys that are props elsewhere, with where they go (`tolerations`: 'goes on the policy (NodePolicyProps.tolerations)'). */
  readonly elsewhere?: Readonly<Record<string, string>>;
}

/** Beyond this many keys, a message names the type rather than listing them. */
const MAX_LISTED = 12;

/**
 * The valid key nearest to a misspelt one, if any is close: at most 2 edits,
 * fewer than half the key's length, ignoring case (`matchlabels`).
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const scored = known
    .map((k) => [k, editDistance(key.toLowerCase(), k.toLowerCase())] as const)
    .filter(([, d]) => d <= 2 && d < key.length / 2)
    .sort((a, b) => a[1] - b[1]);
  return scored[0]?.[0];
}

/**
 * The problems of a record's keys, one per unknown key, as
 * `'prop' key must be one of a, b but got "x"; did you mean "y"?`. `prop` is
 * the record's prop (`props` for a construct's own). Nothing for a value that
 * is not a record: its shape is its caller's to judge.
 */
export function unknownKeys(prop: string, value: unknown, rules: KeyRules): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [];
  }
  const allowed = rules.known.length > MAX_LISTED && rules.what !== undefined ? `a prop of ${rules.what}` : `one of ${rules.known.join(', ')}`;
  return Object.keys(value).filter((k) => !rules.known.includes(k)).map((k) => {
    const where = rules.elsewhere?.[k];
    if (where !== undefined) {
      return `${subject(`${prop}[key]`)} ${show(k)} is not a prop here: it ${where}`;
    }
    const near = nearestKey(k, rules.known);
    return `${problem(`${prop}[key]`, allowed, k)}${near !== undefined ? `; did you mean ${show(near)}?` : ''}`;
  });
}
