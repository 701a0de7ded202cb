/**
 * Eligibility reports for a person: the summary first (DESIRED, eligible,
 * skipped by reason), per-node rows when asked or when few, the commands
 * that fix a label-only node, as text or Markdown; and a comparison of two
 * reports over one node list (nodes gained and lost), which `eligible
 * --before` and `diff` both print.
 */
import { checkDns1123Subdomain, checkLabelValue, checkQualifiedName } from '../k8s/syntax';
import { EligibilityReport, NodeVerdict } from './evaluate';
import { labelNodeCommand, labelOwner } from './kubectl';
import { markdownCell, printable } from './printable';

/** Up to this many nodes, the rows are printed without --show-nodes. */
export const NODE_ROWS_LIMIT = 20;

/** A skip reason and how many nodes it keeps the DaemonSet off. */
export interface SkipReason {
  /** The reason, as a node's verdict gives it. */
  readonly reason: string;
  /** How many nodes have it. */
  readonly nodes: number;
}

/** A report's summary: what leads every output. */
export interface EligibilitySummary {
  /** Nodes in the list. */
  readonly nodes: number;
  /** Nodes that run a pod: the DESIRED of `kubectl get daemonset`. */
  readonly desired: number;
  /** Nodes that do not. */
  readonly skipped: number;
  /** The skip reasons, most frequent first (then by text); a node may have several. */
  readonly reasons: readonly SkipReason[];
}

