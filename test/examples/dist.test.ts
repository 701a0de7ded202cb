/**
 * examples/dist/ holds what `npm run examples` writes: each real agent of
 * examples/agents.ts, exactly as synthesized now, clean under the manifest
 * checks (the controls an agent breaks on purpose are waived, with reasons).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { AGENTS } from '../../examples/agents';
import { checkTexts, isBlocking } from '../../lib/checks';
import { canonicalResourceQuantity } from '../../lib/k8s';

const dist = path.join(__dirname, '..', '..', 'examples', 'dist');

describe('examples/dist', () => {
  test('holds one file per example agent, and nothing else', () => {
    expect(fs.readdirSync(dist).sort()).toEqual(Object.keys(AGENTS).map((name) => `${name}.k8s.yaml`).sort());
  });

  test.each(Object.keys(AGENTS))('%s.k8s.yaml is what the example synthesizes now (run `npm run examples` after a change)', (name) => {
    // GIVEN the example as `cdk8s synth` writes a chart
    const fresh = Yaml.stringify(...Testing.synth(AGENTS[name](Testing.app(), name)));

    // THEN the committed file is that, byte for byte
    expect(fs.readFileSync(path.join(dist, `${name}.k8s.yaml`), 'utf-8')).toBe(fresh);
  });

  test.each(Object.keys(AGENTS))('%s.k8s.yaml passes the manifest checks; every finding is waived with a reason', (name) => {
    // WHEN
    const findings = checkTexts([{ file: name, text: fs.readFileSync(path.join(dist, `${name}.k8s.yaml`), 'utf-8') }]);

    // THEN
    expect(findings.filter(isBlocking)).toEqual([]);
    expect(findings.filter((f) => f.waived === undefined)).toEqual([]);
  });

  test('no example uses an escape hatch (daemonSet, ApiObject.of, JSON patches)', () => {
    const examples = path.join(__dirname, '..', '..', 'examples');
    for (const file of fs.readdirSync(examples).filter((f) => f.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(examples, file), 'utf-8');
      expect([file, source.match(/\.daemonSet\b|ApiObject\.of|JsonPatch|addJsonPatch/g)]).toEqual([file, null]);
    }
  });
});

/**
 * Fields a manifest may hold that the API server stores otherwise (a default
 * it omits, a quantity in another form, stringData as data): with them, every
 * `kubectl apply` of an unchanged file reports the object "configured".
 */
function unstoredFields(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => unstoredFields(v, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return Object.entries(value).flatMap(([key, v]) => {
    const at = `${path}.${key}`;
    const here = (key === 'readOnly' && v === false) || (key === 'initialDelaySeconds' && v === 0) || (key === 'minReadySeconds' && v === 0)
      || (key === 'hostNetwork' && v === false) || (key === 'value' && v === '' && /tolerations/.test(path)) || key === 'stringData'
      || (/resources\.(limits|requests)$/.test(path) && typeof v === 'string' && canonicalResourceQuantity(v) !== v);
    return [...(here ? [`${at}: ${JSON.stringify(v)}`] : []), ...unstoredFields(v, at)];
  });
}

describe('manifests a re-apply leaves unchanged', () => {
  test.each([...Object.keys(AGENTS).map((n) => `examples/dist/${n}.k8s.yaml`), 'dist/node-reporter-v1.k8s.yaml', 'dist/node-reporter-v2.k8s.yaml'])('%s holds no field the API server stores otherwise', (file) => {
    const objects = parseAllDocuments(fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf-8')).map((d) => d.toJS());
    expect(objects.flatMap((o) => unstoredFields(o, `${o.kind}/${o.metadata.name}`))).toEqual([]);
  });
});
