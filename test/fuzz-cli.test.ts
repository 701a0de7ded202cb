/**
 * Fuzz of what users type rather than build: npm run synth's output folders
 * among random trees, the CLI on malformed manifests, deep YAML and odd
 * folders, and the names derived for cluster-scoped objects (fast-check,
 * which shrinks a failure to the smallest case). Every case ends in the
 * documented result or one clear line, never a crash or a change outside
 * the output folder.
 *
 * FUZZ_RUNS sets the number of cases per target (default 250; CI runs more).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { main } from '../lib/cli/node-reporter';
import { clusterRbacName } from '../lib/node-agent/rbac';
import { RUNS, SEED } from './fuzz-settings';
import { state } from './sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const outputFolder = require('../scripts/output-folder.js') as {
  UsageError: new (message: string) => Error;
  claimOutputFolder(given: string, options: { kind: 'manifests'; root: string; cwd: string; owned: string }): string;
  workFolderBeside(outdir: string, hint: string): string;
  swapIn(fresh: string, outdir: string, work: string): void;
};

/** A random tree beside and inside a project, and an output folder as a user may type it. */
const NAMES = ['dist', 'lib', 'out', 'a.k8s.yaml', 'b.yaml', 'README.md', '.git', 'x y', '..', '.', 'templates', 'notes.txt'];
const entry = fc.record({
  where: fc.constantFrom('project', 'project/dist', 'project/lib', 'scratch', 'project/out'),
  name: fc.constantFrom(...NAMES.filter((n) => n !== '..' && n !== '.')),
  kind: fc.constantFrom('file', 'folder', 'symlink'),
});
const folderArg = fc.oneof(
  fc.constantFrom('.', '..', '../..', '/', 'dist', './dist/', 'lib', 'out', 'new', 'dist/..', 'lib/../dist', 'missing/out', 'a.k8s.yaml', 'notes.txt', '.git', 'x y'),
  fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
  fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }).map((parts) => `/ABS/${parts.join('/')}`),
);

describe('fuzz: derived names of cluster-scoped objects (fast-check, shrinking to the smallest clash)', () => {
  const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/);
  test('two different (namespace, agent) pairs never share a ClusterRole name, and none is a built-in role', () => {
    fc.assert(fc.property(label, label, label, label, (ns1, a1, ns2, a2) => {
      fc.pre(ns1 !== ns2 || a1 !== a2);
      const [one, two] = [clusterRbacName(ns1, a1), clusterRbacName(ns2, a2)];
      return one !== two && !['cluster-admin', 'admin', 'edit', 'view'].includes(one) && !one.startsWith('system:');
    }), { numRuns: RUNS * 4, seed: SEED });
  });
});

