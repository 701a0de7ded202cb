/**
 * node-reporter diff on two files of many DaemonSets, against the YAML parse
 * alone of the same two texts: the diff must stay linear (goal: at most 1.5x
 * the parse). Every DaemonSet of NEW changes its image, so every one is
 * judged in full (template as stored, rollout, image, eligibility).
 */
import { parseAllDocuments } from 'yaml';
import { parseYaml } from '../lib/checks/input/yaml';
import { diffManifests } from '../lib/diff';
import { isRecord } from '../lib/k8s/syntax';
import { asJsonList, manyDaemonSets } from './many-daemonsets';
import { sideBySide } from './util';

/** The objects of a text as `node-reporter diff` reads them (the checks' YAML reader, a List's items). */
function objectsOf(text: string, file: string) {
  return parseYaml(text, file).documents.flatMap(({ value }) => (isRecord(value) && Array.isArray(value.items) ? value.items : [value])).map((object) => ({ object, file }));
}

/** Milliseconds of the diff and of the parse of the same two texts, median of `rounds`, interleaved. */
export function diffAgainstParse(count: number, rounds: number): { diff: number; parse: number; objects: number; bytes: number } {
  const old = manyDaemonSets(count);
  const next = old.replace(/image: (\S+):(\S+)/g, 'image: $1:$2-next');
  const time = (run: () => unknown) => () => {
    const start = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  let objects = 0;
  const t = sideBySide({
    // As kubectl reads manifests: YAML 1.1, every document to JavaScript.
    parse: time(() => [old, next].map((text) => parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS()))),
    diff: time(() => { objects = diffManifests(objectsOf(old, 'old.yaml'), objectsOf(next, 'new.yaml')).objects.length; }),
  }, rounds);
  return { diff: t.diff, parse: t.parse, objects, bytes: Buffer.byteLength(old) + Buffer.byteLength(next) };
}

/** Milliseconds of the diff of the same objects as two kubectl JSON Lists and as two YAML files, median of `rounds`, interleaved. */
export function diffJsonAgainstYaml(count: number, rounds: number): { json: number; yaml: number; objects: number; bytes: number } {
  const old = manyDaemonSets(count);
  const next = old.replace(/image: (\S+):(\S+)/g, 'image: $1:$2-next');
  const [oldJson, nextJson] = [asJsonList(old), asJsonList(next)];
  const time = (run: () => unknown) => () => {
    const start = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const objects = { json: 0, yaml: 0 };
  const t = sideBySide({
    json: time(() => { objects.json = diffManifests(objectsOf(oldJson, 'old.json'), objectsOf(nextJson, 'new.json')).objects.length; }),
    yaml: time(() => { objects.yaml = diffManifests(objectsOf(old, 'old.yaml'), objectsOf(next, 'new.yaml')).objects.length; }),
  }, rounds);
  if (objects.json !== objects.yaml) {
    throw new Error(`the diff changed ${objects.json} objects from JSON and ${objects.yaml} from YAML`);
  }
  return { json: t.json, yaml: t.yaml, objects: objects.json, bytes: Buffer.byteLength(oldJson) + Buffer.byteLength(nextJson) };
}
