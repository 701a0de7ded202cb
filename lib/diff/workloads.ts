/**
 * The impacts of a changed workload: its pods restart (rollout), its images,
 * its requests and limits, and where its pods run (eligibility). The rules
 * are asked of lib/checks (how the server stores a template) and
 * lib/eligibility (which nodes a DaemonSet runs on).
 */
import { KubeObject } from '../checks/finding';
import { sameValue, semanticEqual } from '../checks/immutable';
import { storedTemplate } from '../checks/pod-defaults';
import { compareEligibility, daemonSetsOfManifest, evaluateNodes, formatEligibilityChange, KubeNode } from '../eligibility';
import { nameList } from '../eligibility/format';
import { printable } from '../eligibility/printable';
import { canonicalResourceQuantity, parseQuantity, quantityToNumber } from '../k8s/quantity';
import { isRecord } from '../k8s/syntax';
import { lostNodesClause, nodesLeft } from './nodes-lost';
import { Impact } from './types';

/** Kinds whose pods restart when their template changes. */
const ROLLING_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet']);

const templateOf = (obj: KubeObject): KubeObject => (isRecord(obj.spec) && isRecord(obj.spec.template) ? obj.spec.template : {});
const podSpecOf = (obj: KubeObject): KubeObject => (isRecord(templateOf(obj).spec) ? templateOf(obj).spec : {});

