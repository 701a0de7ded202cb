/**
 * What an agent brings beyond its own ServiceAccount: more ServiceAccounts
 * (calico's `calico-cni-plugin`, whose token the CNI plugin uses), and grants
 * to other subjects (kubeadm's Role for its bootstrap tokens' Group), each
 * with the library's labels, names and checks.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { clusterScoped } from '../cluster-scoped';
import { checkDns1123Label, checkDns1123Subdomain, defined, isRecord, Problem, problem } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';
import { AdoptedRbacNames, OWN_NAME_PREFIX, rbacNameProblem } from './adoption';
import {
  AgentAccountGrants, AgentPolicyRule, AgentRbacNames, AgentSubject, clusterRbacName, copyRule, createRbac, renderSubject, ruleProblems, serviceAccountProblems, subjectProblems,
} from './rbac';

/** A ServiceAccount the agent brings besides the one its pods run as, with what it may do. */
export interface AgentExtraServiceAccount extends AgentAccountGrants {
  /** The ServiceAccount's name, in the agent's namespace (written, never derived). */
  readonly name: string;
  /**
   * Names of the existing RBAC objects its grants replace.
   * @default - node-agent:<namespace>:<agent>.<account> cluster-wide, node-agent:<agent>.<account> in the namespace
   */
  readonly rbacNames?: AdoptedRbacNames;
}

/**
 * A role granted to subjects other than the agent's ServiceAccount: a Role
 * (with `namespace`) or ClusterRole of its own rules, or an existing
 * ClusterRole, and its binding, both named `name`.
 */
export interface AgentGrant {
  /** The name of the role and of its binding (written, never derived). */
  readonly name: string;
  /**
   * The namespace of a Role and RoleBinding.
   * @default - cluster-wide: a ClusterRole and ClusterRoleBinding
   */
  readonly namespace?: string;
  /**
   * The role's rules; or `clusterRole`.
   * @default - none: `clusterRole` is bound
   */
  readonly rules?: AgentPolicyRule[];
  /**
   * An existing ClusterRole to bind (cluster-wide, or in `namespace`); or `rules`.
   * @default - none: a role of `rules`
   */
  readonly clusterRole?: string;
  /** Who is granted it: Users, Groups, ServiceAccounts. */
  readonly subjects: AgentSubject[];
}

const EXTRA_KEYS = ['name', 'rbacNames', 'rules', 'namespacedRules', 'rulesIn', 'clusterRoles', 'dangerousGrantsReason', 'subjects'];
const GRANT_KEYS = ['name', 'namespace', 'rules', 'clusterRole', 'subjects'];

/**
 * @internal
 * The names of an extra account's RBAC: adopted, else derived with the
 * agent's name and the account's after a '.', which no agent name (a DNS-1123
 * label) holds, so they are never another agent's nor its own account's.
 */
export function extraRbacNames(agent: string, namespace: string, account: AgentExtraServiceAccount): AgentRbacNames {
  const names = account.rbacNames ?? {};
  const derived = clusterRbacName(namespace, `${agent}.${account.name}`);
  const clusterRole = names.clusterRole ?? derived;
  const role = names.role ?? `${OWN_NAME_PREFIX}:${agent}.${account.name}`;
  return {
    serviceAccount: account.name,
    clusterRole,
    clusterRoleBinding: names.clusterRoleBinding ?? clusterRole,
    role,
    roleBinding: names.roleBinding ?? role,
    roleIn: derived,
    clusterRoleBindingOf: (existing) => names.clusterRoleBindings?.[existing] ?? `${derived}:${existing}`,
  };
}

/** @internal The problems of `serviceAccounts`. */
export function extraServiceAccountsProblems(accounts: unknown, ownAccount: string | undefined, namespace: string | undefined): Problem[] {
  if (!Array.isArray(accounts) || accounts.length === 0) {
    return [problem('serviceAccounts', 'a non-empty array of AgentExtraServiceAccount { name, rules?, ... }', accounts)];
  }
  const problems: Problem[] = [];
  const names = new Set<unknown>();
  accounts.forEach((a: unknown, i: number) => {
    const at = `serviceAccounts[${i}]`;
    if (!isRecord(a)) {
      problems.push(problem(at, 'an AgentExtraServiceAccount { name, rules?, ... }', a));
      return;
    }
    const { name, rbacNames, ...grants } = a;
    problems.push(...unknownKeys(at, a, { known: EXTRA_KEYS, elsewhere: { automountToken: "is the agent's own ServiceAccount's (serviceAccount.automountToken): this token is no pod's" } }));
    problems.push(...defined(
      checkDns1123Subdomain(`${at}.name`, name),
      name === 'default' ? problem(`${at}.name`, "another name than 'default' (the namespace's own ServiceAccount)", name) : undefined,
      name === ownAccount || names.has(name) ? problem(`${at}.name`, "a ServiceAccount the agent does not create already (its own, or another of 'serviceAccounts')", name) : undefined,
    ));
    names.add(name);
    const unknownGrantKey = Object.keys(grants).filter((k) => !EXTRA_KEYS.includes(k));
    const known = Object.fromEntries(Object.entries(grants).filter(([k]) => !unknownGrantKey.includes(k)));
    problems.push(...serviceAccountProblems(known, undefined, namespace).map((p) => p.replace(/'serviceAccount(?=[.'[])/g, `'${at}`)));
    if (rbacNames !== undefined) {
      problems.push(...(isRecord(rbacNames) ? defined(...['clusterRole', 'clusterRoleBinding', 'role', 'roleBinding'].map((k) => (rbacNames[k] !== undefined ? rbacNameProblem(`${at}.rbacNames.${k}`, rbacNames[k]) : undefined)))
        : [problem(`${at}.rbacNames`, 'an object { clusterRole?, clusterRoleBinding?, role?, roleBinding?, clusterRoleBindings? }', rbacNames)]));
    }
  });
  return problems;
}

