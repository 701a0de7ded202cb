/**
 * `npx node-reporter` inside the repository (issue 23): `npm install` and
 * `npm ci` run the `prepare` script, which links node_modules/.bin/node-reporter
 * to the CLI's sources.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('npx node-reporter inside the repository', () => {
  let project: string;
  beforeAll(() => {
    // GIVEN a checkout as npm ci leaves it: its own node_modules (the packages linked in), no bin linked yet
    project = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'npx-in-repo-')), 'node-reporter');
    fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    for (const entry of ['lib', 'scripts', 'test']) fs.symlinkSync(path.join(root, entry), path.join(project, entry), 'dir');
    fs.copyFileSync(path.join(root, 'package.json'), path.join(project, 'package.json'));
    for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
      if (name !== '.bin') fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', name)), path.join(project, 'node_modules', name), 'dir');
    }
  });
  afterAll(() => fs.rmSync(path.dirname(project), { recursive: true, force: true }));

  test('the prepare script links the bin, and npx node-reporter then runs the CLI', () => {
    // WHEN npm's prepare step runs, twice (a second npm install finds the link)
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8'));
    expect(pkg.scripts.prepare).toBe('node scripts/link-bin.js');
    for (let i = 0; i < 2; i++) {
      const prepared = spawnSync(process.execPath, [path.join(project, 'scripts', 'link-bin.js'), project], { encoding: 'utf-8' });
      expect([prepared.status, prepared.stderr]).toEqual([0, '']);
    }

    // THEN
    expect(fs.readlinkSync(path.join(project, 'node_modules', '.bin', 'node-reporter'))).toBe(path.join('..', '..', 'scripts', 'node-reporter.js'));
    const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const version = spawnSync('npx', ['--no-install', 'node-reporter', '--version'], { cwd: project, encoding: 'utf-8', env });
    expect([version.status, version.stdout.split('\n')[0], version.stderr]).toEqual([0, pkg.version, '']);
    const check = spawnSync('npx', ['--no-install', 'node-reporter', 'check', path.join(root, 'dist')], { cwd: project, encoding: 'utf-8', env });
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/^checked \d+ files/m);
  }, 60_000);
});
