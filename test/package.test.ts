/**
 * The package as another team installs it: `npm pack`, the tarball unpacked
 * into a fresh cdk8s app with the tsconfig that `cdk8s init typescript-app`
 * writes (lib es2016, strict), which sees only the package's declared
 * dependencies; every README example compiled there, the app synthesized.
 * No registry is contacted: the dependencies are the ones `npm ci` installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readmeCommands, userDocs } from './readme';
import { Manifest } from './util';

const root = path.join(__dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** The example files the README shows (`<!-- example: FILE -->`). */
function readmeExamples(): string[] {
  return [...userDocs().matchAll(/<!-- example: (\S+) -->/g)].map((m) => m[1]);
}

let work: string;
let app: string;
let packed: string[];
let tarball: string;
let manifests: Manifest[];
let readmeApp: string;
let plus33App: string;

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
  tarball = path.join(work, filename);

  app = path.join(work, 'app');
  const installed = path.join(app, 'node_modules', 'node-reporter');
  fs.mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['xzf', path.join(work, filename), '-C', installed, '--strip-components=1']);
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf-8'));
  for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]) {
    provide(name);
  }
  // No @types/node: v20's declarations pull in lib es2020, which hides what lib es2016 lacks
  // (the template installs @types/node 14, which does not).

  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // The template's own tsconfig, as `cdk8s init typescript-app` writes it (it emits main.js beside main.ts).
  fs.copyFileSync(path.join(root, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app', 'tsconfig.json'), path.join(app, 'tsconfig.json'));
  for (const example of readmeExamples()) {
    fs.copyFileSync(path.join(root, example), path.join(app, example === 'examples/consumer-app.ts' ? 'main.ts' : path.basename(example)));
  }
  run(bin('tsc'), ['-p', '.'], app);
  // The consumer wires the package's manifest checks into its own cdk8s.yaml.
  fs.writeFileSync(path.join(app, 'cdk8s.yaml'), [
    'language: typescript',
    'app: node main.js',
    'validations:',
    '  - package: ./node_modules/node-reporter/build/lib/checks/validation-plugin.js',
    `    version: ${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).version}`,
    '    class: NodeAgentChecks',
    '',
  ].join('\n'));
  const output = run(bin('cdk8s'), ['synth', '--no-check-upgrade'], app);
  expect(output).toContain('Validations ended succesfully');
  manifests = parseAllDocuments(fs.readFileSync(path.join(app, 'dist', 'monitoring.k8s.yaml'), 'utf-8')).map((d) => d.toJS());

  // The README's app: the quick start as main.ts, kubectl's node list as nodes.json, the bins npm would link.
  readmeApp = path.join(work, 'readme-app');
  fs.mkdirSync(path.join(readmeApp, 'node_modules', '.bin'), { recursive: true });
  for (const name of fs.readdirSync(path.join(app, 'node_modules'))) {
    if (name !== '.bin') {
      fs.symlinkSync(fs.realpathSync(path.join(app, 'node_modules', name)), path.join(readmeApp, 'node_modules', name), 'dir');
    }
  }
  fs.symlinkSync(path.join('..', 'node-reporter', pkg.bin['node-reporter']), path.join(readmeApp, 'node_modules', '.bin', 'node-reporter'));
  // npm install makes a bin executable (bin-links); the tarball alone does not.
  fs.chmodSync(path.join(installed, pkg.bin['node-reporter']), 0o755);
  fs.symlinkSync(path.join(root, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s'), path.join(readmeApp, 'node_modules', '.bin', 'cdk8s'));
  for (const file of ['package.json', 'tsconfig.json', 'cdk8s.yaml']) {
    fs.copyFileSync(path.join(app, file), path.join(readmeApp, file));
  }
  fs.copyFileSync(path.join(root, 'examples', 'quick-start.ts'), path.join(readmeApp, 'main.ts'));
  fs.copyFileSync(path.join(root, 'test', 'fixtures', 'nodes', 'kubeadm-three.json'), path.join(readmeApp, 'nodes.json'));
  run(bin('tsc'), ['-p', '.'], readmeApp);

  // An app on cdk8s-plus-33, as `cdk8s init typescript-app` makes it today: the package, its peers
  // (npm installs cdk8s-plus-28 as one) and cdk8s-plus-33, the template's tsconfig; compiled in its test.
  plus33App = path.join(work, 'plus33-app');
  fs.mkdirSync(path.join(plus33App, 'node_modules'), { recursive: true });
  for (const name of [...fs.readdirSync(path.join(app, 'node_modules')), 'cdk8s-plus-33']) {
    const from = name === 'cdk8s-plus-33' ? path.join(root, 'node_modules', name) : path.join(app, 'node_modules', name);
    fs.symlinkSync(fs.realpathSync(from), path.join(plus33App, 'node_modules', name), 'dir');
  }
  for (const file of ['package.json', 'tsconfig.json', 'cdk8s.yaml']) {
    fs.copyFileSync(path.join(app, file), path.join(plus33App, file));
  }
  fs.copyFileSync(path.join(root, 'test', 'fixtures', 'cdk8s-plus-33', 'main.ts'), path.join(plus33App, 'main.ts'));
  fs.copyFileSync(path.join(root, 'examples', 'quick-start.ts'), path.join(plus33App, 'quick-start.ts'));
}, 120_000);

afterAll(() => {
  if (work) {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

describe('the npm package', () => {
  test('ships exactly what a user needs: built lib/, its schemas (one per Kubernetes version), the jsii assembly, yaml bundled, the API reference and the guides, README, CHANGELOG, LICENSE', () => {
    const sources = (fs.readdirSync(path.join(root, 'lib'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\\/g, '/').replace(/\.ts$/, ''));
    const docs = (fs.readdirSync(path.join(root, 'docs', 'api'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => `docs/api/${f}`);
    // jsii requires a dependency that is not a jsii module to be bundled: yaml, and nothing else.
    const bundled = packed.filter((f) => f.startsWith('node_modules/'));
    expect(bundled).toContain('node_modules/yaml/package.json');
    expect(bundled.filter((f) => !f.startsWith('node_modules/yaml/'))).toEqual([]);
    const guides = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    const expected = ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', '.jsii', ...bundled, ...guides, ...['1.28', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36'].map((v) => `build/lib/checks/schema-${v}.json`), ...docs, ...sources.flatMap((f) => [`build/lib/${f}.js`, `build/lib/${f}.d.ts`])];
    expect([...packed].sort()).toEqual(expected.sort());
    expect(packed).not.toContain('build/lib/removed-module.js');
    // No tests, e2e, examples, dist, the definitions the schema is generated from, or the developer guide.
    expect(packed.filter((f) => /^(test|e2e|examples|dist|schemas|scripts|imports|bench)\/|^CONTRIBUTING\.md$/.test(f))).toEqual([]);
  });

  test('ships the user README, and npm pack --dry-run lists exactly the files of the tarball', () => {
    const readme = fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'README.md'), 'utf-8');
    expect(readme).toBe(fs.readFileSync(path.join(root, 'README.md'), 'utf-8'));
    expect(readme).toMatch(/^## Install/m);
    expect(readme).not.toMatch(/^#+ (Tests|Speed|End to end|The local cluster)/m);
    const dryRun = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], root))[0].files.map((f: { path: string }) => f.path).sort();
    expect(dryRun).toEqual([...packed].sort());
  });

  test('is publishable: not private, with version, repository, homepage, bugs, keywords and a CHANGELOG entry for it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'package.json'), 'utf-8'));
    expect(pkg.private).toBeUndefined();
    expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/) });
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\/github\.com\/.*\/issues$/);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cdk8s', 'kubernetes', 'daemonset']));
    const changelog = fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'CHANGELOG.md'), 'utf-8');
    expect(changelog).toMatch(/^# Changelog\n[\s\S]*Keep a Changelog[\s\S]*^## \[Unreleased\]$/m);
    expect(changelog).toContain(`## [${pkg.version}] - `);
  });

  test('installs clean from the tarball: npm install in a fresh app warns of nothing, as the package runs no lifecycle script', () => {
    // GIVEN a fresh app, and the package's dependencies and peers offline (linked from this project: no registry)
    const fresh = fs.mkdtempSync(path.join(work, 'fresh-'));
    fs.writeFileSync(path.join(fresh, 'package.json'), JSON.stringify({ name: 'fresh', private: true }));
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'node-reporter', 'package.json'), 'utf-8'));
    const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].map((name) => path.join(root, 'node_modules', name));
    // WHEN the tarball is installed as a user installs it
    const result = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball, ...deps], { cwd: fresh, encoding: 'utf-8' });
    // THEN it installs, npm warns of nothing (a `prepare` that runs scripts/link-bin.js, which the package lacks, was one),
    // and no script npm runs on install, pack or publish is left in the published package.json
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/npm warn/i);
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'preprepare', 'postprepare', 'prepack', 'postpack'];
    expect(Object.keys(pkg.scripts ?? {}).filter((s) => lifecycle.includes(s))).toEqual([]);
    // and the repository keeps its own scripts
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).scripts).toEqual(expect.objectContaining({ prepare: 'node scripts/link-bin.js' }));
  });

  test('exports the library, checks, eligibility and diff to require(), and nothing else', () => {
    const script = [
      "const lib = require('node-reporter'); const checks = require('node-reporter/checks'); const eligibility = require('node-reporter/eligibility'); const diff = require('node-reporter/diff');",
      "const version = require('node-reporter/package.json').version;",
      "let deep; try { require('node-reporter/build/lib/k8s'); deep = 'resolved'; } catch (e) { deep = e.code; }",
      'console.log(JSON.stringify({ lib: typeof lib.NodeAgent, checks: typeof checks.checkYaml, eligibility: typeof eligibility.evaluateNodes, diff: typeof diff.diffManifests, version, deep }));',
    ].join('\n');
    const out = JSON.parse(run(process.execPath, ['-e', script], app));
    expect(out).toEqual({ lib: 'function', checks: 'function', eligibility: 'function', diff: 'function', version: JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')).version, deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });

  test('runs the README\'s commands for users as written, in a cdk8s app with the quick start', () => {
    // `npm install` is the tarball's, unpacked in beforeAll (no registry here); every other line runs as written.
    const blocks = readmeCommands(userDocs()).filter((b) => b.where === 'package');
    const commands = blocks.flatMap((b) => b.commands).filter((c) => !c.startsWith('npm install '));
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const result = spawnSync('sh', ['-c', command], { cwd: readmeApp, encoding: 'utf-8', env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', npm_config_offline: 'true' } });
      expect([command, result.status, result.status === 0 ? '' : `${result.stdout}${result.stderr}`]).toEqual([command, 0, '']);
    }
    const [ns, ds] = parseAllDocuments(fs.readFileSync(path.join(readmeApp, 'dist', 'agents.k8s.yaml'), 'utf-8')).map((d) => d.toJS());
    expect([ns.kind, ds.kind, ds.metadata.name]).toEqual(['Namespace', 'DaemonSet', 'hello']);
    expect(JSON.parse(fs.readFileSync(path.join(readmeApp, 'checks.sarif'), 'utf-8')).version).toBe('2.1.0');
  }, 60_000);

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
      'Namespace/monitoring', 'DaemonSet/node-reporter', 'DaemonSet/node-reporter-canary',
      'ServiceAccount/node-agent-team-exporter', 'Role/node-agent:team-exporter', 'RoleBinding/node-agent:team-exporter', 'DaemonSet/team-exporter', 'Service/node-agent-team-exporter',
    ]);
  });

  test('puts every object in the namespace monitoring, and no namespace on the Namespace', () => {
    const [ns, ...namespaced] = manifests;
    expect(ns.metadata).not.toHaveProperty('namespace');
    expect(namespaced.map((o) => o.metadata.namespace)).toEqual(namespaced.map(() => 'monitoring'));
  });

  test('runs its own NodeAgent on the nodes of a set-based policy, with an init container, volumes, RBAC by name and a metrics Service', () => {
    const exporter = manifests.find((m) => m.kind === 'DaemonSet' && m.metadata.name === 'team-exporter')!;
    const pod = exporter.spec.template.spec;
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{ matchExpressions: [
      { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
    ] }]);
    expect(pod.containers[0]).toMatchObject({ image: 'registry.example.com/team/exporter:1.4.0', ports: [{ containerPort: 8080, name: 'metrics' }] });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65534 });
    // The init container has the agent's defaults, and writes where the exporter reads.
    expect(pod.initContainers[0]).toMatchObject({ name: 'render-config', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }, volumeMounts: [{ name: 'work', mountPath: '/work' }] });
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'work', mountPath: '/work', readOnly: true }, { name: 'token', mountPath: '/var/run/exporter', readOnly: true }]);
    expect(pod.volumes.map((v: Manifest) => v.name)).toEqual(['work', 'token']);
    const role = manifests.find((m) => m.kind === 'Role')!;
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['team-exporter-settings'], verbs: ['get', 'watch'] }]);
    const service = manifests.find((m) => m.kind === 'Service')!;
    expect(Object.entries(service.spec.selector).every(([k, v]) => exporter.spec.template.metadata.labels[k] === v)).toBe(true);
    expect(service.spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
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
    const out = run(process.execPath, [binPath, 'eligible', '--nodes', path.join(root, 'test', 'fixtures', 'nodes', 'kubeadm-three.json'), '--selector', 'practice-tier=operations', '--format', 'json'], app);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test('an app on cdk8s-plus-33 type-checks with the template\'s tsconfig, and synthesizes the quick start and a realistic agent of its own cdk8s-plus objects', () => {
    // GIVEN the app (test/fixtures/cdk8s-plus-33/main.ts) and the README's quick start, compiled as the template does
    expect(JSON.parse(fs.readFileSync(path.join(plus33App, 'node_modules', 'cdk8s-plus-33', 'package.json'), 'utf-8')).name).toBe('cdk8s-plus-33');
    run(bin('tsc'), ['-p', '.'], plus33App);

    // WHEN cdk8s synthesizes it, the package's checks included, and the quick start runs
    expect(run(bin('cdk8s'), ['synth', '--no-check-upgrade'], plus33App)).toContain('Validations ended succesfully');
    const quickStart = spawnSync(process.execPath, ['quick-start.js'], { cwd: plus33App, encoding: 'utf-8', env: { ...process.env, CDK8S_OUTDIR: 'quick-start' } });
    expect([quickStart.status, quickStart.stderr]).toEqual([0, '']);

    // THEN the agent holds what cdk8s-plus-33's objects rendered
    const objects: Manifest[] = parseAllDocuments(fs.readFileSync(path.join(plus33App, 'dist', 'monitoring.k8s.yaml'), 'utf-8')).map((d) => d.toJS());
    expect(objects.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(['Namespace/monitoring', 'ConfigMap/exporter-settings', 'DaemonSet/node-exporter', 'Service/node-agent-node-exporter']);
    const [exporter] = objects.find((m) => m.kind === 'DaemonSet')!.spec.template.spec.containers;
    expect(exporter.livenessProbe).toEqual({ failureThreshold: 3, httpGet: { path: '/', port: 9100, scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1 });
    expect(exporter.lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
    expect(exporter.envFrom).toEqual([{ configMapRef: { name: 'exporter-settings' } }]);
    const hello = parseAllDocuments(fs.readFileSync(path.join(plus33App, 'quick-start', 'agents.k8s.yaml'), 'utf-8')).map((d) => d.toJS());
    expect(hello.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(['Namespace/agents', 'DaemonSet/hello']);
  }, 90_000);

  test('runs v3 and v4-rc.1, each selecting only its own pods', () => {
    const [stable, canary] = manifests.slice(1, 3);
    expect(stable.spec.template.spec.containers[0].command[2]).toContain('version=v3;');
    expect(canary.spec.template.spec.containers[0].command[2]).toContain('version=v4-rc.1;');
    expect(stable.spec.selector.matchLabels).toEqual({ app: 'node-reporter' });
    expect(canary.spec.selector.matchLabels).toEqual({ app: 'node-reporter-canary' });
  });
});
