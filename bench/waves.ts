/**
 * Waves: `eligible --manifest` on one agent of 3 waves over 5,000 nodes
 * against the JSON parse of the node list (each node evaluated once per
 * wave, the overlaps in one pass), and check's static overlap on 100 agents
 * of 5 waves each against the YAML parse of the same text.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { checkTexts, KubeObject } from '../lib/checks';
import { checkWaveOverlaps } from '../lib/checks/wave-overlaps';
import { daemonSetsIn, readNodeList } from '../lib/eligibility';
import { agentWaves } from '../lib/eligibility/waves';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../lib/k8s/waves';
import { cleanDaemonSet } from '../test/checks/baseline';
import { nodeListJson } from './node-list';
import { sideBySide, timeCommand } from './util';

/** One wave's DaemonSet: the first waves by their node label, the last every node in no other wave. */
function waveDaemonSet(agent: string, waves: readonly string[], i: number): KubeObject {
  const ds = cleanDaemonSet();
  const wave = waves[i];
  const last = i === waves.length - 1;
  ds.metadata.name = last ? agent : `${agent}-${wave}`;
  ds.metadata.labels = { ...ds.metadata.labels, app: agent, [AGENT_LABEL]: agent, [WAVE_LABEL]: wave };
  ds.spec.selector.matchLabels = { app: agent, [WAVE_LABEL]: wave };
  ds.spec.template.metadata.labels = { app: agent, [WAVE_LABEL]: wave };
  const requirement = last ? { key: ROLLOUT_WAVE_NODE_LABEL, operator: 'NotIn', values: waves.slice(0, -1) } : { key: ROLLOUT_WAVE_NODE_LABEL, operator: 'In', values: [wave] };
  ds.spec.template.spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  ds.spec.template.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [requirement] }] } } };
  return ds;
}

/** The YAML of `agents` agents of `waves` disjoint waves each. */
export function wavesManifest(agents: number, waves: number): string {
  const names = Array.from({ length: waves }, (_, i) => (i === 0 ? 'canary' : i === waves - 1 ? 'main' : `wave-${i}`));
  return Array.from({ length: agents }, (_, a) => names.map((_n, i) => stringify(waveDaemonSet(`agent-${a}`, names, i)))).flat().join('---\n');
}

const time = (run: () => unknown) => () => {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

/** check on 100 agents of 5 waves (the whole check, and the overlap rule alone on the parsed objects) against the YAML parse. */
export function overlapRows(rounds: number): string[][] {
  const text = wavesManifest(100, 5);
  const objects = parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS() as KubeObject);
  let findings = 0;
  let overlaps = 0;
  const t = sideBySide({
    parse: time(() => parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS())),
    check: time(() => { findings = checkTexts([{ file: 'waves.yaml', text }]).length; }),
    overlap: time(() => { overlaps = checkWaveOverlaps(objects).size; }),
  }, rounds);
  return [
    [`check, 100 agents of 5 waves (500 DaemonSets, ${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MiB) / its YAML parse`, `${(t.check / 1000).toFixed(2)} s / ${(t.parse / 1000).toFixed(2)} s`, `${findings} findings`],
    ['ratio check / parse', `${(t.check / t.parse).toFixed(2)}x`, ''],
    ['the static overlap alone (1,000 pairs of waves) / the parse', `${t.overlap.toFixed(1)} ms, ${(t.overlap / t.parse).toFixed(3)}x`, `${overlaps} overlapping waves`],
  ];
}

/** The 5,000-node list with 50 canary and 500 early nodes (every 100th and every 10th), the rest in the last wave. */
function labelledNodes(): string {
  const list = JSON.parse(nodeListJson(5000)) as { items: { metadata: { labels: Record<string, string> } }[] };
  list.items.forEach((n, i) => {
    if (i % 100 === 50) n.metadata.labels[ROLLOUT_WAVE_NODE_LABEL] = 'canary';
    else if (i % 10 === 5) n.metadata.labels[ROLLOUT_WAVE_NODE_LABEL] = 'early';
  });
  return JSON.stringify(list, null, 4);
}

/** The shipped bin: `eligible --manifest` of one agent of 3 waves and of its last wave alone over 5,000 nodes, against reading and parsing the node list. */
export function eligibleWavesRows(root: string, scratch: string, rounds: number): string[][] {
  const nodes = path.join(scratch, 'waves-nodes-5000.json');
  fs.writeFileSync(nodes, labelledNodes());
  const waves = path.join(scratch, 'waves-3.yaml');
  fs.writeFileSync(waves, wavesManifest(1, 3));
  const single = path.join(scratch, 'waves-1.yaml');
  fs.writeFileSync(single, wavesManifest(1, 3).split('---\n')[2]);
  const bin = path.join(root, 'build', 'lib', 'cli', 'bin.js');
  const t = sideBySide({
    waves: () => timeCommand(process.execPath, [bin, 'eligible', '--nodes', nodes, '--manifest', waves]),
    one: () => timeCommand(process.execPath, [bin, 'eligible', '--nodes', nodes, '--manifest', single]),
    parseOnly: () => timeCommand(process.execPath, ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(nodes)}, 'utf-8'))`]),
  }, rounds);
  // In process, the part waves add: each node evaluated once per wave, and the overlaps in one pass, against JSON.parse alone.
  const listText = fs.readFileSync(nodes, 'utf-8');
  const list = readNodeList(Buffer.from(listText), 'nodes');
  const objects = parseAllDocuments(fs.readFileSync(waves, 'utf-8')).map((d) => d.toJS() as unknown);
  const inProcess = sideBySide({
    parse: time(() => JSON.parse(listText)),
    evaluate: time(() => agentWaves(daemonSetsIn(objects, list))),
  }, rounds);
  return [
    [`node-reporter eligible --manifest, 1 agent of 3 waves over 5,000 nodes (${(fs.statSync(nodes).size / 2 ** 20).toFixed(1)} MiB)`, `${(t.waves / 1000).toFixed(2)} s`, `one DaemonSet: ${(t.one / 1000).toFixed(2)} s`],
    ['node -e: read and parse the same node list', `${(t.parseOnly / 1000).toFixed(2)} s`, ''],
    ['ratio 3 waves / parse (goal <= 2x)', `${(t.waves / t.parseOnly).toFixed(2)}x`, `3 waves / one DaemonSet: ${(t.waves / t.one).toFixed(2)}x`],
    ['in process: evaluate 3 waves and their overlaps / JSON.parse of the list', `${inProcess.evaluate.toFixed(0)} ms / ${inProcess.parse.toFixed(0)} ms`, `${(inProcess.evaluate / inProcess.parse).toFixed(2)}x (the rest is reading the node list)`],
  ];
}
