/**
 * Corpus cases whose answer depends on the Kubernetes version (issue 26):
 * fields added after 1.28, APIs removed or added, Pod Security by a
 * namespace's `enforce-version`, and the server's warnings. Each is asked of
 * every server version (SERVER_VERSIONS); `servers` records where one answers
 * otherwise, `at128` what a 1.28 server answers where it is not 1.32's.
 */
import { barePod, CORPUS_NAMESPACE, CorpusCase, daemonSet, job, make, makeIn, no, Obj, ok, podSecurityNamespace, service } from './bases';

/** The AppArmor annotation key of a container (deprecated since 1.30 for the securityContext field). */
const appArmorKey = (container: string) => `container.apparmor.security.beta.kubernetes.io/${container}`;

const flowSchema = (apiVersion: string): Obj => ({
  apiVersion, kind: 'FlowSchema', metadata: { name: 'corpus-agents' },
  spec: {
    priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: 5000,
    rules: [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'agent', namespace: CORPUS_NAMESPACE } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] }],
  },
});
const priorityLevel = (apiVersion: string): Obj => ({
  apiVersion, kind: 'PriorityLevelConfiguration', metadata: { name: 'corpus-agents' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
});
const deviceClass = (apiVersion: string): Obj => ({ apiVersion, kind: 'DeviceClass', metadata: { name: 'corpus-gpu' }, spec: { selectors: [{ cel: { expression: "device.driver == 'gpu.example.com'" } }] } });
const volumeAttributesClass = (apiVersion: string): Obj => ({ apiVersion, kind: 'VolumeAttributesClass', metadata: { name: 'corpus-fast' }, driverName: 'csi.example.com', parameters: { iops: '3000' } });
const serviceCidr = (apiVersion: string): Obj => ({ apiVersion, kind: 'ServiceCIDR', metadata: { name: 'corpus-extra' }, spec: { cidrs: ['10.100.0.0/16'] } });
const admissionPolicy = (apiVersion: string): Obj => ({
  apiVersion, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'corpus-replicas' },
  spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas <= 5' }] },
});

/** A Job of two indexed completions, which successPolicy needs. */
function indexedJob(o: Obj): void {
  o.spec.completionMode = 'Indexed';
  o.spec.completions = 2;
  o.spec.parallelism = 2;
}

const baselineLatest = podSecurityNamespace('baseline', undefined, 'latest');
const baselineV128 = podSecurityNamespace('baseline', undefined, 'v1.28');
const baselineV131 = podSecurityNamespace('baseline', undefined, 'v1.31');

/** A baseline pod (no restricted hardening) with these sysctls. */
const sysctls = (...names: string[]) => (_: Obj, p: Obj, c: Obj) => {
  delete c.securityContext;
  p.securityContext = { sysctls: names.map((name) => ({ name, value: name.endsWith('mem') ? '4096 87380 6291456' : '60' })) };
};

