/**
 * A diff for a terminal (text), for a PR comment (Markdown: short, the
 * details folded) and for tools (JSON: `{ objects, summary }`). All three
 * carry the same objects, impacts and messages.
 */
import { markdownCell, printableJson, printableLines } from '../eligibility/printable';
import { DiffReport, IMPACT_KINDS, ImpactKind, ObjectDiff } from './types';

const MARK: Readonly<Record<ObjectDiff['change'], string>> = { added: '+', removed: '-', changed: '~' };

/** @internal `Kind namespace/name`. */
export function objectTitle(o: ObjectDiff): string {
  return `${o.kind} ${o.namespace !== undefined ? `${o.namespace}/` : ''}${o.name}`;
}

/** @internal A wave's DaemonSet: `agent A, wave W` and, with --nodes, `: N of M nodes`; empty for any other object. */
export function waveNote(o: ObjectDiff): string {
  if (o.agent === undefined || o.wave === undefined) return '';
  return `agent ${o.agent}, wave ${o.wave}${o.reach ? `: ${o.reach.nodes} of ${o.reach.of} node${o.reach.of === 1 ? '' : 's'}` : ''}`;
}

/** @internal The summary line: counts, impacts by kind, warnings, the version. */
export function summaryLine(report: DiffReport): string {
  const s = report.summary;
  const differ = s.added + s.removed + s.changed;
  const impacts = IMPACT_KINDS.filter((k) => s.impacts[k] > 0).map((k) => `${s.impacts[k]} ${k}`);
  const head = differ === 0 ? `no change (${s.unchanged} object(s) the same)` : `${differ} object(s) differ: ${s.added} added, ${s.removed} removed, ${s.changed} changed (${s.unchanged} the same)`;
  return `${head}; impacts: ${impacts.length > 0 ? impacts.join(', ') : 'none'}; ${s.warnings} warning(s); judged as Kubernetes ${s.kubernetesVersion} (${s.kubernetesVersionSource})${s.nodes !== undefined ? ` over ${s.nodes} node(s)` : ''}`;
}

/** The diff as text: one block per object, `!` before a warning, the summary last. */
export function formatDiffText(report: DiffReport): string {
  const lines: string[] = [];
  for (const o of report.objects) {
    lines.push(`${MARK[o.change]} ${objectTitle(o)} (${[o.change, waveNote(o)].filter((t) => t !== '').join('; ')})`);
    for (const i of o.impacts) lines.push(`    ${i.warning ? '!' : '-'} ${i.kind}: ${i.message}`);
  }
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(report));
  return `${printableLines(lines.join('\n'))}\n`;
}

/** The diff as JSON: `{ objects: [{ kind, apiVersion, namespace, name, change, impacts: [{ kind, message, warning, ... }] }], summary }`. */
export function formatDiffJson(report: DiffReport): string {
  return `${printableJson(report)}\n`;
}

const kindsOf = (o: ObjectDiff) => [...new Set(o.impacts.map((i) => i.kind))];

/** The diff as Markdown: a heading, the counts by impact, one row per object, the impacts folded. */
export function formatDiffMarkdown(report: DiffReport, title = 'node-reporter diff'): string {
  const s = report.summary;
  const warn = (yes: boolean) => (yes ? ':warning: ' : '');
  const lines = [`### ${title}`, '', markdownCell(summaryLine(report))];
  const present: ImpactKind[] = IMPACT_KINDS.filter((k) => s.impacts[k] > 0);
  if (present.length > 0) {
    lines.push('', '| Impact | Count |', '|---|---:|', ...present.map((k) => `| ${warn(report.objects.some((o) => o.impacts.some((i) => i.kind === k && i.warning)))}${k} | ${s.impacts[k]} |`));
  }
  if (report.objects.length > 0) {
    lines.push('', '| | Object | Change | Impacts |', '|---|---|---|---|',
      ...report.objects.map((o) => `| ${MARK[o.change] === '-' ? '&minus;' : MARK[o.change]} | ${warn(o.impacts.some((i) => i.warning))}${markdownCell(objectTitle(o))}${waveNote(o) ? ` (${markdownCell(waveNote(o))})` : ''} | ${o.change} | ${kindsOf(o).join(', ') || '-'} |`));
    lines.push('', `<details><summary>What each change does (${report.objects.reduce((n, o) => n + o.impacts.length, 0)} impacts)</summary>`, '');
    for (const o of report.objects) {
      lines.push(`#### ${markdownCell(objectTitle(o))} (${markdownCell([o.change, waveNote(o)].filter((t) => t !== '').join('; '))})`, '');
      if (o.impacts.length === 0) lines.push('- no impact beyond the change itself');
      for (const i of o.impacts) lines.push(`- ${warn(i.warning)}**${i.kind}**: ${markdownCell(i.message)}`);
      lines.push('');
    }
    lines.push('</details>');
  }
  return `${lines.join('\n')}\n`;
}
