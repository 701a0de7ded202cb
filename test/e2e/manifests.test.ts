import { accessChecks, createdHostPaths, fullImageName, images, K8sObject, parseManifest, PolicyRule, servedName, subjectAccessReview } from '../../e2e/manifests';

const AS = '--as=system:serviceaccount:agents:agent';

function daemonSet(extra: Record<string, unknown> = {}): K8sObject {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'agents' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { serviceAccountName: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }], ...extra } } },
  };
}

function clusterRole(rules: PolicyRule[], name = 'agent'): K8sObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
}

function binding(kind: 'ClusterRoleBinding' | 'RoleBinding', roleKind: 'ClusterRole' | 'Role', roleName = 'agent', subjectName = 'agent'): K8sObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name: 'agent', ...kind === 'RoleBinding' ? { namespace: 'agents' } : {} },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: subjectName, namespace: 'agents' }],
  };
}

/** The checks as the lines the e2e prints: "yes|no VERB RESOURCE ...". */
function lines(objects: K8sObject[], lookup?: (kind: 'ClusterRole' | 'Role', name: string) => PolicyRule[] | undefined): string[] {
  return accessChecks(objects, lookup).map((c) => `${c.want} ${c.args.join(' ')}`);
}

describe('parseManifest', () => {
  test('reads every object of a multi-document file, skipping empty documents and flattening a List', () => {
    // GIVEN a file with an empty document and a List of two
    const text = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: List\nitems:\n'
      + '- {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: a}}\n- {apiVersion: v1, kind: Secret, metadata: {name: c, namespace: a}}\n';

    // WHEN it is parsed
    const objects = parseManifest(text, 'x.yaml');

    // THEN three objects come out, in order
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Namespace/a', 'ConfigMap/b', 'Secret/c']);
  });

  test('refuses a document without a kind, naming the file', () => {
    expect(() => parseManifest('apiVersion: v1\nmetadata: {name: a}\n', 'broken.yaml')).toThrow(/^broken\.yaml: a document without apiVersion, kind and metadata\.name/);
  });

  test('refuses text that is not YAML, naming the file', () => {
    expect(() => parseManifest('a: [1, 2\n', 'broken.yaml')).toThrow(/^broken\.yaml: not YAML/);
  });
});

describe('images and fullImageName', () => {
  test('images lists init and regular containers once each', () => {
    const ds = daemonSet({ initContainers: [{ name: 'i', image: 'busybox:1.36' }, { name: 'j', image: 'quay.io/x/y:1' }] });
    expect(images([ds, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }])).toEqual(['busybox:1.36', 'quay.io/x/y:1']);
  });

  test('createdHostPaths lists the host paths the kubelet creates when missing, and no other', () => {
    const ds = daemonSet({ volumes: [
      { name: 'state', hostPath: { path: '/var/lib/agent', type: 'DirectoryOrCreate' } },
      { name: 'lock', hostPath: { path: '/run/agent.lock', type: 'FileOrCreate' } },
      { name: 'root', hostPath: { path: '/', type: 'Directory' } },
      { name: 'logs', hostPath: { path: '/var/log' } },
    ] });
    expect(createdHostPaths([ds])).toEqual(['/var/lib/agent', '/run/agent.lock']);
  });

  test.each([
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['prom/node-exporter', 'docker.io/prom/node-exporter:latest'],
    ['quay.io/prometheus/node-exporter:v1.8.2', 'quay.io/prometheus/node-exporter:v1.8.2'],
    ['localhost:5000/agent:1', 'localhost:5000/agent:1'],
    ['registry.k8s.io/pause@sha256:abc', 'registry.k8s.io/pause@sha256:abc'],
  ])('fullImageName(%s) is the name the node reports: %s', (ref, full) => {
    expect(fullImageName(ref)).toBe(full);
  });
});

