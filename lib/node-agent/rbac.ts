/**
 * A node agent's identity towards the API server: its ServiceAccount, the
 * rules it is granted (cluster-wide and in its namespace), and bindings to
 * ClusterRoles that exist already. Names of cluster-scoped objects are derived
 * so that they can never collide across namespaces nor with built-in roles.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkRbac } from '../checks/api/rbac';
import { clusterScoped } from '../cluster-scoped';
import { checkDns1123Label, defined, isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks } from '../prop-checks';
import { unknownKeys } from '../prop-keys';
import { AgentAdoption, ownName, ownRoleName, rbacNameProblem } from './adoption';
import { rbacReasonProblems } from './rbac-reasons';

/**
 * A rule of a (Cluster)Role, as the API has it: resources of API groups
 * (optionally only some by name), or, cluster-wide only, non-resource URLs.
 */
export interface AgentPolicyRule {
  /**
   * API groups, '' for the core group.
   * @default - none: a rule on non-resource URLs
   */
  readonly apiGroups?: string[];
  /**
   * Resources, e.g. `pods` or `pods/eviction`.
   * @default - none: a rule on non-resource URLs
   */
  readonly resources?: string[];
  /** Verbs, e.g. `get`, `list`, `watch`. */
  readonly verbs: string[];
  /**
   * Only these objects (by name) of the resources, e.g. the agent's own DaemonSet.
   * @default - every object of the resources
   */
  readonly resourceNames?: string[];
  /**
   * URLs that are not resources, e.g. `/metrics`; cluster-wide rules only, and not with resources.
   * @default - none
   */
  readonly nonResourceURLs?: string[];
}

/**
 * Who a binding grants a role to, beyond the agent's ServiceAccount
 * (pkg/apis/rbac/validation: ValidateRoleBindingSubject).
 */
export interface AgentSubject {
  /** `User`, `Group` or `ServiceAccount`. */
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  /** The user's, group's or ServiceAccount's name, e.g. `system:bootstrappers:kubeadm:default-node-token`. */
  readonly name: string;
  /**
   * The ServiceAccount's namespace; only for a ServiceAccount.
   * @default - none
   */
  readonly namespace?: string;
}

/**
 * @internal
 * The problems of a list of subjects. Their shapes, and a ServiceAccount's
 * namespace as a namespace name, are the construct's; what the API server
 * refuses (ValidateRoleBindingSubject: the kind, a name, a ServiceAccount's
 * name a DNS-1123 subdomain and its namespace set in a ClusterRoleBinding) is
 * asked of the checks on each subject as a binding renders it.
 */
