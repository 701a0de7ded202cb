/**
 * Two node agents of an app that bind one host port on nodes they can share:
 * on such a node only one of them runs. The rule is the checks'
 * (./checks/host-port-clashes, asked of ./checks/overlaps for the nodes);
 * here each agent's rendered pod is read once, at construction, and the
 * pairs are judged once per validation pass over the whole app. Agents of
 * alternative variants (one variant group, other charts) are never applied
 * together, and waves of one agent share their ports by design: neither pair
 * is compared.
 */
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { appCheck } from './app-checks';
import { boundHostPorts, hostPortClashes,HostPortUser } from './checks/host-port-clashes';
import { nodeSelectionOf } from './checks/wave-overlaps';
import { AGENT_LABEL } from './k8s/waves';
import { groupOf } from './name-clashes';

/** What the check knows of each agent, from its construction. */
const users = new WeakMap<IConstruct, HostPortUser & { readonly chart: Chart; readonly group: unknown }>();

/** What the check reads of a NodeAgent (its labels; `wave` when it is one of an agent's waves). */
interface AgentLike extends IConstruct {
  readonly labels: Record<string, string>;
  readonly wave?: string;
}

/** The message per pair of agents of the app that bind one host port on nodes both can select. */
export function agentHostPortClashes(constructs: readonly IConstruct[]): string[] {
  const found = constructs.flatMap((c) => users.get(c) ?? []);
  return hostPortClashes(found, (a, b) => a.group !== b.group || a.chart === b.chart).map((c) => `${c.message}; give one another port, or nodes the other's policy excludes`);
}

/**
 * Records the host ports the agent's rendered pod spec binds (and
 * `boundHostPorts`, which a host-network agent declares) and the nodes it
 * selects, and makes the app check them across its agents when it validates.
 */
export function watchHostPortClashes(agent: AgentLike, podSpec: unknown, declared: readonly number[] | undefined): void {
  const selection = nodeSelectionOf(podSpec);
  const ports = boundHostPorts(podSpec, Array.isArray(declared) ? declared : []);
  if (selection !== undefined && ports.length > 0) {
    const chart = Chart.of(agent);
    const wave = agent.wave !== undefined ? agent.labels[AGENT_LABEL] : undefined;
    users.set(agent, { name: agent.node.path, ports, selection, agent: wave !== undefined ? JSON.stringify([chart.namespace ?? '', wave]) : undefined, chart, group: groupOf(chart) ?? chart });
  }
  appCheck(agent, 'HostPortClashes', agentHostPortClashes);
}