describe('accessChecks', () => {
  test('a cluster role binding: yes for every verb and resource in every namespace, no for another verb', () => {
    // GIVEN the DaemonSet's account bound to get/list pods and nodes
    const objects = [daemonSet(), clusterRole([{ apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list'] }]), binding('ClusterRoleBinding', 'ClusterRole')];

    // THEN
    expect(lines(objects)).toEqual([
      `yes get pods ${AS} --all-namespaces`,
      `yes list pods ${AS} --all-namespaces`,
      `no watch pods ${AS} --all-namespaces`,
      `yes get nodes ${AS} --all-namespaces`,
      `yes list nodes ${AS} --all-namespaces`,
      `no watch nodes ${AS} --all-namespaces`,
    ]);
  });

  test('resource names: yes for each name, no for another name', () => {
    const objects = [daemonSet(), clusterRole([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get'] }]), binding('ClusterRoleBinding', 'ClusterRole')];
    expect(lines(objects)).toEqual([
      `yes get configmaps/a ${AS} --all-namespaces`,
      `yes get configmaps/b ${AS} --all-namespaces`,
      `no list configmaps/a ${AS} --all-namespaces`,
      `no get configmaps/a-not-granted ${AS} --all-namespaces`,
    ]);
  });

  test('a role binding: the binding namespace, and no in another namespace', () => {
    const role: K8sObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'agent', namespace: 'agents' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] }] };
    expect(lines([daemonSet(), role, binding('RoleBinding', 'Role')])).toEqual([
      `yes * leases.coordination.k8s.io ${AS} -n agents`,
      `no * leases.coordination.k8s.io ${AS} -n kube-public`,
    ]);
  });

  test('subresources and API groups are asked as kubectl names them', () => {
    const objects = [daemonSet(), clusterRole([{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] }]), binding('ClusterRoleBinding', 'ClusterRole')];
    expect(lines(objects)).toContain(`yes get pods --subresource=log ${AS} --all-namespaces`);
    expect(lines(objects)).toContain(`yes get daemonsets.apps ${AS} --all-namespaces`);
  });

  test('non-resource URLs: yes through a cluster role binding with no for another verb, nothing through a role binding', () => {
    const rules = [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }];
    expect(lines([daemonSet(), clusterRole(rules), binding('ClusterRoleBinding', 'ClusterRole')])).toEqual([`yes get /metrics ${AS}`, `no post /metrics ${AS}`]);
    expect(lines([daemonSet(), clusterRole(rules), binding('RoleBinding', 'ClusterRole')])).toEqual([]);
  });

  test('a neighbour another rule of the account grants is not asked as no', () => {
    // GIVEN watch pods granted by a second role
    const objects = [
      daemonSet(),
      clusterRole([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]), binding('ClusterRoleBinding', 'ClusterRole'),
      clusterRole([{ apiGroups: [''], resources: ['pods'], verbs: ['watch'] }], 'watcher'),
      { ...binding('ClusterRoleBinding', 'ClusterRole', 'watcher'), metadata: { name: 'watcher' } },
    ];

    // THEN the neighbour is the next verb nobody grants
    expect(lines(objects).filter((l) => l.startsWith('no'))).toEqual([`no create pods ${AS} --all-namespaces`]);
  });

  test("a role of the server's is asked its first resource and verb of each rule, with the neighbour; the manifest's own rule every one", () => {
    // GIVEN the same rule in the server's view and in the manifest's own role
    const rule = { apiGroups: ['', 'apps'], resources: ['pods', 'services'], verbs: ['get', 'list'] };
    const viaView = [daemonSet(), binding('ClusterRoleBinding', 'ClusterRole', 'view')];
    const own = [daemonSet(), clusterRole([rule]), binding('ClusterRoleBinding', 'ClusterRole')];

    // THEN
    expect(lines(viaView, (_kind, name) => (name === 'view' ? [rule] : undefined))).toEqual([`yes get pods ${AS} --all-namespaces`, `no watch pods ${AS} --all-namespaces`]);
    expect(lines(own).filter((l) => l.startsWith('yes'))).toHaveLength(8);
  });

  test('each question also carries its SubjectAccessReview attributes, and kubectl names only what the server serves', () => {
    // GIVEN a resource of a group, by name, in a namespace, and a URL
    const role: K8sObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'agent', namespace: 'agents' }, rules: [{ apiGroups: ['extensions'], resources: ['daemonsets/status'], resourceNames: ['agent'], verbs: ['get'] }] };
    const checks = accessChecks([daemonSet(), role, binding('RoleBinding', 'Role'), clusterRole([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]), binding('ClusterRoleBinding', 'ClusterRole')]);
    const user = 'system:serviceaccount:agents:agent';

    // THEN
    expect(checks[0].attributes).toEqual({ user, verb: 'get', resource: { group: 'extensions', resource: 'daemonsets', subresource: 'status', name: 'agent', namespace: 'agents' } });
    expect(servedName(checks[0].attributes)).toBe('daemonsets.extensions');
    const url = checks.find((c) => c.args[1] === '/metrics')!;
    expect(url.attributes).toEqual({ user, verb: 'get', path: '/metrics' });
    expect(servedName(url.attributes)).toBeUndefined();
    expect(servedName({ user, verb: 'get', resource: { group: '', resource: 'pods' } })).toBe('pods');
  });

  test('a SubjectAccessReview asks as the service account with the groups the API server gives it, and holds no metadata', () => {
    const user = 'system:serviceaccount:agents:agent';
    expect(subjectAccessReview({ user, verb: 'get', resource: { group: 'extensions', resource: 'daemonsets' } })).toEqual({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {},
      spec: { user, groups: ['system:serviceaccounts', 'system:serviceaccounts:agents', 'system:authenticated'], resourceAttributes: { verb: 'get', group: 'extensions', resource: 'daemonsets' } },
    });
    expect(subjectAccessReview({ user, verb: 'post', path: '/metrics' }).spec.nonResourceAttributes).toEqual({ verb: 'post', path: '/metrics' });
  });

  test('a role the manifest binds but does not hold comes from the server, and its absence is an error naming it', () => {
    const objects = [daemonSet(), binding('ClusterRoleBinding', 'ClusterRole', 'view')];
    expect(lines(objects, (kind, name) => kind === 'ClusterRole' && name === 'view' ? [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }] : undefined))
      .toEqual([`yes get services ${AS} --all-namespaces`, `no list services ${AS} --all-namespaces`]);
    expect(() => accessChecks(objects)).toThrow('ClusterRole view is bound but is neither in the manifest nor on the server');
  });

  test('a role bound only to an account the manifest neither holds nor runs as is an error: it grants the agent nothing', () => {
    // GIVEN a binding whose subject is misspelt
    const objects = [daemonSet(), clusterRole([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), binding('ClusterRoleBinding', 'ClusterRole', 'agent', 'agnet')];

    // THEN
    expect(() => accessChecks(objects)).toThrow('ClusterRole agent is bound to none of the service accounts the manifest holds or runs as (agents:agent)');
  });

  test('a role the manifest binds to a User or Group (kubeadm\'s bootstrap tokens) needs no binding to the agent: it is for them', () => {
    // GIVEN a role bound only to a group, beside the agent's own
    const forGroup = { ...binding('ClusterRoleBinding', 'ClusterRole', 'bootstrap'), subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:bootstrappers' }] };
    const objects = [daemonSet(), clusterRole([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), binding('ClusterRoleBinding', 'ClusterRole'), clusterRole([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], 'bootstrap'), forGroup];

    // THEN the agent's role is asked, and the group's is no error
    expect(lines(objects)).toEqual([`yes get pods ${AS} --all-namespaces`, `no list pods ${AS} --all-namespaces`]);
  });

  test('a ClusterRole that aggregates into another (for people) needs no binding to the agent', () => {
    const forViewers = { ...clusterRole([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }], 'widgets-view'), metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } } };
    expect(lines([daemonSet(), forViewers])).toEqual([]);
  });
});
