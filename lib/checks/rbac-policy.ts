/**
 * RBAC held like Pod Security: a grant that hands an agent (or anyone bound
 * to the role) the keys to the cluster needs a reason, written as a waiver
 * (`checks.node-reporter.dev/waive-rbac-dangerous: <why>`) on the object
 * that grants it; and a binding's roleRef must name something that can be a
 * role. The API server accepts all of these (RBAC never checks that a
 * binding's role exists): they are policy, this library's, like the
 * recommendations.
 *
 * Dangerous, after the Kubernetes RBAC good practices
 * (https://kubernetes.io/docs/concepts/security/rbac-good-practices/):
 * binding cluster-admin, admin or edit; `*` in verbs, resources or
 * nonResourceURLs; the escalate, bind and impersonate verbs; secrets in a
 * ClusterRole (every namespace's); nodes/proxy (the kubelet's API, exec into
 * any pod on the node).
 */
import { FieldProblem, join, KubeObject, show } from './finding';
import { RULES } from './rules';

/** The built-in ClusterRoles that grant (almost) everything: bound, they need a reason. */
export const DANGEROUS_CLUSTER_ROLES: readonly string[] = ['cluster-admin', 'admin', 'edit'];

/**
 * Built-in ClusterRoles beyond {@link DANGEROUS_CLUSTER_ROLES} whose rules
 * are dangerous by the same policy, with what they grant
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy: policy.go ClusterRoles,
 * controller_policy.go buildControllerRoles; the same in v1.28 to v1.36).
 * `diff` warns when a binding hands one to a new subject; `check` does not
 * hold a binding to them (the components they are made for bind them).
 */
export const DANGEROUS_BUILT_IN_ROLES: Readonly<Record<string, string>> = {
  'system:aggregate-to-admin': 'create and bind roles and rolebindings, read and write secrets (what admin aggregates)',
  'system:aggregate-to-edit': 'read and write secrets, exec into pods, impersonate service accounts (what edit aggregates)',
  'system:node': 'get secrets and configmaps of every namespace (outside the node authorizer\'s NodeRestriction)',
  'system:kube-controller-manager': 'read every Secret (get, list, watch secrets) and create service account tokens',
  'system:controller:clusterrole-aggregation-controller': 'escalate on clusterroles: write any rule into a ClusterRole',
  'system:controller:generic-garbage-collector': 'delete and patch every resource (\'*\')',
  'system:controller:namespace-controller': 'delete every resource of a namespace (\'*\')',
  'system:controller:expand-controller': 'get secrets of every namespace',
};

/** Verbs that let a subject raise its own rights (rbac-good-practices: escalate, bind, impersonate). */
export const DANGEROUS_VERBS: readonly string[] = ['escalate', 'bind', 'impersonate'];

/**
 * Names the API server's authenticator gives users and groups
 * (k8s.io/apiserver/pkg/authentication/user: SystemPrivilegedGroup, NodesGroup,
 * MonitoringGroup, AllAuthenticated, AllUnauthenticated, Anonymous,
 * APIServerUser, KubeProxy; serviceaccount: AllServiceAccountsGroup, the
 * `system:serviceaccount(s):` prefixes; bootstrap tokens' `system:bootstrappers`;
 * node users `system:node:<name>`), which no default ClusterRole has: a
 * roleRef naming one binds nothing. (`system:kube-scheduler` and
 * `system:kube-controller-manager` are users and ClusterRoles both.)
 */
export function isUserOrGroupName(name: string): boolean {
  return ['system:masters', 'system:nodes', 'system:monitoring', 'system:authenticated', 'system:unauthenticated',
    'system:anonymous', 'system:apiserver', 'system:kube-proxy', 'system:serviceaccounts', 'system:bootstrappers'].includes(name)
    || /^system:(serviceaccounts?|bootstrappers|node):./.test(name);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** What makes one rule of a (Cluster)Role dangerous, each with its field. */
function dangerousInRule(rule: KubeObject, at: string, clusterWide: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ rule: RULES.rbacDangerous, path: join(at, field), message });
  const verbs = strings(rule.verbs);
  const resources = strings(rule.resources);
  const groups = strings(rule.apiGroups);
  const core = groups.includes('') || groups.includes('*');
  if (verbs.includes('*')) add('verbs', "grants every verb ('*'), escalate, bind and impersonate included");
  const raising = verbs.filter((v) => DANGEROUS_VERBS.includes(v));
  if (raising.length > 0) add('verbs', `grants ${raising.map(show).join(', ')}, which let a subject raise its own rights`);
  if (resources.includes('*')) add('resources', "grants every resource ('*'), secrets and RBAC included");
  const urls = strings(rule.nonResourceURLs).filter((u) => u === '*' || u === '/*');
  if (urls.length > 0) add('nonResourceURLs', `grants every non-resource URL (${urls.map(show).join(', ')})`);
  if (core && (resources.includes('nodes/proxy') || resources.includes('nodes/*'))) {
    add('resources', "grants nodes/proxy: the kubelet's API on every node, exec into any pod there included");
  }
  if (core && clusterWide && resources.includes('secrets') && strings(rule.resourceNames).length === 0) {
    add('resources', 'grants secrets in a ClusterRole: every Secret of every namespace (a Role in one namespace, or resourceNames, grants less)');
  }
  return problems;
}

/**
 * The RBAC policy problems of one object: the dangerous grants of a Role or
 * ClusterRole (rule `rbac-dangerous`), and of a binding, the dangerous role
 * it binds (`rbac-dangerous`) or a roleRef that names a user or group
 * (`rbac-role-ref`).
 */
export function checkRbacPolicy(obj: KubeObject): FieldProblem[] {
  if (obj.kind === 'Role' || obj.kind === 'ClusterRole') {
    const rules: unknown[] = Array.isArray(obj.rules) ? obj.rules : [];
    return rules.flatMap((r, i) => (typeof r === 'object' && r !== null ? dangerousInRule(r as KubeObject, join('rules', i), obj.kind === 'ClusterRole') : []));
  }
  if (obj.kind !== 'RoleBinding' && obj.kind !== 'ClusterRoleBinding') {
    return [];
  }
  const ref: KubeObject = typeof obj.roleRef === 'object' && obj.roleRef !== null ? obj.roleRef : {};
  if (typeof ref.name !== 'string') {
    return [];
  }
  if (isUserOrGroupName(ref.name)) {
    return [{ rule: RULES.rbacRoleRef, path: 'roleRef.name', message: `${show(ref.name)} is the name of a user or group, not of a ${show(ref.kind)}: the binding binds nothing (put a group in subjects, as { kind: Group, name: ${show(ref.name)} })` }];
  }
  if (ref.kind === 'ClusterRole' && DANGEROUS_CLUSTER_ROLES.includes(ref.name)) {
    return [{ rule: RULES.rbacDangerous, path: 'roleRef.name', message: `binds the ClusterRole ${show(ref.name)}, which grants ${ref.name === 'cluster-admin' ? 'everything' : 'read and write of almost every resource, secrets included'}${obj.kind === 'ClusterRoleBinding' ? ' in every namespace' : ''}` }];
  }

  return [];
}
