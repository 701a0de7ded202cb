/**
 * The package as another team installs it: `npm pack`, the tarball unpacked
 * into a fresh cdk8s app (strict TypeScript) that sees only the package's
 * declared dependencies, then type-checked and synthesized. No registry is
 * contacted: the dependencies are the ones `npm ci` installed here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Manifest } from './util';

const root = path.join(__dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

let work: string;
let app: string;
let packed: string[];
let manifests: Manifest[];

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' } });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Links a package from this project's node_modules into the app, as npm would have installed it. */
function provide(name: string): void {
  const target = path.join(app, 'node_modules', name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules', name), target, 'dir');
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-package-'));
  // A file left in build/ by a source file that no longer exists must not ship.
  fs.mkdirSync(path.join(root, 'build', 'lib'), { recursive: true });
  fs.writeFileSync(path.join(root, 'build', 'lib', 'removed-module.js'), 'module.exports = "stale";\n');
  // npm pack runs `prepack`, which builds from a clean build/.
  const [{ filename, files }] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root));
  packed = files.map((f: { path: string }) => f.path);

  app = path.join(work, 'app');
  const installed = path.join(app, 'node_modules', 'node-reporter');
  fs.mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['xzf', path.join(work, filename), '-C', installed, '--strip-components=1']);
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf-8'));
  for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]) {
    provide(name);
  }
  provide('@types/node');

  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2020', module: 'commonjs', lib: ['es2020'], types: ['node'], strict: true, noImplicitReturns: true, noUnusedLocals: true, esModuleInterop: true, outDir: 'out', rootDir: '.' },
    include: ['*.ts'],
  }));
  fs.copyFileSync(path.join(root, 'examples', 'consumer-app.ts'), path.join(app, 'main.ts'));
  fs.copyFileSync(path.join(root, 'examples', 'check-my-chart.ts'), path.join(app, 'check-my-chart.ts'));
  run(bin('tsc'), ['-p', '.'], app);
  // The consumer wires the package's manifest checks into its own cdk8s.yaml.
  fs.writeFileSync(path.join(app, 'cdk8s.yaml'), [
    'language: typescript',
    'app: node out/main.js',
    'validations:',
    '  - package: ./node_modules/node-reporter/build/lib/checks/validation-plugin.js',
    '    version: 0.1.0',
    '    class: NodeAgentChecks',
    '',
  ].join('\n'));
  const output = run(bin('cdk8s'), ['synth', '--no-check-upgrade'], app);
  expect(output).toContain('Validations ended succesfully');
  manifests = parseAllDocuments(fs.readFileSync(path.join(app, 'dist', 'monitoring.k8s.yaml'), 'utf-8')).map((d) => d.toJS());
}, 120_000);

afterAll(() => {
  if (work) {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

describe('the npm package', () => {
  test('ships exactly the built JavaScript and declarations of lib/, the API reference, README and LICENSE', () => {
    const sources = (fs.readdirSync(path.join(root, 'lib'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\\/g, '/').replace(/\.ts$/, ''));
    const docs = (fs.readdirSync(path.join(root, 'docs', 'api'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => `docs/api/${f}`);
    const expected = ['LICENSE', 'README.md', 'package.json', 'build/lib/checks/schema-1.28.json', ...docs, ...sources.flatMap((f) => [`build/lib/${f}.js`, `build/lib/${f}.d.ts`])];
    expect([...packed].sort()).toEqual(expected.sort());
    expect(packed).not.toContain('build/lib/removed-module.js');
  });

  test('carries the Apache-2.0 licence its package.json names', () => {
    const license = fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'LICENSE'), 'utf-8');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).license).toBe('Apache-2.0');
  });

  test('declares cdk8s, cdk8s-plus-28 and constructs as peers, so an app has one copy of each', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'package.json'), 'utf-8'));
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdk8s', 'cdk8s-plus-28', 'constructs']);
    for (const peer of ['cdk8s', 'cdk8s-plus-28', 'constructs']) {
      expect(pkg.dependencies?.[peer]).toBeUndefined();
    }
  });

  test('a strict TypeScript cdk8s app type-checks and synthesizes with it (the checks included)', () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
      'Namespace/monitoring', 'DaemonSet/node-reporter', 'DaemonSet/node-reporter-canary', 'DaemonSet/team-exporter',
    ]);
  });

  test('puts every agent in the namespace monitoring, and no namespace on the Namespace', () => {
    const [ns, ...daemonSets] = manifests;
    expect(ns.metadata).not.toHaveProperty('namespace');
    expect(daemonSets.map((ds) => ds.metadata.namespace)).toEqual(['monitoring', 'monitoring', 'monitoring']);
  });

  test('runs its own NodeAgent on the nodes of a set-based policy', () => {
    const exporter = manifests[3];
    expect(exporter.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(exporter.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{ matchExpressions: [
      { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
    ] }]);
    expect(exporter.spec.template.spec.containers[0]).toMatchObject({ image: 'registry.example.com/team/exporter:1.4.0', ports: [{ containerPort: 8080, name: 'metrics' }] });
    expect(exporter.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65534 });
  });

  test('lands both reporters on the nodes of their shared policy, control planes included', () => {
    for (const ds of manifests.slice(1, 3)) {
      expect(ds.spec.template.spec.nodeSelector).toEqual({ 'node-role.example.com/agents': 'true' });
      expect(ds.spec.template.spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    }
  });

  test('installs the node-reporter bin, which answers which nodes are eligible', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'package.json'), 'utf-8'));
    const binPath = path.join(app, 'node_modules', 'node-reporter', pkg.bin['node-reporter']);
    expect(fs.readFileSync(binPath, 'utf-8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const out = run(process.execPath, [binPath, 'eligible', '--nodes', path.join(root, 'test', 'fixtures', 'nodes', 'kubeadm-three.json'), '--json'], app);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test('runs v3 and v4-rc.1, each selecting only its own pods', () => {
    const [stable, canary] = manifests.slice(1, 3);
    expect(stable.spec.template.spec.containers[0].command[2]).toContain('version=v3;');
    expect(canary.spec.template.spec.containers[0].command[2]).toContain('version=v4-rc.1;');
    expect(stable.spec.selector.matchLabels).toEqual({ app: 'node-reporter' });
    expect(canary.spec.selector.matchLabels).toEqual({ app: 'node-reporter-canary' });
  });
});
