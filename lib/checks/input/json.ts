/**
 * The fast path of the reader (./yaml) for a JSON stream (`kubectl get -o
 * json`, `jq -c`): JSON.parse for the values, and a scan of the text for
 * what JSON.parse does not say: where each value ends, whether a mapping
 * repeats a key, and, only when a finding asks, where a field is.
 *
 * kubectl reads a stream that starts with `{` as JSON (apimachinery's
 * YAMLOrJSONDecoder) and decodes each object with utiljson.Unmarshal
 * (apimachinery pkg/util/json: sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts,
 * not its strict form): of a repeated key the last wins, silently, as in
 * YAML. kubectl v1.35.6 `annotate --local -f` of `{"metadata": {"name": "a",
 * "name": "b"}}` gives `name: b`, as it does for the same YAML; so a repeat
 * gets the YAML path's warning, at the same place.
 */

/** A line and column, both from 1 (./yaml's Position, restated: yaml.ts imports this file). */
interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where a field path is (./yaml's Locator). */
type Locator = (path: string) => Position | undefined;

/** A text's line starts, found once, when a position is first asked for. */
export class Lines {
  private starts?: number[];

  constructor(private readonly text: string) {}

  /** The line and column (both from 1, as the `yaml` package's LineCounter counts them) of an offset. */
  at(offset: number): Position {
    const starts = this.starts ?? this.index();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  }

  private index(): number[] {
    const starts = [0];
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
    return starts;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The offset of the quote that ends the string whose opening quote is at `open` (or -1). */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  while (q !== -1) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end of the JSON object or array that starts at `start`, or -1 when it does not end. */
export function jsonEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * At least how many keys the mappings of the JSON text from `start` to `end`
 * hold: a key is a string followed by `:`, so each key's colon has a quote
 * before it, past any blanks. A quote and a colon inside a string (`"a\\": b"`)
 * count too: the count is never less than the keys, and equal to the keys
 * JSON.parse kept only when no key is repeated (JSON.parse keeps one of each).
 */
export function countKeys(text: string, start: number, end: number): number {
  let keys = 0;
  for (let i = text.indexOf(':', start); i !== -1 && i < end; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    while (isSpace(text.charCodeAt(j))) j--;
    if (text.charCodeAt(j) === QUOTE) keys++;
  }
  return keys;
}

/**
 * How many keys the objects of a parsed value hold, how deep it nests (up to
 * `limit`), and its first infinity (JSON.parse reads 1e400 as one), in one
 * walk without recursion.
 */
export function measure(value: unknown, limit: number): { keys: number; depth: number; nonFinite?: number } {
  let keys = 0;
  let nonFinite: number | undefined;
  let deepest = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > deepest) deepest = depth;
    if (depth > limit) break;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child = v[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        } else if (typeof child === 'number' && !Number.isFinite(child)) {
          nonFinite ??= child;
        }
      }
    } else {
      for (const k in v) {
        keys++;
        const child = (v as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        } else if (typeof child === 'number' && !Number.isFinite(child)) {
          nonFinite ??= child;
        }
      }
    }
  }
  return { keys, depth: deepest, ...(nonFinite !== undefined ? { nonFinite } : {}) };
}

/** The end of the JSON value (any kind) at `i`, which is valid JSON. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i) + 1;
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return jsonEnd(text, i);
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    i++;
  }
  return i;
}

function keyAt(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? JSON.parse(text.slice(open, close + 1)) as string : raw;
}

/** The members of the mapping at `open`: each key's offset and its value's, in order. */
function members(text: string, open: number): Array<{ key: string; at: number; value: number }> {
  const found: Array<{ key: string; at: number; value: number }> = [];
  let i = skipSpace(text, open + 1);
  while (text.charCodeAt(i) === QUOTE) {
    const close = stringEnd(text, i);
    const value = skipSpace(text, skipSpace(text, close + 1) + 1);
    found.push({ key: keyAt(text, i, close), at: i, value });
    i = skipSpace(text, valueEnd(text, value));
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipSpace(text, i + 1);
  }
  return found;
}

/** The offsets of the items of the sequence at `open`, in order. */
function items(text: string, open: number): number[] {
  const found: number[] = [];
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return found;
  while (i < text.length) {
    found.push(i);
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipSpace(text, i + 1);
  }
  return found;
}

/** A mapping's keys (the first of a repeated one, as the YAML path finds it) or a sequence's items, by offset. */
type Children = Map<string, { at: number; value: number }> | number[];

/**
 * Where a field path is in the valid JSON value at `start`, as the YAML path
 * finds it (a key's position, an item's, else the nearest field above):
 * each mapping or sequence on a path asked for is indexed once, so that a
 * List of many objects costs one pass over its items, not one per finding.
 */
export function jsonLocator(text: string, start: number, lines: Lines, keysOf: (path: string) => Array<string | number> | undefined): Locator {
  const indexed = new Map<number, Children>();
  const children = (open: number): Children => {
    let found = indexed.get(open);
    if (found === undefined) {
      if (text.charCodeAt(open) === OPEN_BRACE) {
        const map = new Map<string, { at: number; value: number }>();
        for (const m of members(text, open)) if (!map.has(m.key)) map.set(m.key, m);
        found = map;
      } else {
        found = items(text, open);
      }
      indexed.set(open, found);
    }
    return found;
  };
  return (path) => {
    let node = start;
    let found = node;
    for (const key of keysOf(path) ?? []) {
      const c = text.charCodeAt(node);
      if (c === OPEN_BRACE) {
        const member = (children(node) as Map<string, { at: number; value: number }>).get(String(key));
        if (member === undefined) break;
        found = member.at;
        node = member.value;
      } else if (c === OPEN_BRACKET && typeof key === 'number' && key < (children(node) as number[]).length) {
        node = (children(node) as number[])[key];
        found = node;
      } else {
        break;
      }
    }
    return lines.at(found);
  };
}

/** Each repeat of a key in a mapping of the valid JSON value at `start`, by offset, in text order (only when a repeat is known to be there). */
export function jsonDuplicateKeys(text: string, start: number): Array<{ key: string; at: number }> {
  const found: Array<{ key: string; at: number }> = [];
  const stack = [start];
  while (stack.length > 0) {
    const open = stack.pop()!;
    if (text.charCodeAt(open) === OPEN_BRACE) {
      const seen = new Set<string>();
      const list = members(text, open);
      for (const m of list) {
        if (seen.has(m.key)) found.push({ key: m.key, at: m.at });
        seen.add(m.key);
      }
      for (let k = list.length - 1; k >= 0; k--) stack.push(list[k].value);
    } else if (text.charCodeAt(open) === OPEN_BRACKET) {
      const list = items(text, open);
      for (let k = list.length - 1; k >= 0; k--) stack.push(list[k]);
    }
  }
  return found.sort((a, b) => a.at - b.at);
}
