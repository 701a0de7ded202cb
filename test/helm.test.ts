import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';

const root = path.join(__dirname, '..');

function helm(env: Record<string, string>) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'helm-')), 'chart');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--format', 'helm', '--chart-version', '2.0.0', '-o', out], {
    cwd: root, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', NODE_REPORTER_VARIANTS: '', NODE_REPORTER_CREATE_NAMESPACE: '', ...env },
  });
  const files = fs.existsSync(out) ? fs.readdirSync(out, { recursive: true }).map(String).sort() : [];
  const read = (f: string) => fs.readFileSync(path.join(out, f), 'utf-8');
  const template = files.includes('templates/node-reporter-v2.k8s.yaml') ? read('templates/node-reporter-v2.k8s.yaml') : '';
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return { result, files, template };
}

describe('Helm output (cdk8s synth --format helm)', () => {
  test('refuses more than one variant in one chart, saying how to pick one', () => {
    const { result } = helm({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('a Helm chart holds one variant, but 2 were selected (v1, v2): pick one with NODE_REPORTER_VARIANTS, e.g. NODE_REPORTER_VARIANTS=v2 cdk8s synth --format helm');
  });

  test('builds a chart without the Namespace object, so helm uninstall never deletes a namespace it did not create', () => {
    const { result, files, template } = helm({ NODE_REPORTER_VARIANTS: 'v2', NODE_REPORTER_CREATE_NAMESPACE: 'false' });
    expect(result.status).toBe(0);
    expect(files).toEqual(['Chart.yaml', 'README.md', 'templates', 'templates/node-reporter-v2.k8s.yaml']);
    expect(template).not.toContain('kind: Namespace');
    expect(template).toContain('kind: DaemonSet');
    expect(template).toContain('namespace: practice-daemon');
  });

  test('writes a Helm v2 chart of one variant whose template is that variant\'s manifest', () => {
    // GIVEN
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'helm-')), 'chart');

    // WHEN
    const result = spawnSync(path.join(root, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--format', 'helm', '--chart-version', '2.0.0', '-o', out], {
      cwd: root, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', NODE_REPORTER_VARIANTS: 'v2' },
    });

    // THEN
    expect(result.status).toBe(0);
    const files = fs.readdirSync(out, { recursive: true }).map(String).sort();
    expect(files).toEqual(['Chart.yaml', 'README.md', 'templates', 'templates/node-reporter-v2.k8s.yaml']);
    expect(parse(fs.readFileSync(path.join(out, 'Chart.yaml'), 'utf-8'))).toEqual({
      apiVersion: 'v2', name: path.basename(root), version: '2.0.0', description: `Generated chart for ${path.basename(root)}`, type: 'application',
    });
    const template = fs.readFileSync(path.join(out, 'templates', 'node-reporter-v2.k8s.yaml'), 'utf-8');
    expect(template).toBe(fs.readFileSync(path.join(root, 'dist', 'node-reporter-v2.k8s.yaml'), 'utf-8'));
    // Helm would treat '{{' as template syntax.
    expect(template).not.toContain('{{');
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });
});
