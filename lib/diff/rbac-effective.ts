/**
 * RBAC as the authorizer sees it across objects: what a ClusterRole's
 * aggregation carries into the roles that select it (and what a changed
 * aggregationRule now gathers), and what a binding hands its subjects when
 * the role it binds is in the input or is a known built-in one.
 *
 * Aggregation is the clusterrole-aggregation controller's
 * (pkg/controller/clusterroleaggregation: syncClusterRole): a ClusterRole
 * with an aggregationRule holds the rules of every ClusterRole its
 * clusterRoleSelectors select (an empty selector selects every one), kept in
 * step as labels and rules change. The built-in roles and their labels are
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (ClusterRoles,
 * the same in v1.28 to v1.36): admin gathers `aggregate-to-admin`, edit
 * (labelled `aggregate-to-admin`) gathers `aggregate-to-edit`, view
 * (labelled `aggregate-to-edit`) gathers `aggregate-to-view`; every one is
 * labelled `kubernetes.io/bootstrapping: rbac-defaults`.
 */
import { KubeObject } from '../checks/finding';
import { dangerousGrant, dangerousRoleRef, formatGrant, Grant, grantsAdded, grantsOf } from '../checks/rbac';
import { DANGEROUS_BUILT_IN_ROLES, DANGEROUS_CLUSTER_ROLES } from '../checks/rbac-policy';
import { labelSelectorMatches } from '../checks/workload';
import { isRecord } from '../k8s/syntax';
import { Impact } from './types';

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

const nameOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.name === 'string' ? o.metadata.name : '');
const namespaceOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '');
const labelsOf = (o: KubeObject): Record<string, string> => (isRecord(o.metadata) && isRecord(o.metadata.labels) ? Object.fromEntries(Object.entries(o.metadata.labels).map(([k, v]) => [k, String(v)])) : {});
const isRbac = (o: KubeObject) => typeof o.apiVersion === 'string' && o.apiVersion.startsWith('rbac.authorization.k8s.io/');

/** The Roles and ClusterRoles of a side. */
export function rbacSide(objects: Iterable<KubeObject>): RbacSide {
  const clusterRoles = new Map<string, KubeObject>();
  const roles = new Map<string, KubeObject>();
  for (const o of objects) {
    if (!isRbac(o)) continue;
    if (o.kind === 'ClusterRole') clusterRoles.set(nameOf(o), o);
    if (o.kind === 'Role') roles.set(`${namespaceOf(o)}/${nameOf(o)}`, o);
  }
  return { clusterRoles, roles };
}

/** A ClusterRole's selectors, from the input (an object) or the built-in table; undefined when it aggregates nothing. */
function selectorsOf(role: KubeObject | undefined, name: string, side: RbacSide): readonly KubeObject[] | undefined {
  const input = role ?? side.clusterRoles.get(name);
  if (input !== undefined) {
    const rule = input.aggregationRule;
    return isRecord(rule) ? (Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors.filter(isRecord) : []) : undefined;
  }
  return BUILT_IN_ROLES[name]?.selectors;
}

/** Every ClusterRole name of a side, the built-in ones the input does not replace included, with its labels. */
function allRoles(side: RbacSide): Array<[string, Record<string, string>]> {
  const out: Array<[string, Record<string, string>]> = [...side.clusterRoles].map(([n, o]) => [n, labelsOf(o)]);
  for (const [n, b] of Object.entries(BUILT_IN_ROLES)) if (!side.clusterRoles.has(n)) out.push([n, { ...b.labels }]);
  return out;
}

/** Whether a ClusterRole's selectors select these labels (any selector; an empty one selects every role). */
const selects = (selectors: readonly KubeObject[], labels: Record<string, string>) => selectors.some((s) => labelSelectorMatches(s, labels));

