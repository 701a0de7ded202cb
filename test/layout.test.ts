/**
 * The shape of lib/ that CONTRIBUTING asks for: no file over 500 lines (nor
 * anywhere else in the repository), and imports that form no cycle (a cycle
 * makes a module see another half-loaded).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const LIB = path.join(__dirname, '..', 'lib');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
}

/** The lib/ files a file imports (static and type imports, re-exports and require('...')). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf-8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'(\.[^']*)'|require\('(\.[^']*)'\)/g)].map((m) => m[1] ?? m[2]);
  return specifiers.map((s) => {
    const base = path.resolve(path.dirname(file), s);
    return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
  }).filter((f): f is string => f !== undefined);
}

/** The first import cycle found, as the files around it, or undefined. */
function findCycle(files: readonly string[]): string[] | undefined {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the layout of lib/', () => {
  const files = sources(LIB);

  test('no TypeScript file in lib/ is over 500 lines', () => {
    // GIVEN every source file of lib/
    // WHEN its lines are counted
    const long = files.map((f) => ({ file: path.relative(LIB, f), lines: fs.readFileSync(f, 'utf-8').split('\n').length - 1 })).filter((f) => f.lines > 500);
    // THEN none is over 500
    expect(long).toEqual([]);
  });

  test('the imports in lib/ form no cycle', () => {
    // GIVEN the import graph of lib/ (re-exports and require() included)
    // WHEN it is searched for a cycle
    const cycle = findCycle(files)?.map((f) => path.relative(LIB, f));
    // THEN there is none
    expect(cycle).toBeUndefined();
  });

  test('no @internal comment sits on an import (stripInternal would drop the import from the .d.ts)', () => {
    // GIVEN every source file of lib/ (tsconfig sets stripInternal)
    // WHEN the doc comments directly above import and re-export statements are read
    const tagged = files.flatMap((f) => [...fs.readFileSync(f, 'utf-8').matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*\n(?:import|export (?:\*|\{[^}]*\}) from)/g)]
      .filter((m) => m[1].includes('@internal')).map(() => path.relative(LIB, f)));
    // THEN none is marked @internal: a module comment that says so hides the file's imports from its declarations
    expect(tagged).toEqual([]);
  });

  test('no source file of the repository is over 500 lines either (tests, e2e, bench, scripts, examples, the language apps)', () => {
    // GIVEN every tracked source file but the generated bindings (imports/k8s.ts, from npm run import)
    const root = path.join(LIB, '..');
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf-8' }).split('\0')
      .filter((f) => /\.(ts|js|sh|py|java|go)$/.test(f) && !f.startsWith('imports/') && fs.existsSync(path.join(root, f)));
    // WHEN their lines are counted
    const long = tracked.map((file) => ({ file, lines: fs.readFileSync(path.join(root, file), 'utf-8').split('\n').length - 1 })).filter((f) => f.lines > 500);
    // THEN none is over 500 (a sourced part, cluster/*.sh, or a second test file keeps each readable)
    expect(tracked.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  test('the cycle search finds a cycle when there is one', () => {
    // GIVEN two files that import each other
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "export { a as b } from './a';\n");
    // WHEN the graph is searched
    const cycle = findCycle([path.join(dir, 'a.ts'), path.join(dir, 'b.ts')])?.map((f) => path.basename(f));
    fs.rmSync(dir, { recursive: true, force: true });
    // THEN the cycle is named
    expect(cycle).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });
});