/** The leaf paths where two values differ, under a prefix (arrays by index), at most `max`. */
export function changedPaths(a: unknown, b: unknown, prefix: string, max = 8): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, at: string) => {
    if (out.length >= max || sameValue(x, y)) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) walk(x[i], y[i], `${at}[${i}]`);
    } else if (isRecord(x) && isRecord(y)) {
      for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) walk(x[key], y[key], /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`);
    } else {
      out.push(at);
    }
  };
  walk(a, b, prefix);
  return out;
}

/** An int-or-percent scaled over a count, rounded up or down, as the controllers do (intstr.GetScaledValueFromIntOrPercent). */
function scaled(value: unknown, total: number, fallback: number | string, roundUp: boolean): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const percent = /^(\d+)%$/.exec(String(v));
  if (!percent) return Number(v) || 0;
  const exact = (Number(percent[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** How the rollout proceeds, and (when the pod count is known) in how many rounds. */
function strategyOf(obj: KubeObject, pods: number | undefined): { strategy: string; rounds?: number; how: string } {
  const spec: KubeObject = isRecord(obj.spec) ? obj.spec : {};
  if (obj.kind === 'DaemonSet') {
    const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
    if (strategy.type === 'OnDelete') return { strategy: 'OnDelete', how: 'OnDelete: no pod restarts until it is deleted; each new pod gets the new template' };
    const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    const [unavailableText, surgeText] = [rolling.maxUnavailable ?? 1, rolling.maxSurge ?? 0];
    const how = `RollingUpdate, maxUnavailable ${unavailableText}, maxSurge ${surgeText}`;
    const surging = /^[1-9]\d*%?$/.test(String(surgeText));
    if (pods === undefined) return { strategy: how, how: `${how}: ${surging ? 'a new pod starts beside each old one before it stops' : 'each node\'s pod stops before its new one starts'} (give --nodes for the rounds)` };
    // pkg/controller/daemon/update.go: surge and unavailable are scaled over the nodes that should run the pod, rounded up.
    const surge = scaled(surgeText, pods, 0, true);
    const step = Math.max(1, surge > 0 ? surge : scaled(unavailableText, pods, 1, true));
    if (pods === 0) return { strategy: how, rounds: 0, how: `${how}: no node runs it any more, nothing to roll` };
    const rounds = Math.ceil(pods / step);
    return { strategy: how, rounds, how: `${how}: ${pods} pod(s) on ${pods} node(s), ${step} at a time, ${rounds} round(s)${surge > 0 ? ', each new pod ready before the old one stops' : ', each node without its agent while its pod restarts'}` };
  }
  if (obj.kind === 'Deployment') {
    const strategy = isRecord(spec.strategy) ? spec.strategy : {};
    const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
    if (strategy.type === 'Recreate') return { strategy: 'Recreate', rounds: 1, how: `Recreate: all ${replicas} pod(s) stop, then the new ones start` };
    const rolling = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    const surge = scaled(rolling.maxSurge, replicas, '25%', true);
    const unavailable = scaled(rolling.maxUnavailable, replicas, '25%', false);
    const step = Math.max(1, surge + unavailable);
    const rounds = Math.ceil(replicas / step);
    return { strategy: `RollingUpdate, maxSurge ${rolling.maxSurge ?? '25%'}, maxUnavailable ${rolling.maxUnavailable ?? '25%'}`, rounds, how: `RollingUpdate, maxSurge ${rolling.maxSurge ?? '25%'} (${surge}), maxUnavailable ${rolling.maxUnavailable ?? '25%'} (${unavailable}): ${replicas} pod(s), about ${rounds} round(s)` };
  }
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
  if (strategy.type === 'OnDelete') return { strategy: 'OnDelete', how: 'OnDelete: no pod restarts until it is deleted' };
  const partition = isRecord(strategy.rollingUpdate) && typeof strategy.rollingUpdate.partition === 'number' ? strategy.rollingUpdate.partition : 0;
  const restarted = Math.max(0, replicas - partition);
  return { strategy: 'RollingUpdate', rounds: restarted, how: `RollingUpdate: ${restarted} of ${replicas} pod(s), one at a time from the highest ordinal${partition > 0 ? ` (partition ${partition})` : ''}` };
}

/** The pods a workload runs: a DaemonSet's DESIRED over the nodes (when given), else its replicas. */
function podCount(obj: KubeObject, nodes: readonly KubeNode[] | undefined, source: string): number | undefined {
  if (obj.kind === 'DaemonSet') {
    if (nodes === undefined) return undefined;
    const [ds] = daemonSetsOfManifest([obj], source);
    return evaluateNodes(nodes, ds.scheduling).desired;
  }
  return isRecord(obj.spec) && typeof obj.spec.replicas === 'number' ? obj.spec.replicas : 1;
}

/** rollout: the stored template differs, so the controller makes a new revision and replaces the pods. */
export function rolloutImpact(old: KubeObject, next: KubeObject, nodes: readonly KubeNode[] | undefined, source: string): Impact | undefined {
  if (!ROLLING_KINDS.has(next.kind) || storedTemplate(templateOf(old)) === storedTemplate(templateOf(next))) return undefined;
  const before = JSON.parse(storedTemplate(templateOf(old)));
  const after = JSON.parse(storedTemplate(templateOf(next)));
  const fields = changedPaths(before, after, 'spec.template');
  const { strategy, rounds, how } = strategyOf(next, podCount(next, nodes, source));
  const kindWord = next.kind === 'DaemonSet' ? 'every eligible node\'s agent restarts' : 'its pods are replaced';
  // Pods of nodes the DaemonSet leaves are deleted, not rolled: say so beside the rounds of those that stay.
  const lost = nodes === undefined ? 0 : nodesLeft(old, next, nodes, source)?.lost.length ?? 0;
  return { kind: 'rollout', warning: false, message: `the pod template changed (${fields.join(', ')}): a new revision, ${kindWord}; ${how}${lost > 0 ? `; ${lostNodesClause(lost)}` : ''}`, fields, strategy, ...(rounds !== undefined ? { rounds } : {}) };
}

/** The containers of a pod spec by name (containers and init containers). */
function containersByName(obj: KubeObject): Map<string, KubeObject> {
  const spec = podSpecOf(obj);
  const map = new Map<string, KubeObject>();
  for (const field of ['initContainers', 'containers']) {
    for (const c of Array.isArray(spec[field]) ? spec[field] : []) {
      if (isRecord(c)) map.set(`${field === 'initContainers' ? 'init container' : 'container'} ${printable(String(c.name ?? ''))}`, c);
    }
  }
  return map;
}

/** image: an image (or its tag or digest) changed, a container added or removed. */
export function imageImpact(old: KubeObject, next: KubeObject): Impact | undefined {
  const [a, b] = [containersByName(old), containersByName(next)];
  const changes: string[] = [];
  for (const [name, c] of b) {
    const before = a.get(name)?.image;
    if (before === undefined) changes.push(`${name} added (${printable(String(c.image))})`);
    else if (before !== c.image) changes.push(`${name}: ${printable(String(before))} -> ${printable(String(c.image))}`);
  }
  for (const [name, c] of a) if (!b.has(name)) changes.push(`${name} removed (${printable(String(c.image))})`);
  return changes.length === 0 ? undefined : { kind: 'image', warning: false, message: changes.join('; ') };
}

const RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/** The sum of one resource's requests (or limits) over a pod's app containers, in units. */
function podTotal(obj: KubeObject, list: 'requests' | 'limits', resource: string): number {
  let total = 0;
  for (const c of Array.isArray(podSpecOf(obj).containers) ? podSpecOf(obj).containers : []) {
    const q = isRecord(c) && isRecord(c.resources) && isRecord(c.resources[list]) ? parseQuantity(c.resources[list][resource]) : undefined;
    if (q) total += quantityToNumber(q);
  }
  return total;
}

const shownAmount = (resource: string, units: number) => (resource === 'cpu' ? `${Math.round(units * 1000)}m` : `${Math.round(units / 1048576)}Mi`);
const signed = (resource: string, units: number) => `${units >= 0 ? '+' : '-'}${shownAmount(resource, Math.abs(units))}`;

/** resources: requests or limits changed; over the pods (--nodes for a DaemonSet), the total. */
export function resourcesImpact(old: KubeObject, next: KubeObject, nodes: readonly KubeNode[] | undefined, source: string): Impact | undefined {
  const [a, b] = [containersByName(old), containersByName(next)];
  const fields: string[] = [];
  for (const [name, c] of b) {
    const before = a.get(name);
    if (before === undefined) continue;
    for (const list of ['requests', 'limits']) {
      const x = isRecord(before.resources) && isRecord(before.resources[list]) ? before.resources[list] : {};
      const y = isRecord(c.resources) && isRecord(c.resources[list]) ? c.resources[list] : {};
      for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        const stored = (v: unknown) => (v === undefined ? '' : canonicalResourceQuantity(String(v)));
        if (stored(x[key]) !== stored(y[key])) fields.push(`${name} ${list}.${key} ${x[key] ?? '(none)'} -> ${y[key] ?? '(none)'}`);
      }
    }
  }
  if (fields.length === 0) return undefined;
  const pods = podCount(next, nodes, source);
  const total: Record<string, string> = {};
  if (pods !== undefined) {
    for (const resource of RESOURCES.slice(0, 2)) {
      const delta = (podTotal(next, 'requests', resource) - podTotal(old, 'requests', resource)) * pods;
      if (delta !== 0) total[`requests.${resource}`] = signed(resource, delta);
    }
  }
  const totals = Object.entries(total).map(([k, v]) => `${k} ${v}`).join(', ');
  const over = pods === undefined ? '' : `; over ${pods} pod(s)${next.kind === 'DaemonSet' ? ' (its nodes)' : ''}: ${totals || 'no change of the requests'}`;
  return { kind: 'resources', warning: false, message: `${fields.join('; ')}${over}`, fields, ...(pods !== undefined ? { total } : {}) };
}

/** A toleration as one word: `key=value:Effect` or `key:Effect (Exists)`; `*` for an Exists without key. */
function tolerationText(t: unknown): string {
  if (!isRecord(t)) return JSON.stringify(t);
  const key = t.key === undefined || t.key === '' ? '*' : String(t.key);
  return `${key}${t.value ? `=${String(t.value)}` : ''}${t.effect ? `:${String(t.effect)}` : ':(every effect)'}${t.operator === 'Exists' || t.value === undefined ? ' (Exists)' : ''}`;
}

const SCHEDULING = ['nodeSelector', 'affinity', 'tolerations', 'nodeName', 'hostNetwork'];

/** eligibility: where a DaemonSet's pods may run changed; with --nodes, the nodes gained and lost. */
export function eligibilityImpact(old: KubeObject, next: KubeObject, nodes: readonly KubeNode[] | undefined, source: string): Impact | undefined {
  if (next.kind !== 'DaemonSet') return undefined;
  const [a, b] = [podSpecOf(old), podSpecOf(next)];
  // As the server stores them: an empty nodeSelector or list is none (semanticEqual).
  const fields = SCHEDULING.filter((f) => !semanticEqual(a[f], b[f])).map((f) => `spec.template.spec.${f}`);
  if (fields.length === 0) return undefined;
  const tolerated = (spec: KubeObject) => (Array.isArray(spec.tolerations) ? spec.tolerations.map(tolerationText) : []);
  const [was, now] = [tolerated(a), tolerated(b)];
  const added = now.filter((t) => !was.includes(t));
  const removed = was.filter((t) => !now.includes(t));
  const words = [
    ...(added.length > 0 ? [`tolerations added: ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`tolerations removed: ${removed.join(', ')}`] : []),
    ...fields.filter((f) => !f.endsWith('tolerations')).map((f) => `${f.slice('spec.template.spec.'.length)} changed`),
  ];
  // A toleration of the control plane, or of every taint, puts the agent on nodes it stayed off.
  const warning = added.some((t) => t.startsWith('*') || t.startsWith('node-role.kubernetes.io/control-plane') || t.startsWith('node-role.kubernetes.io/master'));
  if (nodes === undefined) {
    return { kind: 'eligibility', warning, message: `${words.join('; ')} (give --nodes to list the nodes gained and lost)`, fields };
  }
  const [before] = daemonSetsOfManifest([old], source);
  const [after] = daemonSetsOfManifest([next], source);
  const change = compareEligibility(evaluateNodes(nodes, before.scheduling), evaluateNodes(nodes, after.scheduling));
  return {
    kind: 'eligibility', warning, fields, gained: change.gained, lost: change.lost,
    desired: { before: change.desiredBefore, after: change.desiredAfter },
    message: `${words.join('; ')}: ${formatEligibilityChange(change)}`,
  };
}

/** The nodes a new DaemonSet lands on, for its added line. */
export function landsOn(next: KubeObject, nodes: readonly KubeNode[], source: string): Impact | undefined {
  if (next.kind !== 'DaemonSet') return undefined;
  const [ds] = daemonSetsOfManifest([next], source);
  const report = evaluateNodes(nodes, ds.scheduling);
  const gained = report.nodes.filter((n) => n.eligible).map((n) => n.name);
  return { kind: 'eligibility', warning: false, gained, lost: [], desired: { before: 0, after: report.desired }, message: `a new DaemonSet: desired 0 -> ${report.desired}${gained.length > 0 ? `; runs on ${nameList(gained)}` : ''}` };
}
