/** Reading the README and the guides in docs/, for the tests that run their blocks. */
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..');

/** The guides: docs/*.md (not the generated API reference under docs/api). */
export function guideFiles(): string[] {
  return fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => path.join(root, 'docs', f));
}

/** The user's documentation as one text: the README, then every guide. */
export function userDocs(): string {
  return [path.join(root, 'README.md'), ...guideFiles()].map((f) => fs.readFileSync(f, 'utf-8')).join('\n');
}

/** One guide's text, by its file name in docs/. */
export function guide(name: string): string {
  return fs.readFileSync(path.join(root, 'docs', name), 'utf-8');
}

/** The README's shell blocks with the marker before each (`<!-- run: WHERE -->`), as command lines. */
export function readmeCommands(readme: string): Array<{ where: string; commands: string[] }> {
  return [...readme.matchAll(/(?:<!-- run: (\w+) -->\n)?```sh\n([\s\S]*?)```/g)].map((m) => ({
    where: m[1] ?? '(none)',
    commands: m[2].split('\n').map((l) => l.replace(/\s+# .*$/, '').trim()).filter((l) => l !== '' && !l.startsWith('#')),
  }));
}
