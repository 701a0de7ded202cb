/**
 * Manifest YAML as kubectl reads it: k8s.io/apimachinery's
 * YAMLOrJSONDecoder reads a stream that starts with `{` as JSON values one
 * after another (`jq -c` output), from kubectl 1.33 as YAML from where its
 * first or second value is not JSON (a warning: kubectl 1.32 refuses such a
 * file), and anything else as YAML split at lines
 * that start with `---` (YAMLReader: only a comment may follow, else
 * "invalid Yaml document separator"); each piece then goes through
 * sigs.k8s.io/yaml: go-yaml v2, then JSON. So: YAML 1.1 booleans (an
 * unquoted yes, no, on, off, y or n), go-yaml v2's plain scalars (resolve.go:
 * Go's ParseInt with base prefixes, so `0o17` and `017` are 15; timestamps
 * and `03:30` stay strings; `.` is a string), `!!binary` decoded to its
 * bytes, no directives (a piece holds no `---` to end them), the last of
 * duplicate keys kept (a warning: the others are lost), merge keys only with
 * maps, and no infinity or NaN (JSON has none). Each document keeps its
 * syntax tree, so that a finding can name its line and column. It is the one
 * reader of YAML: the checks, the CLI and the eligibility preview use it.
 */
import type { LineCounter, Node, ScalarTag, Tags } from 'yaml';
import { Finding } from '../finding';
import { RULES, Severity } from '../rules';
import { countKeys, jsonDuplicateKeys, jsonEnd, jsonLocator, Lines, measure } from './json';

/**
 * The `yaml` package, loaded when a text is first read as YAML: JSON input
 * (`eligible --nodes` of kubectl's JSON) never needs it, and loading it is a
 * tenth of such a run.
 */
let yamlPackage: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yamlPackage ??= require('yaml') as typeof import('yaml');
  return yamlPackage;
}

/** How deep the checks read a document; far deeper than any manifest, far below what overflows the stack. */
export const MAX_DEPTH = 200;

/** The nesting depth of a value, counted without recursion (a hostile document cannot overflow the stack). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_DEPTH) break;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** A line and column in a file, both from 1. */
export interface Position {
  /** The line, from 1. */
  readonly line: number;
  /** The column, from 1. */
  readonly column: number;
}

/** Finds where a field path (`spec.containers[0].image`) of a document is, or the nearest field above it that is there. */
export type Locator = (path: string) => Position | undefined;

/** One YAML document of a file: its value and where its fields are. */
export interface YamlDocument {
  /** The document's number in the file, from 1. */
  readonly index: number;
  /** The value (a Kubernetes object, when it is a manifest). */
  readonly value: unknown;
  /** Where the document's fields are. */
  readonly locate: Locator;
}

/** The keys of a path in the checks' notation: `a.b[0]["c/d"]`. */
function pathKeys(path: string): Array<string | number> | undefined {
  const keys: Array<string | number> = [];
  const token = /^(?:\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  let rest = path;
  while (rest !== '') {
    const m = token.exec(rest);
    if (!m) return undefined;
    keys.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]) as string));
    rest = rest.slice(m[0].length);
  }
  return keys;
}

/** Where an offset of a piece of the file is in the file: its line counter, and the piece's first line. */
type Place = (offset: number) => Position;

function placeIn(lines: LineCounter, firstLine: number, firstColumn: number): Place {
  return (offset) => {
    const { line, col } = lines.linePos(offset);
    return { line: line + firstLine - 1, column: line === 1 ? col + firstColumn - 1 : col };
  };
}

function locator(contents: unknown, place: Place): Locator {
  const at = (node: { range?: readonly number[] | null } | null | undefined): Position | undefined => {
    const offset = node?.range?.[0];
    return offset === undefined ? undefined : place(offset);
  };
  const { isMap, isPair, isScalar, isSeq } = yaml();
  return (path) => {
    let node = contents as Node | null | undefined;
    let found = at(node);
    for (const key of pathKeys(path) ?? []) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
        if (!pair) break;
        found = at(pair.key as Node) ?? found;
        node = pair.value as Node | null;
      } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
        node = node.items[key] as Node;
        found = at(node) ?? found;
      } else {
        break;
      }
    }
    return found;
  };
}

