import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const cdk8s = path.join(root, 'node_modules', '.bin', 'cdk8s');

/** Runs the real cdk8s CLI in the project (so cdk8s.yaml's validations apply) into a scratch folder. */
function synth(...args: string[]) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-cli-'));
  const result = spawnSync(cdk8s, ['synth', '--no-check-upgrade', '-o', out, ...args], {
    cwd: root, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' },
  });
  fs.rmSync(out, { recursive: true, force: true });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('cdk8s synth with the manifest checks', () => {
  test('refuses an app that writes a privileged DaemonSet, naming the rule', () => {
    // WHEN
    const { status, output } = synth('--app', 'node --require tsx/cjs test/fixtures/privileged-app.ts');

    // THEN
    expect(status).not.toBe(0);
    expect(output).toContain('[pss-privileged]');
    expect(output).toContain('control "Privileged Containers"');
    expect(output).toContain('DaemonSet/privileged-agent');
    expect(output).toContain('Validation failed');
  });
});

describe('validation report', () => {
  test('names the construct path of the object, not N/A', () => {
    const { output } = synth('--app', 'node --require tsx/cjs test/fixtures/privileged-app.ts');
    expect(output).toMatch(/Construct Path: privileged\/Agent\S*/);
    expect(output).not.toContain('Construct Path: N/A');
  });
});
