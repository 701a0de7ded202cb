/**
 * The objects of some YAML texts as kubectl applies them, before any is
 * judged: files that are no manifests set aside with a note (a Helm chart's
 * templates, values and Chart.yaml, a kustomization: each note says what to
 * check instead), each document read as kubectl does (./yaml), Lists expanded
 * item by item, and kinds skipped on request counted into a note. The
 * pipeline (../check) judges what this returns; nothing here judges.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isRecord } from '../../k8s/syntax';
import { Finding, KubeObject } from '../finding';
import { RULES } from '../rules';
import { Locator, parseYaml, YamlDocument } from './yaml';

/** Something the checks set aside, and why: a file or document that is no manifest, a skipped kind. */
export interface Note {
  /** The file, when known. */
  readonly file?: string;
  /** What is set aside and why. */
  readonly message: string;
}

/** @internal One object of the input, with where it came from. */
export interface Entry {
  /** The object as written. */
  readonly object: KubeObject;
  readonly file?: string;
  /** Its path in its document: '' or `items[2]` (kubectl expands Lists). */
  readonly at: string;
  readonly locate?: Locator;
}

/** @internal One input: a file's text, or stdin's (file 'stdin'). */
export interface TextInput {
  /** The file, or 'stdin'; none for a text given without one. */
  readonly file?: string;
  /** Its text. */
  readonly text: string;
}

/** @internal What reading found: the objects to judge, the findings of reading (syntax, Lists), the notes, and how many objects there were. */
export interface Manifests {
  /** The objects to judge, in input order (skipped kinds left out). */
  readonly entries: Entry[];
  /** The findings of reading: YAML syntax, duplicate keys, Lists kubectl refuses. */
  readonly findings: Finding[];
  /** What was set aside, and why. */
  readonly notes: Note[];
  /** How many Kubernetes objects the inputs held (List items counted one by one), skipped kinds included. */
  readonly objects: number;
}

/** @internal A field path inside an object at `at` in its document. */
export function prefixed(at: string, field: string): string {
  if (at === '') return field;
  if (field === '' || field === '(object)' || field === '(document)') return at;
  return field.startsWith('[') ? `${at}${field}` : `${at}.${field}`;
}

/**
 * @internal The objects of a document as kubectl applies them: an object with `items`
 * is a List (whatever its kind), expanded item by item; a List inside a List
 * is refused ("is not a list: no Items field in this object").
 */
export function expand(value: KubeObject, at: string, push: (object: KubeObject, at: string) => void, problem: (at: string, message: string) => void): void {
  if (!Object.prototype.hasOwnProperty.call(value, 'items')) {
    push(value, at);
    return;
  }
  const items = value.items;
  if (items === null) {
    return;
  }
  if (!Array.isArray(items)) {
    problem(prefixed(at, 'items'), `kubectl reads an object with items as a List, and items must be an array but is ${typeof items}`);
    return;
  }
  items.forEach((item, i) => {
    const itemAt = prefixed(at, `items[${i}]`);
    if (!isRecord(item)) {
      problem(itemAt, 'a List item must be a Kubernetes object (a mapping)');
    } else if (typeof item.apiVersion !== 'string' || typeof item.kind !== 'string' || item.apiVersion === '' || item.kind === '') {
      problem(itemAt, `a List item needs apiVersion and kind (kubectl: "Object '${typeof item.apiVersion !== 'string' || item.apiVersion === '' ? 'apiVersion' : 'Kind'}' is missing")`);
    } else if (Object.prototype.hasOwnProperty.call(item, 'items')) {
      problem(itemAt, 'a List item may not be a List itself (kubectl: "*unstructured.Unstructured is not a list: no Items field in this object")');
    } else {
      push(item, itemAt);
    }
  });
}

/** Whether a file is a template of a Helm chart: under `templates/` of a folder with a Chart.yaml. */
function isHelmTemplate(file: string): boolean {
  let dir = path.dirname(path.resolve(file));
  while (path.dirname(dir) !== dir) {
    if (path.basename(dir) === 'templates' && fs.existsSync(path.join(path.dirname(dir), 'Chart.yaml'))) {
      return true;
    }
    dir = path.dirname(dir);
  }
  return false;
}

const VALUES_FILE = /^(.*[-_.])?values([-_.].*)?\.ya?ml$/i;

/** Why a document is no manifest, or undefined when it is one. */
function notManifest(file: string | undefined, doc: YamlDocument): string | undefined {
  const value = doc.value;
  if (!isRecord(value)) {
    return undefined;
  }
  const base = file === undefined ? '' : path.basename(file);
  if (typeof value.apiVersion === 'string' && value.apiVersion.startsWith('kustomize.config.k8s.io/')) {
    return 'a kustomization file, not a manifest: check the output of `kubectl kustomize` instead';
  }
  if (base === 'Chart.yaml' && value.kind === undefined) {
    return "a Helm chart's Chart.yaml, not a manifest: check the output of `helm template` instead";
  }
  if (value.apiVersion === undefined && value.kind === undefined) {
    return VALUES_FILE.test(base) ? 'a Helm values file, not a manifest' : `document ${doc.index} has neither apiVersion nor kind: not a Kubernetes object`;
  }
  return undefined;
}

/**
 * @internal The objects of some YAML texts, read as kubectl reads them, with the
 * findings and notes of reading.
 * @param skipKinds kinds not to judge: `Kind` or `apiVersion/Kind`; each is counted into a note
 * @param synthesized the inputs are what `cdk8s synth` just wrote: a file in
 * templates/ of a Helm chart is then a manifest (`--format helm`), not a
 * template to render first
 */
export function readManifests(inputs: readonly TextInput[], skipKinds: readonly string[] = [], synthesized = false): Manifests {
  const findings: Finding[] = [];
  const notes: Note[] = [];
  const entries: Entry[] = [];
  const skipped = new Map<string, number>();
  const skip = new Set(skipKinds);
  let objects = 0;
  for (const { file, text } of inputs) {
    if (!synthesized && file !== undefined && file !== 'stdin' && isHelmTemplate(file)) {
      notes.push({ file, message: 'a template of a Helm chart, not a manifest: check the output of `helm template` instead' });
      continue;
    }
    const parsed = parseYaml(text, file);
    findings.push(...parsed.findings);
    for (const doc of parsed.documents) {
      const why = notManifest(file, doc);
      if (why !== undefined) {
        notes.push({ file, message: why });
        continue;
      }
      const push = (object: KubeObject, at: string) => {
        objects++;
        const key = [object.kind, `${object.apiVersion}/${object.kind}`].find((k) => skip.has(k));
        if (key !== undefined) {
          const at = `${file ?? ''}\u0000${key}`;
          skipped.set(at, (skipped.get(at) ?? 0) + 1);
        } else {
          entries.push({ object, file, at, locate: doc.locate });
        }
      };
      const problem = (at: string, message: string) => {
        const position = doc.locate(at);
        findings.push({ rule: RULES.kubectlApply, severity: RULES.kubectlApply.severity, file, object: `document ${doc.index}`, path: at, message, ...(position ? { line: position.line, column: position.column } : {}) });
      };
      if (isRecord(doc.value)) {
        expand(doc.value, '', push, problem);
      } else {
        entries.push({ object: doc.value as KubeObject, file, at: '', locate: doc.locate });
        objects++;
      }
    }
  }
  for (const [key, count] of skipped) {
    const [file, kind] = key.split('\u0000');
    notes.push({ ...(file !== '' ? { file } : {}), message: `not checked: ${count} object(s) of kind ${kind}, skipped on request` });
  }
  return { entries, findings, notes, objects };
}
