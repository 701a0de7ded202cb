/**
 * Held-out manifest pairs for `node-reporter diff`: OLD, NEW, the impact
 * kinds the diff must find, and what a real API server does when NEW is
 * applied over OLD. test/diff/diff.test.ts judges the diff by them;
 * e2e/diff.ts applies each OLD and then NEW to a real cluster and checks the
 * server's answer: every `immutable` pair is refused, every other pair
 * accepted, and a DaemonSet gets a new revision (kubectl rollout history)
 * exactly when the diff says `rollout`.
 *
 * Workloads select no node (and run no replica), so that a pair costs no
 * pod: revisions and refusals do not need one.
 */
import { ImpactKind } from '../../lib/diff';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** The namespace the pairs live in on a real cluster (cluster-scoped objects carry it in their names). */
export const PAIRS_NAMESPACE = 'diff-e2e';

/** A manifest pair and what is known of it. */
export interface DiffPair {
  /** What the pair changes, as a test name. */
  readonly name: string;
  /** The objects before. */
  readonly old: readonly Obj[];
  /** The objects after. */
  readonly next: readonly Obj[];
  /** The impact kinds the diff must find, over every object of the pair (sorted, unique). */
  readonly impacts: readonly ImpactKind[];
  /** What the server does with NEW applied over OLD (a removed object is not applied). */
  readonly server: 'accepted' | 'refused';
  /** For a DaemonSet: whether NEW makes a new ControllerRevision. */
  readonly revision?: boolean;
}

const ns = PAIRS_NAMESPACE;
const container = (extra: Obj = {}) => ({ name: 'a', image: 'busybox:1.36', command: ['sleep', '3600'], ...extra });
/** A template that no node matches: the DaemonSet controller makes revisions without pods. */
const template = (spec: Obj = {}, labels: Obj = { app: 'agent' }, metadata: Obj = {}) => ({ metadata: { labels, ...metadata }, spec: { nodeSelector: { 'diff-e2e/none': 'true' }, containers: [container()], ...spec } });
const daemonSet = (name: string, spec: Obj = {}, tpl: Obj = template()) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: ns }, spec: { selector: { matchLabels: { app: 'agent' } }, template: tpl, ...spec } });
/** A template whose pods fit no node by affinity instead, with this nodeSelector (none by default). */
const noNode = (tpl: Obj, nodeSelector?: Obj): Obj => {
  const spec = { ...tpl.spec };
  delete spec.nodeSelector;
  const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'diff-e2e/none', operator: 'Exists' }] }] } } };
  return { ...tpl, spec: { ...spec, affinity, ...(nodeSelector !== undefined ? { nodeSelector } : {}) } };
};
const clusterRole = (name: string, rules: Obj[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `${ns}-${name}` }, rules });