/** The aggregating ClusterRoles that carry a role's rules, directly or through another aggregated role. */
function carriers(name: string, labels: Record<string, string>, side: RbacSide): string[] {
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
function gathered(self: string, selectors: readonly KubeObject[], side: RbacSide): string[] {
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
function builtInDanger(name: string): string | undefined {
  if (name === 'cluster-admin') return 'everything';
  if (DANGEROUS_CLUSTER_ROLES.includes(name)) return 'read and write of almost every resource, secrets included';
  return DANGEROUS_BUILT_IN_ROLES[name];
}

const dangerousOf = (grants: readonly Grant[], clusterWide: boolean) =>
  grants.map((g) => [g, dangerousGrant(g, clusterWide)] as const).filter(([, why]) => why !== undefined).map(([g, why]) => `${formatGrant(g)} (${why})`);

const SOURCE = 'pkg/controller/clusterroleaggregation: syncClusterRole; bootstrappolicy/policy.go: the aggregated roles admin, edit, view (v1.28 to v1.36)';

/**
 * rbac-widened by aggregation, for a ClusterRole added or changed: the roles
 * that now carry its rules (a label an aggregationRule selects, in the input
 * or of a built-in aggregated role), and, when it aggregates, the roles its
 * aggregationRule now gathers.
 */
export function aggregationImpacts(old: KubeObject | undefined, next: KubeObject, before: RbacSide, after: RbacSide): Impact[] {
  if (next.kind !== 'ClusterRole' || !isRbac(next)) return [];
  const name = nameOf(next);
  const impacts: Impact[] = [];
  const [was, now] = [grantsOf(old?.rules), grantsOf(next.rules)];
  const carriedBefore = old === undefined ? [] : carriers(name, labelsOf(old), before);
  const carriedNow = carriers(name, labelsOf(next), after);
  const widened = carriedNow.map((role) => {
    const own = grantsOf(after.clusterRoles.get(role)?.rules);
    const reached = carriedBefore.includes(role) ? grantsAdded(was, now) : now;
    return [role, grantsAdded(own, reached)] as const;
  }).filter(([, grants]) => grants.length > 0);
  if (widened.length > 0) {
    const seen = new Set<string>();
    const grants = widened.flatMap(([, g]) => g).filter((g) => !seen.has(formatGrant(g)) && seen.add(formatGrant(g)) !== undefined);
    const dangerous = dangerousOf(grants, true);
    const roles = widened.map(([r]) => r);
    impacts.push({
      kind: 'rbac-widened', warning: dangerous.length > 0, added: grants.map(formatGrant), ...(dangerous.length > 0 ? { dangerous } : {}), source: SOURCE,
      message: `aggregated into ClusterRole ${roles.join(', ')} (by its labels): they now grant ${grants.map(formatGrant).join(', ')} to whoever they are bound to${dangerous.length > 0 ? `; dangerous: ${dangerous.join(', ')}` : ''}`,
    });
  }
  const selectors = selectorsOf(next, name, after);
  if (selectors !== undefined) {
    const oldSelectors = old === undefined ? undefined : selectorsOf(old, name, before);
    const previously = oldSelectors === undefined ? [] : gathered(name, oldSelectors, before);
    const added = gathered(name, selectors, after).filter((r) => !previously.includes(r));
    if (added.length > 0) {
      const own = grantsOf(next.rules);
      const inputGrants = grantsAdded(own, added.flatMap((r) => grantsOf(after.clusterRoles.get(r)?.rules)));
      const builtIn = added.filter((r) => !after.clusterRoles.has(r));
      const dangerous = [
        ...dangerousOf(inputGrants, true),
        ...builtIn.map((r) => [r, builtInDanger(r)] as const).filter(([, why]) => why !== undefined).map(([r, why]) => `the rules of built-in ClusterRole ${r} (${why})`),
      ];
      const what = [...inputGrants.map(formatGrant), ...builtIn.map((r) => `the rules of built-in ClusterRole ${r}`)];
      impacts.push({
        kind: 'rbac-widened', warning: dangerous.length > 0, added: what, ...(dangerous.length > 0 ? { dangerous } : {}), source: SOURCE,
        message: `its aggregationRule now gathers ClusterRole ${added.join(', ')}: it grants ${what.length > 0 ? what.join(', ') : 'their rules'}${dangerous.length > 0 ? `; dangerous: ${dangerous.join(', ')}` : ''}`,
      });
    }
  }
  return impacts;
}

/**
 * Why the role a binding binds is dangerous to its subjects, or undefined: a
 * role of the input judged by its rules (and what it aggregates), across
 * every namespace for a ClusterRoleBinding of a ClusterRole; else a known
 * built-in role (checks/rbac-policy).
 */
export function boundRoleDanger(binding: KubeObject, side: RbacSide | undefined): string | undefined {
  const ref = isRecord(binding.roleRef) ? binding.roleRef : {};
  const name = typeof ref.name === 'string' ? ref.name : '';
  const role = side === undefined ? undefined
    : ref.kind === 'ClusterRole' ? side.clusterRoles.get(name)
      : ref.kind === 'Role' ? side.roles.get(`${namespaceOf(binding)}/${name}`) : undefined;
  if (role === undefined || side === undefined) return dangerousRoleRef(binding);
  const clusterWide = binding.kind === 'ClusterRoleBinding' && ref.kind === 'ClusterRole';
  const selectors = ref.kind === 'ClusterRole' ? selectorsOf(role, name, side) : undefined;
  const members = selectors === undefined ? [] : gathered(name, selectors, side);
  const grants = [...grantsOf(role.rules), ...members.flatMap((m) => grantsOf(side.clusterRoles.get(m)?.rules))];
  const reasons = [
    ...dangerousOf(grants, clusterWide),
    ...members.filter((m) => !side.clusterRoles.has(m)).map((m) => [m, builtInDanger(m)] as const).filter(([, why]) => why !== undefined).map(([m, why]) => `built-in ClusterRole ${m} aggregated (${why})`),
  ];
  return reasons.length > 0 ? `it grants ${reasons.join(', ')}` : undefined;
}
