/**
 * A scratch copy of the project for tests of scripts that write or delete
 * folders: a script that deletes its project deletes only the copy.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..');

/** A copy of the project in `<scratch>/project`, with this project's node_modules linked in. */
export function sandbox(): string {
  const project = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'synth-sandbox-')), 'project');
  fs.mkdirSync(project);
  for (const entry of ['main.ts', 'cdk8s.yaml', 'package.json', 'tsconfig.json', 'lib', 'scripts', 'dist']) {
    fs.cpSync(path.join(root, entry), path.join(project, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  return project;
}

/** Every path under a folder with a hash of its content (or its link target): equal before and after means untouched. */
export function state(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(`${path.sep}node_modules${path.sep}`)) {
      continue;
    }
    const key = path.relative(dir, file);
    result[key] = entry.isSymbolicLink() ? `-> ${fs.readlinkSync(file)}` : entry.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'dir';
  }
  return result;
}

