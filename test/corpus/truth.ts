/**
 * Corpus cases of issue 33 ("diff and check tell the truth"): what `check`
 * judged wrong against the Kubernetes source. Each verdict is read from the
 * source of the release named beside it (CI asks the v1.32 and v1.35
 * servers).
 */
import { configMap, CorpusCase, daemonSet, make, no, ok } from './bases';

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
];