/** The summary of a report. */
export function summarize(report: EligibilityReport): EligibilitySummary {
  const counts = new Map<string, number>();
  for (const node of report.nodes) {
    for (const reason of node.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const reasons = [...counts].map(([reason, nodes]) => ({ reason, nodes })).sort((a, b) => b.nodes - a.nodes || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  return { nodes: report.nodes.length, desired: report.desired, skipped: report.nodes.length - report.desired, reasons };
}

/** How a report is printed. */
export interface EligibilityFormat {
  /** Print every node's row, however many. @default only up to NODE_ROWS_LIMIT nodes */
  readonly showNodes?: boolean;
  /** The fix printed when control-plane nodes are tainted (it differs between --manifest and --selector). @default none */
  readonly controlPlaneHint?: string;
  /** A line printed after the summary, e.g. that no selector was given. @default none */
  readonly note?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whether the rows are printed. */
function rowsShown(report: EligibilityReport, format: EligibilityFormat): boolean {
  return format.showNodes === true || report.nodes.length <= NODE_ROWS_LIMIT;
}

/** The kubectl commands (or why there is none) that make label-only nodes eligible. */
function fixes(nodes: readonly NodeVerdict[]): string[] {
  const lines: string[] = [];
  for (const node of nodes) {
    if (!node.missingLabels) continue;
    const owned = Object.keys(node.missingLabels).filter((k) => labelOwner(k) !== undefined);
    if (owned.length > 0) {
      const kubelet = owned.filter((k) => labelOwner(k) === 'the kubelet or the cloud provider');
      const operators = [...new Set(owned.filter((k) => !kubelet.includes(k)).map((k) => labelOwner(k)!))];
      for (const owner of operators) {
        const keys = owned.filter((k) => labelOwner(k) === owner);
        lines.push(`(node ${printable(node.name)}: ${keys.join(', ')} ${keys.length > 1 ? 'are' : 'is'} set by ${owner} from the node's hardware or its cloud; labelling it by hand would lie about the node: run that on the cluster, or select the nodes by a label of your own instead)`);
      }
      if (kubelet.length > 0) {
        lines.push(`(node ${printable(node.name)}: ${kubelet.join(', ')} ${kubelet.length > 1 ? 'are' : 'is'} set by the kubelet or the cloud provider from the node itself and cannot be labelled by hand; select the nodes by a label of your own instead)`);
      }
      continue;
    }
    const overwrite = node.reasons.some((r) => r.startsWith('label '));
    const name = checkDns1123Subdomain('nodeName', node.name) === undefined ? node.name : undefined;
    // A manifest's nodeSelector may want what no label can hold: then there is no command to print.
    const invalid = Object.entries(node.missingLabels).find(([k, v]) => checkQualifiedName('key', k) !== undefined || checkLabelValue('value', v) !== undefined);
    if (invalid) {
      lines.push(`(no command for node ${printable(node.name)}: the nodeSelector wants ${printable(invalid[0])}=${printable(invalid[1], true)}, which is not a valid label, so no node can match it)`);
    } else {
      lines.push(name !== undefined ? labelNodeCommand(name, node.missingLabels, overwrite) : `(no command for node ${printable(node.name, true)}: not a valid node name)`);
    }
  }
  return lines;
}

const CONTROL_PLANE_TAINT = 'taint node-role.kubernetes.io/control-plane:';

/** The summary lines of a report, as text. */
export function summaryLines(report: EligibilityReport): string[] {
  const summary = summarize(report);
  const lines = [`desired: ${summary.desired} (${summary.desired} of ${plural(summary.nodes, 'node')} eligible, ${summary.skipped} skipped)`];
  if (summary.reasons.length > 0) {
    const width = String(summary.reasons[0].nodes).length;
    lines.push('skipped by reason:', ...summary.reasons.map((r) => `  ${String(r.nodes).padStart(width)}  ${printable(r.reason)}`));
  }
  return lines;
}

/** A report as text: the summary, the note, the rows (when shown), the fixes. */
export function formatEligibilityText(report: EligibilityReport, format: EligibilityFormat = {}): string {
  const lines = summaryLines(report);
  if (format.note !== undefined) lines.push(format.note);
  if (rowsShown(report, format)) {
    const rows = [['NODE', 'ELIGIBLE', 'REASON'], ...report.nodes.map((n) => [printable(n.name), n.eligible ? 'yes' : 'no', n.reasons.map((r) => printable(r)).join('; ') || '-'])];
    const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)));
    lines.push('', ...rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`));
  } else {
    lines.push('', `(${plural(report.nodes.length, 'node')}: the rows are left out; --show-nodes prints them)`);
  }
  const fixed = fixes(report.nodes);
  if (fixed.length > 0) {
    const shown = rowsShown(report, format) ? fixed : fixed.slice(0, 5);
    lines.push('', 'Nodes whose only obstacle is the label become eligible with:', ...shown.map((f) => `  ${f}`));
    if (shown.length < fixed.length) lines.push(`  (and ${fixed.length - shown.length} more; --show-nodes prints them all)`);
  }
  if (format.controlPlaneHint !== undefined && report.nodes.some((n) => n.reasons.some((r) => r.startsWith(CONTROL_PLANE_TAINT)))) {
    lines.push('', format.controlPlaneHint);
  }
  return `${lines.join('\n')}\n`;
}

/** A report as Markdown: a heading, the summary, the rows folded (when shown). */
export function formatEligibilityMarkdown(title: string, report: EligibilityReport, format: EligibilityFormat = {}): string {
  const summary = summarize(report);
  const lines = [`### ${title}`, '', `**desired: ${summary.desired}** (${summary.desired} of ${plural(summary.nodes, 'node')} eligible, ${summary.skipped} skipped)`];
  if (summary.reasons.length > 0) {
    lines.push('', '| Skipped nodes | Reason |', '|---:|---|', ...summary.reasons.map((r) => `| ${r.nodes} | ${markdownCell(r.reason)} |`));
  }
  if (format.note !== undefined) lines.push('', markdownCell(format.note));
  if (rowsShown(report, format)) {
    lines.push('', `<details><summary>${plural(report.nodes.length, 'node')}</summary>`, '', '| Node | Eligible | Reason |', '|---|---|---|',
      ...report.nodes.map((n) => `| ${markdownCell(n.name)} | ${n.eligible ? 'yes' : 'no'} | ${n.reasons.map(markdownCell).join('; ') || '-'} |`), '', '</details>');
  }
  const fixed = fixes(report.nodes);
  if (fixed.length > 0) {
    lines.push('', '<details><summary>Nodes whose only obstacle is the label</summary>', '', '```sh', ...fixed.map((f) => printable(f)), '```', '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

/** What changes on a node list between two reports of one DaemonSet. */
export interface EligibilityChange {
  /** DESIRED before (0 when the DaemonSet is new). */
  readonly desiredBefore: number;
  /** DESIRED after (0 when it is removed). */
  readonly desiredAfter: number;
  /** The nodes it runs on after and not before, in node-list order. */
  readonly gained: readonly string[];
  /** The nodes it ran on before and not after, in node-list order. */
  readonly lost: readonly string[];
}

/** The nodes gained and lost between two reports over the same node list (either may be absent: added or removed). */
export function compareEligibility(before: EligibilityReport | undefined, after: EligibilityReport | undefined): EligibilityChange {
  const was = new Set(before?.nodes.filter((n) => n.eligible).map((n) => n.name) ?? []);
  const now = new Set(after?.nodes.filter((n) => n.eligible).map((n) => n.name) ?? []);
  const order = (after ?? before)?.nodes.map((n) => n.name) ?? [];
  return {
    desiredBefore: before?.desired ?? 0,
    desiredAfter: after?.desired ?? 0,
    gained: order.filter((n) => now.has(n) && !was.has(n)),
    lost: order.filter((n) => was.has(n) && !now.has(n)),
  };
}

/** @internal Up to `max` names, then how many more. */
export function nameList(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).map((n) => printable(n)).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** One line: desired before and after, the nodes gained and lost. */
export function formatEligibilityChange(change: EligibilityChange, max = 10): string {
  const parts = [`desired ${change.desiredBefore} -> ${change.desiredAfter}`];
  if (change.gained.length > 0) parts.push(`gains ${plural(change.gained.length, 'node')}: ${nameList(change.gained, max)}`);
  if (change.lost.length > 0) parts.push(`loses ${plural(change.lost.length, 'node')}: ${nameList(change.lost, max)}`);
  if (change.gained.length === 0 && change.lost.length === 0) parts.push('no node gained or lost');
  return parts.join('; ');
}
