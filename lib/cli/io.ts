/**
 * Where the commands read and write. Reading files, folders and stdin, and
 * what their YAML holds, is the checks' input (../checks/input), as `check`
 * reads it; every failure is one line naming the input.
 */
import * as fs from 'node:fs';
import { Reader, readInput, readTexts } from '../checks/input/files';
import { expand } from '../checks/input/manifests';
import { parseYaml } from '../checks/input/yaml';
import { RULES } from '../checks/rules';
import { KubeNode, NodeListError, readNodeList } from '../eligibility';
import { printable } from '../eligibility/printable';
import { isRecord } from '../k8s/syntax';

/** Where the command reads and writes; a test passes its own. */
export interface Io extends Reader {
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

/** A node list (kubectl get nodes -o json|yaml), from a file or stdin. */
export function readNodes(io: Io, file: string): KubeNode[] {
  const { bytes, source } = readInput(io, file);
  return readNodeList(bytes, source);
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
 * them: YAML 1.1, the last of a repeated key, a List's items. Broken YAML,
 * or a List kubectl refuses, is one line naming the file.
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
      if (!isRecord(value)) {
        if (value !== null && value !== undefined) objects.push({ object: value, file });
        continue;
      }
      expand(value, '', (object) => objects.push({ object, file }), (at, message) => {
        throw new NodeListError(`${source}: ${at}: ${printable(message)}`);
      });
    }
  }
  return objects;
}
