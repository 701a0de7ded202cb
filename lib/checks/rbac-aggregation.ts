/**
 * RBAC aggregation as the clusterrole-aggregation controller does it
 * (pkg/controller/clusterroleaggregation: syncClusterRole): a ClusterRole
 * with an aggregationRule holds the rules of every ClusterRole its
 * clusterRoleSelectors select (an empty selector selects every one), kept in
 * step as labels and rules change. The built-in roles and their labels are
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (ClusterRoles,
 * the same in v1.28 to v1.36): admin gathers `aggregate-to-admin`, edit
 * (labelled `aggregate-to-admin`) gathers `aggregate-to-edit`, view
 * (labelled `aggregate-to-edit`) gathers `aggregate-to-view`; every one is
 * labelled `kubernetes.io/bootstrapping: rbac-defaults`. `diff` asks it
 * (lib/diff/rbac-effective.ts).
 */
import { isRecord } from '../k8s/syntax';
import { KubeObject } from './finding';
import { DANGEROUS_BUILT_IN_ROLES, DANGEROUS_CLUSTER_ROLES } from './rbac-policy';
import { labelSelectorMatches } from './workload';

const AGGREGATE = 'rbac.authorization.k8s.io/aggregate-to-';
const BOOTSTRAP = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

/** A built-in ClusterRole as aggregation sees it: its labels, and its selectors when it aggregates. */
interface BuiltInRole {
  readonly labels: Readonly<Record<string, string>>;
  readonly selectors?: readonly KubeObject[];
}

/** The bootstrap ClusterRoles that take part in aggregation (bootstrappolicy/policy.go: ClusterRoles). */
const BUILT_IN_ROLES: Readonly<Record<string, BuiltInRole>> = {
  'cluster-admin': { labels: BOOTSTRAP },
  'admin': { labels: BOOTSTRAP, selectors: [{ matchLabels: { [`${AGGREGATE}admin`]: 'true' } }] },
  'edit': { labels: { ...BOOTSTRAP, [`${AGGREGATE}admin`]: 'true' }, selectors: [{ matchLabels: { [`${AGGREGATE}edit`]: 'true' } }] },
  'view': { labels: { ...BOOTSTRAP, [`${AGGREGATE}edit`]: 'true' }, selectors: [{ matchLabels: { [`${AGGREGATE}view`]: 'true' } }] },
  'system:aggregate-to-admin': { labels: { ...BOOTSTRAP, [`${AGGREGATE}admin`]: 'true' } },
  'system:aggregate-to-edit': { labels: { ...BOOTSTRAP, [`${AGGREGATE}edit`]: 'true' } },
  'system:aggregate-to-view': { labels: { ...BOOTSTRAP, [`${AGGREGATE}view`]: 'true' } },
};

/** The RBAC objects of one side of a diff, by name. */
export interface RbacSide {
  /** ClusterRoles by name. */
  readonly clusterRoles: ReadonlyMap<string, KubeObject>;
  /** Roles by `namespace/name`. */
  readonly roles: ReadonlyMap<string, KubeObject>;
}

export const roleNameOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.name === 'string' ? o.metadata.name : '');
export const roleNamespaceOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '');
export const roleLabelsOf = (o: KubeObject): Record<string, string> => (isRecord(o.metadata) && isRecord(o.metadata.labels) ? Object.fromEntries(Object.entries(o.metadata.labels).map(([k, v]) => [k, String(v)])) : {});
export const isRbacObject = (o: KubeObject) => typeof o.apiVersion === 'string' && o.apiVersion.startsWith('rbac.authorization.k8s.io/');

/** The Roles and ClusterRoles of a side. */
export function rbacSide(objects: Iterable<KubeObject>): RbacSide {
  const clusterRoles = new Map<string, KubeObject>();
  const roles = new Map<string, KubeObject>();
  for (const o of objects) {
    if (!isRbacObject(o)) continue;
    if (o.kind === 'ClusterRole') clusterRoles.set(roleNameOf(o), o);
    if (o.kind === 'Role') roles.set(`${roleNamespaceOf(o)}/${roleNameOf(o)}`, o);
  }
  return { clusterRoles, roles };
}

/** A ClusterRole's selectors, from the input (an object) or the built-in table; undefined when it aggregates nothing. */
export function selectorsOf(role: KubeObject | undefined, name: string, side: RbacSide): readonly KubeObject[] | undefined {
  const input = role ?? side.clusterRoles.get(name);
  if (input !== undefined) {
    const rule = input.aggregationRule;
    return isRecord(rule) ? (Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors.filter(isRecord) : []) : undefined;
  }
  return BUILT_IN_ROLES[name]?.selectors;
}

/** Every ClusterRole name of a side, the built-in ones the input does not replace included, with its labels. */
function allRoles(side: RbacSide): Array<[string, Record<string, string>]> {
  const out: Array<[string, Record<string, string>]> = [...side.clusterRoles].map(([n, o]) => [n, roleLabelsOf(o)]);
  for (const [n, b] of Object.entries(BUILT_IN_ROLES)) if (!side.clusterRoles.has(n)) out.push([n, { ...b.labels }]);
  return out;
}

/** Whether a ClusterRole's selectors select these labels (any selector; an empty one selects every role). */
const selects = (selectors: readonly KubeObject[], labels: Record<string, string>) => selectors.some((s) => labelSelectorMatches(s, labels));

/** The aggregating ClusterRoles that carry a role's rules, directly or through another aggregated role. */
export function carriers(name: string, labels: Record<string, string>, side: RbacSide): string[] {
  const found: string[] = [];
  const queue: Array<[string, Record<string, string>]> = [[name, labels]];
  const roles = allRoles(side);
  while (queue.length > 0) {
    const [, have] = queue.shift()!;
    for (const [other, otherLabels] of roles) {
      const selectors = selectorsOf(undefined, other, side);
      if (other === name || found.includes(other) || selectors === undefined || !selects(selectors, have)) continue;
      found.push(other);
      queue.push([other, otherLabels]);
    }
  }
  return found;
}

/** The ClusterRoles an aggregationRule gathers: those its selectors select, and what they gather in turn. */
export function gathered(self: string, selectors: readonly KubeObject[], side: RbacSide): string[] {
  const found: string[] = [];
  const queue = [selectors];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [other, labels] of allRoles(side)) {
      if (other === self || found.includes(other) || !selects(current, labels)) continue;
      found.push(other);
      const more = selectorsOf(undefined, other, side);
      if (more !== undefined) queue.push(more);
    }
  }
  return found;
}

/** Why a built-in role is dangerous to hold, or undefined. */
export function builtInDanger(name: string): string | undefined {
  if (name === 'cluster-admin') return 'everything';
  if (DANGEROUS_CLUSTER_ROLES.includes(name)) return 'read and write of almost every resource, secrets included';
  return DANGEROUS_BUILT_IN_ROLES[name];
}

