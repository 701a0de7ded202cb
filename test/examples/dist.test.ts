/**
 * examples/dist/ holds what `npm run examples` writes: each real agent of
 * examples/agents.ts, exactly as synthesized now, clean under the manifest
 * checks (the controls an agent breaks on purpose are waived, with reasons).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { AGENTS } from '../../examples/agents';
import { checkTexts, isBlocking } from '../../lib/checks';

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
