import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';

const root = path.join(__dirname, '..');

describe('Helm output (cdk8s synth --format helm)', () => {
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
