/**
 * `npm run synth` (scripts/synth.js) replaces only a folder it may own, and
 * leaves it as it was when synth fails. Each case runs in a sandbox: a copy of
 * the project (sources, scripts, dist/) in a scratch folder, so that a script
 * that deletes its project deletes only the copy.
 */
import { spawnSync, SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { sandbox, state } from './sandbox';

const root = path.join(__dirname, '..');

function synth(project: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(process.execPath, [path.join(project, 'scripts', 'synth.js'), ...args], {
    cwd: project, encoding: 'utf-8', ...options,
    env: { ...process.env, NODE_REPORTER_VARIANTS: '', NODE_REPORTER_CREATE_NAMESPACE: '', CDK8S_CHECK_UPGRADE: 'false', ...options.env },
  });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

let project: string;
let scratch: string;

beforeEach(() => {
  project = sandbox();
  scratch = path.dirname(project);
});

afterEach(() => {
  fs.chmodSync(project, 0o755);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A refusal: exit 2, one line on stderr that says it, and nothing changed anywhere in the scratch folder. */
function expectRefused(args: string[], message: RegExp, options?: SpawnSyncOptions) {
  // GIVEN the scratch folder as it is
  const before = state(scratch);

  // WHEN
  const result = synth(project, args, options);

  // THEN
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^npm run synth: /);
  expect(result.status).toBe(2);
  expect(state(scratch)).toEqual(before);
}

describe('npm run synth refuses an output folder it may not own, before anything is touched', () => {
  test('the project itself (`npm run synth -- .`), which it would replace with two manifests', () => {
    expectRefused(['.'], /the output folder must not be the project or a folder holding it \(it is replaced\), but got "\."$/m);
  });

  test('a folder holding the project, by a relative or an absolute path', () => {
    expectRefused(['..'], /must not be the project or a folder holding it/);
    expectRefused(['/'], /must not be the project or a folder holding it/);
    expectRefused([path.join(project, 'lib', '..')], /must not be the project or a folder holding it/);
  });

  test('the working folder it is run from', () => {
    fs.mkdirSync(path.join(scratch, 'elsewhere'));
    expectRefused(['.'], /must not be the working folder or a folder holding it/, { cwd: path.join(scratch, 'elsewhere') });
  });

  test('an existing file, which it would replace by a folder', () => {
    fs.writeFileSync(path.join(project, 'notes.txt'), 'mine\n');
    expectRefused(['notes.txt'], /the output folder must be a folder or not exist yet, but "notes\.txt" is a file$/m);
    // Found by the fuzz test: a folder under a file was an ENOTDIR stack trace.
    expectRefused(['notes.txt/out'], /the output folder's parent must be an existing folder, but "notes\.txt" is not$/m);
  });

  test('a symbolic link, even to a folder of manifests', () => {
    fs.mkdirSync(path.join(scratch, 'manifests'));
    fs.symlinkSync(path.join(scratch, 'manifests'), path.join(project, 'link'), 'dir');
    expectRefused(['link'], /"link" is a symbolic link$/m);
  });

  test('a folder that holds anything but synthesized manifests: sources, notes, subfolders', () => {
    expectRefused(['lib'], /the output folder must be new, empty or hold only synthesized manifests \(\*\.k8s\.yaml\), but "lib" holds "\S+"$/m);
    fs.mkdirSync(path.join(project, 'out', 'nested'), { recursive: true });
    expectRefused(['out'], /but "out" holds "nested"$/m);
    fs.rmdirSync(path.join(project, 'out', 'nested'));
    fs.writeFileSync(path.join(project, 'out', 'a.k8s.yaml'), 'kind: A\n');
    fs.writeFileSync(path.join(project, 'out', 'README.md'), '# mine\n');
    expectRefused(['out'], /but "out" holds "README\.md"$/m);
  });

  test('a folder whose parent does not exist', () => {
    expectRefused(['missing/out'], /the output folder's parent must be an existing folder, but "missing" is not$/m);
  });

  test('the cdk8s output options, which would have the CLI delete that folder', () => {
    expectRefused(['--', '-o', '.'], /unknown option "-o": the cdk8s options passed on are --no-validate/);
    expectRefused(['--output=.'], /unknown option "--output=\."/);
    expectRefused(['--stdout', 'out'], /--stdout writes no folder, but got the output folder "out" too/);
  });

  test('a read-only project: one line that says where it cannot write, not a stack trace', () => {
    // GIVEN a project its user cannot write (root ignores the mode: run as nobody then)
    fs.chmodSync(project, 0o555);
    fs.chmodSync(scratch, 0o755);
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

    // THEN
    expectRefused([], /^npm run synth: cannot write in \S+ \((EACCES|EPERM|EROFS)\): synthesize elsewhere with npm run synth -- OUTDIR, or print the manifests with npm run --silent synth -- --stdout$/m, asNobody);
  });
});

describe('npm run synth writes the folders it may own, atomically', () => {
  test('leaves the output folder untouched when synth fails, with the app\'s reason in one line', () => {
    // GIVEN
    const before = state(scratch);

    // WHEN
    const result = synth(project, [], { env: { NODE_REPORTER_VARIANTS: 'v9' } });

    // THEN
    expect(result.stderr.trim()).toBe("'NODE_REPORTER_VARIANTS' must list variants among v1, v2 but got \"v9\"");
    expect(result.status).toBe(2);
    expect(state(scratch)).toEqual(before);
  });

  test('leaves it untouched when the checks refuse a manifest, and says so', () => {
    const before = state(scratch);
    const result = synth(project, ['--app', `node --require tsx/cjs ${path.join(root, 'test', 'fixtures', 'privileged-app.ts')}`]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('[pss-privileged]');
    expect(result.stderr).toMatch(/synth failed \(exit \d\): dist\/ is left as it was/);
    expect(state(scratch)).toEqual(before);
  });

  test('replaces dist/ (its own, whatever it holds) and a folder of manifests with the manifests, nothing else', () => {
    // GIVEN a stray file in dist/ and an old manifest in out/
    fs.writeFileSync(path.join(project, 'dist', 'stale.txt'), 'x');
    fs.mkdirSync(path.join(project, 'out'));
    fs.writeFileSync(path.join(project, 'out', 'old.k8s.yaml'), 'kind: Old\n');

    // WHEN
    const dist = synth(project, []);
    const out = synth(project, ['out', '--', '--no-validate']);

    // THEN
    expect([dist.status, out.status]).toEqual([0, 0]);
    expect(dist.stdout).toContain('wrote dist/');
    for (const folder of ['dist', 'out']) {
      expect(fs.readdirSync(path.join(project, folder)).sort()).toEqual(['node-reporter-v1.k8s.yaml', 'node-reporter-v2.k8s.yaml']);
      expect(fs.readFileSync(path.join(project, folder, 'node-reporter-v1.k8s.yaml'), 'utf-8')).toBe(fs.readFileSync(path.join(root, 'dist', 'node-reporter-v1.k8s.yaml'), 'utf-8'));
    }
    expect(fs.readdirSync(project).filter((f) => f.startsWith('.synth-'))).toEqual([]);
  }, 30_000);
});

describe('piping the manifests', () => {
  test('`npm run --silent synth -- --stdout` prints every manifest as one YAML stream, the checks\' report on stderr, and writes nothing', () => {
    // GIVEN
    const before = state(scratch);

    // WHEN
    const result = synth(project, ['--stdout']);

    // THEN the stream is the committed files, separated, and parses as YAML
    expect(result.status).toBe(0);
    const files = ['node-reporter-v1.k8s.yaml', 'node-reporter-v2.k8s.yaml'].map((f) => fs.readFileSync(path.join(root, 'dist', f), 'utf-8'));
    expect(result.stdout).toBe(files.join('---\n'));
    const documents = parseAllDocuments(result.stdout);
    expect(documents.map((d) => d.errors)).toEqual([[], [], [], []]);
    expect(documents.map((d) => d.toJS().kind)).toEqual(['Namespace', 'DaemonSet', 'Namespace', 'DaemonSet']);
    expect(result.stderr).toContain('Validations ended succesfully');
    expect(state(scratch)).toEqual(before);
  }, 30_000);

  test('`npx cdk8s synth --no-validate --stdout` leaves dist/ alone (cdk8s.yaml names no output folder)', () => {
    // GIVEN
    const before = state(scratch);

    // WHEN
    const result = spawnSync(path.join(project, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--no-validate', '--stdout'], {
      cwd: project, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', NODE_REPORTER_VARIANTS: 'v2' },
    });

    // THEN
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(fs.readFileSync(path.join(root, 'dist', 'node-reporter-v2.k8s.yaml'), 'utf-8'));
    expect(state(scratch)).toEqual(before);
  }, 30_000);
});
