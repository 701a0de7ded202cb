/**
 * Where input comes from: files as given, folders searched for *.yaml and
 * *.yml, stdin ('-'); bytes decoded to text as kubectl or a shell redirect
 * wrote them. Every failure is an InputError of one line naming the input.
 * What the texts hold is read by ./manifests and ./yaml.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printable } from '../../k8s/syntax';

/** Bad input: the message is one line, for the user, naming the input, without a stack trace. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** How input is read: the process's files and stdin, or a test's own. */
export interface Reader {
  /** Reads a file, or stdin for '-': its bytes, or text. */
  readFile(path: string): string | Uint8Array;
  /** Lists a folder (fs.readdirSync with file types, by default). */
  listDir?(path: string): fs.Dirent[];
}

/**
 * Text from bytes as kubectl or a shell redirect wrote them: UTF-8 (a BOM is
 * dropped) or UTF-16 with a BOM, or without one when every other byte is NUL.
 * @internal
 */
export function decodeText(input: string | Uint8Array): string {
  if (typeof input === 'string') {
    return input.replace(/^\uFEFF/, '');
  }
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return bytes.subarray(2).toString('utf16le');
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return bytes.subarray(3).toString('utf-8');
  }
  if (bytes.length >= 4 && bytes.length % 2 === 0 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) {
    return bytes.toString('utf16le');
  }
  return bytes.toString('utf-8');
}

/** @internal A read failure as one line: the input and the error code. */
export function cannotRead(source: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  return new InputError(`${source}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? printable((e as Error).message)})`);
}

/** @internal One input's bytes, and what to call it in messages ('stdin' for '-'). */
export function readInput(reader: Reader, file: string): { bytes: string | Uint8Array; source: string } {
  const source = file === '-' ? 'stdin' : printable(file);
  try {
    return { bytes: reader.readFile(file), source };
  } catch (e) {
    throw cannotRead(source, e);
  }
}

/** Folders a search skips: hidden ones (.git, .github) and installed packages. */
const SKIPPED_FOLDERS = /^(\..+|node_modules)$/;

/** The *.yaml and *.yml files under a folder, in name order; symbolic links followed once. An unreadable folder is one line. */
function yamlFilesUnder(root: string, reader: Reader): string[] {
  const files: string[] = [];
  const visited = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    let entries: fs.Dirent[];
    try {
      real = fs.realpathSync(dir);
      entries = reader.listDir ? reader.listDir(dir) : fs.readdirSync(dir, { withFileTypes: true });
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

/** @internal The YAML files of the arguments: files as given, folders searched ('-' is left out: see readTexts). */
export function manifestFiles(args: readonly string[], reader: Reader): string[] {
  const files: string[] = [];
  for (const arg of args) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(arg);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError(`${printable(arg)}: cannot read (${code === 'ENOENT' ? 'no such file or folder' : code})`);
    }
    if (stat.isDirectory()) {
      const found = yamlFilesUnder(arg, reader);
      if (found.length === 0) {
        throw new InputError(`${printable(arg)}: no *.yaml or *.yml files`);
      }
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  return files;
}

/** @internal The text of each input: stdin first when '-' is among them, then files as given and folders searched. */
export function readTexts(reader: Reader, args: readonly string[]): Array<{ file: string; text: string }> {
  const stdin = args.includes('-') ? [{ file: 'stdin', text: decodeText(readInput(reader, '-').bytes) }] : [];
  const files = manifestFiles(args.filter((a) => a !== '-'), reader);
  return [...stdin, ...files.map((file) => ({ file, text: decodeText(readInput(reader, file).bytes) }))];
}

/** @internal The text of each file, read as UTF-8 (the library's checkFiles; the CLI reads through readTexts). */
export function readFiles(files: readonly string[]): Array<{ file: string; text: string }> {
  return files.map((file) => ({ file, text: fs.readFileSync(file, 'utf-8') }));
}
