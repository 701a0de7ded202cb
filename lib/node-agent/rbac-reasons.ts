/**
 * Dangerous RBAC needs a reason, as a Pod Security exception does: the
 * checks' RBAC policy (../checks/rbac-policy) says which grants are
 * dangerous; here the agent's props are asked of it, and the reason is
 * written as the waiver of each object that grants one. Nothing here
 * restates which grant is dangerous.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { KubeObject } from '../checks/finding';
import { checkRbacPolicy } from '../checks/rbac-policy';
import { RULES, WAIVER_PREFIX } from '../checks/rules';
import { checkSingleLine, defined, isRecord, Problem, problem } from '../k8s/syntax';

const RBAC_KINDS = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'];

/** The objects `serviceAccount` renders, as the checks see them, with the prop each comes from. */
function grantsOf(account: Record<string, unknown>): Array<{ prop: string; object: KubeObject }> {
  const grants: Array<{ prop: string; object: KubeObject }> = [];
  if (Array.isArray(account.rules)) grants.push({ prop: 'serviceAccount', object: { kind: 'ClusterRole', rules: account.rules } });
  if (Array.isArray(account.namespacedRules)) grants.push({ prop: 'serviceAccount', object: { kind: 'Role', rules: account.namespacedRules } });
  for (const [ns, rules] of Object.entries(isRecord(account.rulesIn) ? account.rulesIn : {})) {
    if (Array.isArray(rules)) grants.push({ prop: `serviceAccount.rulesIn.${ns}`, object: { kind: 'Role', rules } });
  }
  (Array.isArray(account.clusterRoles) ? account.clusterRoles : []).forEach((name, i) => {
    grants.push({ prop: `serviceAccount.clusterRoles[${i}]`, object: { kind: 'ClusterRoleBinding', roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name } } });
  });
  return grants;
}

/** The prop a finding's path names: `rules[0].verbs` of the namespaced Role is `serviceAccount.namespacedRules[0].verbs`. */
function propOf(prop: string, object: KubeObject, path: string): string {
  if (path === 'roleRef.name') return prop;
  const key = prop !== 'serviceAccount' ? prop : object.kind === 'ClusterRole' ? 'serviceAccount.rules' : 'serviceAccount.namespacedRules';
  return `${key}${path.slice('rules'.length)}`;
}

/**
 * @internal
 * The problems of the agent's grants by the checks' RBAC policy: a role
 * ref that names a user or group is refused; a dangerous grant needs
 * `serviceAccount.dangerousGrantsReason`, which is refused when nothing is dangerous.
 */
export function rbacReasonProblems(account: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const dangerous: string[] = [];
  for (const { prop, object } of grantsOf(account)) {
    for (const p of checkRbacPolicy(object)) {
      if (p.rule === RULES.rbacDangerous) {
        dangerous.push(`'${propOf(prop, object, p.path)}' ${p.message}`);
      } else {
        problems.push(problem(propOf(prop, object, p.path), `a ClusterRole name (${p.message}) [${p.rule.id}]`, object.roleRef.name));
      }
    }
  }
  const reason = account.dangerousGrantsReason;
  if (reason === undefined) {
    if (dangerous.length > 0) {
      problems.push(`'serviceAccount.dangerousGrantsReason' must say why the agent needs these grants [${RULES.rbacDangerous.id}], or grant less: ${dangerous.join('; ')}`);
    }
  } else if (dangerous.length === 0) {
    problems.push(problem('serviceAccount.dangerousGrantsReason', `unset: no grant of the agent is dangerous [${RULES.rbacDangerous.id}]`, reason));
  } else {
    problems.push(...defined(checkSingleLine('serviceAccount.dangerousGrantsReason', reason, 512)));
  }
  return problems;
}

/**
 * @internal
 * Writes `reason` as the `rbac-dangerous` waiver of each RBAC object among
 * `scope`'s own that the checks find dangerous.
 */
export function waiveDangerousGrants(scope: IConstruct, reason: string | undefined): void {
  if (reason === undefined) return;
  for (const obj of scope.node.findAll().filter(ApiObject.isApiObject)) {
    if (RBAC_KINDS.includes(obj.kind) && checkRbacPolicy(obj.toJson()).some((p) => p.rule === RULES.rbacDangerous)) {
      obj.metadata.addAnnotation(WAIVER_PREFIX + RULES.rbacDangerous.id, reason);
    }
  }
}
