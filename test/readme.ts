/** Reading the README's shell blocks, for the tests that run them. */

/** The README's shell blocks with the marker before each (`<!-- run: WHERE -->`), as command lines. */
export function readmeCommands(readme: string): Array<{ where: string; commands: string[] }> {
  return [...readme.matchAll(/(?:<!-- run: (\w+) -->\n)?```sh\n([\s\S]*?)```/g)].map((m) => ({
    where: m[1] ?? '(none)',
    commands: m[2].split('\n').map((l) => l.replace(/\s+# .*$/, '').trim()).filter((l) => l !== '' && !l.startsWith('#')),
  }));
}
