/**
 * Everything an agent brings, with typed props: more ServiceAccounts, grants
 * to other subjects, Services, CRDs, optional envFrom.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentEnvFrom, NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { checkObjects, isBlocking } from '../../lib/checks';
import { Manifest, only, synth } from '../util';

function objectsOf(props: Partial<NodeAgentProps>): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
  new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'P'), name: 'calico-node',
    containers: [{ name: 'calico-node', image: 'quay.io/calico/node:v3.30.3', ports: [{ number: 9091, name: 'metrics' }, { number: 9099, name: 'health' }] }],
    ...props,
  });
  return synth(chart);
}

function errorOf(props: Partial<NodeAgentProps>): string[] {
  try {
    objectsOf(props);
  } catch (e) {
    return (e as Error).message.split('\n');
  }
  return [];
}

describe('more ServiceAccounts', () => {
  test('each with its own grants, named by the user, its RBAC adopted or derived apart from the agent\'s own', () => {
    // WHEN
    const objects = objectsOf({
      serviceAccount: { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
      serviceAccounts: [
        { name: 'calico-cni-plugin', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], rbacNames: { clusterRole: 'calico-cni-plugin', clusterRoleBinding: 'calico-cni-plugin' } },
        { name: 'helper', clusterRoles: ['view'] },
      ],
    });

    // THEN
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['node-agent-calico-node', 'calico-cni-plugin', 'helper']);
    const cni = only(objects, 'ClusterRoleBinding', 'calico-cni-plugin');
    expect(cni.roleRef.name).toBe('calico-cni-plugin');
    expect(cni.subjects).toEqual([{ kind: 'ServiceAccount', name: 'calico-cni-plugin', namespace: 'kube-system' }]);
    expect(only(objects, 'ClusterRoleBinding', 'node-agent:kube-system:calico-node.helper:view').subjects).toEqual([{ kind: 'ServiceAccount', name: 'helper', namespace: 'kube-system' }]);
    // The pods run as the agent's own.
    expect(only(objects, 'DaemonSet').spec.template.spec.serviceAccountName).toBe('node-agent-calico-node');
  });

  test('refuses a second ServiceAccount of the agent\'s own name, default, and a token option it has no pod for', () => {
    expect(errorOf({ serviceAccount: {}, serviceAccounts: [{ name: 'node-agent-calico-node' }, { name: 'default' }, { name: 'x', automountToken: false } as never] })).toEqual([
      "test/Agent: 'serviceAccounts[0].name' must be a ServiceAccount the agent does not create already (its own, or another of 'serviceAccounts') but got \"node-agent-calico-node\"",
      "test/Agent: 'serviceAccounts[1].name' must be another name than 'default' (the namespace's own ServiceAccount) but got \"default\"",
      "test/Agent: 'serviceAccounts[2]' key \"automountToken\" is not a prop here: it is the agent's own ServiceAccount's (serviceAccount.automountToken): this token is no pod's",
    ]);
  });
});

describe('subjects beyond the agent\'s ServiceAccount', () => {
  test('a Role for a Group in the agent\'s namespace, as kubeadm grants its bootstrap tokens the kube-proxy ConfigMap', () => {
    // WHEN
    const objects = objectsOf({
      grants: [{
        name: 'kube-proxy', namespace: 'kube-system',
        rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'], verbs: ['get'] }],
        subjects: [{ kind: 'Group', name: 'system:bootstrappers:kubeadm:default-node-token' }],
      }, {
        name: 'calico-extra', clusterRole: 'view', subjects: [{ kind: 'User', name: 'calico-admin' }, { kind: 'ServiceAccount', name: 'x', namespace: 'other' }],
      }],
    });

    // THEN
    expect(only(objects, 'Role', 'kube-proxy').rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'], verbs: ['get'] }]);
    expect(only(objects, 'RoleBinding', 'kube-proxy')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kube-proxy' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers:kubeadm:default-node-token' }],
    });
    const binding = only(objects, 'ClusterRoleBinding', 'calico-extra');
    expect(binding.metadata).not.toHaveProperty('namespace');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    expect(binding.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'calico-admin' }, { kind: 'ServiceAccount', name: 'x', namespace: 'other' }]);
    expect(objects.filter((o) => o.kind === 'ClusterRole')).toEqual([]);
    expect(checkObjects(objects).filter(isBlocking)).toEqual([]);
  });

  test('more subjects of the agent\'s own bindings', () => {
    const objects = objectsOf({ serviceAccount: { namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], subjects: [{ kind: 'Group', name: 'ops' }] } });
    expect(only(objects, 'RoleBinding').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'node-agent-calico-node', namespace: 'kube-system' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'ops' },
    ]);
  });

  test('refuses a grant of both rules and a role, and subjects the API server refuses', () => {
    expect(errorOf({ grants: [{ name: 'g', clusterRole: 'view', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], subjects: [{ kind: 'Group', name: 'g', namespace: 'x' }, { kind: 'ServiceAccount', name: 's' }] }] })).toEqual([
      "test/Agent: 'grants[0]' must be a grant of either rules or an existing clusterRole but got [\"name\",\"clusterRole\",\"rules\",\"subjects\"]",
      "test/Agent: 'grants[0].subjects[0].namespace' must be unset for a User or Group but got \"x\"",
      "test/Agent: 'grants[0].subjects[1].namespace' must be set (a ServiceAccount's namespace, a DNS-1123 label)",
    ]);
  });
});

describe('Services', () => {
  test('a headless Service and one of several named ports, each selecting exactly the agent\'s pods', () => {
    // WHEN
    const objects = objectsOf({
      adopt: { selector: { 'k8s-app': 'calico-node' } },
      services: [
        { name: 'calico-headless', headless: true, ports: [{ port: 'metrics' }] },
        { name: 'calico-node', ports: [{ port: 'metrics', servicePort: 80 }, { port: 9099 }], internalTrafficPolicy: 'Local' },
      ],
    });

    // THEN
    expect(only(objects, 'Service', 'calico-headless').spec).toEqual({ type: 'ClusterIP', clusterIP: 'None', selector: { 'k8s-app': 'calico-node' }, ports: [{ name: 'metrics', port: 9091, targetPort: 'metrics', protocol: 'TCP' }] });
    expect(only(objects, 'Service', 'calico-node').spec).toEqual({
      type: 'ClusterIP', internalTrafficPolicy: 'Local', selector: { 'k8s-app': 'calico-node' },
      ports: [{ name: 'metrics', port: 80, targetPort: 'metrics', protocol: 'TCP' }, { name: 'health', port: 9099, targetPort: 'health', protocol: 'TCP' }],
    });
    expect(checkObjects(objects).filter(isBlocking)).toEqual([]);
  });

  test('a Service port carries its appProtocol, and one the API server refuses is refused naming the prop', () => {
    // GIVEN / WHEN
    const objects = objectsOf({ services: [{ name: 'calico-node', ports: [{ port: 'metrics', appProtocol: 'http' }] }] });
    // THEN
    expect(only(objects, 'Service', 'calico-node').spec.ports).toEqual([{ name: 'metrics', port: 9091, targetPort: 'metrics', protocol: 'TCP', appProtocol: 'http' }]);
    expect(checkObjects(objects).filter(isBlocking)).toEqual([]);
    expect(errorOf({ services: [{ name: 's', ports: [{ port: 'metrics', appProtocol: 'not a protocol' }] }] }))
      .toEqual([expect.stringMatching(/^test\/Agent: 'services\[0\]\.ports\[0\]\.appProtocol' must be a qualified name .* but got "not a protocol"$/)]);
  });

  test('refuses a port the agent does not have, and unnamed ports of a Service with several', () => {
    const chart = () => objectsOf({
      containers: [{ name: 'calico-node', image: 'quay.io/calico/node:v3.30.3', ports: [{ number: 9091 }, { number: 9099 }] }],
      services: [{ name: 's', ports: [{ port: 9091 }, { port: 'nope' }] }],
    });
    expect(chart).toThrow(/'services\[0\]\.ports\[1\]\.port' must be the name or number of a container port of the agent but got "nope"/);
    const unnamed = () => objectsOf({
      containers: [{ name: 'calico-node', image: 'quay.io/calico/node:v3.30.3', ports: [{ number: 9091 }, { number: 9099 }] }],
      services: [{ name: 's', ports: [{ port: 9091 }, { port: 9099 }] }],
    });
    expect(unnamed).toThrow(/'services\[0\]\.ports\[0\]\.name' must be set \(every port of a Service with several is named: give it a name, or name the container port\)/);
  });
});

describe('CustomResourceDefinitions', () => {
  const podLogs: kplus.k8s.CustomResourceDefinitionSpec = {
    group: 'monitoring.grafana.com', scope: 'Namespaced',
    names: { kind: 'PodLogs', plural: 'podlogs', singular: 'podlogs', listKind: 'PodLogsList' },
    versions: [{ name: 'v1alpha2', served: true, storage: true, schema: { openApiv3Schema: { type: 'object', xKubernetesPreserveUnknownFields: true } } }],
  };

  test('are named <plural>.<group>, cluster-scoped (never stamped with the chart\'s namespace), with the agent\'s labels', () => {
    // WHEN
    const crd = only(objectsOf({ customResourceDefinitions: [podLogs] }), 'CustomResourceDefinition');

    // THEN
    expect(crd.metadata.name).toBe('podlogs.monitoring.grafana.com');
    expect(crd.metadata).not.toHaveProperty('namespace');
    expect(crd.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'node-reporter', 'app': 'calico-node' });
    expect(crd.spec.versions[0].schema.openAPIV3Schema).toEqual({ 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  test('refuses a group without a dot and a resource defined twice', () => {
    expect(errorOf({ customResourceDefinitions: [{ ...podLogs, group: 'grafana' }, podLogs, podLogs] })).toEqual([
      "test/Agent: 'customResourceDefinitions[0].group' should be a domain with at least one dot but got \"grafana\"",
      "test/Agent: 'customResourceDefinitions[2].names.plural' must be a resource no other of customResourceDefinitions defines but got \"podlogs.monitoring.grafana.com\"",
    ]);
  });
});

describe('envFrom', () => {
  test('optional, from a ConfigMap or a Secret, with a prefix', () => {
    // WHEN
    const ds = only(objectsOf({
      containers: [{
        name: 'calico-node', image: 'quay.io/calico/node:v3.30.3',
        envFrom: [AgentEnvFrom.configMap('kubernetes-services-endpoint', { optional: true }), AgentEnvFrom.secret('creds', { prefix: 'CALICO_' })],
      }],
    }), 'DaemonSet');

    // THEN
    expect(ds.spec.template.spec.containers[0].envFrom).toEqual([
      { configMapRef: { name: 'kubernetes-services-endpoint', optional: true } },
      { prefix: 'CALICO_', secretRef: { name: 'creds' } },
    ]);
  });

  test('refuses a name and a prefix the API server refuses', () => {
    expect(errorOf({ containers: [{ name: 'calico-node', image: 'quay.io/calico/node:v3.30.3', envFrom: [AgentEnvFrom.configMap('Bad_Name', { prefix: '1X' })] }] })).toEqual([
      "test/Agent: 'containers[0].envFrom[0].prefix' must be valid (a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit) but got \"1X\"",
      expect.stringMatching(/^test\/Agent: 'containers\[0\]\.envFrom\[0\]\.name' must be a DNS-1123 subdomain .* but got "Bad_Name"$/),
    ]);
  });
});