export const VERSIONED: readonly CorpusCase[] = [
  // Fields added after 1.28.
  make('since-apparmor-pod-field', daemonSet, ok, (_, p) => { p.securityContext.appArmorProfile = { type: 'RuntimeDefault' }; }, { at128: no, why: 'the pod-level appArmorProfile exists since 1.30' }),
  make('since-apparmor-localhost-without-profile', daemonSet, no, (_, __, c) => { c.securityContext.appArmorProfile = { type: 'Localhost' }; }, { why: 'ValidateAppArmorProfileField: Localhost needs localhostProfile (1.28: an unknown field)' }),
  make('since-apparmor-field-unconfined-daemonset', daemonSet, no, (_, __, c) => { c.securityContext.appArmorProfile = { type: 'Unconfined' }; }, { why: 'Pod Security of 1.30 and later reads the field at every policy version, v1.28 (the corpus namespace\'s) included: "forbidden AppArmor profile"; 1.28: an unknown field' }),
  make('since-apparmor-field-unconfined-pod', barePod, no, (_, __, c) => { c.securityContext.appArmorProfile = { type: 'Unconfined' }; }, { why: 'a Pod\'s field is copied to the annotation before admission (applyAppArmorVersionSkew), which Pod Security v1.28 refuses (1.28: an unknown field)' }),
  make('since-sleep-zero-seconds', daemonSet, no, (_, __, c) => { c.lifecycle = { preStop: { sleep: { seconds: 0 } } }; }, { servers: { '1.35': ok }, why: 'a zero sleep: PodLifecycleSleepActionAllowZero, beta and on by default since 1.33' }),
  make('since-sleep-negative-seconds', daemonSet, no, (_, __, c) => { c.lifecycle = { preStop: { sleep: { seconds: -1 } } }; }),
  make('since-traffic-distribution-prefer-close', service, ok, (o) => { o.spec.trafficDistribution = 'PreferClose'; }, { at128: no, warnings: { '1.28': [], '1.35': ['spec.trafficDistribution: "PreferClose" is deprecated'] }, why: 'trafficDistribution exists since 1.30 (ServiceTrafficDistribution, on since 1.31); 1.35 warns that PreferClose is deprecated for PreferSameZone' }),
  make('since-traffic-distribution-prefer-same-zone', service, no, (o) => { o.spec.trafficDistribution = 'PreferSameZone'; }, { servers: { '1.35': ok }, why: 'PreferSameZone and PreferSameNode: PreferSameTrafficDistribution, beta and on by default since 1.34' }),
  make('since-traffic-distribution-bad', service, no, (o) => { o.spec.trafficDistribution = 'Nearest'; }),
  make('since-recursive-read-only-enabled', daemonSet, ok, (_, p, c) => {
    p.volumes = [{ name: 'data', emptyDir: {} }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'Enabled' }];
  }, { at128: no, why: 'recursiveReadOnly exists since 1.30 (RecursiveReadOnlyMounts, beta since 1.31, GA in 1.33)' }),
  make('since-recursive-read-only-if-possible', daemonSet, ok, (_, p, c) => {
    p.volumes = [{ name: 'data', emptyDir: {} }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'IfPossible' }];
  }, { at128: no }),
  make('since-recursive-read-only-not-read-only', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'data', emptyDir: {} }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data', recursiveReadOnly: 'Enabled' }];
  }, { why: 'validateMountRecursiveReadOnly: Enabled needs readOnly: true (1.28: an unknown field)' }),
  make('since-job-pod-replacement-policy', job, ok, (o) => { o.spec.podReplacementPolicy = 'Failed'; }, { why: 'podReplacementPolicy: JobPodReplacementPolicy, alpha in 1.28 (the server drops it), beta since 1.29' }),
  make('since-job-pod-replacement-policy-bad', job, no, (o) => { o.spec.podReplacementPolicy = 'Sometimes'; }, { at128: ok, why: 'a 1.28 server drops the alpha field before validation' }),
  make('since-job-success-policy', job, ok, (o) => { indexedJob(o); o.spec.successPolicy = { rules: [{ succeededIndexes: '0' }] }; }, { at128: no, why: 'successPolicy exists since 1.30 (JobSuccessPolicy, on since 1.31, GA in 1.33)' }),
  make('since-job-success-policy-not-indexed', job, no, (o) => { o.spec.successPolicy = { rules: [{ succeededCount: 1 }] }; }, { why: 'validateSuccessPolicy: only for completionMode Indexed (1.28: an unknown field)' }),
  make('since-env-name-colon', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'APP:MODE', value: 'x' }]; }, { at128: no, why: 'RelaxedEnvironmentVariableValidation (on by default since 1.32): any printable ASCII but "="; 1.28 allows only [-._a-zA-Z0-9]' }),
  make('since-env-name-tab', daemonSet, no, (_, __, c) => { c.env = [{ name: 'A\tB', value: 'x' }]; }),
  make('since-proc-mount-default', daemonSet, ok, (_, __, c) => { c.securityContext.procMount = 'Default'; }),
  make('since-proc-mount-unmasked-host-users', barePod, ok, (_, p, c) => { p.hostUsers = false; c.securityContext.procMount = 'Unmasked'; }, { servers: { '1.35': no }, why: 'ProcMountType and UserNamespacesSupport (on by default since 1.33): 1.32 drops both fields; 1.35 keeps them, and Pod Security v1.28 (the corpus namespace) refuses Unmasked' }),
  make('since-resize-policy', daemonSet, ok, (_, __, c) => { c.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }]; }, { why: 'InPlacePodVerticalScaling: alpha until 1.32 (the server drops resizePolicy), beta and on since 1.33' }),

  // APIs removed or added after 1.28.
  make('api-flowschema-v1', () => flowSchema('flowcontrol.apiserver.k8s.io/v1'), ok, undefined, { at128: no, why: 'flowcontrol.apiserver.k8s.io/v1 is served since 1.29' }),
  make('api-flowschema-v1beta3', () => flowSchema('flowcontrol.apiserver.k8s.io/v1beta3'), no, undefined, { at128: ok, why: 'flowcontrol.apiserver.k8s.io/v1beta3 is removed in 1.32' }),
  make('api-flowschema-v1beta2', () => flowSchema('flowcontrol.apiserver.k8s.io/v1beta2'), no, undefined, { at128: ok, why: 'flowcontrol.apiserver.k8s.io/v1beta2 is removed in 1.29' }),
  make('api-prioritylevel-v1', () => priorityLevel('flowcontrol.apiserver.k8s.io/v1'), ok, undefined, { at128: no }),
  make('api-prioritylevel-v1beta3', () => priorityLevel('flowcontrol.apiserver.k8s.io/v1beta3'), no, undefined, { at128: ok, why: 'removed in 1.32' }),
  make('api-deviceclass-resource-v1', () => deviceClass('resource.k8s.io/v1'), no, undefined, { servers: { '1.35': ok }, why: 'resource.k8s.io/v1 is served since 1.34 (DRA GA)' }),
  make('api-deviceclass-resource-v1beta1', () => deviceClass('resource.k8s.io/v1beta1'), no, undefined, { why: 'resource.k8s.io/v1beta1 is not served by default' }),
  make('api-volumeattributesclass-v1', () => volumeAttributesClass('storage.k8s.io/v1'), no, undefined, { servers: { '1.35': ok }, why: 'storage.k8s.io/v1 VolumeAttributesClass is served since 1.34' }),
  make('api-volumeattributesclass-v1beta1', () => volumeAttributesClass('storage.k8s.io/v1beta1'), no, undefined, { why: 'storage.k8s.io/v1beta1 is not served by default' }),
  make('api-servicecidr-v1', () => serviceCidr('networking.k8s.io/v1'), no, undefined, { servers: { '1.35': ok }, why: 'networking.k8s.io/v1 ServiceCIDR is served since 1.33' }),
  make('api-servicecidr-v1beta1', () => serviceCidr('networking.k8s.io/v1beta1'), no, undefined, { why: 'networking.k8s.io/v1beta1 is not served by default' }),
  make('api-validating-admission-policy-v1', () => admissionPolicy('admissionregistration.k8s.io/v1'), ok, undefined, { at128: no, why: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is served since 1.30' }),
  make('api-validating-admission-policy-v1beta1', () => admissionPolicy('admissionregistration.k8s.io/v1beta1'), no, undefined, { at128: ok, why: 'v1beta1 is served in 1.28 only with its feature, off by default; not served by default in 1.32 or 1.35' }),

  // Pod Security by the namespace's enforce-version: sysctls baseline allows from v1.29 and v1.32.
  makeIn('psa-version-latest-keepalive-sysctl', baselineLatest, barePod, ok, sysctls('net.ipv4.tcp_keepalive_time'), { at128: no, why: 'baseline allows net.ipv4.tcp_keepalive_time from v1.29: latest is the server\'s version' }),
  makeIn('psa-version-v1-28-keepalive-sysctl', baselineV128, barePod, no, sysctls('net.ipv4.tcp_keepalive_time'), { why: 'enforce-version v1.28 judges by the v1.28 controls on every server' }),
  makeIn('psa-version-latest-rmem-sysctl', baselineLatest, barePod, ok, sysctls('net.ipv4.tcp_rmem'), { at128: no, why: 'baseline allows net.ipv4.tcp_rmem from v1.32' }),
  makeIn('psa-version-v1-31-rmem-sysctl', baselineV131, barePod, no, sysctls('net.ipv4.tcp_rmem'), { why: 'enforce-version v1.31 is before net.ipv4.tcp_rmem was allowed' }),
  makeIn('psa-version-latest-daemonset-keepalive-sysctl', baselineLatest, daemonSet, ok, sysctls('net.ipv4.tcp_keepalive_time'), { at128: no }),
  makeIn('psa-version-latest-proc-mount-unmasked-user-namespace', baselineLatest, barePod, ok, (_, p, c) => { delete p.securityContext; p.hostUsers = false; c.securityContext = { procMount: 'Unmasked' }; }, { why: 'Pod Security baseline allows an Unmasked procMount in a user namespace (hostUsers: false) from v1.35; 1.32 drops both fields' }),
  makeIn('psa-version-v1-28-proc-mount-unmasked-user-namespace', baselineV128, barePod, ok, (_, p, c) => { delete p.securityContext; p.hostUsers = false; c.securityContext = { procMount: 'Unmasked' }; }, { servers: { '1.35': no }, why: 'enforce-version v1.28 refuses an Unmasked procMount; 1.32 drops the field' }),
  makeIn('psa-version-latest-apparmor-field-unconfined', baselineLatest, barePod, no, (_, p, c) => { delete c.securityContext; p.securityContext = { appArmorProfile: { type: 'Unconfined' } }; }, { why: 'baseline refuses an Unconfined AppArmor profile, field or annotation' }),

  // Warnings.
  make('warning-apparmor-annotation-daemonset', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { [appArmorKey('main')]: 'runtime/default' }; }, {
    warnings: { '1.28': [], '1.32': [`spec.template.metadata.annotations[${appArmorKey('main')}]: deprecated since v1.30`], '1.35': [`spec.template.metadata.annotations[${appArmorKey('main')}]: deprecated since v1.30`] },
    why: 'the AppArmor annotations are deprecated since 1.30 for the appArmorProfile field (GetWarningsForPod)',
  }),
  make('warning-apparmor-annotation-pod', barePod, ok, (o) => { o.metadata.annotations = { [appArmorKey('main')]: 'runtime/default' }; }, {
    warnings: { '1.28': [], '1.32': [`metadata.annotations[${appArmorKey('main')}]: deprecated since v1.30`], '1.35': [`metadata.annotations[${appArmorKey('main')}]: deprecated since v1.30`] },
  }),
];
