/**
 * The package's public surface, pinned: the names each entry point of
 * package.json `exports` gives a user, compared to a checked-in list
 * (test/fixtures/public-api/<entry>.txt), so that a change to the surface
 * shows in review. README ("Constructs and their props") says what is public.
 * After a deliberate change, write the lists anew with
 * `UPDATE_PUBLIC_API=1 npx jest test/public-api.test.ts` and say why in the commit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.join(__dirname, '..');
const fixtures = path.join(__dirname, 'fixtures', 'public-api');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf-8')) as { exports: Record<string, string | { types: string }> };

/** Each entry point of package.json `exports` (but ./package.json) and its source: ./build/lib/x/index.d.ts -> lib/x/index.ts. */
const entries = Object.entries(pkg.exports).filter(([key]) => key !== './package.json').map(([key, target]) => {
  const types = typeof target === 'string' ? target : target.types;
  return { key, source: path.join(root, types.replace(/^\.\/build\//, '').replace(/\.d\.ts$/, '.ts')) };
});

/** The file a list is kept in: `.` is root.txt, `./checks` checks.txt. */
const listFile = (key: string) => path.join(fixtures, `${key === '.' ? 'root' : key.replace(/^\.\//, '').replace(/\//g, '-')}.txt`);

describe('the public surface of each entry point', () => {
  const program = ts.createProgram(entries.map((e) => e.source), { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const exportsOf = (source: string): string[] => {
    const file = program.getSourceFile(source);
    const symbol = file && checker.getSymbolAtLocation(file);
    if (!symbol) throw new Error(`${source} is not a module`);
    return checker.getExportsOfModule(symbol).map((s) => s.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  };

  test('package.json exports the library, checks, eligibility and diff, each from an index of lib/', () => {
    // GIVEN package.json's exports
    // WHEN its entry points are read
    // THEN they are the four, and each source exists
    expect(entries.map((e) => e.key)).toEqual(['.', './checks', './eligibility', './diff']);
    for (const e of entries) expect(fs.existsSync(e.source)).toBe(true);
  });

  test.each(entries.map((e) => [e.key, e.source]))('%s exports exactly the names in its checked-in list', (key, source) => {
    // GIVEN the entry point's index file
    // WHEN the names it exports (values and types) are listed, sorted
    const names = exportsOf(source);
    if (process.env.UPDATE_PUBLIC_API === '1') fs.writeFileSync(listFile(key), `${names.join('\n')}\n`);
    // THEN they equal the list a reviewer approved
    const approved = fs.readFileSync(listFile(key), 'utf-8').split('\n').filter((l) => l !== '');
    expect(names).toEqual(approved);
  }, 60_000);
});
