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

describe('npm run synth (scripts/synth.js): atomic', () => {
  const script = path.join(root, 'scripts', 'synth.js');
  let outdir: string;

  beforeEach(() => {
    outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'synth-atomic-')), 'dist');
    fs.mkdirSync(outdir);
    fs.writeFileSync(path.join(outdir, 'committed.k8s.yaml'), 'kind: Committed\n');
  });

  afterEach(() => fs.rmSync(path.dirname(outdir), { recursive: true, force: true }));

  const run = (env: Record<string, string>) => spawnSync(process.execPath, [script, outdir], {
    cwd: root, encoding: 'utf-8', env: { ...process.env, NODE_REPORTER_VARIANTS: '', NODE_REPORTER_CREATE_NAMESPACE: '', ...env },
  });

  test('leaves the output folder untouched when synth fails, and shows the error', () => {
    // WHEN
    const result = run({ NODE_REPORTER_VARIANTS: 'v9' });

    // THEN
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("'NODE_REPORTER_VARIANTS' must list variants among v1, v2 but got \"v9\"");
    expect(result.stderr).toContain('synth failed (exit 1): ');
    expect(fs.readdirSync(outdir)).toEqual(['committed.k8s.yaml']);
    expect(fs.readdirSync(path.dirname(outdir))).toEqual(['dist']);
  });

  test('replaces the output folder when synth succeeds: the manifests, nothing else', () => {
    const result = run({});
    expect(result.status).toBe(0);
    expect(fs.readdirSync(outdir).sort()).toEqual(['node-reporter-v1.k8s.yaml', 'node-reporter-v2.k8s.yaml']);
    expect(fs.readFileSync(path.join(outdir, 'node-reporter-v1.k8s.yaml'), 'utf-8')).toBe(fs.readFileSync(path.join(root, 'dist', 'node-reporter-v1.k8s.yaml'), 'utf-8'));
    expect(fs.readdirSync(path.dirname(outdir))).toEqual(['dist']);
  });
});

describe('validation report', () => {
  test('names the construct path of the object, not N/A', () => {
    const { output } = synth('--app', 'node --require tsx/cjs test/fixtures/privileged-app.ts');
    expect(output).toMatch(/Construct Path: privileged\/Agent\S*/);
    expect(output).not.toContain('Construct Path: N/A');
  });
});
