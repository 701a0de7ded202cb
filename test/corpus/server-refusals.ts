/**
 * Corpus cases for what `check` let pass and a real v1.32 API server refuses
 * (issue 25, defect 4: 20 pod specs, 18 other objects, and the code review's
 * four), each beside nearby manifests the server accepts. The server's words
 * for each refusal are in the comment above it. A v1.35.6 server gave every
 * case the same verdict, but the one whose `servers` says otherwise.
 */
import { clusterRole, configMap, CorpusCase, daemonSet, make, makeIn, namespace, no, Obj, ok, podSecurityNamespace, secret, service, statefulSet, text } from './bases';

const privileged = podSecurityNamespace('privileged');

/** Adds a volume to the pod and mounts it in its first container at /v (or `mount`'s fields). */
function withVolume(p: Obj, c: Obj, volume: Obj, mount: Obj = {}): void {
  p.volumes = [...(p.volumes ?? []), { name: 'v', ...volume }];
  c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'v', mountPath: '/v', ...mount }];
}

const items = (path: string, extra: Obj = {}) => [{ key: 'k', path, ...extra }];
const owner = (extra: Obj) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '6e4b2a57-1d1c-4d4c-9f0e-0a7d3c1b2a10', ...extra });
const pvc = (spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec });
const quota = (hard: Obj): Obj => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota' }, spec: { hard } });
const limitRange = (limit: Obj): Obj => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' }, spec: { limits: [{ type: 'Container', ...limit }] } });
const networkPolicy = (ipBlock: Obj): Obj => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' },
  spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{ to: [{ ipBlock }] }] },
});

