/**
 * The agent's identity: a ServiceAccount with cluster-wide rules, rules in
 * its namespace, bindings to existing ClusterRoles, and names of
 * cluster-scoped objects that can never take over another's.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentServiceAccount, NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { clusterRbacName } from '../../lib/node-agent/rbac';
import { Manifest, only, synth } from '../util';

function objectsOf(serviceAccount: AgentServiceAccount, props: Partial<NodeAgentProps> = {}, namespace = 'kube-system'): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', { namespace });
  new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'kured', containers: [{ name: 'kured', image: 'example.com/kured:1' }], serviceAccount, ...props } as NodeAgentProps);
  const objects = synth(chart);
  expect(objects.flatMap((o) => checkObject(o)).filter(isBlocking)).toEqual([]);
  return objects;
}

describe('rules, Roles and bindings', () => {
  test('cluster rules, namespaced rules with resourceNames, and an existing ClusterRole, each with its binding to the ServiceAccount', () => {
    // GIVEN kured's RBAC
    const objects = objectsOf({
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
        { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
      ],
      namespacedRules: [{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] }],
      clusterRoles: ['system:node-problem-detector'],
    });

    // THEN
    const subject = [{ kind: 'ServiceAccount', name: 'node-agent-kured', namespace: 'kube-system' }];
    expect(only(objects, 'ClusterRole').metadata.name).toBe('node-agent:kube-system:kured');
    // Prefixed in its own namespace too: kubeadm's Role "kured" or a chart's is never taken over.
    expect(only(objects, 'Role').metadata).toMatchObject({ name: 'node-agent:kured', namespace: 'kube-system' });
    expect(only(objects, 'RoleBinding')).toMatchObject({ metadata: { name: 'node-agent:kured' }, roleRef: { kind: 'Role', name: 'node-agent:kured' }, subjects: subject });
    const bindings = objects.filter((o) => o.kind === 'ClusterRoleBinding');
    expect(bindings.map((b) => [b.metadata.name, b.roleRef.name])).toEqual([
      ['node-agent:kube-system:kured', 'node-agent:kube-system:kured'],
      ['node-agent:kube-system:kured:system:node-problem-detector', 'system:node-problem-detector'],
    ]);
    expect(bindings.every((b) => JSON.stringify(b.subjects) === JSON.stringify(subject) && b.metadata.namespace === undefined)).toBe(true);
  });

  test('rules in another namespace: a Role and RoleBinding there, named so that they cannot take over one of its own', () => {
    const objects = objectsOf({ rulesIn: { 'cilium-secrets': [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }] } });
    const role = only(objects, 'Role');
    expect(role.metadata).toMatchObject({ name: 'node-agent:kube-system:kured', namespace: 'cilium-secrets' });
    expect(only(objects, 'RoleBinding')).toMatchObject({ metadata: { namespace: 'cilium-secrets' }, roleRef: { kind: 'Role', name: 'node-agent:kube-system:kured' }, subjects: [{ kind: 'ServiceAccount', name: 'node-agent-kured', namespace: 'kube-system' }] });
    expect(() => objectsOf({ rulesIn: { 'kube-system': [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] } }))
      .toThrow(/'serviceAccount\.rulesIn' key must be another namespace than the agent's \(use namespacedRules there\) but got "kube-system"/);
  });

  test('a ServiceAccount without rules, with or without its token; an existing ServiceAccount by name', () => {
    const tokenless = only(objectsOf({ automountToken: false }), 'DaemonSet').spec.template.spec;
    expect(tokenless).toMatchObject({ serviceAccountName: 'node-agent-kured', automountServiceAccountToken: false });
    const objects = objectsOf({});
    expect(objects.filter((o) => /Role/.test(o.kind))).toEqual([]);
    expect(only(objects, 'DaemonSet').spec.template.spec.automountServiceAccountToken).toBe(true);

    const chart = new Chart(Testing.app(), 'test', { namespace: 'x' });
    new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'a', containers: [{ name: 'a', image: 'example.com/a:1' }], serviceAccountName: 'shared-agent' });
    expect(only(synth(chart), 'DaemonSet').spec.template.spec).toMatchObject({ serviceAccountName: 'shared-agent', automountServiceAccountToken: true });
    expect(synth(chart).filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
  });

  test('refuses rules the API server would refuse, naming the prop', () => {
    const build = (account: unknown) => () => objectsOf(account as AgentServiceAccount);
    expect(build({ namespacedRules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] })).toThrow(/'serviceAccount\.namespacedRules\[0\]\.nonResourceURLs' must be valid \(namespaced rules cannot apply to non-resource URLs\) but got \["\/metrics"\]/);
    expect(build({ rules: [{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'], verbs: ['get'] }] })).toThrow(/'serviceAccount\.rules\[0\]\.nonResourceURLs' must be valid \(rules cannot apply to both regular resources and non-resource URLs\) but got \["\/x"\]/);
    expect(build({ rules: [{ apiGroups: [], resources: ['pods'], verbs: ['get'] }] })).toThrow(/'serviceAccount\.rules\[0\]\.apiGroups' must be set \(resource rules must supply at least one api group\)/);
    expect(build({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] })).toThrow(/'serviceAccount\.rules\[0\]\.verbs' must be set \(verbs must contain at least one value\)/);
    expect(build({ clusterRoles: ['a/b'] })).toThrow(/'serviceAccount\.clusterRoles\[0\]' may not contain '\/' \(pkg\/apis\/rbac\/validation: ValidateRBACName: a path segment name \(anything but '\.', '\.\.', '\/' and '%'\)\) but got "a\/b"/);
    expect(build({ role: [] })).toThrow(/'serviceAccount' key must be one of rules, namespacedRules, rulesIn, clusterRoles, automountToken, dangerousGrantsReason, subjects but got "role"/);
  });
});

describe('names that cannot take over another object', () => {
  test('namespace "cluster" with agent "admin" is never cluster-admin; a-b/c and a/b-c never share a name', () => {
    expect(clusterRbacName('cluster', 'admin')).toBe('node-agent:cluster:admin');
    expect(clusterRbacName('a-b', 'c')).not.toBe(clusterRbacName('a', 'b-c'));
    for (const builtin of ['cluster-admin', 'admin', 'edit', 'view']) {
      expect(clusterRbacName('x', 'y')).not.toBe(builtin);
    }
    expect(clusterRbacName('system', 'node').startsWith('system:')).toBe(false);
  });

  test('an agent named "default" gets a ServiceAccount of its own; adopting the namespace\'s default ServiceAccount is refused', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'x' });
    const props = { policy: new NodePolicy(chart, 'P'), name: 'default', containers: [{ name: 'a', image: 'example.com/a:1' }], serviceAccount: {} };

    // WHEN
    new NodeAgent(chart, 'Agent', props);

    // THEN
    expect(only(synth(chart), 'ServiceAccount').metadata.name).toBe('node-agent-default');
    expect(() => new NodeAgent(chart, 'Adopting', { ...props, name: 'other', adopt: { serviceAccountName: 'default' } }))
      .toThrow(/'adopt\.serviceAccountName' must be another name than 'default': the agent's ServiceAccount would be the namespace's default one/);
  });

  test('a ClusterRole of the user\'s with the agent\'s name is a clash, whatever the charts\' namespaces', () => {
    // GIVEN the agent's ClusterRole, and the user's own ClusterRole of that name in a chart of another namespace
    const app = new App({ outdir: Testing.app().outdir });
    const agents = new Chart(app, 'agents', { namespace: 'kube-system' });
    new NodeAgent(agents, 'Agent', { policy: new NodePolicy(agents, 'P'), name: 'kured', containers: [{ name: 'a', image: 'example.com/a:1' }], serviceAccount: { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] } });
    const mine = new Chart(app, 'mine', { namespace: 'ops' });
    new kplus.k8s.KubeClusterRole(mine, 'Role', { metadata: { name: 'node-agent:kube-system:kured' } });

    // THEN
    expect(() => app.synth()).toThrow(/ClusterRole "node-agent:kube-system:kured" is defined by both agents\/Agent\/ClusterRole and mine\/Role/);
  });
});
