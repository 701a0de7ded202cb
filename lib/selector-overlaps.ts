/**
 * Two node agents in one namespace whose selectors select each other's pods:
 * each DaemonSet controller would count, adopt or delete the other's pods
 * (the controller selects every pod of its namespace that matches, whoever
 * made it). An adopted selector (`adopt.selector`) must still select exactly
 * its agent's pods. Checked once per validation pass over the whole app.
 */
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { appCheck } from './app-checks';
import { groupOf } from './name-clashes';

/** What the check reads of a NodeAgent (told by its brand, so that this module imports no construct). */
interface Selecting {
  readonly selectorLabels: Record<string, string>;
  readonly labels: Record<string, string>;
}

function isAgent(c: IConstruct): c is IConstruct & Selecting {
  return (c as unknown as Record<symbol, unknown>)[Symbol.for('node-reporter.NodeAgent')] === true;
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/**
 * One message per pair of agents in one namespace where one's selector
 * matches the other's pods. Variants of one group are alternatives, never
 * applied together: their agents are not paired, so that an app of N
 * variant charts costs O(N), not O(N²) (only agents that can run side by
 * side are compared).
 */
export function selectorOverlaps(constructs: readonly IConstruct[]): string[] {
  // namespace -> token (the variant group, or the chart itself) -> chart -> agents
  const byNamespace = new Map<string, Map<unknown, Map<Chart, (IConstruct & Selecting)[]>>>();
  for (const c of constructs) {
    if (isAgent(c)) {
      const chart = Chart.of(c);
      const namespace = chart.namespace ?? '';
      const token = groupOf(chart) ?? chart;
      const byToken = byNamespace.get(namespace) ?? new Map<unknown, Map<Chart, (IConstruct & Selecting)[]>>();
      const byChart = byToken.get(token) ?? new Map<Chart, (IConstruct & Selecting)[]>();
      const agents = byChart.get(chart) ?? [];
      agents.push(c);
      byChart.set(chart, agents);
      byToken.set(token, byChart);
      byNamespace.set(namespace, byToken);
    }
  }
  const errors: string[] = [];
  const pair = (a: IConstruct & Selecting, b: IConstruct & Selecting, namespace: string) => {
    for (const [x, y] of [[a, b], [b, a]]) {
      if (selects(x.selectorLabels, y.labels)) {
        errors.push(`${x.node.path}'s selector ${JSON.stringify(x.selectorLabels)} selects the pods of ${y.node.path} too${namespace ? ` (namespace "${namespace}")` : ''}: each DaemonSet controller would take the other's pods; give one a selector label the other's pods do not carry (adopt.selector)`);
        return;
      }
    }
  };
  for (const [namespace, byToken] of byNamespace) {
    const tokens = [...byToken.values()];
    tokens.forEach((byChart, t) => {
      // Within one chart, every pair.
      for (const agents of byChart.values()) {
        agents.forEach((a, i) => agents.slice(i + 1).forEach((b) => pair(a, b, namespace)));
      }
      // Across tokens (charts not of one variant group), every pair.
      const mine = [...byChart.values()].flat();
      for (const other of tokens.slice(t + 1)) {
        const theirs = [...other.values()].flat();
        mine.forEach((a) => theirs.forEach((b) => pair(a, b, namespace)));
      }
    });
  }
  return errors;
}

/** Makes the app that holds `scope` check its agents' selectors when it validates, once however many agents ask. */
export function watchSelectorOverlaps(scope: IConstruct): void {
  appCheck(scope, 'SelectorOverlaps', selectorOverlaps);
}
