/**
 * The names of a node agent's objects, and the existing objects it replaces.
 *
 * A name the user did not write is derived, and every derived name carries
 * the prefix `node-agent` (in the agent's own namespace too), so that an agent
 * never takes over an object nobody named: an agent `kube-proxy` in
 * kube-system does not overwrite kubeadm's ServiceAccount, ConfigMap, Role or
 * RoleBinding `kube-proxy`, and uninstalling it does not delete them.
 *
 * Adoption is explicit: `adopt` names the existing objects the agent replaces
 * (its DaemonSet's selector, its ServiceAccount, ConfigMap, RBAC objects and
 * metrics Service), so that `kubectl apply` over an existing install updates
 * them in place instead of creating a second set or being refused (a
 * DaemonSet's selector is immutable: apps/validation ValidateDaemonSetUpdate).
 */
import { checkMeta } from '../checks/api/meta';
import { checkSelector } from '../checks/workload';
import { SELECTOR_LABEL_KEY } from '../defaults';
import { checkDns1123Subdomain, checkLabels, isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks } from '../prop-checks';
import { unknownKeys } from '../prop-keys';

/** The prefix of every name an agent derives: none of Kubernetes', kubeadm's or a chart's objects has it. */
export const OWN_NAME_PREFIX = 'node-agent';

/** The longest Service name (pkg/apis/core/validation: ValidateServiceName, a DNS-1035 label). */
const SERVICE_NAME_MAX = 63;

/**
 * The derived name of an agent's ServiceAccount, ConfigMap and metrics
 * Service in its own namespace: `node-agent-<agent>`. Agent names are unique
 * per namespace (they are the DaemonSets'), so two agents never derive one
 * name, and no object named by upstream tooling (`kube-proxy`, `calico-node`)
 * is ever derived.
 */
export function ownName(agent: string): string {
  return `${OWN_NAME_PREFIX}-${agent}`;
}

/**
 * The derived name of an agent's Role and RoleBinding in its own namespace:
 * `node-agent:<agent>` (an agent name, a DNS-1123 label, holds no ':', so it
 * is never the name of another agent's Role, nor `node-agent:<ns>:<agent>`).
 */
export function ownRoleName(agent: string): string {
  return `${OWN_NAME_PREFIX}:${agent}`;
}

/** Names of the existing RBAC objects the agent's `serviceAccount` replaces. */
export interface AdoptedRbacNames {
  /**
   * The ClusterRole of `serviceAccount.rules`.
   * @default - node-agent:<namespace>:<name>
   */
  readonly clusterRole?: string;
  /**
   * The ClusterRoleBinding of `serviceAccount.rules`.
   * @default - the ClusterRole's name
   */
  readonly clusterRoleBinding?: string;
  /**
   * The Role of `serviceAccount.namespacedRules`.
   * @default - node-agent:<name>
   */
  readonly role?: string;
  /**
   * The RoleBinding of `serviceAccount.namespacedRules`.
   * @default - the Role's name
   */
  readonly roleBinding?: string;
  /**
   * The ClusterRoleBinding of each of `serviceAccount.clusterRoles`, by the ClusterRole's name
   * (e.g. kubeadm's `{ 'system:node-proxier': 'kubeadm:node-proxier' }`).
   * @default - node-agent:<namespace>:<name>:<role>
   */
  readonly clusterRoleBindings?: Record<string, string>;
}

/** Names of the existing Services the agent replaces. */
export interface AdoptedServiceNames {
  /**
   * The metrics Service (`metrics.service`).
   * @default - node-agent-<name>
   */
  readonly metrics?: string;
}

/**
 * The existing objects a node agent replaces, by name: only what is written
 * here is adopted; every other object gets a derived `node-agent` name.
 */
export interface AgentAdoption {
  /**
   * The existing DaemonSet's `spec.selector.matchLabels`, which the API server
   * never lets an update change. Every pod carries these labels, and `labels`
   * may not set their keys, so the selector selects exactly the agent's pods.
   * @default - { app: <name> }
   */
  readonly selector?: Record<string, string>;
  /**
   * The ServiceAccount `serviceAccount` creates.
   * @default - node-agent-<name>
   */
  readonly serviceAccountName?: string;
  /**
   * The ConfigMap `config` creates.
   * @default - node-agent-<name>
   */
  readonly configMapName?: string;
  /**
   * The RBAC objects `serviceAccount` creates.
   * @default - node-agent:<namespace>:<name> cluster-wide, node-agent:<name> in the agent's namespace
   */
  readonly rbacNames?: AdoptedRbacNames;
  /**
   * The Services the agent creates.
   * @default - node-agent-<name>
   */
  readonly serviceNames?: AdoptedServiceNames;
}

