/**
 * Where the commands read: files, folders of manifests, stdin. Every failure
 * is a NodeListError of one line naming the input.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES } from '../checks/rules';
import { parseYaml } from '../checks/yaml';
import { decodeText, KubeNode, NodeListError, printable, readNodeList } from '../eligibility';
import { isRecord } from '../k8s/syntax';

/** Where the command reads and writes; a test passes its own. */
export interface Io {
  /** Reads a file, or stdin for '-': its bytes, or text. */
  readFile(path: string): string | Uint8Array;
  /** Lists a folder (fs.readdirSync with file types, by default). */
  listDir?(path: string): fs.Dirent[];
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** The process's own files and streams. */
export const PROCESS_IO: Io = {
  readFile: (file) => fs.readFileSync(file === '-' ? 0 : file),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** A read failure as one line: the input and the error code. */
export function cannotRead(source: string, e: unknown): NodeListError {
  const code = (e as NodeJS.ErrnoException).code;
  return new NodeListError(`${source}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? printable((e as Error).message)})`);
}

/** One input's bytes, and what to call it in messages ('stdin' for '-'). */
export function readInput(io: Io, file: string): { bytes: string | Uint8Array; source: string } {
  const source = file === '-' ? 'stdin' : printable(file);
  try {
    return { bytes: io.readFile(file), source };
  } catch (e) {
    throw cannotRead(source, e);
  }
}

/** A node list (kubectl get nodes -o json|yaml), from a file or stdin. */
export function readNodes(io: Io, file: string): KubeNode[] {
  const { bytes, source } = readInput(io, file);
  return readNodeList(bytes, source);
}

/** Folders a search skips: hidden ones (.git, .github) and installed packages. */
const SKIPPED_FOLDERS = /^(\..+|node_modules)$/;

/** The *.yaml and *.yml files under a folder, in name order; symbolic links followed once. An unreadable folder is one line. */
function yamlFilesUnder(root: string, io: Io): string[] {
  const files: string[] = [];
  const visited = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    let entries: fs.Dirent[];
    try {
      real = fs.realpathSync(dir);
      entries = io.listDir ? io.listDir(dir) : fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw cannotRead(printable(dir), e);
    }
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const file = path.join(dir, entry.name);
      let folder = entry.isDirectory();
      let plain = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const stat = fs.statSync(file);
          folder = stat.isDirectory();
          plain = stat.isFile();
        } catch {
          continue; // a dangling link names nothing to check
        }
      }
      if (folder && !SKIPPED_FOLDERS.test(entry.name)) walk(file);
      else if (plain && /\.ya?ml$/.test(entry.name)) files.push(file);
    }
  };
  walk(root);
  return files;
}

/** The YAML files of the arguments: files as given, folders searched ('-' is left out: see readTexts). */
export function manifestFiles(args: readonly string[], io: Io): string[] {
  const files: string[] = [];
  for (const arg of args) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(arg);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new NodeListError(`${printable(arg)}: cannot read (${code === 'ENOENT' ? 'no such file or folder' : code})`);
    }
    if (stat.isDirectory()) {
      const found = yamlFilesUnder(arg, io);
      if (found.length === 0) {
        throw new NodeListError(`${printable(arg)}: no *.yaml or *.yml files`);
      }
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  return files;
}

/** The text of each input: stdin first when '-' is among them, then files as given and folders searched. */
export function readTexts(io: Io, args: readonly string[]): Array<{ file: string; text: string }> {
  const stdin = args.includes('-') ? [{ file: 'stdin', text: decodeText(readInput(io, '-').bytes) }] : [];
  const files = manifestFiles(args.filter((a) => a !== '-'), io);
  return [...stdin, ...files.map((file) => ({ file, text: decodeText(readInput(io, file).bytes) }))];
}

/** A Kubernetes object of a manifest and the file it came from. */
export interface ManifestObject {
  /** The object, as parsed. */
  readonly object: unknown;
  /** Its file ('stdin' for '-'). */
  readonly file: string;
}

/**
 * The objects of files, folders and stdin, read as kubectl and `check` read
 * them: YAML 1.1, the last of a repeated key, a List's items. Broken YAML is
 * one line naming the file.
 */
export function readObjects(io: Io, args: readonly string[]): ManifestObject[] {
  const objects: ManifestObject[] = [];
  for (const { file, text } of readTexts(io, args)) {
    const source = printable(file);
    const { documents, findings } = parseYaml(text, source);
    const broken = findings.find((f) => f.rule === RULES.yamlSyntax);
    if (broken) {
      const message = `${broken.message}${broken.line !== undefined ? ` at line ${broken.line}` : ''}`;
      throw new NodeListError(`${source}: ${/^nested/.test(message) ? message : `not YAML (${printable(message)})`}`);
    }
    for (const { value } of documents) {
      for (const object of isRecord(value) && Array.isArray(value.items) ? value.items : [value]) {
        if (object !== null && object !== undefined) objects.push({ object, file });
      }
    }
  }
  return objects;
}