export const SERVER_REFUSALS: readonly CorpusCase[] = [
  // validateHostPathVolumeSource -> validatePathNoBacksteps: "must not contain '..'".
  makeIn('hostpath-backsteps', privileged, daemonSet, no, (_, p, c) => { withVolume(p, c, { hostPath: { path: '/var/log/../../etc' } }); }),
  makeIn('hostpath-dots-in-a-name', privileged, daemonSet, ok, (_, p, c) => { withVolume(p, c, { hostPath: { path: '/var/log/..2024' } }); }),

  // validateKeyToPath -> validateLocalNonReservedPath: "must not contain '..'", "must be a relative path", "must not start with '..'".
  make('configmap-item-path-backsteps', daemonSet, no, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', items: items('a/../../b') } }); }),
  make('configmap-item-path-absolute', daemonSet, no, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', items: items('/etc/passwd') } }); }),
  make('configmap-item-path-reserved', daemonSet, no, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', items: items('..data') } }); }),
  make('configmap-item-path-nested', daemonSet, ok, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', items: items('conf.d/a..b') } }); }),
  make('secret-item-path-backsteps', daemonSet, no, (_, p, c) => { withVolume(p, c, { secret: { secretName: 'sec', items: items('../k') } }); }),
  make('projected-secret-item-path-absolute', daemonSet, no, (_, p, c) => { withVolume(p, c, { projected: { sources: [{ secret: { name: 'sec', items: items('/k') } }] } }); }),
  // validateDownwardAPIVolumeFile -> validateLocalNonReservedPath.
  make('downward-item-path-backsteps', daemonSet, no, (_, p, c) => { withVolume(p, c, { downwardAPI: { items: [{ path: '../name', fieldRef: { fieldPath: 'metadata.name' } }] } }); }),
  // validateProjectionSources: serviceAccountToken.path -> validateLocalNonReservedPath.
  make('token-path-backsteps', daemonSet, no, (_, p, c) => { withVolume(p, c, { projected: { sources: [{ serviceAccountToken: { path: '../token' } }] } }); }),
  make('token-path-absolute', daemonSet, no, (_, p, c) => { withVolume(p, c, { projected: { sources: [{ serviceAccountToken: { path: '/token' } }] } }); }),
  make('token-path-relative', daemonSet, ok, (_, p, c) => { withVolume(p, c, { projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 600 } }] } }); }),
  // validateVolumeMounts: subPathExpr -> validateLocalDescendingPath.
  make('subpathexpr-backsteps', daemonSet, no, (_, p, c) => { withVolume(p, c, { emptyDir: {} }, { subPathExpr: '$(POD)/../..' }); }),
  make('subpathexpr-absolute', daemonSet, no, (_, p, c) => { withVolume(p, c, { emptyDir: {} }, { subPathExpr: '/$(POD)' }); }),
  make('subpathexpr-relative', daemonSet, ok, (_, p, c) => { withVolume(p, c, { emptyDir: {} }, { subPathExpr: 'logs/$(POD)' }); }),

  // validateConfigMapVolumeSource, validateSecretVolumeSource, validateProjectedVolumeSource, validateDownwardAPIVolumeSource, validateKeyToPath:
  // "must be a number between 0 and 0777 (octal), both inclusive".
  make('configmap-default-mode-too-big', daemonSet, no, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', defaultMode: 512 } }); }),
  make('configmap-default-mode-0777', daemonSet, ok, (_, p, c) => { withVolume(p, c, { configMap: { name: 'cfg', defaultMode: 511 } }); }),
  make('secret-default-mode-negative', daemonSet, no, (_, p, c) => { withVolume(p, c, { secret: { secretName: 'sec', defaultMode: -1 } }); }),
  make('secret-item-mode-too-big', daemonSet, no, (_, p, c) => { withVolume(p, c, { secret: { secretName: 'sec', items: items('k', { mode: 1000 }) } }); }),
  make('projected-default-mode-too-big', daemonSet, no, (_, p, c) => { withVolume(p, c, { projected: { defaultMode: 4096, sources: [{ configMap: { name: 'cfg' } }] } }); }),
  make('downward-item-mode-negative', daemonSet, no, (_, p, c) => { withVolume(p, c, { downwardAPI: { items: [{ path: 'name', mode: -8, fieldRef: { fieldPath: 'metadata.name' } }] } }); }),

  // validateMountPropagation: "Bidirectional mount propagation is available only to privileged containers".
  makeIn('bidirectional-unprivileged', privileged, daemonSet, no, (_, p, c) => { withVolume(p, c, { hostPath: { path: '/mnt' } }, { mountPropagation: 'Bidirectional' }); }),
  makeIn('bidirectional-unprivileged-init', privileged, daemonSet, no, (_, p, c) => {
    p.initContainers = [{ name: 'init', image: 'busybox:1.36', volumeMounts: [{ name: 'v', mountPath: '/v', mountPropagation: 'Bidirectional' }] }];
    withVolume(p, c, { hostPath: { path: '/mnt' } });
  }),
  makeIn('bidirectional-privileged', privileged, daemonSet, ok, (_, p, c) => {
    withVolume(p, c, { hostPath: { path: '/mnt' } }, { mountPropagation: 'Bidirectional' });
    c.securityContext = { privileged: true };
  }),
  makeIn('host-to-container-unprivileged', privileged, daemonSet, ok, (_, p, c) => { withVolume(p, c, { hostPath: { path: '/mnt' } }, { mountPropagation: 'HostToContainer' }); }),

  // Code review: validateProjectionSources: "may not specify a duration less than 10 minutes".
  make('token-expiration-too-short', daemonSet, no, (_, p, c) => { withVolume(p, c, { projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 60 } }] } }); }),
  // Code review: validateDownwardAPIVolumeFile -> validateObjectFieldSelector with validVolumeDownwardAPIFieldPathExpressions.
  make('downward-volume-node-name', daemonSet, no, (_, p, c) => { withVolume(p, c, { downwardAPI: { items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }] } }); }),
  make('downward-volume-labels', daemonSet, ok, (_, p, c) => { withVolume(p, c, { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }); }),

  // ValidateObjectMeta -> ValidateFinalizers (core's ValidateFinalizerName): "name is neither a standard finalizer name nor is it fully qualified".
  make('finalizer-not-qualified', configMap, no, (o) => { o.metadata.finalizers = ['cleanup']; }),
  make('finalizer-qualified', configMap, ok, (o) => { o.metadata.finalizers = ['example.com/cleanup']; }),
  // ValidateOwnerReferences: "uid must not be empty"; validateOwnerReference; "Only one reference can have Controller set to true".
  make('owner-reference-empty-uid', configMap, no, (o) => { o.metadata.ownerReferences = [owner({ uid: '' })]; }),
  make('owner-reference-two-controllers', configMap, no, (o) => { o.metadata.ownerReferences = [owner({ controller: true }), owner({ name: 'other', controller: true })]; }),
  make('owner-reference-one-controller', configMap, ok, (o) => { o.metadata.ownerReferences = [owner({ controller: true }), owner({ name: 'other' })]; }),
  // ValidateNamespace: spec.finalizers -> validateFinalizerName.
  make('namespace-finalizer-not-qualified', namespace, no, (o) => { o.spec = { finalizers: ['cleanup'] }; }),

  // ValidateService.
  make('service-port-twice', service, no, (o) => { o.spec.ports = [{ name: 'a', port: 80 }, { name: 'b', port: 80 }]; }),
  make('service-port-twice-two-protocols', service, ok, (o) => { o.spec.ports = [{ name: 'a', port: 53 }, { name: 'b', port: 53, protocol: 'UDP' }]; }),
  make('service-cluster-ip-not-an-ip', service, no, (o) => { o.spec.clusterIP = '10.0.0'; }),
  make('service-external-traffic-policy-cluster-ip', service, no, (o) => { o.spec.externalTrafficPolicy = 'Local'; }),
  make('service-external-name-not-dns', service, no, (o) => { o.spec = { type: 'ExternalName', externalName: 'not a host' }; }),
  make('service-external-ip-not-an-ip', service, no, (o) => { o.spec.externalIPs = ['example.com']; }),

  // ValidateStatefulSetSpec: spec.ordinals.start "must be greater than or equal to 0".
  make('statefulset-ordinals-negative', statefulSet, no, (o) => { o.spec.ordinals = { start: -1 }; }),
  make('statefulset-ordinals-start', statefulSet, ok, (o) => { o.spec.ordinals = { start: 1 }; }),

  // ValidatePersistentVolumeClaimSpec: "at least 1 access mode is required", resources.requests.storage "Required value".
  { id: 'pvc-no-access-modes', server: no, objects: [pvc({ resources: { requests: { storage: '1Gi' } } })] },
  { id: 'pvc-no-storage-request', server: no, objects: [pvc({ accessModes: ['ReadWriteOnce'] })] },
  { id: 'pvc-clean', server: ok, objects: [pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } })] },
  // ValidateResourceQuota -> ValidateResourceQuotaSpec -> ValidateResourceQuantityValue: "must be greater than or equal to 0".
  { id: 'resourcequota-negative', server: no, objects: [quota({ pods: '-1' })] },
  { id: 'resourcequota-clean', server: ok, objects: [quota({ pods: '10', 'requests.cpu': '2' })] },
  // ValidateLimitRange: "min value 1 is greater than max value 500m".
  { id: 'limitrange-min-above-max', server: no, objects: [limitRange({ min: { cpu: '1' }, max: { cpu: '500m' } })] },
  { id: 'limitrange-clean', server: ok, objects: [limitRange({ min: { cpu: '100m' }, max: { cpu: '1' }, default: { cpu: '500m' } })] },
  // ValidateIPBlock: except "must be a strict subset of `cidr`".
  { id: 'networkpolicy-except-outside-cidr', server: no, objects: [networkPolicy({ cidr: '10.0.0.0/16', except: ['192.168.0.0/24'] })] },
  { id: 'networkpolicy-except-inside-cidr', server: ok, objects: [networkPolicy({ cidr: '10.0.0.0/16', except: ['10.0.1.0/24'] })] },
  // ValidateClusterRole: "at least one clusterRoleSelector required if aggregationRule is non-nil".
  make('clusterrole-aggregation-no-selector', clusterRole, no, (o) => { o.aggregationRule = { clusterRoleSelectors: [] }; }),
  make('clusterrole-aggregation-selector', clusterRole, ok, (o) => { o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { 'corpus.example.com/aggregate': 'true' } }] }; o.rules = []; }),

  // ValidateSecret: basic-auth needs username or password; dockerconfigjson must be JSON.
  make('secret-basic-auth-no-user', secret, no, (o) => { o.type = 'kubernetes.io/basic-auth'; o.stringData = { token: 'x' }; }),
  make('secret-basic-auth-password', secret, ok, (o) => { o.type = 'kubernetes.io/basic-auth'; o.stringData = { password: 'x' }; }),
  make('secret-dockerconfigjson-not-json', secret, no, (o) => { o.type = 'kubernetes.io/dockerconfigjson'; o.stringData = { '.dockerconfigjson': 'not json' }; }),
  make('secret-dockerconfigjson-json', secret, ok, (o) => { o.type = 'kubernetes.io/dockerconfigjson'; o.stringData = { '.dockerconfigjson': '{"auths":{}}' }; }),

  // Code review: ValidateConfigMap -> IsConfigMapKey: "must not be '.'", "must not be '..'", "must not start with '..'".
  make('configmap-key-dot', configMap, no, (o) => { o.data = { '.': 'x' }; }),
  make('configmap-key-dot-dot', configMap, no, (o) => { o.data = { '..': 'x' }; }),
  make('configmap-key-reserved', configMap, no, (o) => { o.data = { '..data': 'x' }; }),
  make('configmap-key-dotfile', configMap, ok, (o) => { o.data = { '.env': 'x', 'a..b': 'z' }; }),

  // A node-affinity value that is no label value: the server accepts it (ValidateNodeSelectorRequirement checks only the operator and values' count);
  // the DaemonSet controller cannot parse the term and places no pod (a warning of the checks, not a refusal).
  make('node-affinity-value-not-a-label-value', daemonSet, ok, (_, p) => {
    p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu nodes'] }] }] } } };
  }, { servers: { '1.35': no }, why: 'v1.35.6 refused it: "values[0]: Invalid value: \"gpu nodes\": a valid label must be an empty string or consist of alphanumeric characters" (kubernetes/kubernetes#128212, from 1.33)' }),
];

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n';