describe(`fuzz: output folders of npm run synth (seed ${SEED}, ${RUNS} cases)`, () => {
  test('a refusal changes nothing; an accepted folder held only manifests (or is dist/), and nothing outside it changes', () => {
    fc.assert(fc.property(fc.array(entry, { maxLength: 8 }), folderArg, fc.constantFrom('project', 'project/lib', 'scratch'), (entries, given, cwdAt) => {
      // GIVEN a project with sources and dist/, and random files, folders and symlinks around it
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-outdir-'));
      try {
        const project = path.join(scratch, 'project');
        fs.mkdirSync(path.join(project, 'lib'), { recursive: true });
        fs.mkdirSync(path.join(project, 'dist'));
        fs.writeFileSync(path.join(project, 'main.ts'), 'app\n');
        fs.writeFileSync(path.join(project, 'lib', 'index.ts'), 'lib\n');
        fs.writeFileSync(path.join(project, 'dist', 'v1.k8s.yaml'), 'kind: V1\n');
        for (const e of entries) {
          const target = path.join(scratch, e.where, e.name);
          if (fs.existsSync(path.dirname(target)) && fs.statSync(path.dirname(target)).isDirectory() && !fs.existsSync(target)) {
            if (e.kind === 'file') {
              fs.writeFileSync(target, e.name);
            } else if (e.kind === 'folder') {
              fs.mkdirSync(target);
            } else {
              fs.symlinkSync(project, target);
            }
          }
        }
        const cwd = path.join(scratch, cwdAt);
        const arg = given.replace(/^\/ABS/, scratch);
        // Cases that leave the scratch folder (../x from it) are not run: they would write outside it.
        const resolved = path.resolve(cwd, arg);
        if (resolved !== '/' && !resolved.startsWith(`${scratch}${path.sep}`) && resolved !== scratch) {
          return;
        }
        const before = state(scratch);

        // WHEN the script claims the folder, then writes a manifest and swaps it in
        let outdir: string;
        try {
          outdir = outputFolder.claimOutputFolder(arg, { kind: 'manifests', root: project, cwd, owned: path.join(project, 'dist') });
        } catch (error) {
          // THEN a refusal is one line, and nothing changed
          expect(error).toBeInstanceOf(outputFolder.UsageError);
          expect((error as Error).message).not.toContain('\n');
          expect(state(scratch)).toEqual(before);
          return;
        }
        const work = outputFolder.workFolderBeside(outdir, 'hint');
        fs.mkdirSync(path.join(work, 'out'));
        fs.writeFileSync(path.join(work, 'out', 'new.k8s.yaml'), 'kind: New\n');
        outputFolder.swapIn(path.join(work, 'out'), outdir, work);
        fs.rmSync(work, { recursive: true, force: true });

        // THEN only the output folder changed, it held only manifests unless it is dist/, and now holds the new one
        const after = state(scratch);
        // By real path: through a symlinked parent, the folder written may be dist/ itself.
        const realOut = fs.realpathSync(outdir);
        const inside = (p: string) => path.join(scratch, p) === realOut || path.join(scratch, p).startsWith(`${realOut}${path.sep}`);
        const relOut = path.relative(scratch, realOut);
        for (const [p, content] of Object.entries(before)) {
          if (!inside(p)) {
            expect([p, after[p]]).toEqual([p, content]);
          } else if (realOut !== path.join(project, 'dist') && p !== relOut) {
            expect(p).toMatch(/\.k8s\.yaml$/);
          }
        }
        expect(Object.keys(after).filter(inside).sort()).toEqual([relOut, path.join(relOut, 'new.k8s.yaml')]);
        expect(fs.readFileSync(path.join(project, 'main.ts'), 'utf-8')).toBe('app\n');
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    }), { numRuns: RUNS, seed: SEED });
  });
});

/**
 * The inputs that crashed the CLI (issue 18): malformed DaemonSets for
 * `eligible --manifest`, deep or odd YAML for `check`, odd folders. Every
 * case ends in exit 0 or 1 (check) with a report, or 2 with one line.
 */
describe(`fuzz: the CLI on malformed manifests, deep YAML and odd folders (seed ${SEED}, ${RUNS} cases)`, () => {
  const nodes = fs.readFileSync(path.join(__dirname, 'fixtures', 'nodes', 'kubeadm-three.json'), 'utf-8');
  const anyJson: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.constant({})), { maxLength: 3 }));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
  const term = fc.oneof(anyJson, fc.record({ matchExpressions: maybe(fc.oneof(anyJson, fc.array(fc.record({ key: fc.oneof(fc.constant('cores'), anyJson), operator: fc.constantFrom('In', 'Gt', 'Lt', 'Exists', 'x'), values: maybe(fc.oneof(anyJson, fc.array(fc.constantFrom('1', '99999999999999999999', '-3', 'x')))) })))), matchFields: maybe(anyJson) }));
  const spec = fc.record({
    nodeSelector: maybe(fc.oneof(anyJson, fc.dictionary(fc.constantFrom('tier', 'a/b'), anyJson))),
    tolerations: maybe(fc.oneof(anyJson, fc.array(fc.oneof(anyJson, fc.record({ key: maybe(anyJson), operator: maybe(fc.constantFrom('Exists', 'Equal', 'x')), effect: maybe(anyJson) }))))),
    affinity: maybe(fc.oneof(anyJson, fc.record({ nodeAffinity: maybe(fc.oneof(anyJson, fc.record({ requiredDuringSchedulingIgnoredDuringExecution: maybe(fc.oneof(anyJson, fc.record({ nodeSelectorTerms: maybe(fc.oneof(anyJson, fc.array(term, { maxLength: 3 }))) }))) }))) }))),
    hostNetwork: maybe(anyJson),
    nodeName: maybe(fc.oneof(fc.constantFrom('cp-1', 'worker-1', ''), anyJson)),
  });
  const daemonSet = fc.record({ template: maybe(fc.oneof(anyJson, fc.record({ spec: maybe(fc.oneof(anyJson, spec)) }))) })
    .map(({ template }) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { template } }));
  const cli = (args: string[], stdin: string, listDir?: (p: string) => fs.Dirent[]) => {
    let out = '';
    let err = '';
    const code = main(args, { readFile: (f) => (f === '-' ? stdin : fs.readFileSync(f)), listDir, out: (t) => { out += t; }, err: (t) => { err += t; } });
    return { code, out, err };
  };
  const oneLineOr = (r: { code: number; out: string; err: string }, codes: number[]) => {
    expect(codes).toContain(r.code);
    if (r.code === 2) {
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^node-reporter( \w+)?: [^\n]+\n$/);
    } else {
      expect(r.err).toBe('');
    }
  };

  test('eligible --manifest on malformed DaemonSets: exit 0 or 2 with one line', () => {
    const codes = new Set<number>();
    fc.assert(fc.property(daemonSet, (ds) => {
      // --nodes - reads stdin: the manifest gets a file of its own.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-manifest-'));
      try {
        fs.writeFileSync(path.join(dir, 'ds.yaml'), JSON.stringify(ds));
        const result = cli(['eligible', '--nodes', '-', '--manifest', path.join(dir, 'ds.yaml')], nodes);
        oneLineOr(result, [0, 2]);
        codes.add(result.code);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }), { seed: SEED, numRuns: RUNS });
    expect([...codes].sort()).toEqual([0, 2]);
  });

  test('check on deep, listed, merged or custom YAML: exit 0, 1 or 2 (one line), never a crash', () => {
    const depth = fc.integer({ min: 0, max: 1500 });
    const doc = fc.oneof(
      depth.map((d) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  a: ${'['.repeat(d)}${']'.repeat(d)}\n`),
      depth.map((d) => `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: Math.min(d, 400) }, (_, i) => `${' '.repeat(i)}- items:\n`).join('')}`),
      fc.constantFrom('<<: 5\n', 'a: &x {b: 1}\nc: *x\n', 'apiVersion: v1\nkind: List\nitems: 5\n', '', '---\n---\n', 'values: {a: 1}\n', '"just a string"\n', '[1, 2]\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nitems: []\n'),
      fc.record({ schema: anyJson, body: anyJson }).map(({ schema, body }) => [
        JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ws.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'ws', kind: 'W' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: schema } } } }] } }),
        JSON.stringify({ apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' }, spec: body }),
      ].join('\n---\n')),
      daemonSet.map((ds) => JSON.stringify(ds)),
    );
    const codes = new Set<number>();
    fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), fc.constantFrom('text', 'json', 'sarif'), (docs, format) => {
      // A stream that starts with { is JSON to kubectl, and --- between JSON objects is refused: a comment first keeps it YAML.
      const result = cli(['check', '-', '--format', format], `# fuzz\n${docs.join('\n---\n')}`);
      oneLineOr(result, [0, 1, 2]);
      codes.add(result.code);
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 4) });
    expect([...codes].sort()).toEqual([0, 1, 2]);
  });

  test('check on odd folders (folders named *.yaml, links, loops, unreadable ones): a report or one line', () => {
    const node = fc.record({
      at: fc.constantFrom('', 'a', 'a/b', 'x.yaml', 'c.yml/d'),
      name: fc.constantFrom('x.yaml', 'y.yml', 'z.txt', 'sub', '.hidden', 'node_modules', 'loop', 'Chart.yaml', 'values.yaml'),
      kind: fc.constantFrom('file', 'folder', 'link-up', 'link-missing'),
    });
    fc.assert(fc.property(fc.array(node, { maxLength: 8 }), fc.constantFrom(undefined, 'a', 'x.yaml', 'sub'), (nodesOfTree, unreadable) => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-check-'));
      try {
        fs.writeFileSync(path.join(root, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
        for (const n of nodesOfTree) {
          const dir = path.join(root, n.at);
          const file = path.join(dir, n.name);
          try {
            fs.mkdirSync(dir, { recursive: true });
            if (fs.existsSync(file)) continue;
            if (n.kind === 'file') fs.writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');
            else if (n.kind === 'folder') fs.mkdirSync(file);
            else fs.symlinkSync(n.kind === 'link-up' ? root : path.join(root, 'nowhere'), file);
          } catch {
            // A path through a file: the tree simply lacks this node.
          }
        }
        const listDir = (p: string) => {
          if (unreadable !== undefined && path.basename(p) === unreadable) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
          return fs.readdirSync(p, { withFileTypes: true });
        };
        oneLineOr(cli(['check', root], '', listDir), [0, 1, 2]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 5) });
  });
});
