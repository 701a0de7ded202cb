/**
 * Names an agent derives never take over an object nobody named, and
 * adoption (`adopt`) is only what the user writes.
 */
import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { ownName, ownRoleName } from '../../lib/node-agent/adoption';
import { Manifest, only, synth } from '../util';

/** An agent with every object it can derive a name for: ServiceAccount, ClusterRole, Role, bindings, ConfigMap, metrics Service. */
function fullAgent(chart: Chart, name: string, extra: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, `Agent-${name}`, {
    policy: new NodePolicy(chart, `Policy-${name}`),
    name,
    containers: [{ name: 'main', image: 'example.com/agent:1', ports: [{ number: 9100, name: 'metrics' }] }],
    serviceAccount: {
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }],
      namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      rulesIn: { other: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
      clusterRoles: ['view'],
    },
    config: { data: { 'agent.yaml': 'a: 1\n' } },
    metrics: { port: 'metrics' },
    ...extra,
  });
}

const CLUSTER_SCOPED = new Set(['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Namespace']);

/** The identity the API server keys an object by. */
function keyOf(o: Manifest): string {
  return `${o.kind}/${CLUSTER_SCOPED.has(o.kind) ? '' : o.metadata.namespace}/${o.metadata.name}`;
}

describe('derived names', () => {
  test('no derived name of one agent equals an object of another agent in its own namespace, or cluster-wide', () => {
    // GIVEN agent names that are prefixes, suffixes and derived names of each other
    const names = ['a', 'b', 'a-b', 'b-a', 'a-config', 'config', 'node-agent', 'node-agent-a', 'node-agent-a-b', 'default', 'kube-proxy', 'view'];
    const app = new App({ outdir: Testing.app().outdir });
    const chart = new Chart(app, 'agents', { namespace: 'kube-system' });
    const objects = new Map<string, Manifest[]>();

    // WHEN each agent is built alone, and all in one namespace
    for (const name of names) {
      const alone = new Chart(Testing.app(), 'alone', { namespace: 'kube-system' });
      fullAgent(alone, name);
      objects.set(name, synth(alone).filter((o) => o.kind !== 'NodePolicy'));
      fullAgent(chart, name);
    }

    // THEN no two agents share an object (kind, namespace, name), and the app's clash check agrees
    const owner = new Map<string, string>();
    for (const [name, manifests] of objects) {
      for (const o of manifests) {
        expect(owner.get(keyOf(o)) ?? name).toBe(name);
        owner.set(keyOf(o), name);
      }
    }
    expect(() => app.synth()).not.toThrow();
  });

  test('an agent in kube-system named like kubeadm\'s kube-proxy takes over none of kubeadm\'s objects, in its own namespace too', () => {
    // GIVEN the objects kubeadm creates for kube-proxy (cmd/kubeadm/app/phases/addons/proxy)
    const kubeadm = [
      'ServiceAccount/kube-system/kube-proxy', 'ConfigMap/kube-system/kube-proxy', 'Role/kube-system/kube-proxy', 'RoleBinding/kube-system/kube-proxy',
      'ClusterRoleBinding//kubeadm:node-proxier', 'Service/kube-system/kube-proxy',
    ];
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });

    // WHEN
    fullAgent(chart, 'kube-proxy');

    // THEN only the DaemonSet has the agent's name; every other name carries the prefix
    const objects = synth(chart);
    expect(objects.map(keyOf).filter((k) => kubeadm.includes(k))).toEqual([]);
    for (const o of objects.filter((x) => x.kind !== 'DaemonSet')) {
      expect(o.metadata.name).toMatch(/^node-agent[-:]/);
    }
    expect(ownName('kube-proxy')).toBe('node-agent-kube-proxy');
    expect(ownRoleName('kube-proxy')).toBe('node-agent:kube-proxy');
  });
});

