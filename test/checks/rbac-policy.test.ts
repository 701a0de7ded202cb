/**
 * RBAC held like Pod Security: a dangerous grant needs a reason in a waiver,
 * and a binding's roleRef must be able to name a role. The v1.35.6 API
 * server accepts every object here (`kubectl apply --dry-run=server
 * --validate=strict` answers "clusterrolebinding.../... created (server dry
 * run)", a binding to system:masters and a ClusterRole of '*', escalate,
 * bind, impersonate, secrets and nodes/proxy included): these are the
 * checks' policy, not the server's.
 */
import { checkObject, Finding, isBlocking, KubeObject, Severity, WAIVER_PREFIX } from '../../lib/checks';

function clusterRole(rule: KubeObject, kind = 'ClusterRole'): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: 'agent', ...(kind === 'Role' ? { namespace: 'monitoring' } : {}) }, rules: [rule] };
}

function binding(roleName: string, kind = 'ClusterRoleBinding'): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: 'agent', ...(kind === 'RoleBinding' ? { namespace: 'monitoring' } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: 'monitoring' }],
  };
}

const found = (obj: KubeObject) => checkObject(obj).map((f) => `${f.rule.id} ${f.path}`);

describe('RBAC policy: dangerous grants need a reason', () => {
  test.each<[string, KubeObject, string[]]>([
    ['every verb', clusterRole({ apiGroups: [''], resources: ['pods'], verbs: ['*'] }), ['rbac-dangerous rules[0].verbs']],
    ['every resource', clusterRole({ apiGroups: ['apps'], resources: ['*'], verbs: ['get'] }), ['rbac-dangerous rules[0].resources']],
    ['every non-resource URL', clusterRole({ nonResourceURLs: ['*'], verbs: ['get'] }), ['rbac-dangerous rules[0].nonResourceURLs']],
    ['escalate', clusterRole({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate'] }), ['rbac-dangerous rules[0].verbs']],
    ['bind', clusterRole({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'] }), ['rbac-dangerous rules[0].verbs']],
    ['impersonate', clusterRole({ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] }), ['rbac-dangerous rules[0].verbs']],
    ['secrets in a ClusterRole', clusterRole({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }), ['rbac-dangerous rules[0].resources']],
    ['nodes/proxy', clusterRole({ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }), ['rbac-dangerous rules[0].resources']],
    ['nodes/proxy in a Role too', clusterRole({ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }, 'Role'), ['rbac-dangerous rules[0].resources']],
    ['cluster-admin bound', binding('cluster-admin'), ['rbac-dangerous roleRef.name']],
    ['admin bound in a namespace', binding('admin', 'RoleBinding'), ['rbac-dangerous roleRef.name']],
    ['edit bound', binding('edit'), ['rbac-dangerous roleRef.name']],
  ])('%s is an error', (_, obj, expected) => {
    // WHEN
    const findings = checkObject(obj);

    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.path}`)).toEqual(expected);
    expect(findings.every(isBlocking)).toBe(true);
  });

  test.each<[string, KubeObject]>([
    ['reading pods and nodes', clusterRole({ apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] })],
    ['secrets in one namespace (a Role)', clusterRole({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, 'Role')],
    ['named secrets in a ClusterRole', clusterRole({ apiGroups: [''], resources: ['secrets'], resourceNames: ['registry'], verbs: ['get'] })],
    ['secrets of another API group', clusterRole({ apiGroups: ['example.com'], resources: ['secrets'], verbs: ['get'] })],
    ['/metrics', clusterRole({ nonResourceURLs: ['/metrics'], verbs: ['get'] })],
    ['view bound', binding('view')],
    ['a role named like a user and a ClusterRole both', binding('system:kube-scheduler')],
    ['system:node, a ClusterRole', binding('system:node')],
  ])('%s is fine', (_, obj) => {
    expect(found(obj)).toEqual([]);
  });

  test('a waiver with a reason admits a dangerous grant, and the finding says why', () => {
    // GIVEN
    const role = binding('cluster-admin');
    role.metadata.annotations = { [`${WAIVER_PREFIX}rbac-dangerous`]: 'the operator installs CRDs and their RBAC' };

    // WHEN
    const findings: Finding[] = checkObject(role);

    // THEN
    expect(findings).toMatchObject([{ rule: { id: 'rbac-dangerous' }, severity: Severity.ERROR, waived: 'the operator installs CRDs and their RBAC' }]);
    expect(findings.filter(isBlocking)).toEqual([]);
  });
});

describe('RBAC policy: a roleRef names a role', () => {
  test.each(['system:masters', 'system:authenticated', 'system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:serviceaccount:kube-system:default', 'system:node:worker-1', 'system:anonymous'])('%s, a user or group, binds nothing', (name) => {
    // WHEN
    const findings = checkObject(binding(name));

    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.path}`)).toEqual(['rbac-role-ref roleRef.name']);
    expect(findings[0].message).toContain('is the name of a user or group');
    expect(isBlocking(findings[0])).toBe(true);
  });
});
