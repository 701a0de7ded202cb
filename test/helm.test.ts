/**
 * Helm output: `npm run helm` (scripts/helm.js) writes a chart of one variant
 * whose templates Helm renders to exactly the manifests, or writes nothing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { escapeHelmTemplate } from '../lib/variants';
import { CONFIG } from './fixtures/helm-braces';
import { renderHelmTemplate } from './go-template';
import { state } from './sandbox';

const root = path.join(__dirname, '..');
let scratch: string;

beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-'));
});

afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

function helm(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'helm.js'), ...args], {
    cwd: root, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', NODE_REPORTER_VARIANTS: '', NODE_REPORTER_CREATE_NAMESPACE: '', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function chartFiles(chart: string): string[] {
  return fs.readdirSync(chart, { recursive: true }).map(String).sort();
}

describe('npm run helm refuses, in one line and exit 2, writing nothing', () => {
  test.each([
    ['no single variant', [], {}, /^a Helm chart holds one variant, but 2 were selected \(v1, v2\): pick one with NODE_REPORTER_VARIANTS, e\.g\. NODE_REPORTER_VARIANTS=v2 npm run helm -- helm-chart --chart-version 1\.0\.0$/],
    ['an unknown variant', [], { NODE_REPORTER_VARIANTS: 'v9' }, /^'NODE_REPORTER_VARIANTS' must list variants among v1, v2 but got "v9"$/],
    ['no chart version', ['--no-chart-version'], { NODE_REPORTER_VARIANTS: 'v2' }, /^npm run helm: --chart-version is missing \(usage: /],
    ['a chart version that is not SemVer', ['--chart-version', '2'], { NODE_REPORTER_VARIANTS: 'v2' }, /^npm run helm: '--chart-version' must be a SemVer 2 version such as 1\.0\.0 but got "2"$/],
  ])('%s', (_, args, env, message) => {
    // GIVEN
    const before = state(scratch);
    const chartArgs = args[0] === '--no-chart-version' ? [] : args.length > 0 ? args : ['--chart-version', '2.0.0'];

    // WHEN
    const result = helm([path.join(scratch, 'chart'), ...chartArgs], env);

    // THEN one line, no stack trace, no half-written chart
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.status).toBe(2);
    expect(state(scratch)).toEqual(before);
  });

  test('an output folder that holds anything but a chart it wrote', () => {
    fs.mkdirSync(path.join(scratch, 'chart', 'templates'), { recursive: true });
    fs.writeFileSync(path.join(scratch, 'chart', 'values.yaml'), 'mine: true\n');
    const before = state(scratch);
    const result = helm([path.join(scratch, 'chart'), '--chart-version', '1.0.0'], { NODE_REPORTER_VARIANTS: 'v2' });
    expect(result.stderr.trimEnd()).toMatch(/^npm run helm: the output folder must be new, empty or hold only a chart that npm run helm wrote \(Chart\.yaml, README\.md, templates\/\*\.k8s\.yaml\), but "\S+" holds "values\.yaml"$/);
    expect(result.status).toBe(2);
    expect(state(scratch)).toEqual(before);
  });
});

describe('npm run helm when the app fails', () => {
  test('says so in one line and leaves the chart folder as it was', () => {
    // GIVEN a chart written before, and an app the checks refuse
    const chart = path.join(scratch, 'chart');
    expect(helm([chart, '--chart-version', '1.0.0'], { NODE_REPORTER_VARIANTS: 'v2' }).status).toBe(0);
    const before = state(scratch);

    // WHEN
    const result = helm([chart, '--chart-version', '1.0.1', '--app', `node --require tsx/cjs ${path.join(root, 'test', 'fixtures', 'privileged-app.ts')}`], { NODE_REPORTER_VARIANTS: 'v2' });

    // THEN
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/helm chart failed \(exit \d\): \S*chart\/ is left as it was/);
    expect(state(scratch)).toEqual(before);
  });
});

describe('npm run helm writes a chart of one variant', () => {
  test('whose template Helm renders to that variant\'s manifest, with the variant as appVersion', () => {
    // GIVEN a chart written before, to be replaced
    const chart = path.join(scratch, 'chart');
    expect(helm([chart, '--chart-version', '1.0.0'], { NODE_REPORTER_VARIANTS: 'v1' }).status).toBe(0);

    // WHEN
    const result = helm([chart, '--chart-version', '2.0.0'], { NODE_REPORTER_VARIANTS: 'v2' });

    // THEN
    expect(result.status).toBe(0);
    expect(chartFiles(chart)).toEqual(['Chart.yaml', 'README.md', 'templates', 'templates/node-reporter-v2.k8s.yaml']);
    expect(parse(fs.readFileSync(path.join(chart, 'Chart.yaml'), 'utf-8'))).toEqual({
      apiVersion: 'v2', name: path.basename(root), version: '2.0.0', appVersion: 'v2', description: `Generated chart for ${path.basename(root)}`, type: 'application',
    });
    const template = fs.readFileSync(path.join(chart, 'templates', 'node-reporter-v2.k8s.yaml'), 'utf-8');
    expect(renderHelmTemplate(template)).toBe(fs.readFileSync(path.join(root, 'dist', 'node-reporter-v2.k8s.yaml'), 'utf-8'));
    expect(fs.readdirSync(scratch)).toEqual(['chart']);
  }, 30_000);

  test('without the Namespace object, so helm uninstall never deletes a namespace it did not create', () => {
    const chart = path.join(scratch, 'chart');
    const result = helm([chart, '--chart-version', '2.0.0'], { NODE_REPORTER_VARIANTS: 'v2', NODE_REPORTER_CREATE_NAMESPACE: 'false' });
    expect(result.status).toBe(0);
    const template = fs.readFileSync(path.join(chart, 'templates', 'node-reporter-v2.k8s.yaml'), 'utf-8');
    expect(template).not.toContain('kind: Namespace');
    expect(template).toContain('kind: DaemonSet');
    expect(template).toContain('namespace: practice-daemon');
  }, 30_000);
});

describe('Go template syntax in a manifest ({{ in config data, arguments, a change-cause})', () => {
  test('is printed by Helm as written, not evaluated: the rendered chart equals the plain manifests', () => {
    // GIVEN an app with {{ .Chart.Version }}, {{ ToUpper .Value }}, a trimmed comment and stray braces
    const app = `node --require tsx/cjs ${path.join(root, 'test', 'fixtures', 'helm-braces-app.ts')}`;
    const plain = spawnSync(process.execPath, [path.join(root, 'scripts', 'synth.js'), '--stdout', '--app', app], { cwd: root, encoding: 'utf-8' });
    expect(plain.status).toBe(0);
    // Unescaped, Helm would substitute the first and fail to parse the second.
    expect(() => renderHelmTemplate(plain.stdout)).toThrow(/Helm would evaluate the action/);

    // WHEN
    const chart = path.join(scratch, 'chart');
    const result = helm([chart, '--chart-version', '1.0.0', '--app', app]);

    // THEN
    expect(result.status).toBe(0);
    const template = fs.readFileSync(path.join(chart, 'templates', 'braces.k8s.yaml'), 'utf-8');
    expect(renderHelmTemplate(template)).toBe(plain.stdout);
    const configMap = parseAllDocuments(renderHelmTemplate(template)).map((d) => d.toJS()).find((o) => o.kind === 'ConfigMap');
    expect(configMap.data['app.conf']).toBe(CONFIG);
    expect(parse(fs.readFileSync(path.join(chart, 'Chart.yaml'), 'utf-8')).appVersion).toBe('1.10');
  }, 30_000);

  test('escapeHelmTemplate: Helm renders any escaped text to exactly that text', () => {
    const braces = fc.string({ unit: fc.constantFrom('{', '}', '-', ' ', '\n', '`', '"', '.', '/', '*', 'a') });
    fc.assert(fc.property(fc.oneof(braces, fc.string({ unit: 'binary' })), (text) => {
      expect(renderHelmTemplate(escapeHelmTemplate(text))).toBe(text);
    }), { numRuns: 2000 });
  });

  test('escapeHelmTemplate keeps YAML valid in every scalar style, so the checks can read the chart', () => {
    const styles = ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('{', '}', '`', '"', "'", ' ', ':', '#', '\n', 'a') }), fc.constantFrom(...styles), (value, style) => {
      const text = stringify({ data: { key: value } }, { defaultStringType: style });
      const escaped = parseAllDocuments(escapeHelmTemplate(text));
      // What the checks read is the value with each {{ escaped, as valid YAML.
      expect(escaped.flatMap((d) => d.errors)).toEqual([]);
      expect(escaped[0].toJS().data.key).toBe(escapeHelmTemplate(parse(text).data.key));
    }), { numRuns: 1000 });
  });
});