const ADOPT_KEYS = ['selector', 'serviceAccountName', 'configMapName', 'rbacNames', 'serviceNames'];
const RBAC_KEYS = ['clusterRole', 'clusterRoleBinding', 'role', 'roleBinding', 'clusterRoleBindings'];

/**
 * A name of `kind` as the API server takes it (ValidateObjectMeta with the
 * kind's name function), asked of the checks' metadata rules; a name that is
 * no non-empty string is a shape problem.
 */
function kindNameProblem(prop: string, kind: string, name: unknown): Problem | undefined {
  if (typeof name !== 'string' || name === '') return problem(prop, `a non-empty string (a ${kind} name)`, name);
  const fragment = { kind, metadata: { name } };
  return askChecks(prop, fragment, [[/^metadata\.name$/, '']], (add) => checkMeta((rule, path, message) => {
    if (path === 'metadata.name') add(rule, path, message);
  }, fragment))[0];
}

/** @internal An RBAC object's name (pkg/apis/rbac/validation: ValidateRBACName, a path segment), asked of the checks. */
export function rbacNameProblem(prop: string, name: unknown): Problem | undefined {
  return kindNameProblem(prop, 'ClusterRole', name);
}

/** @internal A Service's name (pkg/apis/core/validation: ValidateServiceName, a DNS-1035 label), asked of the checks. */
export function serviceNameProblem(prop: string, name: unknown): Problem | undefined {
  return kindNameProblem(prop, 'Service', name)?.replace(' must be valid (', ' must be a Service name (');
}

/** @internal The selector the agent's DaemonSet selects its pods by. */
export function selectorOf(adopt: AgentAdoption | undefined, name: string): Record<string, string> {
  return adopt?.selector !== undefined ? { ...adopt.selector } : { [SELECTOR_LABEL_KEY]: name };
}

/** @internal Every problem of the `adopt` prop. */
export function adoptionProblems(adopt: unknown): Problem[] {
  if (!isRecord(adopt)) {
    return [problem('adopt', `an AgentAdoption { ${ADOPT_KEYS.join('?, ')}? }`, adopt)];
  }
  const problems: Problem[] = unknownKeys('adopt', adopt, { known: ADOPT_KEYS });
  if (adopt.selector !== undefined) {
    const labels = checkLabels('adopt.selector', adopt.selector);
    problems.push(...labels);
    if (labels.length === 0) {
      // An empty selector is the API server's refusal (ValidateDaemonSetSpec), asked of the checks; it would select every pod of the namespace.
      const fragment = { kind: 'DaemonSet', spec: { selector: { matchLabels: adopt.selector } } };
      const pod = { metadataPath: 'spec.template.metadata', metadata: { labels: adopt.selector }, specPath: 'spec.template.spec', spec: {} };
      problems.push(...askChecks('adopt.selector', fragment, [[/^spec\.selector.*/, '']], (add) => checkSelector(fragment, pod).forEach((p) => add(p.rule, p.path, p.message))));
    }
  }
  for (const key of ['serviceAccountName', 'configMapName'] as const) {
    if (adopt[key] !== undefined) {
      const p = checkDns1123Subdomain(`adopt.${key}`, adopt[key]);
      if (p) problems.push(p);
    }
  }
  if (adopt.rbacNames !== undefined) {
    const rbac = adopt.rbacNames;
    if (!isRecord(rbac)) {
      problems.push(problem('adopt.rbacNames', `an object { ${RBAC_KEYS.join('?, ')}? }`, rbac));
    } else {
      problems.push(...unknownKeys('adopt.rbacNames', rbac, { known: RBAC_KEYS }));
      for (const key of ['clusterRole', 'clusterRoleBinding', 'role', 'roleBinding'] as const) {
        const p = rbac[key] !== undefined ? rbacNameProblem(`adopt.rbacNames.${key}`, rbac[key]) : undefined;
        if (p) problems.push(p);
      }
      if (rbac.clusterRoleBindings !== undefined) {
        if (!isRecord(rbac.clusterRoleBindings)) {
          problems.push(problem('adopt.rbacNames.clusterRoleBindings', 'an object of ClusterRole names (of serviceAccount.clusterRoles) to binding names', rbac.clusterRoleBindings));
        } else {
          for (const [role, binding] of Object.entries(rbac.clusterRoleBindings)) {
            const p = rbacNameProblem(`adopt.rbacNames.clusterRoleBindings.${role}`, binding);
            if (p) problems.push(p);
          }
        }
      }
    }
  }
  if (adopt.serviceNames !== undefined) {
    const services = adopt.serviceNames;
    if (!isRecord(services)) {
      problems.push(problem('adopt.serviceNames', 'an object { metrics? }', services));
    } else {
      problems.push(...Object.keys(services).filter((k) => k !== 'metrics').map((k) => problem('adopt.serviceNames[key]', 'metrics (the other Services of `services` are named there)', k)));
      const p = services.metrics !== undefined ? serviceNameProblem('adopt.serviceNames.metrics', services.metrics) : undefined;
      if (p) problems.push(p);
    }
  }
  return problems;
}

