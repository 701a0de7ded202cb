/**
 * Corpus cases of issue 33 ("diff and check tell the truth"): what `check`
 * judged wrong against the Kubernetes source. Each verdict is read from the
 * source of the release named beside it (CI asks the v1.32 and v1.35
 * servers).
 */
import { barePod, configMap, CorpusCase, daemonSet, make, makeIn, no, ok, podSecurityNamespace, service } from './bases';

const APPARMOR = 'container.apparmor.security.beta.kubernetes.io/main';
const baselineLatest = podSecurityNamespace('baseline', undefined, 'latest');
const baselineV128 = podSecurityNamespace('baseline', undefined, 'v1.28');
/** A baseline pod (no restricted hardening) with this SELinux type. */
const seLinuxType = (type: string) => (_: unknown, p: Record<string, unknown>, c: Record<string, unknown>) => {
  delete c.securityContext;
  p.securityContext = { seLinuxOptions: { type } };
};

export const TRUTH: readonly CorpusCase[] = [
  // One object twice: kubectl apply creates it, then updates it; the server accepts both (check warns, object-twice).
  { id: 'input-object-twice', server: ok, objects: [configMap(), { ...configMap(), data: { 'agent.conf': 'level=debug' } }] },

  // Gated fields (pkg/api/pod/util.go: dropDisabledFields of each release; gates of pkg/features/kube_features.go).
  make('gated-sidecar-init-restart-policy', daemonSet, ok, (_, p, c) => { p.initContainers = [{ ...structuredClone(c), name: 'side', restartPolicy: 'Always' }]; }, { why: 'SidecarContainers: 1.28 drops an init container\'s restartPolicy (alpha; v1.28.0 dropDisabledFields), later servers keep it' }),
  make('gated-image-volume', daemonSet, ok, (_, p, c) => {
    p.volumes = [{ name: 'img', image: { reference: 'busybox:1.36', pullPolicy: 'IfNotPresent' } }];
    c.volumeMounts = [{ name: 'img', mountPath: '/img', readOnly: true }];
  }, { at128: no, why: 'ImageVolume: 1.32 drops the volume with its mounts (dropImageVolumes); on in 1.35, and check_restrictedVolumes allows image from the 1.33 server at every policy version; 1.28: an unknown field' }),
  make('gated-stop-signal', daemonSet, no, (_, __, c) => { c.lifecycle = { stopSignal: 'SIGTERM' }; }, { servers: { '1.35': ok }, why: 'ContainerStopSignals: the field exists from 1.33 (1.32: unknown to --validate=strict); 1.35 drops it (alpha; dropContainerStopSignals)' }),
  make('gated-hostname-override', daemonSet, no, (_, p) => { p.hostnameOverride = 'agent-host'; }, { servers: { '1.35': ok }, why: 'HostnameOverride: the field exists from 1.34 (dropped there, alpha), on in 1.35 (beta)' }),
  make('gated-env-file-key-ref', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'env', emptyDir: {} }];
    c.volumeMounts = [{ name: 'env', mountPath: '/env' }];
    c.env = [{ name: 'TOKEN', valueFrom: { fileKeyRef: { volumeName: 'env', path: 'agent.env', key: 'TOKEN' } } }];
  }, { servers: { '1.35': ok }, why: 'EnvFiles: fileKeyRef exists from 1.34 (dropped there, leaving valueFrom empty, which ValidateEnv refuses), on in 1.35' }),
  make('recursive-read-only-if-possible-with-propagation', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'data', emptyDir: {} }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'HostToContainer' }];
  }, { why: 'validateMountRecursiveReadOnly: Enabled and IfPossible may only be set with mountPropagation None or unset (1.28: an unknown field)' }),

  // Pod specs the server refuses (pkg/apis/core/validation, v1.28 to v1.36).
  make('volume-downward-api-resource-without-container', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'info', downwardAPI: { items: [{ path: 'mem', resourceFieldRef: { resource: 'limits.memory' } }] } }];
    c.volumeMounts = [{ name: 'info', mountPath: '/info', readOnly: true }];
  }, { why: 'validateDownwardAPIVolumeFile: a resourceFieldRef file needs containerName (validateContainerResourceFieldSelector, volume true)' }),
  make('volume-downward-api-resource-with-container', daemonSet, ok, (_, p, c) => {
    p.volumes = [{ name: 'info', downwardAPI: { items: [{ path: 'mem', resourceFieldRef: { containerName: 'main', resource: 'limits.memory' } }] } }];
    c.volumeMounts = [{ name: 'info', mountPath: '/info', readOnly: true }];
  }),
  make('volume-empty-dir-negative-size-limit', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: '-1Gi' } }];
    c.volumeMounts = [{ name: 'scratch', mountPath: '/scratch' }];
  }, { why: 'ValidateVolumes: an emptyDir sizeLimit below 0 is forbidden' }),

  make('volume-downward-api-field-and-resource', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'info', downwardAPI: { items: [{ path: 'a', fieldRef: { fieldPath: 'metadata.name' }, resourceFieldRef: { containerName: 'main', resource: 'limits.cpu' } }] } }];
    c.volumeMounts = [{ name: 'info', mountPath: '/info', readOnly: true }];
  }, { why: 'validateDownwardAPIVolumeFile: fieldRef and resourceFieldRef can not be specified simultaneously' }),
  make('volume-ephemeral-without-template', daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'scratch', ephemeral: {} }]; c.volumeMounts = [{ name: 'scratch', mountPath: '/scratch' }]; }, { why: 'validateEphemeralVolumeSource: volumeClaimTemplate is required' }),
  make('volume-pvc-without-claim-name', daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: '' } }]; c.volumeMounts = [{ name: 'data', mountPath: '/data' }]; }, { why: 'validatePersistentClaimVolumeSource: claimName is required' }),
  make('volume-mount-sub-path-and-expr', daemonSet, no, (_, p, c) => {
    p.volumes = [{ name: 'data', emptyDir: {} }];
    c.volumeMounts = [{ name: 'data', mountPath: '/data', subPath: 'a', subPathExpr: '$(NODE_NAME)' }];
  }, { why: 'ValidateVolumeMounts: subPathExpr and subPath are mutually exclusive' }),
  make('pod-readiness-gate-not-qualified', daemonSet, no, (_, p) => { p.readinessGates = [{ conditionType: 'agent ready' }]; }, { why: 'validateReadinessGates: a conditionType is a qualified name' }),
  make('pod-readiness-gate-qualified', daemonSet, ok, (_, p) => { p.readinessGates = [{ conditionType: 'example.com/agent-ready' }]; }),
  make('security-sysctl-twice', barePod, no, (_, p) => { p.securityContext.sysctls = [{ name: 'kernel.shm_rmid_forced', value: '0' }, { name: 'kernel.shm_rmid_forced', value: '1' }]; }, { why: 'validateSysctls: each name once' }),

  // Services the server refuses (ValidateService, v1.28 to v1.36).
  make('service-app-protocol-not-qualified', service, no, (o) => { o.spec.ports[0].appProtocol = 'my protocol'; }),
  make('service-app-protocol-qualified', service, ok, (o) => { o.spec.ports[0].appProtocol = 'kubernetes.io/h2c'; }),
  make('service-single-stack-two-families', service, no, (o) => { o.spec.ipFamilyPolicy = 'SingleStack'; o.spec.ipFamilies = ['IPv4', 'IPv6']; }),
  make('service-load-balancer-headless', service, no, (o) => { o.spec.type = 'LoadBalancer'; o.spec.clusterIP = 'None'; }),

  // Pod Security as the server judges it (pod-security-admission policy checks).
  make('psa-apparmor-annotation-empty', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { [APPARMOR]: '' }; }, {
    warnings: { '1.28': [], '1.32': [`spec.template.metadata.annotations[${APPARMOR}]: deprecated since v1.30`], '1.35': [`spec.template.metadata.annotations[${APPARMOR}]: deprecated since v1.30`] },
    why: 'check_appArmorProfile.go allowedAnnotationValue: an empty value is unset, admitted at every level; ValidateAppArmorProfileFormat accepts it',
  }),
  makeIn('psa-selinux-container-engine-latest', baselineLatest, barePod, ok, seLinuxType('container_engine_t'), { at128: no, why: 'check_seLinuxOptions.go: baseline allows container_engine_t from policy v1.31 (latest is the server\'s)' }),
  makeIn('psa-version-v1-28-selinux-container-engine', baselineV128, barePod, no, seLinuxType('container_engine_t'), { why: 'enforce-version v1.28 is before container_engine_t was allowed' }),
];