export const PAIRS: readonly DiffPair[] = [
  // rollout, and not: the template as the server stores it decides
  {
    name: 'an image change in the template is a rollout (and an image change)',
    old: [daemonSet('image')], next: [daemonSet('image', {}, template({ containers: [container({ image: 'busybox:1.37' })] }))],
    impacts: ['image', 'rollout'], server: 'accepted', revision: true,
  },
  {
    name: 'a template annotation is a rollout',
    old: [daemonSet('annotation')], next: [daemonSet('annotation', {}, template({}, { app: 'agent' }, { annotations: { 'example.com/config-hash': 'abc' } }))],
    impacts: ['rollout'], server: 'accepted', revision: true,
  },
  {
    name: 'spelling out the defaults the server fills in is no rollout',
    old: [daemonSet('defaults')],
    next: [daemonSet('defaults', {}, template({
      containers: [container({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' })],
      restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30,
    }))],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'a request written in another form (0.1 and 100m) is no rollout',
    old: [daemonSet('quantity', {}, template({ containers: [container({ resources: { requests: { cpu: '0.1', memory: '64Mi' } } })] }))],
    next: [daemonSet('quantity', {}, template({ containers: [container({ resources: { requests: { cpu: '100m', memory: '65536Ki' } } })] }))],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'a new update strategy is no rollout',
    old: [daemonSet('strategy')], next: [daemonSet('strategy', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } })],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'a new toleration is eligibility (the nodes gained with --nodes) and a rollout',
    old: [daemonSet('toleration', {}, template({ nodeSelector: undefined, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'diff-e2e/none', operator: 'Exists' }] }] } } } }))],
    next: [daemonSet('toleration', {}, template({ nodeSelector: undefined, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'diff-e2e/none', operator: 'Exists' }] }] } } }, tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] }))],
    impacts: ['eligibility', 'rollout'], server: 'accepted', revision: true,
  },
  // immutable: refused on update
  {
    name: 'a DaemonSet selector change is immutable',
    old: [daemonSet('selector')],
    next: [daemonSet('selector', { selector: { matchLabels: { app: 'agent', tier: 'x' } } }, template({}, { app: 'agent', tier: 'x' }))],
    impacts: ['immutable', 'rollout'], server: 'refused',
  },
  {
    name: 'a Deployment selector change is immutable',
    old: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns }, spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: template({}, { app: 'web' }) } }],
    next: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns }, spec: { replicas: 0, selector: { matchLabels: { app: 'web2' } }, template: template({}, { app: 'web2' }) } }],
    impacts: ['immutable', 'rollout'], server: 'refused',
  },
  ...(['serviceName', 'volumeClaimTemplates'] as const).map((field): DiffPair => {
    const sts = (serviceName: string, size: string) => ({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: `db-${field.toLowerCase()}`, namespace: ns },
      spec: {
        replicas: 0, serviceName, selector: { matchLabels: { app: 'db' } }, template: template({}, { app: 'db' }),
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } } }],
      },
    });
    return {
      name: `a StatefulSet ${field} change is immutable`,
      old: [sts('db', '1Gi')], next: [field === 'serviceName' ? sts('db-headless', '1Gi') : sts('db', '2Gi')],
      impacts: ['immutable'], server: 'refused',
    };
  }),
  // Defaults the server fills in (issue 33)
  {
    name: 'an empty nodeSelector: {} and annotations: {} are no rollout and no eligibility change (omitempty maps)',
    old: [daemonSet('empty-maps', {}, noNode(template()))],
    next: [daemonSet('empty-maps', {}, noNode(template({}, { app: 'agent' }, { annotations: {} }), {}))],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'name:latest@digest defaults to imagePullPolicy Always: spelling it out is no rollout (ParseImageName gives the tag latest)',
    old: [daemonSet('latest-digest', {}, template({ containers: [container({ image: `busybox:latest@sha256:${'a'.repeat(64)}` })] }))],
    next: [daemonSet('latest-digest', {}, template({ containers: [container({ image: `busybox:latest@sha256:${'a'.repeat(64)}`, imagePullPolicy: 'Always' })] }))],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'name:latest@digest losing its explicit IfNotPresent is a rollout (its default is Always)',
    old: [daemonSet('latest-digest-if-not-present', {}, template({ containers: [container({ image: `busybox:latest@sha256:${'a'.repeat(64)}`, imagePullPolicy: 'IfNotPresent' })] }))],
    next: [daemonSet('latest-digest-if-not-present', {}, template({ containers: [container({ image: `busybox:latest@sha256:${'a'.repeat(64)}` })] }))],
    impacts: ['rollout'], server: 'accepted', revision: true,
  },
  // More than one config of one object (issue 33)
  {
    name: 'NEW holding one object twice, the copies differing, is a duplicate (kubectl apply applies both)',
    old: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', namespace: ns }, data: { level: 'info' } }],
    next: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', namespace: ns }, data: { level: 'debug' } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', namespace: ns }, data: { level: 'info' } }],
    impacts: ['duplicate'], server: 'accepted',
  },
  {
    name: 'a ConfigMap a DaemonSet mounts, changed, is config-in-place',
    old: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mounted', namespace: ns }, data: { level: 'info' } }, daemonSet('mounted', {}, template({ volumes: [{ name: 'cfg', configMap: { name: 'mounted' } }], containers: [container({ volumeMounts: [{ name: 'cfg', mountPath: '/etc/agent' }] })] }))],
    next: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mounted', namespace: ns }, data: { level: 'debug' } }, daemonSet('mounted', {}, template({ volumes: [{ name: 'cfg', configMap: { name: 'mounted' } }], containers: [container({ volumeMounts: [{ name: 'cfg', mountPath: '/etc/agent' }] })] }))],
    impacts: ['config-in-place'], server: 'accepted', revision: false,
  },
  // Semantic.DeepEqual and the server's defaults (issue 33): updates the server accepts are no immutable change
  {
    name: 'a selector gaining matchExpressions: [] is no change (Semantic.DeepEqual takes an empty slice as nil)',
    old: [daemonSet('empty-expressions')],
    next: [daemonSet('empty-expressions', { selector: { matchLabels: { app: 'agent' }, matchExpressions: [] } })],
    impacts: [], server: 'accepted', revision: false,
  },
  {
    name: 'a volumeClaimTemplate spelling out volumeMode: Filesystem is no change (SetDefaults_PersistentVolumeClaimSpec)',
    old: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db-volume-mode', namespace: ns }, spec: { replicas: 0, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template({}, { app: 'db' }), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } }],
    next: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db-volume-mode', namespace: ns }, spec: { replicas: 0, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template({}, { app: 'db' }), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } } }] } }],
    impacts: [], server: 'accepted',
  },
  // A CRD's scope and kind, once Established (validateCustomResourceDefinitionSpecUpdate): the e2e waits for Established
  ...(['scope', 'kind'] as const).map((field): DiffPair => {
    const crd = (scope: string, kind: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${field}s.diff-e2e.example.com` },
      spec: { group: 'diff-e2e.example.com', scope, names: { plural: `${field}s`, singular: field, kind }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    });
    return {
      name: `a CRD's ${field === 'scope' ? 'spec.scope' : 'spec.names.kind'} change is immutable once Established`,
      // Kinds of their own: two CRDs of one group with one kind conflict (NamesAccepted False), and are never Established.
      old: [crd('Namespaced', field === 'scope' ? 'Scoped' : 'Widget')], next: [field === 'scope' ? crd('Cluster', 'Scoped') : crd('Namespaced', 'Gadget')],
      impacts: ['immutable'], server: 'refused',
    };
  }),
  {
    name: 'a Job template change is immutable (even suspended)',
    old: [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once', namespace: ns }, spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [container()] } } } }],
    next: [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once', namespace: ns }, spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [container({ image: 'busybox:1.37' })] } } } }],
    impacts: ['image', 'immutable'], server: 'refused',
  },
  {
    name: 'a Service clusterIP change is immutable',
    old: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'fixed', namespace: ns }, spec: { clusterIP: '10.96.200.10', ports: [{ port: 80 }] } }],
    next: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'fixed', namespace: ns }, spec: { clusterIP: '10.96.200.11', ports: [{ port: 80 }] } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a Service port change is accepted: nothing immutable',
    old: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ports', namespace: ns }, spec: { ports: [{ port: 80 }] } }],
    next: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ports', namespace: ns }, spec: { ports: [{ port: 8080 }] } }],
    impacts: [], server: 'accepted',
  },
  {
    name: 'a Secret type change is immutable',
    old: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'typed', namespace: ns }, type: 'Opaque', stringData: { a: 'b' } }],
    next: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'typed', namespace: ns }, type: 'example.com/custom', stringData: { a: 'b' } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'an immutable ConfigMap data change is immutable',
    old: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen', namespace: ns }, immutable: true, data: { a: '1' } }],
    next: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen', namespace: ns }, immutable: true, data: { a: '2' } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a ConfigMap data change is accepted when it is not immutable',
    old: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: ns }, data: { a: '1' } }],
    next: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: ns }, data: { a: '2' } }],
    impacts: [], server: 'accepted',
  },
  {
    name: 'a RoleBinding roleRef change is immutable',
    old: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'agent', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }] }],
    next: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'agent', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }] }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a StorageClass provisioner change is immutable',
    old: [{ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: `${ns}-local` }, provisioner: 'example.com/a' }],
    next: [{ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: `${ns}-local` }, provisioner: 'example.com/b' }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a StatefulSet podManagementPolicy change is immutable',
    old: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'ordered', namespace: ns }, spec: { replicas: 0, serviceName: 'ordered', selector: { matchLabels: { app: 'ordered' } }, template: template({}, { app: 'ordered' }) } }],
    next: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'ordered', namespace: ns }, spec: { replicas: 0, serviceName: 'ordered', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'ordered' } }, template: template({}, { app: 'ordered' }) } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a StatefulSet selector change is immutable',
    old: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'picked', namespace: ns }, spec: { replicas: 0, serviceName: 'picked', selector: { matchLabels: { app: 'picked' } }, template: template({}, { app: 'picked', tier: 'x' }) } }],
    next: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'picked', namespace: ns }, spec: { replicas: 0, serviceName: 'picked', selector: { matchLabels: { app: 'picked', tier: 'x' } }, template: template({}, { app: 'picked', tier: 'x' }) } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a ReplicaSet selector change is immutable',
    old: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'copies', namespace: ns }, spec: { replicas: 0, selector: { matchLabels: { app: 'copies' } }, template: template({}, { app: 'copies', tier: 'x' }) } }],
    next: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'copies', namespace: ns }, spec: { replicas: 0, selector: { matchLabels: { app: 'copies', tier: 'x' } }, template: template({}, { app: 'copies', tier: 'x' }) } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a Job completionMode change is immutable',
    old: [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'indexed', namespace: ns }, spec: { suspend: true, completions: 2, template: { spec: { restartPolicy: 'Never', containers: [container()] } } } }],
    next: [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'indexed', namespace: ns }, spec: { suspend: true, completions: 2, completionMode: 'Indexed', template: { spec: { restartPolicy: 'Never', containers: [container()] } } } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'an immutable ConfigMap made mutable again is immutable',
    old: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'thaw', namespace: ns }, immutable: true, data: { a: '1' } }],
    next: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'thaw', namespace: ns }, immutable: false, data: { a: '1' } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'an immutable Secret stringData change is immutable',
    old: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sealed', namespace: ns }, immutable: true, stringData: { a: '1' } }],
    next: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sealed', namespace: ns }, immutable: true, stringData: { a: '2' } }],
    impacts: ['immutable'], server: 'refused',
  },
  {
    name: 'a ClusterRoleBinding roleRef change is immutable',
    old: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `${ns}-agent` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }] }],
    next: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `${ns}-agent` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }] }],
    impacts: ['immutable'], server: 'refused',
  },
  ...([['parameters', { parameters: { tier: 'a' } }, { parameters: { tier: 'b' } }], ['reclaimPolicy', {}, { reclaimPolicy: 'Retain' }], ['volumeBindingMode', {}, { volumeBindingMode: 'WaitForFirstConsumer' }]] as const).map(([field, a, b]): DiffPair => ({
    name: `a StorageClass ${field} change is immutable`,
    old: [{ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: `${ns}-${field.toLowerCase()}` }, provisioner: 'example.com/a', ...a }],
    next: [{ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: `${ns}-${field.toLowerCase()}` }, provisioner: 'example.com/a', ...b }],
    impacts: ['immutable'], server: 'refused',
  })),
  {
    name: 'a RoleBinding subject added is rbac-widened; the group of every service account is dangerous',
    old: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'readers', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }] }],
    next: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'readers', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts' }] }],
    impacts: ['rbac-widened'], server: 'accepted',
  },
  // RBAC, Pod Security, prune
  {
    name: 'an added verb is rbac-widened',
    old: [clusterRole('reader', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }])],
    next: [clusterRole('reader', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }])],
    impacts: ['rbac-widened'], server: 'accepted',
  },
  // RBAC as the authorizer sees it (issue 33): the server accepts each; what it grants is the diff's to say
  {
    name: 'dropping resourceNames ["*"] is rbac-widened: "*" names one object (ResourceNameMatches)',
    old: [clusterRole('named', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['*'] }])],
    next: [clusterRole('named', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])],
    impacts: ['rbac-widened'], server: 'accepted',
  },
  {
    name: 'a label aggregate-to-view is rbac-widened: view, edit and admin carry the rules',
    old: [clusterRole('aggregated', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])],
    next: [{ ...clusterRole('aggregated', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), metadata: { name: `${ns}-aggregated`, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } } }],
    impacts: ['rbac-widened'], server: 'accepted',
  },
  {
    name: 'an aggregationRule that now selects the admin roles is rbac-widened',
    old: [{ ...clusterRole('gatherer', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'diff-e2e/none': 'true' } }] } }],
    next: [{ ...clusterRole('gatherer', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] } }],
    impacts: ['rbac-widened'], server: 'accepted',
  },
  {
    name: 'a removed resource is rbac-narrowed',
    old: [clusterRole('narrow', [{ apiGroups: [''], resources: ['nodes', 'pods'], verbs: ['get'] }])],
    next: [clusterRole('narrow', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }])],
    impacts: ['rbac-narrowed'], server: 'accepted',
  },
  {
    name: 'a waiver is pod-security',
    old: [daemonSet('waiver')],
    next: [{ ...daemonSet('waiver'), metadata: { name: 'waiver', namespace: ns, annotations: { 'checks.node-reporter.dev/waive-pss-host-namespaces': 'reads the node network' } } }],
    impacts: ['pod-security'], server: 'accepted', revision: false,
  },
  {
    name: 'a laxer namespace is pod-security',
    old: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-level`, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } }],
    next: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-level`, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }],
    impacts: ['pod-security'], server: 'accepted',
  },
  {
    name: 'a removed Namespace is prune, with what it holds',
    old: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-gone` } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: `${ns}-gone` }, data: { a: '1' } }],
    next: [],
    impacts: ['prune'], server: 'accepted',
  },
];