describe('adoption', () => {
  const adopt = {
    selector: { 'k8s-app': 'kube-proxy' },
    serviceAccountName: 'kube-proxy',
    configMapName: 'kube-proxy',
    rbacNames: { clusterRole: 'kube-proxy-extra', clusterRoleBinding: 'kube-proxy-extra', role: 'kube-proxy', roleBinding: 'kube-proxy', clusterRoleBindings: { view: 'kubeadm:node-proxier' } },
    serviceNames: { metrics: 'kube-proxy' },
  };

  test('gives exactly the adopted names, selects by the adopted selector, and every pod and the Service select by it', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });

    // WHEN
    const agent = fullAgent(chart, 'kube-proxy', { adopt });

    // THEN
    const objects = synth(chart);
    const ds = only(objects, 'DaemonSet');
    expect(ds.spec.selector).toEqual({ matchLabels: { 'k8s-app': 'kube-proxy' } });
    expect(ds.spec.template.metadata.labels).toMatchObject({ 'k8s-app': 'kube-proxy' });
    expect(ds.spec.template.metadata.labels).not.toHaveProperty('app');
    expect(ds.spec.template.spec.serviceAccountName).toBe('kube-proxy');
    expect(ds.spec.template.spec.volumes).toEqual([{ name: 'config', configMap: { name: 'kube-proxy' } }]);
    expect(agent.selectorLabels).toEqual({ 'k8s-app': 'kube-proxy' });
    expect(agent.serviceAccountName).toBe('kube-proxy');
    expect(objects.map(keyOf).sort()).toEqual([
      'ClusterRole//kube-proxy-extra', 'ClusterRoleBinding//kube-proxy-extra', 'ClusterRoleBinding//kubeadm:node-proxier',
      'ConfigMap/kube-system/kube-proxy', 'DaemonSet/kube-system/kube-proxy',
      // rulesIn is not adopted: its Role keeps the derived name in the other namespace.
      'Role/kube-system/kube-proxy', 'Role/other/node-agent:kube-system:kube-proxy', 'RoleBinding/kube-system/kube-proxy', 'RoleBinding/other/node-agent:kube-system:kube-proxy',
      'Service/kube-system/kube-proxy', 'ServiceAccount/kube-system/kube-proxy',
    ]);
    for (const binding of objects.filter((o) => o.kind.endsWith('Binding'))) {
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'kube-proxy', namespace: 'kube-system' }]);
    }
    expect(only(objects, 'ClusterRoleBinding', 'kubeadm:node-proxier').roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    expect(only(objects, 'Service').spec.selector).toEqual({ 'k8s-app': 'kube-proxy' });
  });

  test('adopts only what is written: one adopted name leaves every other name derived', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });

    // WHEN
    fullAgent(chart, 'kube-proxy', { adopt: { configMapName: 'kube-proxy' } });

    // THEN
    const objects = synth(chart);
    expect(only(objects, 'ConfigMap').metadata.name).toBe('kube-proxy');
    expect(only(objects, 'ServiceAccount').metadata.name).toBe('node-agent-kube-proxy');
    expect(objects.filter((o) => o.kind === 'Role' && o.metadata.namespace === 'kube-system').map((o) => o.metadata.name)).toEqual(['node-agent:kube-proxy']);
    expect(only(objects, 'DaemonSet').spec.selector).toEqual({ matchLabels: { app: 'kube-proxy' } });
  });

  test('refuses, all at once, an empty selector, labels that would override it, and names of objects the agent does not create', () => {
    // GIVEN
    const build = (props: Partial<NodeAgentProps>) => () => {
      const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
      return new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'kube-proxy', containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.35.6' }], ...props });
    };

    // THEN
    expect(build({ adopt: { selector: {} } })).toThrow(/'adopt\.selector': the selector is empty \(\{"matchLabels":\{\}\}\): it would select every pod in the namespace, and the API server refuses it/);
    expect(build({ adopt: { selector: { 'k8s-app': 'kube-proxy' } }, labels: { 'k8s-app': 'other' } }))
      .toThrow(/'labels' must not set 'k8s-app', a label of the selector this construct owns \(so that it selects exactly the agent's pods\)/);
    // With the default selector, 'app' stays the construct's.
    expect(build({ labels: { app: 'x' } })).toThrow(/'labels' must not set 'app'/);
    let error = '';
    try {
      build({ adopt: { serviceAccountName: 'kube-proxy', configMapName: 'kube-proxy', serviceNames: { metrics: 'kube-proxy' }, rbacNames: { role: 'kube-proxy', clusterRoleBindings: { 'system:node-proxier': 'kubeadm:node-proxier' } }, extra: 1 } as never })();
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error.split('\n')).toEqual([
      "test/Agent: 'adopt' key must be one of selector, serviceAccountName, configMapName, rbacNames, serviceNames but got \"extra\"",
      "test/Agent: 'adopt.serviceAccountName' must be unset: the agent creates no ServiceAccount (set 'serviceAccount', or run as an existing one with 'serviceAccountName') to give that name but got \"kube-proxy\"",
      "test/Agent: 'adopt.configMapName' must be unset: the agent creates no ConfigMap (set 'config') to give that name but got \"kube-proxy\"",
      "test/Agent: 'adopt.serviceNames.metrics' must be unset: the agent creates no metrics Service (set 'metrics') to give that name but got \"kube-proxy\"",
      "test/Agent: 'adopt.rbacNames.role' must be unset: the agent creates no Role (it is the one of serviceAccount.namespacedRules) to give that name but got \"kube-proxy\"",
      "test/Agent: 'adopt.rbacNames.clusterRoleBindings' key must be a ClusterRole of serviceAccount.clusterRoles (none) but got \"system:node-proxier\"",
    ]);
  });

  test('an adopted selector that selects another agent\'s pods in its namespace fails synth, naming both', () => {
    // GIVEN two agents of one namespace: the second's pods carry the first's adopted selector
    const app = new App({ outdir: Testing.app().outdir });
    const chart = new Chart(app, 'test', { namespace: 'kube-system' });
    const policy = new NodePolicy(chart, 'P');
    new NodeAgent(chart, 'Proxy', { policy, name: 'proxy', adopt: { selector: { tier: 'node' } }, containers: [{ name: 'a', image: 'example.com/a:1' }] });
    new NodeAgent(chart, 'Other', { policy, name: 'other', labels: { tier: 'node' }, containers: [{ name: 'a', image: 'example.com/a:1' }] });

    // THEN
    expect(() => app.synth()).toThrow(/test\/Proxy's selector \{"tier":"node"\} selects the pods of test\/Other too \(namespace "kube-system"\)/);
  });

  test('the same selector in two namespaces selects nothing of the other', () => {
    // GIVEN
    const app = new App({ outdir: Testing.app().outdir });
    for (const ns of ['a', 'b']) {
      const chart = new Chart(app, ns, { namespace: ns });
      new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'agent', adopt: { selector: { 'k8s-app': 'agent' } }, containers: [{ name: 'a', image: 'example.com/a:1' }] });
    }

    // THEN
    expect(() => app.synth()).not.toThrow();
  });

  test('an adopted ServiceAccount name carries the library\'s labels, as every object of the agent', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });

    // WHEN
    new NodeAgent(chart, 'Agent', {
      policy: new NodePolicy(chart, 'P'), name: 'kube-proxy', adopt: { serviceAccountName: 'kube-proxy' }, serviceAccount: {},
      containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.35.6', env: { X: kplus.EnvValue.fromValue('1') } }],
    });

    // THEN
    expect(only(synth(chart), 'ServiceAccount').metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'node-reporter', 'app': 'kube-proxy' });
  });
});
