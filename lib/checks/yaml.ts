/**
 * Manifest YAML as kubectl reads it (sigs.k8s.io/yaml, go-yaml v2): YAML 1.1
 * (an unquoted yes, no, on, off, y or n is a boolean), the last of duplicate
 * keys kept (a warning: the others are lost), merge keys only with maps
 * ("map merge requires map or sequence of maps as the value"). Each document
 * keeps its syntax tree, so that a finding can name its line and column.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, Node, parseAllDocuments } from 'yaml';
import { Finding } from './finding';
import { depthOf, MAX_DEPTH } from './normalize';
import { RULES, Severity } from './rules';

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

function locator(contents: unknown, lines: LineCounter): Locator {
  const at = (node: { range?: readonly number[] | null } | null | undefined): Position | undefined => {
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
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

/** The keys that appear twice in a mapping, anywhere in a document: where each repeat is. Iterative. */
function duplicateKeys(contents: unknown): Array<{ key: string; node: Node }> {
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
  return found;
}

/** The documents of a multi-document YAML text, and findings for the documents that are not YAML. */
export function parseYaml(text: string, file?: string): { documents: YamlDocument[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const documents: YamlDocument[] = [];
  const lines = new LineCounter();
  parseAllDocuments(text, { version: '1.1', lineCounter: lines, uniqueKeys: false }).forEach((doc, i) => {
    const object = `document ${i + 1}`;
    const syntax = (message: string, line?: number, column?: number): Finding => ({
      rule: RULES.yamlSyntax, severity: Severity.ERROR, file, object, path: line !== undefined ? `line ${line}` : '(document)', message, line, column,
    });
    if (doc.errors.length > 0) {
      findings.push(...[...doc.errors, ...doc.warnings].map((e) => {
        const [start] = e.linePos ?? [];
        // The parser reports its own stack overflow as an error: say what it means.
        const message = /Maximum call stack size exceeded/.test(e.message) ? `nested too deeply to read (the checks read at most ${MAX_DEPTH} levels)` : e.message.split('\n')[0];
        return syntax(message, start?.line, start?.col);
      }));
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      const start = doc.contents?.range ? lines.linePos(doc.contents.range[0]) : undefined;
      findings.push(syntax((e as Error).message.split('\n')[0], start?.line, start?.col));
      return;
    }
    if (value === null || value === undefined) {
      return;
    }
    for (const { key, node } of duplicateKeys(doc.contents)) {
      const start = node.range ? lines.linePos(node.range[0]) : undefined;
      findings.push({
        rule: RULES.yamlDuplicateKey, severity: RULES.yamlDuplicateKey.severity, file, object, path: start ? `line ${start.line}` : '(document)',
        message: `the key ${JSON.stringify(key)} appears again in the same mapping: kubectl keeps this last one and drops the others`, line: start?.line, column: start?.col,
      });
    }
    const depth = depthOf(value);
    if (depth > MAX_DEPTH) {
      const start = doc.contents?.range ? lines.linePos(doc.contents.range[0]) : undefined;
      findings.push(syntax(`nested more than ${MAX_DEPTH} levels deep; the checks read at most ${MAX_DEPTH} (no manifest needs more)`, start?.line, start?.col));
      return;
    }
    documents.push({ index: i + 1, value, locate: locator(doc.contents, lines) });
  });
  return { documents, findings };
}
