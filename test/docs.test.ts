/**
 * Documentation that cannot rot: the API reference must equal a fresh
 * TypeDoc run, and every README example must be the compiled example file.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..');

function filesUnder(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      result[path.relative(dir, file)] = fs.readFileSync(file, 'utf-8');
    }
  }
  return result;
}

describe('API reference (docs/api)', () => {
  test('equals what TypeDoc generates from the TSDoc now (run `npm run docs` after an API change)', () => {
    // GIVEN a fresh run into a scratch folder
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-'));
    const result = spawnSync(path.join(root, 'node_modules', '.bin', 'typedoc'), ['--out', out], { cwd: root, encoding: 'utf-8' });

    // THEN it succeeds without warnings (every export documented) and matches
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/warning|error/i);
    expect(result.status).toBe(0);
    const fresh = filesUnder(out);
    fs.rmSync(out, { recursive: true, force: true });
    expect(filesUnder(path.join(root, 'docs', 'api'))).toEqual(fresh);
    expect(Object.keys(fresh).sort()).toEqual(['README.md', 'node-reporter.md', 'node-reporter/checks.md', 'node-reporter/eligibility.md']);
  }, 60_000);

  test('documents every construct, prop and default of the public API', () => {
    const api = fs.readFileSync(path.join(root, 'docs', 'api', 'node-reporter.md'), 'utf-8');
    for (const name of ['LabeledNodePolicy', 'NodeReporterDaemonSet', 'NodeReporterChart', 'RestrictedNamespace', 'NodeToleration', 'labelCommand', 'intervalSeconds']) {
      expect(api).toContain(name);
    }
    expect(api).toMatch(/intervalSeconds.*`15`/);
  });
});

describe('README examples', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
  const examples = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];

  test('the README shows examples', () => {
    expect(examples.map((m) => m[1])).toEqual(expect.arrayContaining(['examples/consumer-app.ts', 'examples/check-my-chart.ts']));
  });

  test.each(examples.map((m) => [m[1], m[2]]))('%s is shown exactly as it is compiled (tsc checks examples/)', (file, shown) => {
    expect(shown).toBe(fs.readFileSync(path.join(root, file), 'utf-8'));
  });
});

describe('README rule table', () => {
  test('lists every rule of the checks with its severity, source and waiver', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ALL_RULES, WAIVER_PREFIX } = require('../lib/checks') as typeof import('../lib/checks');
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf-8');
    for (const rule of ALL_RULES) {
      const waiver = rule.id === 'waiver' ? '(cannot be waived)' : `\`${WAIVER_PREFIX}${rule.id}\``;
      expect(readme).toContain(`| \`${rule.id}\` | ${rule.severity} | ${rule.citation.replace(/\|/g, '\\|')} | ${waiver} |`);
    }
  });
});
