/**
 * The checks on one file of many DaemonSets, against the YAML parse alone of
 * the same text: the checks must stay linear (goal: at most 1.5x the parse),
 * whatever CRD validation, List expansion and the rules across objects add.
 */
import { parseAllDocuments, stringify } from 'yaml';
import { checkTexts } from '../lib/checks';
import { cleanDaemonSet } from '../test/checks/baseline';
import { sideBySide } from './util';

/** One YAML text of `count` clean DaemonSets, each named apart. */
export function manyDaemonSets(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const ds = cleanDaemonSet();
    ds.metadata.name = `agent-${i}`;
    return stringify(ds);
  }).join('---\n');
}

/** The same objects as `kubectl get daemonsets -o json` prints them: one List, indented by 4. */
export function asJsonList(yaml: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: parseAllDocuments(yaml).map((d) => d.toJS()) }, null, 4);
}

/** Milliseconds of the checks on the same objects as JSON and as YAML, median of `rounds`, interleaved. */
export function checksJsonAgainstYaml(yaml: string, json: string, rounds: number): { json: number; yaml: number; findings: number } {
  const time = (run: () => unknown) => () => {
    const start = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const findings = { json: 0, yaml: 0 };
  const t = sideBySide({
    json: time(() => { findings.json = checkTexts([{ file: 'daemonsets.json', text: json }]).length; }),
    yaml: time(() => { findings.yaml = checkTexts([{ file: 'daemonsets.yaml', text: yaml }]).length; }),
  }, rounds);
  if (findings.json !== findings.yaml) {
    throw new Error(`the checks found ${findings.json} findings in the JSON and ${findings.yaml} in the YAML`);
  }
  return { json: t.json, yaml: t.yaml, findings: findings.json };
}

/** Milliseconds of the checks and of the parse of the same text, median of `rounds`, interleaved. */
export function checksAgainstParse(text: string, rounds: number): { checks: number; parse: number; findings: number } {
  const time = (run: () => unknown) => () => {
    const start = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  let findings = 0;
  const t = sideBySide({
    // As kubectl reads manifests: YAML 1.1, every document to JavaScript.
    parse: time(() => parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS())),
    checks: time(() => { findings = checkTexts([{ file: 'daemonsets.yaml', text }]).length; }),
  }, rounds);
  return { checks: t.checks, parse: t.parse, findings };
}
