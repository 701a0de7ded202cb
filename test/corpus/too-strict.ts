/**
 * Corpus cases for the checks that were stricter than the API server
 * (issue 17, "Too strict"): each class with manifests the server accepts and
 * nearby ones it refuses.
 */
import {
  clusterRole, clusterRoleBinding, configMap, CorpusCase, daemonSet, deployment, job, make, namespace, no, ok, pdb, role, roleBinding, secret, service, statefulSet,
} from './bases';

/** A string of this many bytes of base64 (of zero bytes). */
const base64Of = (bytes: number) => Buffer.alloc(bytes).toString('base64');

export const TOO_STRICT: readonly CorpusCase[] = [
  // Names: each kind's name function (ValidateObjectMeta's nameFn), not one rule for all.
  make('name-pdb-path-segment', pdb, ok, (o) => { o.metadata.name = 'Web:Budget_1'; }),
  make('name-pdb-percent', pdb, no, (o) => { o.metadata.name = 'web%budget'; }),
  make('name-role-colon', role, ok, (o) => { o.metadata.name = 'corpus:aggregate-to-view'; }),
  make('name-role-dot-dot', role, no, (o) => { o.metadata.name = '..'; }),
  make('name-clusterrole-upper-case', clusterRole, ok, (o) => { o.metadata.name = 'Corpus:Readers'; }),
  make('name-clusterrole-percent', clusterRole, no, (o) => { o.metadata.name = 'corpus%readers'; }),
  make('name-rolebinding-colon', roleBinding, ok, (o) => { o.metadata.name = 'corpus:reader-binding'; }),
  make('name-clusterrolebinding-upper-case', clusterRoleBinding, ok, (o) => { o.metadata.name = 'Corpus:Reader'; }),
  make('name-service-leading-digit', service, no, (o) => { o.metadata.name = '1svc'; }),
  make('name-service-dns-1035', service, ok, (o) => { o.metadata.name = 'svc-1'; }),
  make('name-namespace-dotted', namespace, no, (o) => { o.metadata.name = 'corpus.extra'; }),
  make('name-namespace-leading-digit', namespace, ok, (o) => { o.metadata.name = '1corpus-extra'; }),
  make('name-statefulset-dotted', statefulSet, no, (o) => { o.metadata.name = 'db.main'; }),
  make('name-statefulset-leading-digit', statefulSet, ok, (o) => { o.metadata.name = '1db'; }),
  make('name-configmap-colon', configMap, no, (o) => { o.metadata.name = 'agent:config'; }),
  make('name-configmap-leading-digit', configMap, ok, (o) => { o.metadata.name = '1config'; }),
  make('name-deployment-upper-case', deployment, no, (o) => { o.metadata.name = 'Web'; }),
  make('name-job-dotted', job, ok, (o) => { o.metadata.name = 'job.nightly'; }, { warnings: { '1.32': ['metadata.name: this is used in Pod names and hostnames'], '1.35': ['metadata.name: this is used in Pod names and hostnames'] } }),
  make('name-secret-too-long', secret, no, (o) => { o.metadata.name = 's'.repeat(254); }),
  make('name-secret-253', secret, ok, (o) => { o.metadata.name = 's'.repeat(253); }),

  // StatefulSet: claim templates are volumes; the template is not validated; serviceName is optional.
  make('statefulset-claim-template-mount', statefulSet, ok, (o, _, c) => {
    o.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data' }];
  }),
  make('statefulset-mount-undefined', statefulSet, ok, (_, __, c) => { c.volumeMounts = [{ name: 'nodata', mountPath: '/data' }]; }, { servers: { '1.35': no }, why: 'a StatefulSet\'s pod template is validated in 1.35, not in 1.32' }),
  make('statefulset-no-service-name', statefulSet, ok, (o) => { delete o.spec.serviceName; }),
  make('statefulset-template-bad-pull-policy', statefulSet, ok, (_, __, c) => { c.imagePullPolicy = 'Sometimes'; }, { servers: { '1.35': no }, why: 'a StatefulSet\'s pod template is validated in 1.35, not in 1.32' }),
  make('statefulset-template-no-container-name', statefulSet, ok, (_, __, c) => { delete c.name; }, { servers: { '1.35': no }, why: 'a StatefulSet\'s pod template is validated in 1.35, not in 1.32' }),
  make('statefulset-template-restart-never', statefulSet, no, (_, p) => { p.restartPolicy = 'Never'; }),
  make('statefulset-template-host-pid', statefulSet, no, (_, p) => { p.hostPID = true; }),
  make('deployment-mount-undefined', deployment, no, (_, __, c) => { c.volumeMounts = [{ name: 'nodata', mountPath: '/data' }]; }),

  // Required in the OpenAPI definitions, not by the server (found by removing every required field of rich objects).
  make('required-not-http-header-value', daemonSet, ok, (_, __, c) => { c.readinessProbe = { httpGet: { path: '/', port: 8080, httpHeaders: [{ name: 'X-Probe' }] } }; }),
  make('required-not-roleref-api-group', clusterRoleBinding, ok, (o) => { delete o.roleRef.apiGroup; }),
  make('required-roleref-api-group-wrong', clusterRoleBinding, no, (o) => { o.roleRef.apiGroup = 'rbac.example.com'; }),
  make('required-not-subject-api-group', roleBinding, ok, (o) => { o.subjects = [{ kind: 'User', name: 'jane' }]; }),
  make('required-not-networkpolicy-pod-selector', () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' }, spec: { policyTypes: ['Ingress'] } }), ok),
  make('required-httpheader-name', daemonSet, no, (_, __, c) => { c.readinessProbe = { httpGet: { path: '/', port: 8080, httpHeaders: [{ value: 'x' }] } }; }),

  // An explicit null is unset, not a value.
  make('null-toleration-effect', daemonSet, ok, (_, p) => { p.tolerations = [{ key: 'a', operator: 'Exists', effect: null }]; }),
  make('null-proc-mount', daemonSet, ok, (_, __, c) => { c.securityContext.procMount = null; }),
  make('null-label-value', configMap, ok, (o) => { o.metadata.labels = { tier: null }; }),
  make('null-host-network', daemonSet, ok, (_, p) => { p.hostNetwork = null; }),
  make('null-containers', daemonSet, no, (_, p) => { p.containers = null; }),

  // Fields the server drops while their feature gate is off.
  make('dropped-proc-mount-unmasked', daemonSet, ok, (_, __, c) => { c.securityContext.procMount = 'Unmasked'; }, { servers: { '1.35': no }, why: 'ProcMountType is on by default since 1.33: 1.35 keeps procMount and validates it (Unmasked needs hostUsers: false); 1.32 drops it' }),
  make('dropped-proc-mount-bogus', daemonSet, ok, (_, __, c) => { c.securityContext.procMount = 'Bogus'; }, { servers: { '1.35': no }, why: 'ProcMountType is on by default since 1.33: 1.35 validates procMount' }),
  make('dropped-host-users', daemonSet, ok, (_, p) => { p.hostUsers = false; }),
  make('dropped-resize-policy', daemonSet, ok, (_, __, c) => { c.resizePolicy = [{ resourceName: 'cpux', restartPolicy: 'Bogus' }]; }, { servers: { '1.35': no }, why: 'InPlacePodVerticalScaling is on by default since 1.33: 1.35 validates resizePolicy; 1.32 drops it' }),

  // ConfigMap and Secret sizes are bytes: binaryData and Secret data decoded.
  { ...make('configmap-binary-900k-bytes', configMap, ok, (o) => { o.binaryData = { blob: base64Of(900_000) }; }), apply: 'server-side' },
  { ...make('configmap-binary-over-1mib', configMap, no, (o) => { o.binaryData = { blob: base64Of(1024 * 1024 + 1) }; }), apply: 'server-side' },
  { ...make('secret-data-900k-bytes', secret, ok, (o) => { o.data = { blob: base64Of(900_000) }; delete o.stringData; }), apply: 'server-side' },
  { ...make('configmap-data-over-1mib', configMap, no, (o) => { o.data = { big: 'x'.repeat(1024 * 1024 + 1) }; }), apply: 'server-side' },
  // Client-side apply stores the object in an annotation of at most 256 KiB.
  make('configmap-300k-client-side', configMap, no, (o) => { o.data = { big: 'x'.repeat(300_000) }; }),
  make('configmap-200k-client-side', configMap, ok, (o) => { o.data = { big: 'x'.repeat(200_000) }; }),

  // A DaemonSet's OnDelete ignores rollingUpdate; a Deployment's Recreate does not.
  make('daemonset-on-delete-with-rolling-update', daemonSet, ok, (o) => { o.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } }; }),

  // metadata.namespace on cluster-scoped objects: ignored (a warning).
  make('namespace-on-namespace', namespace, ok, (o) => { o.metadata.namespace = 'default'; }),
  make('namespace-on-clusterrolebinding', clusterRoleBinding, ok, (o) => { o.metadata.namespace = 'default'; }),
];
