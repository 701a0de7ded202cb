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

/** One message per pair of agents in one namespace where one's selector matches the other's pods. */
export function selectorOverlaps(constructs: readonly IConstruct[]): string[] {
  const byNamespace = new Map<string, (IConstruct & Selecting)[]>();
  for (const c of constructs) {
    if (isAgent(c)) {
      const namespace = Chart.of(c).namespace ?? '';
      byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), c]);
    }
  }
  const errors: string[] = [];
  for (const [namespace, agents] of byNamespace) {
    agents.forEach((a, i) => agents.slice(i + 1).forEach((b) => {
      const ca = Chart.of(a);
      const cb = Chart.of(b);
      // Variants of one group are alternatives, never applied together.
      if (ca !== cb && groupOf(ca) !== undefined && groupOf(ca) === groupOf(cb)) return;
      for (const [x, y] of [[a, b], [b, a]]) {
        if (selects(x.selectorLabels, y.labels)) {
          errors.push(`${x.node.path}'s selector ${JSON.stringify(x.selectorLabels)} selects the pods of ${y.node.path} too${namespace ? ` (namespace "${namespace}")` : ''}: each DaemonSet controller would take the other's pods; give one a selector label the other's pods do not carry (adopt.selector)`);
          return;
        }
      }
    }));
  }
  return errors;
}

/** Makes the app that holds `scope` check its agents' selectors when it validates, once however many agents ask. */
export function watchSelectorOverlaps(scope: IConstruct): void {
  appCheck(scope, 'SelectorOverlaps', selectorOverlaps);
}
