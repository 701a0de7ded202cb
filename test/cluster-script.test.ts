/**
 * e2e/cluster.sh chooses its Kubernetes version before it touches anything:
 * a version it has no bundle for, or a bundle folder that says another, is
 * refused with one line and exit 1, without root, a bundle or the host.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const script = path.join(__dirname, '..', 'e2e', 'cluster.sh');

/** Runs `cluster.sh ARGS` with a run folder of its own, so that nothing real is stopped. */
function cluster(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string; run: string } {
  const run = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-sh-')), 'run');
  const result = spawnSync('bash', [script, ...args], {
    encoding: 'utf-8',
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), NODE_REPORTER_E2E_RUN: run, NODE_REPORTER_E2E_CACHE: path.join(run, 'cache'), ...env },
  });
  return { status: result.status, stderr: result.stderr, run };
}

describe('e2e/cluster.sh start', () => {
  test.each([['1.30'], ['1.99'], ['1.35.5'], ['1; rm -rf /']])('refuses version %j, naming the two it has', (version) => {
    // WHEN it is asked for a version it has no bundle for
    const { status, stderr, run } = cluster(['start', version]);

    // THEN it says which it has, and starts nothing
    expect(status).toBe(1);
    expect(stderr).toBe(`[cluster] the Kubernetes version must be 1.35 (bundle v1.35.6) or 1.32 (bundle v1.32.13), but got "${version}"\n`);
    expect(fs.existsSync(run)).toBe(false);
  });

  test('refuses NODE_REPORTER_K8S_VERSION too, the same way', () => {
    const { status, stderr } = cluster(['start'], { NODE_REPORTER_K8S_VERSION: '1.29' });
    expect(status).toBe(1);
    expect(stderr).toContain('but got "1.29"');
  });

  test('refuses a bundle folder not named for its version, and one that holds another version than asked', () => {
    // GIVEN bundle folders that are not vX.Y.Z, or are 1.32 while 1.35 is asked
    const unnamed = cluster(['start'], { NODE_REPORTER_K8S_BUNDLE: '/opt/k8s/latest' });
    const other = cluster(['start', '1.35'], { NODE_REPORTER_K8S_BUNDLE: '/opt/k8s/v1.32.13' });

    // THEN each is one line naming the folder or both versions
    expect(unnamed.status).toBe(1);
    expect(unnamed.stderr).toMatch(/^\[cluster\] NODE_REPORTER_K8S_BUNDLE must be a bundle folder named vX\.Y\.Z \(as .*\/v1\.35\.6\), but got "\/opt\/k8s\/latest"\n$/);
    expect([other.status, other.stderr]).toEqual([1, '[cluster] version 1.35 was asked for, but NODE_REPORTER_K8S_BUNDLE holds 1.32.13\n']);
  });

  test.each([['0'], ['6'], ['three'], ['2; reboot'], ['']])('refuses --nodes %j, naming the range it takes', (nodes) => {
    // WHEN it is asked for a number of nodes it cannot start
    const { status, stderr, run } = cluster(['start', '1.35', '--nodes', nodes]);

    // THEN it says what it takes, and starts nothing
    expect(status).toBe(1);
    expect(stderr).toBe(`[cluster] --nodes must be a whole number from 1 to 5, but got "${nodes}"\n`);
    expect(fs.existsSync(run)).toBe(false);
  });

  test('refuses a flag it does not know and a second version', () => {
    expect(cluster(['start', '--node', '3'])).toMatchObject({ status: 1, stderr: '[cluster] start takes [1.35|1.32] [--nodes N], but got "--node"\n' });
    expect(cluster(['start', '1.35', '1.32'])).toMatchObject({ status: 1, stderr: '[cluster] start takes one version, but got "1.35" and "1.32"\n' });
  });

  test('names its commands when given another', () => {
    const { status, stderr } = cluster(['begin']);
    expect(status).toBe(2);
    expect(stderr).toBe(`usage: ${script} start [1.35|1.32] [--nodes N]|stop|kubelet-stop I|kubelet-start I|host-state|images\n`);
  });
});