/** The keys that appear twice in a mapping, anywhere in a document: where each repeat is, in text order. Iterative. */
function duplicateKeys(contents: unknown): Array<{ key: string; node: Node }> {
  const { isMap, isScalar, isSeq } = yaml();
  const found: Array<{ key: string; node: Node }> = [];
  const stack: unknown[] = [contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isScalar(pair.key) && pair.key.value !== '<<') {
          const key = String(pair.key.value);
          if (seen.has(key)) found.push({ key, node: pair.key });
          seen.add(key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      stack.push(...node.items);
    }
  }
  // In the order of the text, as the JSON path (./json) finds them.
  return found.sort((a, b) => (a.node.range?.[0] ?? 0) - (b.node.range?.[0] ?? 0));
}

/** go-yaml v2's hint for a plain scalar by its first character (resolve.go: resolveTable). */
function hintOf(first: string | undefined): string | undefined {
  if (first === undefined) return 'N';
  if (first === '+' || first === '-') return 'S';
  if (first >= '0' && first <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(first)) return 'M';
  return first === '.' ? '.' : undefined;
}

/** go-yaml v2's plain scalars it knows by name (resolve.go: resolveMapList). */
const RESOLVE_MAP: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((k) => [k, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((k) => [k, false] as const),
  ...['', '~', 'null', 'Null', 'NULL'].map((k) => [k, null] as const),
  ...['.nan', '.NaN', '.NAN'].map((k) => [k, NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((k) => [k, Infinity] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((k) => [k, -Infinity] as const),
]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64): a sign, then 0x, 0o, 0b, a leading 0 (octal) or decimal digits. */
function goParseInt(s: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const digits = m[2];
  const magnitude = /^0[oO]/.test(digits) ? BigInt(`0o${digits.slice(2)}`)
    : /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`)
      : BigInt(digits.toLowerCase().replace(/^0b/, '0b').replace(/^0x/, '0x'));
  const value = m[1] === '-' ? -magnitude : magnitude;
  if (value >= INT64_MIN && value <= INT64_MAX) return Number(value);
  // ParseUint takes no sign.
  return m[1] === '' && value <= UINT64_MAX ? Number(value) : undefined;
}

/** go-yaml v2's yamlStyleFloat, read by ParseFloat (an overflow is an error, so the text stays a string). */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** A plain scalar as go-yaml v2 resolves it into an interface{} (resolve.go: resolve; a timestamp stays its text). */
export function resolvePlainScalar(src: string): unknown {
  const hint = hintOf(src[0]);
  if (hint === undefined) return src;
  if (RESOLVE_MAP.has(src)) return RESOLVE_MAP.get(src);
  if (hint === '.') {
    return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(src) && Number.isFinite(Number(src)) ? Number(src) : src;
  }
  if (hint === 'D' || hint === 'S') {
    const plain = src.replace(/_/g, '');
    const int = goParseInt(plain);
    if (int !== undefined) return int;
    if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return Number(plain);
  }
  return src;
}

/** Every plain scalar, resolved as go-yaml v2 does; `<<` stays a merge key (tested before it). */
const GO_YAML_PLAIN: ScalarTag = {
  tag: 'tag:yaml.org,2002:str',
  default: true,
  test: /^[\s\S]*$/,
  resolve: (src) => resolvePlainScalar(src) as string,
};

/** `!!binary`: decoded from base64 (newlines ignored, as Go's decoder does), its bytes read as a string (go-yaml v2 into interface{}). */
const GO_YAML_BINARY: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  default: false,
  resolve: (src, onError) => {
    const text = src.replace(/[\r\n]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
      onError('!!binary value contains invalid base64 data');
      return src;
    }
    return Buffer.from(text, 'base64').toString('utf-8');
  },
};

/** The YAML 1.1 tags with go-yaml v2's scalars: maps, sequences, strings, merge keys, !!binary, then every other plain scalar. */
function goYamlTags(tags: Tags): Tags {
  const kept = ['map', 'seq', 'str', 'merge', 'omap', 'pairs', 'set'].map((t) => `tag:yaml.org,2002:${t}`);
  const keep = tags.filter((t) => typeof t === 'object' && kept.includes(t.tag));
  return [...keep, GO_YAML_BINARY, GO_YAML_PLAIN];
}

/** The parse options of one piece of YAML, as go-yaml v2 reads it. */
const YAML_OPTIONS = { version: '1.1', uniqueKeys: false, customTags: goYamlTags } as const;

/** One piece of the input kubectl reads alone: its text, where it starts, and its number. */
interface Piece {
  readonly text: string;
  readonly firstLine: number;
  /** The column its first line starts at (not 1 where kubectl reads YAML from the middle of a line). */
  readonly firstColumn: number;
  readonly index: number;
}

/** The first infinity or NaN in a value, which JSON cannot hold (json: unsupported value). */
function nonFinite(value: unknown): number | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return v;
    if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
  return undefined;
}

/**
 * The documents of a multi-document YAML text (or a stream of JSON objects), and findings for the documents that are not YAML.
 * @param json read a text that starts with `{` as JSON, as kubectl does (false reads it as YAML, which JSON is: the
 * test that holds the fast JSON path to the YAML path's objects, findings and positions)
 */
export function parseYaml(text: string, file?: string, json = true): { documents: YamlDocument[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const documents: YamlDocument[] = [];
  const syntax = (index: number, message: string, at?: Position): Finding => ({
    rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object: `document ${index}`, path: at ? `line ${at.line}` : '(document)', message, line: at?.line, column: at?.column,
  });
  const keep = (index: number, value: unknown, locate: Locator): void => {
    if (value !== null && value !== undefined) documents.push({ index, value, locate });
  };
  const add = (index: number, value: unknown, locate: Locator, at?: Position): void => {
    if (value === null || value === undefined) return;
    const bad = nonFinite(value);
    if (bad !== undefined) {
      findings.push(syntax(index, unsupported(bad), at));
      return;
    }
    if (depthOf(value) > MAX_DEPTH) {
      findings.push(syntax(index, tooDeep(), at));
      return;
    }
    keep(index, value, locate);
  };
  const reading: Reading = { file, findings, syntax, add };
  if (json && /^\s*\{/.test(text)) {
    readJsonStream(text, keep, reading);
  } else {
    for (const piece of pieces(text, findings, syntax)) readPiece(piece, reading);
  }
  return { documents, findings };
}

type Syntax = (index: number, message: string, at?: Position) => Finding;
type Add = (index: number, value: unknown, locate: Locator, at?: Position) => void;
type Keep = (index: number, value: unknown, locate: Locator) => void;

/** A value JSON cannot hold (json: unsupported value). */
function unsupported(bad: number): string {
  return `json: unsupported value: ${bad > 0 ? '+Inf' : bad < 0 ? '-Inf' : 'NaN'} (kubectl converts YAML to JSON, which has no infinity or NaN)`;
}

function tooDeep(): string {
  return `nested more than ${MAX_DEPTH} levels deep; the checks read at most ${MAX_DEPTH} (no manifest needs more)`;
}

/** A key repeated in a mapping, at the repeat: kubectl keeps the last, silently. */
function duplicateKey(file: string | undefined, index: number, key: string, where: Position | undefined): Finding {
  return {
    rule: RULES.yamlDuplicateKey, severity: RULES.yamlDuplicateKey.severity, file, object: `document ${index}`, path: where ? `line ${where.line}` : '(document)',
    message: `the key ${JSON.stringify(key)} appears again in the same mapping: kubectl keeps this last one and drops the others`, line: where?.line, column: where?.column,
  };
}

/** What reading a piece reports into: the file's findings, and its documents through `add`. */
interface Reading {
  readonly file?: string;
  readonly findings: Finding[];
  readonly syntax: Syntax;
  readonly add: Add;
}

/**
 * The pieces of a YAML text as kubectl's YAMLReader cuts it: at each line
 * that starts with `---`, which only a comment may follow; a bad separator
 * ends the reading (kubectl refuses the file).
 */
function pieces(text: string, findings: Finding[], syntax: Syntax, from: { line: number; column: number; index: number } = { line: 1, column: 1, index: 1 }): Piece[] {
  const found: Piece[] = [];
  const lines = text.split('\n');
  let start = 0;
  const cut = (end: number) => {
    if (end > start) found.push({ text: lines.slice(start, end).join('\n') + '\n', firstLine: from.line + start, firstColumn: start === 0 ? from.column : 1, index: from.index + found.length });
  };
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('---')) continue;
    const rest = lines[i].slice(3).trim();
    cut(i);
    start = i + 1;
    if (rest !== '' && !rest.startsWith('#')) {
      findings.push(syntax(from.index + found.length, `invalid Yaml document separator: ${rest} (kubectl reads only a comment after ---; put the document on the next line)`, { line: from.line + i, column: i === 0 ? from.column + 3 : 4 }));
      return found;
    }
  }
  if (lines.slice(start).some((l) => l.trim() !== '')) cut(lines.length);
  return found;
}

/** One piece: go-yaml v2 reads its first document; a directive has no `---` after it in the piece, which go-yaml refuses. */
function readPiece(piece: Piece, { file, findings, syntax, add }: Reading): void {
  const lines = new (yaml().LineCounter)();
  const place = placeIn(lines, piece.firstLine, piece.firstColumn);
  const directive = piece.text.split('\n').findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  const first = piece.text.split('\n')[directive];
  if (first !== undefined && first.startsWith('%')) {
    const message = /^%YAML\s+(?!1\.1(\s|$))/.test(first)
      ? 'found incompatible YAML document (kubectl reads YAML 1.1 only; remove the %YAML directive)'
      : `did not find expected <document start> (kubectl cuts the file at --- lines, so a directive stands alone; remove ${JSON.stringify(first.trim())})`;
    findings.push(syntax(piece.index, message, { line: piece.firstLine + directive, column: directive === 0 ? piece.firstColumn : 1 }));
    return;
  }
  const [doc] = yaml().parseAllDocuments(piece.text, { ...YAML_OPTIONS, lineCounter: lines });
  if (doc === undefined || !('contents' in doc)) return;
  if (doc.errors.length > 0) {
    findings.push(...[...doc.errors, ...doc.warnings].map((e) => {
      // The parser reports its own stack overflow as an error: say what it means.
      const message = /Maximum call stack size exceeded/.test(e.message) ? `nested too deeply to read (the checks read at most ${MAX_DEPTH} levels)` : e.message.split('\n')[0];
      return syntax(piece.index, message, e.pos ? place(e.pos[0]) : undefined);
    }));
    return;
  }
  const at = doc.contents?.range ? place(doc.contents.range[0]) : undefined;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    const message = (e as Error).message.split('\n')[0];
    findings.push(syntax(piece.index, /Maximum call stack size exceeded/.test(message) ? `nested too deeply to read (the checks read at most ${MAX_DEPTH} levels)` : message, at));
    return;
  }
  if (value !== null && value !== undefined) {
    for (const { key, node } of duplicateKeys(doc.contents)) {
      findings.push(duplicateKey(file, piece.index, key, node.range ? place(node.range[0]) : undefined));
    }
  }
  add(piece.index, value, locator(doc.contents, place), at);
}

/** A stream of JSON objects, one after another, as kubectl's JSON decoder reads it: the fast path (./json), positions found only when asked for. */
function readJsonStream(text: string, keep: Keep, reading: Reading): void {
  const { file, findings, syntax } = reading;
  const lines = new Lines(text);
  let offset = 0;
  for (let index = 1; ; index++) {
    // Where kubectl's decoder stands after the values it has read (the end of the last one).
    const read = offset;
    while (offset < text.length && /\s/.test(text[offset])) offset++;
    if (offset >= text.length) return;
    const start = offset;
    let end = text.length;
    let value: unknown;
    try {
      // Most input is one value (kubectl get -o json): parsed whole, without a scan for its end.
      if (text[start] !== '{' && text[start] !== '[') throw new Error('not an object');
      value = JSON.parse(start === 0 ? text : text.slice(start));
    } catch {
      end = text[start] === '{' || text[start] === '[' ? jsonEnd(text, start) : -1;
      try {
        if (end < 0) throw new Error(`invalid character ${JSON.stringify(text[start])} looking for beginning of value`);
        value = JSON.parse(text.slice(start, end));
      } catch (e) {
        const reason = (e as Error).message.split('\n')[0];
        // Two values read make the stream JSON to its end; before that, kubectl 1.33 and later read on as YAML.
        if (index > 2) {
          findings.push(syntax(index, `not JSON: ${reason} (a stream that starts with { and holds two JSON values is read as JSON to its end)`, lines.at(start)));
        } else if (!readRestAsYaml(text, { read, index, reason, at: lines.at(start), lines }, reading)) {
          findings.push(syntax(index, `not JSON: ${reason}, nor YAML (a stream that starts with { is read as JSON, and from kubectl 1.33 as YAML where its first or second value is not JSON)`, lines.at(start)));
        }
        return;
      }
    }
    const seen = measure(value, MAX_DEPTH);
    if (seen.keys !== countKeys(text, start, end)) {
      for (const { key, at } of jsonDuplicateKeys(text, start)) findings.push(duplicateKey(file, index, key, lines.at(at)));
    }
    if (seen.nonFinite !== undefined) {
      findings.push(syntax(index, unsupported(seen.nonFinite), lines.at(start)));
    } else if (seen.depth > MAX_DEPTH) {
      findings.push(syntax(index, tooDeep(), lines.at(start)));
    } else {
      keep(index, value, jsonLocator(text, start, lines, pathKeys));
    }
    offset = end;
  }
}

/**
 * kubectl 1.33 and later (apimachinery's YAMLOrJSONDecoder, kubernetes#130666):
 * when the first or second value of a stream that starts with `{` is not
 * JSON, the stream is read as YAML from the end of the last value read (past
 * blanks on its line), to its end; if the first document does not read as
 * YAML either, the JSON error stands. kubectl 1.32
 * and older refuse such a file, which a warning says.
 * @returns whether the rest was read as YAML
 */
function readRestAsYaml(text: string, { read, index, reason, at, lines }: { read: number; index: number; reason: string; at: Position; lines: Lines }, reading: Reading): boolean {
  // kubectl's consumeWhitespace: blanks, up to the first other character or the first newline (which stays).
  let start = read;
  while (start < text.length && text[start] !== '\n' && /\s/.test(text[start])) start++;
  // It reads four bytes at a time, and takes fewer than four left for the end of the stream: the JSON error stands.
  if (Buffer.byteLength(text.slice(start, start + 4)) < 4) return false;
  const from = lines.at(start);
  const cuts: Finding[] = [];
  const [first, ...rest] = pieces(text.slice(start), cuts, reading.syntax, { line: from.line, column: from.column, index });
  // The first document decides, as kubectl's first YAML decode does; a bad separator before it is its failure.
  const firstFindings: Finding[] = [];
  const firstDocuments: Array<Parameters<Add>> = [];
  if (first === undefined && cuts.length > 0) return false;
  if (first !== undefined) readPiece(first, { ...reading, findings: firstFindings, add: (...args) => firstDocuments.push(args) });
  if (firstFindings.some((f) => f.severity === Severity.ERROR)) return false;
  const { file, findings } = reading;
  findings.push({
    rule: RULES.jsonReadAsYaml, severity: RULES.jsonReadAsYaml.severity, file, object: `document ${index}`, path: `line ${at.line}`, line: at.line, column: at.column,
    message: `not JSON (${reason}): kubectl 1.33 and later read the file as YAML from here, and kubectl 1.32 and older refuse it`,
  });
  findings.push(...cuts, ...firstFindings);
  for (const args of firstDocuments) reading.add(...args);
  for (const piece of rest) readPiece(piece, reading);
  return true;
}