/**
 * @internal
 * The problems of adoption that need the other props: names of objects the
 * agent does not create, and derived names too long for their kind.
 */
export function adoptionCrossProblems(adopt: AgentAdoption | undefined, name: unknown, has: { serviceAccount: boolean; config: boolean; metricsService: boolean; clusterRoles: readonly unknown[]; rules: boolean; namespacedRules: boolean }): Problem[] {
  const problems: Problem[] = [];
  const unused = (prop: string, what: string, value: unknown) => problems.push(problem(prop, `unset: the agent creates no ${what} to give that name`, value));
  if (adopt !== undefined && isRecord(adopt)) {
    if (adopt.serviceAccountName !== undefined && !has.serviceAccount) unused('adopt.serviceAccountName', "ServiceAccount (set 'serviceAccount', or run as an existing one with 'serviceAccountName')", adopt.serviceAccountName);
    if (adopt.configMapName !== undefined && !has.config) unused('adopt.configMapName', "ConfigMap (set 'config')", adopt.configMapName);
    if (isRecord(adopt.serviceNames) && adopt.serviceNames.metrics !== undefined && !has.metricsService) unused('adopt.serviceNames.metrics', "metrics Service (set 'metrics')", adopt.serviceNames.metrics);
    const rbac = isRecord(adopt.rbacNames) ? adopt.rbacNames : {};
    for (const [key, present, what] of [['clusterRole', has.rules, 'ClusterRole'], ['clusterRoleBinding', has.rules, 'ClusterRoleBinding'], ['role', has.namespacedRules, 'Role'], ['roleBinding', has.namespacedRules, 'RoleBinding']] as const) {
      if (rbac[key] !== undefined && !present) unused(`adopt.rbacNames.${key}`, `${what} (it is the one of serviceAccount.${key.startsWith('cluster') ? 'rules' : 'namespacedRules'})`, rbac[key]);
    }
    for (const role of isRecord(rbac.clusterRoleBindings) ? Object.keys(rbac.clusterRoleBindings) : []) {
      if (!has.clusterRoles.includes(role)) {
        problems.push(problem('adopt.rbacNames.clusterRoleBindings[key]', `a ClusterRole of serviceAccount.clusterRoles (${has.clusterRoles.map(String).join(', ') || 'none'})`, role));
      }
    }
  }
  const metricsName = isRecord(adopt) && isRecord(adopt.serviceNames) ? adopt.serviceNames.metrics : undefined;
  if (has.metricsService && metricsName === undefined && typeof name === 'string' && name.length + OWN_NAME_PREFIX.length + 1 > SERVICE_NAME_MAX) {
    problems.push(problem('name', `at most ${SERVICE_NAME_MAX - OWN_NAME_PREFIX.length - 1} characters when the agent has a metrics Service (named ${ownName('<name>')}, a DNS-1035 label of at most ${SERVICE_NAME_MAX}), or name the Service with adopt.serviceNames.metrics`, name));
  }
  return problems;
}
