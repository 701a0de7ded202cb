/**
 * The Kubernetes 1.28 definitions in schemas/ are what imports/k8s.ts and the
 * checks' schema are generated from: a clone needs nothing beside it, and a
 * changed copy (or generated files gone stale) fails `npm test`.
 */
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const definitions = require('../scripts/k8s-definitions.js') as {
  SCHEMAS: string;
  checksums(dir?: string): Record<string, string>;
  definitionsFile(version: string, dir?: string): string;
  readDefinitions(version: string, dir?: string): string;
};

function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the Kubernetes 1.28 definitions (schemas/)', () => {
  test('nothing outside e2e/ reads a folder beside the repository', () => {
    // GIVEN every file that npm test, npm run synth, schema and import read
    const files = [...['lib', 'test', 'scripts'].flatMap((d) => filesUnder(path.join(root, d))), path.join(root, 'package.json'), path.join(root, 'jest.config.js'), path.join(root, 'cdk8s.yaml')];
    // The patterns are built so that this file does not match itself.
    const beside = new RegExp(['\\.\\./', 'shared', '|', 'K8S', '_SCHEMAS'].join(''));

    // THEN none names it
    expect(files.filter((f) => beside.test(fs.readFileSync(f, 'utf-8'))).map((f) => path.relative(root, f))).toEqual([]);
  });

  test('the shipped copy has the sum that SHA256SUMS records, the one upstream published', () => {
    const text = fs.readFileSync(definitions.definitionsFile('v1.28.0'));
    expect(crypto.createHash('sha256').update(text).digest('hex')).toBe(definitions.checksums()['v1.28.0/_definitions.json']);
    expect(definitions.checksums()).toEqual({ 'v1.28.0/_definitions.json': '26005b7e779ea2fcbd87e4f23d76dc565eef8381c2287e149c676c03d48b0df6' });
    expect(fs.readFileSync(path.join(root, 'schemas', 'PROVENANCE.md'), 'utf-8')).toContain('26005b7e779ea2fcbd87e4f23d76dc565eef8381c2287e149c676c03d48b0df6');
  });

  test('a changed copy is refused, naming the file and both sums', () => {
    // GIVEN a copy of schemas/ with one character of the definitions changed
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    fs.cpSync(definitions.SCHEMAS, dir, { recursive: true });
    const file = definitions.definitionsFile('v1.28.0', dir);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf-8').replace('"io.k8s.api.apps.v1.DaemonSet"', '"io.k8s.api.apps.v1.DaemonSeT"'));

    // THEN reading it fails with the reason
    try {
      expect(() => definitions.readDefinitions('v1.28.0', dir)).toThrow(/_definitions\.json has sha256 [0-9a-f]{64} but SHA256SUMS says 26005b7e\w+: the file was changed/);
      expect(() => definitions.readDefinitions('v1.29.0', dir)).toThrow(/has no sum for v1\.29\.0\/_definitions\.json/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the checks\' schema is generated from the shipped copy and records its sum', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate, source, out } = require('../scripts/generate-schema.js') as { generate(text: string): string; source: string; out: string };
    expect(path.relative(root, source)).toBe(path.join('schemas', 'v1.28.0', '_definitions.json'));
    const schema = JSON.parse(fs.readFileSync(out, 'utf-8'));
    expect(schema.sha256).toBe(definitions.checksums()['v1.28.0/_definitions.json']);
    expect(fs.readFileSync(out, 'utf-8')).toBe(generate(definitions.readDefinitions('v1.28.0')));
  });

  test('imports/k8s.ts is exactly what `cdk8s import k8s@1.28.0` generates from the shipped copy', () => {
    // GIVEN the real code generator, offline (scripts/import-k8s.js), into a scratch folder
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'));
    const result = spawnSync(process.execPath, ['-r', './scripts/import-k8s.js', 'node_modules/cdk8s-cli/bin/cdk8s', 'import', 'k8s@1.28.0', '--language', 'typescript', '--output', out, '--no-check-upgrade'], {
      cwd: root, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' },
    });

    // THEN it read the shipped file and wrote the committed bindings
    try {
      expect(result.status).toBe(0);
      expect(result.stderr).toContain(`reading ${path.join('schemas', 'v1.28.0', '_definitions.json')}`);
      expect(fs.readFileSync(path.join(out, 'k8s.ts'), 'utf-8')).toBe(fs.readFileSync(path.join(root, 'imports', 'k8s.ts'), 'utf-8'));
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 30_000);
});
