/**
 * The reader's fast path for JSON (issue 36) gives what its YAML path gives
 * for the same text (JSON is YAML): the same objects, the same warnings for
 * a repeated key, and the same line and column for every field a finding can
 * name. Inputs: every corpus case, the synthesized manifests, the node-list
 * fixtures, and bad input; the refusals are kubectl v1.35.6's
 * (`kubectl annotate --local -f FILE -o json`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkYaml } from '../../lib/checks';
import { parseYaml, YamlDocument } from '../../lib/checks/input/yaml';
import { CORPUS, corpusYaml } from '../corpus/cases';

const root = path.join(__dirname, '..', '..');

/** Every field path of a value in the checks' notation, and for each a path below it that is not there. */
function pathsOf(value: unknown, at = ''): string[] {
  const paths = [at, `${at}${at === '' ? '' : '.'}missing`, `${at}[99999]`];
  if (Array.isArray(value)) {
    value.forEach((item, i) => paths.push(...pathsOf(item, `${at}[${i}]`)));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      paths.push(...pathsOf(child, /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${at}${at === '' ? '' : '.'}${key}` : `${at}[${JSON.stringify(key)}]`));
    }
  }
  return paths;
}

/** What a reading gives, with positions of every path: comparable with toEqual. */
function reading(text: string, json: boolean) {
  const { documents, findings } = parseYaml(text, 'input.json', json);
  const where = (d: YamlDocument) => pathsOf(d.value).map((p) => [p, d.locate(p)]);
  return {
    documents: documents.map((d) => ({ index: d.index, value: d.value, positions: where(d) })),
    findings,
  };
}

/** The values of a YAML text, as one JSON value: the object, or a List of them. */
function asJsonValue(yaml: string): unknown | undefined {
  const { documents, findings } = parseYaml(yaml, 'input.yaml', false);
  if (findings.some((f) => f.rule.id === 'yaml-syntax') || documents.length === 0) return undefined;
  const values = documents.map((d) => d.value);
  return values.length === 1 && typeof values[0] === 'object' && !Array.isArray(values[0]) ? values[0] : { apiVersion: 'v1', kind: 'List', items: values };
}

/** Each value written as kubectl -o json writes it (4 spaces), as JSON.stringify's 2, and on one line. */
function forms(value: unknown): Array<[string, string]> {
  return [['4 spaces', JSON.stringify(value, null, 4)], ['2 spaces, CRLF', JSON.stringify(value, null, 2).replace(/\n/g, '\r\n')], ['one line', JSON.stringify(value)]];
}

const corpusInputs = CORPUS.map((c) => [c.id, asJsonValue(corpusYaml(c))] as const).filter(([, v]) => v !== undefined);
const manifestInputs = [
  ...fs.readdirSync(path.join(root, 'dist')).map((f) => path.join('dist', f)),
  ...fs.readdirSync(path.join(root, 'examples', 'dist')).map((f) => path.join('examples', 'dist', f)),
].filter((f) => f.endsWith('.yaml')).map((f) => [f, asJsonValue(fs.readFileSync(path.join(root, f), 'utf-8'))] as const);
const nodeInputs = fs.readdirSync(path.join(root, 'test', 'fixtures', 'nodes')).map((f) => [f, fs.readFileSync(path.join(root, 'test', 'fixtures', 'nodes', f), 'utf-8')] as const);

describe('the JSON fast path', () => {
  test('has inputs from the corpus, the synthesized manifests and the node lists', () => {
    expect(corpusInputs.length).toBeGreaterThan(500);
    expect(manifestInputs.length).toBeGreaterThanOrEqual(10);
    expect(nodeInputs.length).toBeGreaterThanOrEqual(3);
  });

  test('gives every corpus case the objects and positions the YAML path gives, the three layouts in turn', () => {
    corpusInputs.forEach(([id, value], i) => {
      // One layout a case, in turn: the corpus is large, and each layout meets every kind of object.
      for (const [layout, text] of [forms(value)[i % 3]]) {
        // GIVEN a corpus case as JSON
        // WHEN both paths read it
        const fast = reading(text, true);
        const slow = reading(text, false);

        // THEN
        expect({ id, layout, ...fast }).toEqual({ id, layout, ...slow });
        expect(fast.documents.length).toBe(1);
      }
    });
  });

  test.each(manifestInputs)('%s as a kubectl JSON List: the same objects and positions on both paths', (_, value) => {
    for (const [, text] of forms(value)) {
      expect(reading(text, true)).toEqual(reading(text, false));
    }
  });

  test.each(nodeInputs)('the node list %s: the same objects and positions on both paths', (_, text) => {
    expect(reading(text, true)).toEqual(reading(text, false));
  });

  test('check reports a finding in a JSON List at the line and column of its field', () => {
    // GIVEN a List whose second DaemonSet runs privileged, as kubectl get -o json prints it
    const daemonSets = CORPUS.filter((c) => c.objects.length === 1 && c.objects[0].kind === 'DaemonSet' && c.text === undefined).slice(0, 2).map((c) => c.objects[0]);
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: daemonSets }, null, 4);
    const slow = parseYaml(text, 'list.json', false).documents[0];

    // WHEN
    const findings = checkYaml(text, 'list.json').filter((f) => f.line !== undefined);

    // THEN every position is the YAML path's for the same field
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect({ path: f.path, line: f.line, column: f.column }).toEqual({ path: f.path, ...slow.locate(f.path) });
    }
  });

  test.each([
    ['a repeated top-level key', '{"apiVersion": "v1", "kind": "Secret", "kind": "ConfigMap", "metadata": {"name": "a"}}'],
    ['a key written once with an escape and once without', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "na\\u006de": "b"}}'],
    ['a key three times in a List item', '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": [\n    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"},\n     "data": {"x": "1", "x": "2",\n       "x" : "3"}}\n  ]\n}'],
    ['repeats in two mappings', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"labels": {"b": "1", "b": "2"}, "name": "a"}, "data": {"a": "1", "a": "2"}}'],
    ['quotes and colons inside strings, no repeat', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"q": "say \\": yes", "r": "\\"\\\\\\":", "s": "\\" :"}}'],
  ])('%s: the last is kept and warned of, as kubectl v1.35.6 keeps it and the YAML path warns', (_, text) => {
    // GIVEN / WHEN
    const fast = reading(text, true);

    // THEN
    expect(fast).toEqual(reading(text, false));
    const kept = JSON.parse(text) as unknown;
    expect(fast.documents.map((d) => d.value)).toEqual([kept]);
  });

  test('a repeated key is found at its line and column', () => {
    const { findings } = parseYaml('{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {"name": "a", "name": "b"}\n}', 'cm.json');
    expect(findings.map((f) => [f.rule.id, f.line, f.column, f.message])).toEqual([
      ['yaml-duplicate-key', 4, 29, 'the key "name" appears again in the same mapping: kubectl keeps this last one and drops the others'],
    ]);
  });

  test.each([
    ['truncated', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}'],
    ['a number beyond float64 (json: cannot unmarshal number 1e400)', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "labels": {"n": 1e400}}}'],
    ['text after the object', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}} x'],
  ])('%s: refused, as kubectl v1.35.6 refuses it', (_, text) => {
    const { findings } = parseYaml(text, 'bad.json');
    expect(findings.filter((f) => f.rule.id === 'yaml-syntax').length).toBe(1);
  });

  test('a comment in the first object: read as YAML, as kubectl v1.35.6 reads it, with a warning that kubectl 1.32 refuses it', () => {
    // GIVEN JSON with a comment, which only YAML allows
    const text = '{"apiVersion": "v1", # c\n"kind": "ConfigMap", "metadata": {"name": "a"}}';

    // WHEN
    const { documents, findings } = parseYaml(text, 'c.json');

    // THEN
    expect(documents.map((d) => d.value)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }]);
    expect(findings.map((f) => [f.rule.id, f.severity, f.line, f.column])).toEqual([['json-read-as-yaml', 'warning', 1, 1]]);
  });

  test('YAML after a JSON value on the same line is read from where it starts, and its fields are found there', () => {
    // GIVEN a JSON object, then a YAML flow mapping on the same line (kubectl v1.35.6 reads a and b)
    const text = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}} {apiVersion: v1, kind: ConfigMap,\n  metadata: {name: b}}\n';

    // WHEN
    const { documents, findings } = parseYaml(text, 's.yaml');

    // THEN b's fields are where they are in the file, on the first line too
    expect(documents.map((d) => [d.index, d.locate('kind'), d.locate('metadata.name')])).toEqual([
      [1, { line: 1, column: 22 }, { line: 1, column: 56 }],
      [2, { line: 1, column: 87 }, { line: 2, column: 14 }],
    ]);
    expect(findings.map((f) => [f.rule.id, f.object, f.line, f.column])).toEqual([['json-read-as-yaml', 'document 2', 1, 70]]);
  });

  test('fewer than four bytes after the first value are not read as YAML: the JSON error stands, as kubectl v1.35.6 gives it', () => {
    // kubectl's consumeWhitespace reads four bytes at a time and takes fewer for the end of the stream.
    const { documents, findings } = parseYaml('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}\nxy', 'short.json');
    expect(documents.length).toBe(1);
    expect(findings.map((f) => [f.rule.id, f.line])).toEqual([['yaml-syntax', 2]]);
  });

  test('a document nested deeper than the checks read is refused, not read', () => {
    const text = `{"apiVersion": "v1", "kind": "ConfigMap", "data": ${'{"a": '.repeat(300)}1${'}'.repeat(300)}}`;
    const { documents, findings } = parseYaml(text, 'deep.json');
    expect(documents).toEqual([]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringMatching(/^nested more than 200 levels deep/)]);
  });

  test('a stream of objects (jq -c) gives each object its own lines', () => {
    // GIVEN two objects on lines 1 and 3
    const text = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}\n\n  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b", "name": "c"}}\n';

    // WHEN
    const { documents, findings } = parseYaml(text, 'stream.json');

    // THEN
    expect(documents.map((d) => [d.index, d.locate('metadata.name')])).toEqual([[1, { line: 1, column: 56 }], [2, { line: 3, column: 58 }]]);
    expect(findings.map((f) => [f.object, f.line, f.column])).toEqual([['document 2', 3, 71]]);
  });
});
