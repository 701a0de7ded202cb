/**
 * The waves of an agent over a node list: DaemonSets labelled with one
 * `node-reporter.dev/agent` (in one namespace) and each its own
 * `node-reporter.dev/wave`, grouped, with each wave's node count and every
 * node eligible for more than one wave (an overlap: it would run the agent
 * twice). Linear in nodes times waves: each wave's verdicts are read once.
 */
import { DaemonSetEligibility } from './manifest';
import { markdownCell, printable } from './printable';

/** One wave of an agent over the node list. */
export interface WaveEligibility {
  /** The wave's name (its `node-reporter.dev/wave` label). */
  readonly wave: string;
  /** Its DaemonSet's name. */
  readonly daemonSet: string;
  /** How many nodes it runs on. */
  readonly desired: number;
}

/** A node eligible for more than one wave of an agent. */
export interface WaveOverlap {
  /** The node's name. */
  readonly node: string;
  /** The waves it is eligible for, in input order. */
  readonly waves: string[];
  /** Their DaemonSets, in the same order. */
  readonly daemonSets: string[];
}

/** An agent's waves over the node list. */
export interface AgentWaves {
  /** The agent's name (the `node-reporter.dev/agent` label). */
  readonly agent: string;
  /** The namespace of its DaemonSets, if the manifest sets one. */
  readonly namespace?: string;
  /** How many nodes of the list any wave runs on. */
  readonly nodes: number;
  /** How many nodes the list has. */
  readonly of: number;
  /** Its waves, in input order. */
  readonly waves: WaveEligibility[];
  /** The nodes eligible for more than one wave, in node-list order. */
  readonly overlaps: WaveOverlap[];
}

/** The agents among the reports (those with both wave labels), each with its waves and overlaps; none when no DaemonSet is a wave. */
export function agentWaves(reports: readonly DaemonSetEligibility[]): AgentWaves[] {
  const groups = new Map<string, DaemonSetEligibility[]>();
  for (const r of reports) {
    if (r.agent === undefined || r.wave === undefined) continue;
    const key = JSON.stringify([r.namespace ?? '', r.agent]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((waves) => {
    // Verdicts are in node-list order in every report of one node list: index i is one node in all.
    const nodes = waves[0].nodes;
    const holders: number[][] = nodes.map(() => []);
    waves.forEach((w, j) => w.nodes.forEach((v, i) => { if (v.eligible) holders[i].push(j); }));
    const overlaps = holders.flatMap((held, i) => (held.length > 1
      ? [{ node: nodes[i].name, waves: held.map((j) => waves[j].wave!), daemonSets: held.map((j) => waves[j].name) }] : []));
    return {
      agent: waves[0].agent!,
      ...(waves[0].namespace !== undefined ? { namespace: waves[0].namespace } : {}),
      nodes: holders.filter((held) => held.length > 0).length,
      of: nodes.length,
      waves: waves.map((w) => ({ wave: w.wave!, daemonSet: w.name, desired: w.desired })),
      overlaps,
    };
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const agentTitle = (a: AgentWaves) => `agent ${printable(a.agent)}${a.namespace !== undefined ? ` (namespace ${printable(a.namespace)})` : ''}`;

/** One line per overlap: the node and its waves. */
export function overlapLine(a: AgentWaves, o: WaveOverlap): string {
  const waves = o.waves.map((w, i) => `${printable(w)} (DaemonSet ${printable(o.daemonSets[i])})`);
  return `node ${printable(o.node)} is eligible for ${o.waves.length} waves of ${agentTitle(a)}: ${waves.join(' and ')}; it would run the agent ${o.waves.length === 2 ? 'twice' : `${o.waves.length} times`}`;
}

/** The agents' waves as text: a line per agent, one per wave with its node count, one per overlap. */
export function formatAgentWavesText(agents: readonly AgentWaves[]): string {
  const lines: string[] = [];
  for (const a of agents) {
    lines.push(`${agentTitle(a)}: ${a.nodes} of ${plural(a.of, 'node')} in ${plural(a.waves.length, 'wave')}${a.overlaps.length > 0 ? `, ${plural(a.overlaps.length, 'node')} in more than one` : ''}`);
    const width = Math.max(...a.waves.map((w) => printable(w.wave).length));
    lines.push(...a.waves.map((w) => `  wave ${printable(w.wave).padEnd(width)}  ${plural(w.desired, 'node')} (DaemonSet ${printable(w.daemonSet)})`));
    lines.push(...a.overlaps.slice(0, 20).map((o) => `  overlap: ${overlapLine(a, o)}`));
    if (a.overlaps.length > 20) lines.push(`  (and ${a.overlaps.length - 20} more overlapping nodes; -o json lists them all)`);
  }
  return `${lines.join('\n')}\n`;
}

/** The agents' waves as Markdown: a table per agent, the overlaps as a list. */
export function formatAgentWavesMarkdown(agents: readonly AgentWaves[]): string {
  const lines: string[] = [];
  for (const a of agents) {
    lines.push(`### Waves of ${markdownCell(agentTitle(a))}`, '', `${a.nodes} of ${plural(a.of, 'node')} in ${plural(a.waves.length, 'wave')}`, '',
      '| Wave | Nodes | DaemonSet |', '|---|---:|---|', ...a.waves.map((w) => `| ${markdownCell(w.wave)} | ${w.desired} | ${markdownCell(w.daemonSet)} |`));
    if (a.overlaps.length > 0) lines.push('', `**${plural(a.overlaps.length, 'node')} in more than one wave:**`, '', ...a.overlaps.map((o) => `- ${markdownCell(overlapLine(a, o))}`));
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
