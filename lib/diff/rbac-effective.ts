/**
 * RBAC as the authorizer sees it across objects: what a ClusterRole's
 * aggregation carries into the roles that select it (and what a changed
 * aggregationRule now gathers), and what a binding hands its subjects when
 * the role it binds is in the input or is a known built-in one. The
 * aggregation itself is checks/rbac-aggregation.ts's.
 */
import { KubeObject } from '../checks/finding';
import { dangerousGrant, dangerousRoleRef, formatGrant, Grant, grantsAdded, grantsOf } from '../checks/rbac';
import { builtInDanger, carriers, gathered, isRbacObject, RbacSide, roleLabelsOf, roleNameOf, roleNamespaceOf, selectorsOf } from '../checks/rbac-aggregation';
import { isRecord } from '../k8s/syntax';
import { Impact } from './types';

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
  if (next.kind !== 'ClusterRole' || !isRbacObject(next)) return [];
  const name = roleNameOf(next);
  const impacts: Impact[] = [];
  const [was, now] = [grantsOf(old?.rules), grantsOf(next.rules)];
  const carriedBefore = old === undefined ? [] : carriers(name, roleLabelsOf(old), before);
  const carriedNow = carriers(name, roleLabelsOf(next), after);
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
      : ref.kind === 'Role' ? side.roles.get(`${roleNamespaceOf(binding)}/${name}`) : undefined;
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