/** @internal The problems of `grants`. */
export function grantsProblems(grants: unknown): Problem[] {
  if (!Array.isArray(grants) || grants.length === 0) {
    return [problem('grants', 'a non-empty array of AgentGrant { name, namespace?, rules? | clusterRole?, subjects }', grants)];
  }
  const problems: Problem[] = [];
  grants.forEach((g: unknown, i: number) => {
    const at = `grants[${i}]`;
    if (!isRecord(g)) {
      problems.push(problem(at, 'an AgentGrant { name, namespace?, rules? | clusterRole?, subjects }', g));
      return;
    }
    problems.push(...unknownKeys(`${at}`, g, { known: GRANT_KEYS }));
    problems.push(...defined(
      rbacNameProblem(`${at}.name`, g.name),
      g.namespace !== undefined ? checkDns1123Label(`${at}.namespace`, g.namespace) : undefined,
      (g.rules === undefined) === (g.clusterRole === undefined) ? problem(at, 'a grant of either rules or an existing clusterRole', Object.keys(g)) : undefined,
      g.clusterRole !== undefined ? rbacNameProblem(`${at}.clusterRole`, g.clusterRole) : undefined,
    ));
    if (g.rules !== undefined) {
      if (!Array.isArray(g.rules) || g.rules.length === 0) {
        problems.push(problem(`${at}.rules`, 'a non-empty array of AgentPolicyRule', g.rules));
      } else {
        g.rules.forEach((r, j) => problems.push(...ruleProblems(`${at}.rules[${j}]`, r, g.namespace !== undefined)));
      }
    }
    problems.push(...subjectProblems(`${at}.subjects`, g.subjects, 1));
  });
  return problems;
}

/** @internal Creates the extra ServiceAccounts and their grants under `scope`. */
export function createExtraServiceAccounts(scope: Construct, accounts: readonly AgentExtraServiceAccount[], agent: string, namespace: string, labels: Record<string, string>): kplus.k8s.KubeServiceAccount[] {
  return accounts.map((a) => createRbac(new Construct(scope, `ServiceAccount-${a.name}`), a, extraRbacNames(agent, namespace, a), namespace, labels).serviceAccount);
}

/** @internal Creates each grant's role (unless it binds an existing ClusterRole) and binding under `scope`. */
export function createGrants(scope: Construct, grants: readonly AgentGrant[], labels: Record<string, string>): void {
  grants.forEach((g, i) => {
    const id = `Grant-${i}-${g.name}`;
    const subjects = g.subjects.map(renderSubject);
    const metadata = { name: g.name, labels, ...(g.namespace !== undefined ? { namespace: g.namespace } : {}) };
    const kind = g.namespace !== undefined ? 'Role' : 'ClusterRole';
    if (g.rules !== undefined) {
      const role = g.namespace !== undefined
        ? new kplus.k8s.KubeRole(scope, `${id}-Role`, { metadata, rules: g.rules.map(copyRule) })
        : new kplus.k8s.KubeClusterRole(scope, `${id}-Role`, { metadata, rules: g.rules.map(copyRule) });
      if (g.namespace === undefined) clusterScoped(role);
    }
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: g.rules !== undefined ? kind : 'ClusterRole', name: g.clusterRole ?? g.name };
    const binding = g.namespace !== undefined
      ? new kplus.k8s.KubeRoleBinding(scope, `${id}-Binding`, { metadata, roleRef, subjects })
      : new kplus.k8s.KubeClusterRoleBinding(scope, `${id}-Binding`, { metadata, roleRef, subjects });
    if (g.namespace === undefined) clusterScoped(binding);
  });
}