export function subjectProblems(prop: string, subjects: unknown, min: number): Problem[] {
  if (!Array.isArray(subjects) || subjects.length < min) {
    return [problem(prop, `an array of ${min > 0 ? 'at least one ' : ''}AgentSubject { kind, name, namespace? }`, subjects)];
  }
  return subjects.flatMap((x: unknown, i: number) => {
    if (!isRecord(x)) return [problem(`${prop}[${i}]`, 'an AgentSubject { kind, name, namespace? }', x)];
    const at = `${prop}[${i}]`;
    const shapes = defined(
      ...Object.keys(x).filter((k) => !['kind', 'name', 'namespace'].includes(k)).map((k) => problem(`${at}[key]`, 'one of kind, name, namespace', k)),
      x.name === undefined || typeof x.name === 'string' ? undefined : problem(`${at}.name`, 'a string', x.name),
      x.kind === 'ServiceAccount' && x.namespace !== undefined ? checkDns1123Label(`${at}.namespace`, x.namespace) : undefined,
      x.kind !== 'ServiceAccount' && x.namespace !== undefined ? problem(`${at}.namespace`, 'unset for a User or Group', x.namespace) : undefined,
    );
    const fragment = { kind: 'ClusterRoleBinding', roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: x.kind, name: x.name, namespace: x.namespace }] };
    return [...shapes, ...askChecks(at, fragment, [[/^subjects\[0\]\.?/, '']], (add) => checkRbac((rule, path, message) => {
      if (path.startsWith('subjects[0]')) add(rule, path, message);
    }, fragment)).map((p) => p.replace(/\.namespace' must be set$/, ".namespace' must be set (a ServiceAccount's namespace, a DNS-1123 label)"))];
  });
}

/** The ServiceAccount a node agent creates for its pods (`node-agent-<name>`, or `adopt.serviceAccountName`), and what it may do. */
export interface AgentServiceAccount extends AgentAccountGrants {
  /**
   * Whether the pods mount the ServiceAccount's API token.
   * @default true
   */
  readonly automountToken?: boolean;
}

/**
 * What a ServiceAccount of the agent may do: what {@link AgentServiceAccount}
 * and `AgentExtraServiceAccount` share (a named base instead of `Omit<>`,
 * which jsii cannot carry to other languages).
 */
export interface AgentAccountGrants {
  /**
   * Cluster-wide rules: a ClusterRole and ClusterRoleBinding `node-agent:<namespace>:<name>` (or `adopt.rbacNames`) bound to the ServiceAccount.
   * @default - none
   */
  readonly rules?: AgentPolicyRule[];

  /**
   * Rules in the agent's own namespace: a Role and RoleBinding `node-agent:<name>` (or `adopt.rbacNames`) there.
   * @default - none
   */
  readonly namespacedRules?: AgentPolicyRule[];

  /**
   * Rules in other namespaces, by namespace: in each, a Role and RoleBinding
   * `node-agent:<namespace>:<name>` (named like the cluster-wide ones, so that
   * they cannot take over a Role of that namespace's own).
   * @default - none
   */
  readonly rulesIn?: Record<string, AgentPolicyRule[]>;

  /**
   * ClusterRoles that exist already (e.g. `system:node-problem-detector`),
   * each bound cluster-wide to the ServiceAccount as `node-agent:<namespace>:<name>:<role>`
   * (or `adopt.rbacNames.clusterRoleBindings[role]`).
   * @default - none
   */
  readonly clusterRoles?: string[];

  /**
   * Why the agent needs grants the checks call dangerous (rule `rbac-dangerous`:
   * cluster-admin, admin or edit; `*` in verbs, resources or nonResourceURLs;
   * escalate, bind, impersonate; secrets in `rules`; nodes/proxy), one line:
   * written as the waiver of each object that grants one, as `podSecurity.reason` is.
   * @default - none: a dangerous grant is refused
   */
  readonly dangerousGrantsReason?: string;

  /**
   * More subjects of every binding of these grants, beside the ServiceAccount:
   * Users, Groups, ServiceAccounts of other namespaces.
   * @default - the ServiceAccount alone
   */
  readonly subjects?: AgentSubject[];
}

/** The prefix of the agents' cluster-scoped RBAC names; no built-in role has it. */
export const RBAC_NAME_PREFIX = 'node-agent';

/**
 * The name of an agent's ClusterRole and ClusterRoleBinding:
 * `node-agent:<namespace>:<agent>`. Namespaces and agent names are DNS-1123
 * labels, which never hold ':', so two agents never share it (namespace `a-b`
 * with agent `c` and namespace `a` with agent `b-c` differ), and the prefix
 * keeps it clear of `cluster-admin`, `admin`, `edit`, `view` and `system:*`.
 */
export function clusterRbacName(namespace: string, agent: string, role?: string): string {
  return [RBAC_NAME_PREFIX, namespace, agent, ...(role !== undefined ? [role] : [])].join(':');
}

const RULE_KEYS = ['apiGroups', 'resources', 'verbs', 'resourceNames', 'nonResourceURLs'];
const ACCOUNT_KEYS = ['rules', 'namespacedRules', 'rulesIn', 'clusterRoles', 'automountToken', 'dangerousGrantsReason', 'subjects'];

function strings(prop: string, value: unknown, min: number): Problem | undefined {
  return Array.isArray(value) && value.length >= min && value.every((v) => typeof v === 'string' && v !== '')
    ? undefined : problem(prop, `an array of ${min > 0 ? 'at least one ' : ''}non-empty strings`, value);
}

/**
 * @internal
 * The problems of one rule, unknown keys included. Its shape (arrays of
 * strings) is the construct's; what the API server refuses of it
 * (ValidatePolicyRule: at least one verb, one resource and one API group, or
 * nonResourceURLs alone and only cluster-wide) is asked of the checks on the
 * Role or ClusterRole rule it renders.
 */
export function ruleProblems(prop: string, rule: unknown, namespaced: boolean): Problem[] {
  if (!isRecord(rule)) {
    return [problem(prop, 'an AgentPolicyRule { apiGroups, resources, verbs, resourceNames?, nonResourceURLs? }', rule)];
  }
  const problems = unknownKeys(`${prop}`, rule, { known: RULE_KEYS });
  const shapes = defined(
    strings(`${prop}.verbs`, rule.verbs, 0),
    // The core group is '', so apiGroups may hold empty strings.
    rule.apiGroups === undefined || (Array.isArray(rule.apiGroups) && rule.apiGroups.every((g) => typeof g === 'string'))
      ? undefined : problem(`${prop}.apiGroups`, "an array of API groups ('' for the core group)", rule.apiGroups),
    ...(['resources', 'resourceNames', 'nonResourceURLs'] as const).map((k) => (rule[k] !== undefined ? strings(`${prop}.${k}`, rule[k], 0) : undefined)),
    // The server ignores resourceNames beside nonResourceURLs; a rule that gives both means something it does not do.
    rule.nonResourceURLs !== undefined && rule.resourceNames !== undefined ? problem(`${prop}.resourceNames`, 'unset in a rule on nonResourceURLs (resource names name resources)', rule.resourceNames) : undefined,
  );
  problems.push(...shapes);
  if (shapes.length === 0) {
    const fragment = { kind: namespaced ? 'Role' : 'ClusterRole', rules: [{ apiGroups: rule.apiGroups, resources: rule.resources, verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs }] };
    problems.push(...askChecks(prop, fragment, [[/^rules\[0\]\.?/, '']], (add) => checkRbac(add, fragment)));
  }
  return problems;
}

/** @internal Every problem of the `serviceAccount` prop; the names it derives need the chart's namespace. */
export function serviceAccountProblems(account: unknown, adoptedAccount: unknown, namespace: string | undefined): Problem[] {
  if (!isRecord(account)) {
    return [problem('serviceAccount', 'an AgentServiceAccount { rules?, namespacedRules?, clusterRoles?, automountToken? }', account)];
  }
  const problems = unknownKeys('serviceAccount', account, { known: ACCOUNT_KEYS });
  for (const [key, namespaced] of [['rules', false], ['namespacedRules', true]] as const) {
    const rules = account[key];
    if (rules === undefined) continue;
    if (!Array.isArray(rules) || rules.length === 0) {
      problems.push(problem(`serviceAccount.${key}`, 'a non-empty array of AgentPolicyRule', rules));
    } else {
      rules.forEach((r, i) => problems.push(...ruleProblems(`serviceAccount.${key}[${i}]`, r, namespaced)));
    }
  }
  if (account.rulesIn !== undefined) {
    if (!isRecord(account.rulesIn) || Object.keys(account.rulesIn).length === 0) {
      problems.push(problem('serviceAccount.rulesIn', 'an object of namespace names to non-empty arrays of AgentPolicyRule', account.rulesIn));
    } else {
      for (const [ns, rules] of Object.entries(account.rulesIn)) {
        problems.push(...defined(
          checkDns1123Label('serviceAccount.rulesIn[key]', ns),
          ns === namespace ? problem('serviceAccount.rulesIn[key]', "another namespace than the agent's (use namespacedRules there)", ns) : undefined,
        ));
        if (!Array.isArray(rules) || rules.length === 0) {
          problems.push(problem(`serviceAccount.rulesIn.${ns}`, 'a non-empty array of AgentPolicyRule', rules));
        } else {
          rules.forEach((r, i) => problems.push(...ruleProblems(`serviceAccount.rulesIn.${ns}[${i}]`, r, true)));
        }
      }
    }
  }
  if (account.clusterRoles !== undefined) {
    const roles = account.clusterRoles;
    if (!Array.isArray(roles) || roles.length === 0) {
      problems.push(problem('serviceAccount.clusterRoles', 'a non-empty array of ClusterRole names', roles));
    } else {
      roles.forEach((r, i) => {
        const bad = rbacNameProblem(`serviceAccount.clusterRoles[${i}]`, r);
        if (bad) {
          problems.push(bad);
        } else if (roles.indexOf(r) !== i) {
          problems.push(problem(`serviceAccount.clusterRoles[${i}]`, 'a ClusterRole not listed before', r));
        }
      });
    }
  }
  if (account.subjects !== undefined) {
    problems.push(...subjectProblems('serviceAccount.subjects', account.subjects, 1));
  }
  if (account.automountToken !== undefined && typeof account.automountToken !== 'boolean') {
    problems.push(problem('serviceAccount.automountToken', 'a boolean', account.automountToken));
  }
  problems.push(...rbacReasonProblems(account));
  if (adoptedAccount === 'default') {
    problems.push(problem('adopt.serviceAccountName', "another name than 'default': the agent's ServiceAccount would be the namespace's default one, which every pod in the namespace runs as", adoptedAccount));
  }
  if (namespace === undefined) {
    problems.push("'serviceAccount' needs the chart's namespace (the bindings name the ServiceAccount's namespace) but the chart has none");
  } else {
    problems.push(...defined(checkDns1123Label('chart namespace', namespace)));
  }
  return problems;
}

/** @internal The names of the agent's ServiceAccount and RBAC objects: derived with the `node-agent` prefix, or adopted. */
export interface AgentRbacNames {
  /** The ServiceAccount. */
  readonly serviceAccount: string;
  /** The ClusterRole of `rules`. */
  readonly clusterRole: string;
  /** Its ClusterRoleBinding. */
  readonly clusterRoleBinding: string;
  /** The Role of `namespacedRules`. */
  readonly role: string;
  /** Its RoleBinding. */
  readonly roleBinding: string;
  /** The Roles and RoleBindings of `rulesIn`, in their namespaces. */
  readonly roleIn: string;
  /** The ClusterRoleBinding of an existing ClusterRole. */
  readonly clusterRoleBindingOf: (role: string) => string;
}

/** @internal The names an agent's RBAC gets: what `adopt` says, else derived. */
export function rbacNames(agent: string, namespace: string, adopt: AgentAdoption | undefined): AgentRbacNames {
  const names = adopt?.rbacNames ?? {};
  const clusterRole = names.clusterRole ?? clusterRbacName(namespace, agent);
  const role = names.role ?? ownRoleName(agent);
  return {
    serviceAccount: adopt?.serviceAccountName ?? ownName(agent),
    clusterRole,
    clusterRoleBinding: names.clusterRoleBinding ?? clusterRole,
    role,
    roleBinding: names.roleBinding ?? role,
    roleIn: clusterRbacName(namespace, agent),
    clusterRoleBindingOf: (existing) => names.clusterRoleBindings?.[existing] ?? clusterRbacName(namespace, agent, existing),
  };
}

/** @internal What the agent's RBAC created. */
export interface AgentRbac {
  /** The ServiceAccount. */
  readonly serviceAccount: kplus.k8s.KubeServiceAccount;
  /** The ClusterRole of `rules`, when there are some. */
  readonly clusterRole?: kplus.k8s.KubeClusterRole;
  /** The Role of `namespacedRules`, when there are some. */
  readonly role?: kplus.k8s.KubeRole;
}

/** @internal A subject as the API has it. */
export function renderSubject(s: AgentSubject): kplus.k8s.Subject {
  return s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { kind: s.kind, name: s.name, apiGroup: 'rbac.authorization.k8s.io' };
}

/** @internal A rule as the API has it. */
export function copyRule(r: AgentPolicyRule): kplus.k8s.PolicyRule {
  return {
    apiGroups: r.apiGroups ? [...r.apiGroups] : undefined,
    resources: r.resources ? [...r.resources] : undefined,
    verbs: [...r.verbs],
    resourceNames: r.resourceNames ? [...r.resourceNames] : undefined,
    nonResourceUrLs: r.nonResourceURLs ? [...r.nonResourceURLs] : undefined,
  };
}

/**
 * @internal
 * Creates the ServiceAccount, and for each kind of grant its role and
 * binding, under `scope`, with the names `names` gives.
 */
export function createRbac(scope: Construct, account: AgentServiceAccount, names: AgentRbacNames, namespace: string, labels: Record<string, string>): AgentRbac {
  const name = names.serviceAccount;
  const serviceAccount = new kplus.k8s.KubeServiceAccount(scope, 'ServiceAccount', { metadata: { name, labels } });
  const subjects = [{ kind: 'ServiceAccount', name, namespace }, ...(account.subjects ?? []).map(renderSubject)];
  const roleRef = (kind: string, roleName: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName });
  let clusterRole: kplus.k8s.KubeClusterRole | undefined;
  if (account.rules) {
    clusterRole = new kplus.k8s.KubeClusterRole(scope, 'ClusterRole', { metadata: { name: names.clusterRole, labels }, rules: account.rules.map(copyRule) });
    const binding = new kplus.k8s.KubeClusterRoleBinding(scope, 'ClusterRoleBinding', { metadata: { name: names.clusterRoleBinding, labels }, roleRef: roleRef('ClusterRole', names.clusterRole), subjects });
    clusterScoped(clusterRole);
    clusterScoped(binding);
  }
  let role: kplus.k8s.KubeRole | undefined;
  if (account.namespacedRules) {
    role = new kplus.k8s.KubeRole(scope, 'Role', { metadata: { name: names.role, labels }, rules: account.namespacedRules.map(copyRule) });
    new kplus.k8s.KubeRoleBinding(scope, 'RoleBinding', { metadata: { name: names.roleBinding, labels }, roleRef: roleRef('Role', names.role), subjects });
  }
  for (const [other, rules] of Object.entries(account.rulesIn ?? {})) {
    const roleName = names.roleIn;
    new kplus.k8s.KubeRole(scope, `Role-${other}`, { metadata: { name: roleName, namespace: other, labels }, rules: rules.map(copyRule) });
    new kplus.k8s.KubeRoleBinding(scope, `RoleBinding-${other}`, { metadata: { name: roleName, namespace: other, labels }, roleRef: roleRef('Role', roleName), subjects });
  }
  for (const existing of account.clusterRoles ?? []) {
    const binding = new kplus.k8s.KubeClusterRoleBinding(scope, `ClusterRoleBinding-${existing}`, {
      metadata: { name: names.clusterRoleBindingOf(existing), labels },
      roleRef: roleRef('ClusterRole', existing),
      subjects,
    });
    clusterScoped(binding);
  }
  return { serviceAccount, clusterRole, role };
}