/** YAML as kubectl reads it (issue 25, defect 5): sigs.k8s.io/yaml, go-yaml v2 then JSON, after kubectl's split at `---` lines. */
export const YAML_AS_KUBECTL: readonly CorpusCase[] = [
  // go-yaml v2 keeps a timestamp as its text when decoding into interface{}, and has no base-60 numbers.
  text('yaml-unquoted-date', `${CM}data:\n  release: 2024-06-01\n  at: 2024-06-01 10:00:00\n`, ok),
  text('yaml-unquoted-time', `${CM}data:\n  window: 03:30\n  long: 190:20:30\n`, ok),
  text('yaml-env-value-time', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod\nspec:\n  automountServiceAccountToken: false\n  securityContext: {runAsNonRoot: true, runAsUser: 65534, seccompProfile: {type: RuntimeDefault}}\n  containers:\n  - name: main\n    image: busybox:1.36\n    env:\n    - name: BACKUP_AT\n      value: 03:30\n    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}\n', ok),
  // Go's ParseInt(s, 0, 64) reads 0o17 as 15: a number, which ConfigMap data refuses.
  text('yaml-0o-octal-is-a-number', `${CM}data:\n  mode: 0o17\n`, no),
  // A stream starting with '{' is read as JSON objects one after another (jq -c).
  text('yaml-json-stream', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}\n', ok),
  text('yaml-json-objects-back-to-back', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}', ok),
  // !!binary is decoded to its bytes, read as a string.
  text('yaml-binary-tag', `${CM}data:\n  greeting: !!binary aGVsbG8=\n`, ok),
  // kubectl's YAMLReader: "invalid Yaml document separator" when anything but a comment follows ---.
  text('yaml-inline-document-after-separator', '--- {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}}\n', no),
  text('yaml-comment-after-separator', `--- # the config\n${CM}`, ok),
  // Each piece between --- lines is parsed alone: a directive before --- stands alone ("did not find expected <document start>"), and go-yaml v2 takes no %YAML 1.2.
  text('yaml-directive-1.2', `%YAML 1.2\n---\n${CM}`, no),
  text('yaml-directive-1.1', `%YAML 1.1\n---\n${CM}`, no),
];
