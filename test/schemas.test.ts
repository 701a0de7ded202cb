/**
 * The Kubernetes definitions in schemas/ (1.28, and 1.31 to 1.36) are what
 * imports/k8s.ts and the checks' schemas are generated from: a clone needs
 * nothing beside it, and a changed copy (or generated files gone stale)
 * fails `npm test`.
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

/** The definitions of each supported version, with the sum upstream's copy has (schemas/PROVENANCE.md). */
const SUMS: Record<string, string> = {
  'v1.28.0/_definitions.json': '26005b7e779ea2fcbd87e4f23d76dc565eef8381c2287e149c676c03d48b0df6',
  'v1.31.14/_definitions.json': 'f0748592976374ad2021fa22e7c9b842abb32f57a13f91e399cf62cfbb748589',
  'v1.32.13/_definitions.json': 'da0357e2e214896139b14699a5c4968ab466e0cfad666a69876dd63c8791256a',
  'v1.33.13/_definitions.json': 'ae93564921b38ad1163e61f71b3261ac9030ddcedc1d70d6b7bbf90f35036439',
  'v1.34.9/_definitions.json': 'ade7154cdf1a9a8fe0c4b595c1407aa3ada4b1e12d7056c948642ac373fb8505',
  'v1.35.6/_definitions.json': '98331204cf72fa3d8301d185b826d93ef036c9295426c7f081f26e88b0efe7a3',
  'v1.36.3/_definitions.json': 'cb575628996783a3f838c765b6837a74ce9cf3dee58af1cf49b567f16bc2e016',
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../scripts/generate-schema.js') as { generate(text: string, version?: string): string; source: string; out: string; outFile(minor: string): string; SCHEMA_VERSIONS: Record<string, string> };

describe('the Kubernetes definitions (schemas/)', () => {
  test('nothing outside e2e/ reads a folder beside the repository', () => {
    // GIVEN every file that npm test, npm run synth, schema and import read
    const files = [...['lib', 'test', 'scripts'].flatMap((d) => filesUnder(path.join(root, d))), path.join(root, 'package.json'), path.join(root, 'jest.config.js'), path.join(root, 'cdk8s.yaml')];
    // The patterns are built so that this file does not match itself.
    const beside = new RegExp(['\\.\\./', 'shared', '|', 'K8S', '_SCHEMAS'].join(''));

    // THEN none names it
    expect(files.filter((f) => beside.test(fs.readFileSync(f, 'utf-8'))).map((f) => path.relative(root, f))).toEqual([]);
  });

  test('each shipped copy has the sum that SHA256SUMS and PROVENANCE.md record, the one its source published', () => {
    expect(definitions.checksums()).toEqual(SUMS);
    const provenance = fs.readFileSync(path.join(root, 'schemas', 'PROVENANCE.md'), 'utf-8');
    for (const [name, sum] of Object.entries(SUMS)) {
      const text = fs.readFileSync(path.join(definitions.SCHEMAS, name));
      expect(crypto.createHash('sha256').update(text).digest('hex')).toBe(sum);
      expect(provenance).toContain(sum);
    }
  });

  test('one generated schema per supported Kubernetes version, each generated from its copy and recording its sum', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { KUBERNETES_VERSIONS } = require('../lib/checks/versions') as typeof import('../lib/checks/versions');
    expect(Object.keys(generator.SCHEMA_VERSIONS)).toEqual([...KUBERNETES_VERSIONS]);
    for (const [minor, version] of Object.entries(generator.SCHEMA_VERSIONS)) {
      const out = generator.outFile(minor);
      expect(path.relative(root, out)).toBe(path.join('lib', 'checks', `schema-${minor}.json`));
      const text = fs.readFileSync(out, 'utf-8');
      expect(JSON.parse(text).sha256).toBe(SUMS[`${version}/_definitions.json`]);
      expect(text).toBe(generator.generate(definitions.readDefinitions(version), version));
    }
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

  test('the 1.28 schema, the first one shipped, is still generated from the definitions cdk8s import k8s@1.28.0 reads', () => {
    expect(path.relative(root, generator.source)).toBe(path.join('schemas', 'v1.28.0', '_definitions.json'));
    expect(fs.readFileSync(generator.out, 'utf-8')).toBe(generator.generate(definitions.readDefinitions('v1.28.0')));
  });

  test('upstream\'s IntOrString (a string of format int-or-string) is generated as the integer-or-string the checks read', () => {
    const schema = JSON.parse(fs.readFileSync(generator.outFile('1.35'), 'utf-8'));
    expect(schema.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ oneOf: [{ type: 'string' }, { type: 'integer' }] });
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
