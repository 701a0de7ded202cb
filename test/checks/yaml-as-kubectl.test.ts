/**
 * The checks read YAML as kubectl does (issue 25, defect 5): every file in
 * test/fixtures/kubectl-yaml was read by kubectl v1.32.4 and v1.35.6
 * (`kubectl annotate --local -f FILE -o json`, the decoder of `kubectl apply
 * -f`), and the reader must give the objects kubectl v1.35.6 gave, or refuse
 * what it refused; where only v1.32.4 refused (a stream that starts with `{`
 * but is not JSON, which kubectl reads as YAML from 1.33), a warning says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkYaml, isBlocking } from '../../lib/checks';
import { parseYaml, resolvePlainScalar } from '../../lib/checks/input/yaml';
import { readNodeList } from '../../lib/eligibility';

const dir = path.join(__dirname, '..', 'fixtures', 'kubectl-yaml');
const inputs = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

/** kubectl's printed objects (one JSON object after another), without the annotation the command added. */
function kubectlObjects(file: string): unknown[] {
  return fs.readFileSync(file, 'utf-8').trim().split(/\n(?=\{)/).map((t) => {
    const o = JSON.parse(t);
    delete o.metadata.annotations['kubectl.reads/it'];
    if (Object.keys(o.metadata.annotations).length === 0) delete o.metadata.annotations;
    return o;
  });
}

describe('YAML as kubectl reads it', () => {
  /** What kubectl of `version` made of the fixture: its objects, or its error. */
  const answer = (name: string, version: '' | '-v1.35') => {
    const read = path.join(dir, name.replace(/\.yaml$/, `.kubectl${version}.json`));
    return fs.existsSync(read) ? { objects: kubectlObjects(read) } : { error: fs.readFileSync(path.join(dir, name.replace(/\.yaml$/, `.kubectl${version}-error.txt`)), 'utf-8') };
  };

  test('the fixtures hold both kinds of answer, from both versions, and files the versions read apart', () => {
    const answers = inputs.map((f) => [answer(f, ''), answer(f, '-v1.35')]);
    expect(answers.filter(([, v135]) => v135.objects).length).toBeGreaterThanOrEqual(5);
    expect(answers.filter(([, v135]) => v135.error).length).toBeGreaterThanOrEqual(5);
    expect(answers.filter(([v132, v135]) => v132.error && v135.objects).length).toBeGreaterThanOrEqual(5);
  });

  test.each(inputs)('%s: the reader gives what kubectl v1.35.6 gave, or refuses what it refused, and warns of what only v1.32.4 refused', (name) => {
    // GIVEN a file and kubectl's answers
    const text = fs.readFileSync(path.join(dir, name), 'utf-8');
    const [v132, v135] = [answer(name, ''), answer(name, '-v1.35')];

    // WHEN the checks read it
    const { documents, findings } = parseYaml(text, name);

    // THEN
    if (v135.objects) {
      expect(documents.map((d) => d.value)).toEqual(v135.objects);
      expect(findings.map((f) => f.rule.id)).toEqual(v132.error ? ['json-read-as-yaml'] : []);
    } else {
      expect(v135.error).toMatch(/^error: /);
      expect(findings.filter((f) => f.rule.id === 'yaml-syntax').length).toBeGreaterThan(0);
      expect(findings.filter((f) => f.rule.id === 'json-read-as-yaml')).toEqual([]);
    }
  });

  test('a refusal says what kubectl says', () => {
    const said = (name: string) => parseYaml(fs.readFileSync(path.join(dir, name), 'utf-8')).findings.map((f) => f.message).join('\n');
    expect(said('refused-inline-document.yaml')).toMatch(/^invalid Yaml document separator: \{apiVersion: v1, kind: ConfigMap, metadata: \{name: a\}\}/);
    expect(said('refused-yaml-1.2.yaml')).toMatch(/^found incompatible YAML document/);
    expect(said('refused-yaml-1.1.yaml')).toMatch(/^did not find expected <document start>/);
    expect(said('refused-infinity.yaml')).toMatch(/^json: unsupported value: \+Inf/);
    expect(said('refused-json-stream-then-separator.yaml')).toMatch(/^not JSON: .* \(a stream that starts with \{ and holds two JSON values is read as JSON to its end\)$/);
    expect(said('json-fallback-separator.yaml')).toMatch(/^not JSON \(.*\): kubectl 1\.33 and later read the file as YAML from here, and kubectl 1\.32 and older refuse it$/);
  });

  test.each([
    ['2024-06-01', '2024-06-01'], ['03:30', '03:30'], ['0o17', 15], ['017', 15], ['08', 8], ['0x_1F', 31], ['.', '.'], ['y', true], ['Null', null], ['1e400', '1e400'], ['-0b11', -3], ['+0x10', 16],
  ])('the plain scalar %s is %j, as go-yaml v2 resolves it', (src, want) => {
    expect(resolvePlainScalar(src)).toEqual(want);
  });

  test('an unquoted date and a time in a ConfigMap and an env value are strings, as kubectl sends them (the v1.32 server accepted both)', () => {
    // GIVEN (issue 25: these were a Date and the number 210, and refused)
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  release: 2024-06-01\n  window: 03:30\n';

    // WHEN / THEN
    expect(checkYaml(text).filter(isBlocking)).toEqual([]);
  });

  test('a node list nested 2,000 deep is a clear error, not a stack overflow', () => {
    // GIVEN (issue 25: eligible --nodes said "Maximum call stack size exceeded")
    const deep = `apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n  spec: {x: ${'['.repeat(2000)}${']'.repeat(2000)}}\n`;
    const block = `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- a:\n`).join('')}`;

    // WHEN / THEN
    for (const text of [deep, block]) {
      expect(() => readNodeList(text, 'nodes.yaml')).toThrow(/^nodes\.yaml: .*nested (more than 200 levels deep|too deeply to read)/);
    }
  });
});
