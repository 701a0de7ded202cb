/**
 * A pod's volumes and volume mounts as the API server validates them
 * (pkg/apis/core/validation, validation.go: ValidateVolumes and the
 * validate<Source>VolumeSource functions, validateKeyToPath,
 * validateDownwardAPIVolumeFile, validateProjectionSources, ValidateVolumeMounts,
 * validateMountPropagation).
 */
import { checkDns1123Label } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, invalid, isInt, isRecord, list, unsupported } from './common';

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** validatePathNoBacksteps: no `..` element. */
function backsteps(path: string): boolean {
  return path.split('/').includes('..');
}

/** validateLocalDescendingPath: relative, without a `..` element. */
function localDescendingPath(add: Add, at: string, path: string): void {
  if (path.startsWith('/')) add(RULES.apiVolumes, at, `Invalid value: ${show(path)}: must be a relative path`);
  if (backsteps(path)) add(RULES.apiVolumes, at, `Invalid value: ${show(path)}: must not contain '..'`);
}

/** validateLocalNonReservedPath: a local descending path that does not start with `..` (the kubelet's `..data` links). */
function localNonReservedPath(add: Add, at: string, path: unknown): void {
  if (typeof path !== 'string') return;
  localDescendingPath(add, at, path);
  if (path.startsWith('..')) add(RULES.apiVolumes, at, `Invalid value: ${show(path)}: must not start with '..'`);
}

/** A file mode (defaultMode, mode): 0 to 0777. */
function checkMode(add: Add, at: string, mode: unknown): void {
  if (isInt(mode) && (mode < 0 || mode > 0o777)) add(RULES.apiVolumes, at, `Invalid value: ${mode}: must be a number between 0 and 0777 (octal), both inclusive`);
}

/** validateKeyToPath, for each item of a configMap or secret source. */
function checkItems(add: Add, at: string, items: unknown): void {
  list(items).forEach((item, i) => {
    const it = join(at, 'items', i);
    if (typeof item.key !== 'string' || item.key === '') add(RULES.apiVolumes, join(it, 'key'), 'Required value');
    if (typeof item.path !== 'string' || item.path === '') add(RULES.apiVolumes, join(it, 'path'), 'Required value');
    localNonReservedPath(add, join(it, 'path'), item.path);
    checkMode(add, join(it, 'mode'), item.mode);
  });
}

/** The fields a downward API volume file may name (validVolumeDownwardAPIFieldPathExpressions); annotations and labels also take a subscript. */
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** validateDownwardAPIVolumeFile, for each item of a downwardAPI source. */
function checkDownwardItems(add: Add, at: string, items: unknown): void {
  list(items).forEach((item, i) => {
    const it = join(at, 'items', i);
    if (typeof item.path !== 'string' || item.path === '') add(RULES.apiVolumes, join(it, 'path'), 'Required value');
    localNonReservedPath(add, join(it, 'path'), item.path);
    checkMode(add, join(it, 'mode'), item.mode);
    if (isRecord(item.fieldRef) && isRecord(item.resourceFieldRef)) {
      add(RULES.apiVolumes, it, 'Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously');
    }
    // validateContainerResourceFieldSelector with volume true: a file names its container.
    if (isRecord(item.resourceFieldRef) && (typeof item.resourceFieldRef.containerName !== 'string' || item.resourceFieldRef.containerName === '')) {
      add(RULES.apiVolumes, join(it, 'resourceFieldRef', 'containerName'), 'Required value');
    }
    const field = isRecord(item.fieldRef) ? item.fieldRef.fieldPath : undefined;
    if (typeof field === 'string' && !VOLUME_FIELD_PATHS.includes(field) && !/^metadata\.(annotations|labels)\['[^']+'\]$/.test(field)) {
      add(RULES.apiVolumes, join(it, 'fieldRef', 'fieldPath'), unsupported(field, VOLUME_FIELD_PATHS));
    }
  });
}

/** The shortest token lifetime the server issues (validateProjectionSources), and the longest it takes. */
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** validateProjectionSources: each source's items, and the service account token's path and lifetime. */
function checkProjected(add: Add, at: string, projected: KubeObject): void {
  checkMode(add, join(at, 'defaultMode'), projected.defaultMode);
  list(projected.sources).forEach((source, i) => {
    const src = join(at, 'sources', i);
    if (isRecord(source.configMap)) checkItems(add, join(src, 'configMap'), source.configMap.items);
    if (isRecord(source.secret)) checkItems(add, join(src, 'secret'), source.secret.items);
    if (isRecord(source.downwardAPI)) checkDownwardItems(add, join(src, 'downwardAPI'), source.downwardAPI.items);
    const token = source.serviceAccountToken;
    if (isRecord(token)) {
      const tat = join(src, 'serviceAccountToken');
      if (isInt(token.expirationSeconds) && token.expirationSeconds < MIN_TOKEN_SECONDS) {
        add(RULES.apiVolumes, join(tat, 'expirationSeconds'), `Invalid value: ${token.expirationSeconds}: may not specify a duration less than 10 minutes`);
      }
      if (isInt(token.expirationSeconds) && token.expirationSeconds > MAX_TOKEN_SECONDS) {
        add(RULES.apiVolumes, join(tat, 'expirationSeconds'), `Invalid value: ${token.expirationSeconds}: may not specify a duration larger than 2^32 seconds`);
      }
      if (typeof token.path !== 'string' || token.path === '') add(RULES.apiVolumes, join(tat, 'path'), 'Required value');
      localNonReservedPath(add, join(tat, 'path'), token.path);
    }
  });
}

/** ValidateVolumes: names, one source each, and each source's own rules. Returns the names a mount may use. */
export function checkVolumes(add: Add, pod: PodTemplate, claimTemplates: readonly string[]): Set<string> {
  const names = new Set<string>();
  list(pod.spec.volumes).forEach((v, i) => {
    const at = join(pod.specPath, 'volumes', i);
    if (typeof v.name !== 'string' || v.name === '') {
      add(RULES.apiVolumes, join(at, 'name'), 'Required value');
    } else {
      const problem = checkDns1123Label('name', v.name);
      if (problem) add(RULES.apiVolumes, join(at, 'name'), invalid(v.name, problem)!);
      if (names.has(v.name)) add(RULES.apiVolumes, join(at, 'name'), `Duplicate value: ${show(v.name)}`);
      names.add(v.name);
    }
    const sources = Object.keys(v).filter((k) => k !== 'name' && isRecord(v[k]));
    // A volume without a source is defaulted to emptyDir (SetDefaults_Volume).
    if (sources.length > 1) {
      add(RULES.apiVolumes, join(at, sources[1]), 'Forbidden: may not specify more than 1 volume type');
    }
    if (isRecord(v.hostPath)) {
      // validateHostPathVolumeSource.
      if (typeof v.hostPath.path !== 'string' || v.hostPath.path === '') {
        add(RULES.apiVolumes, join(at, 'hostPath', 'path'), 'Required value');
      } else if (backsteps(v.hostPath.path)) {
        add(RULES.apiVolumes, join(at, 'hostPath', 'path'), `Invalid value: ${show(v.hostPath.path)}: must not contain '..'`);
      }
      if (v.hostPath.type !== undefined && !HOST_PATH_TYPES.includes(v.hostPath.type)) {
        add(RULES.apiVolumes, join(at, 'hostPath', 'type'), unsupported(v.hostPath.type, HOST_PATH_TYPES));
      }
    }
    if (isRecord(v.configMap)) {
      if (typeof v.configMap.name !== 'string' || v.configMap.name === '') add(RULES.apiVolumes, join(at, 'configMap', 'name'), 'Required value');
      checkMode(add, join(at, 'configMap', 'defaultMode'), v.configMap.defaultMode);
      checkItems(add, join(at, 'configMap'), v.configMap.items);
    }
    if (isRecord(v.secret)) {
      if (typeof v.secret.secretName !== 'string' || v.secret.secretName === '') add(RULES.apiVolumes, join(at, 'secret', 'secretName'), 'Required value');
      checkMode(add, join(at, 'secret', 'defaultMode'), v.secret.defaultMode);
      checkItems(add, join(at, 'secret'), v.secret.items);
    }
    if (isRecord(v.downwardAPI)) {
      checkMode(add, join(at, 'downwardAPI', 'defaultMode'), v.downwardAPI.defaultMode);
      checkDownwardItems(add, join(at, 'downwardAPI'), v.downwardAPI.items);
    }
    if (isRecord(v.projected)) checkProjected(add, join(at, 'projected'), v.projected);
    // validateEphemeralVolumeSource, validatePersistentClaimVolumeSource, validateNFSVolumeSource: the required names.
    if (isRecord(v.ephemeral) && !isRecord(v.ephemeral.volumeClaimTemplate)) add(RULES.apiVolumes, join(at, 'ephemeral', 'volumeClaimTemplate'), 'Required value');
    if (isRecord(v.persistentVolumeClaim) && (typeof v.persistentVolumeClaim.claimName !== 'string' || v.persistentVolumeClaim.claimName === '')) add(RULES.apiVolumes, join(at, 'persistentVolumeClaim', 'claimName'), 'Required value');
    for (const field of ['server', 'path']) {
      if (isRecord(v.nfs) && (typeof v.nfs[field] !== 'string' || v.nfs[field] === '')) add(RULES.apiVolumes, join(at, 'nfs', field), 'Required value');
    }
    // ValidateVolumes: an emptyDir's sizeLimit may not be negative.
    const size = isRecord(v.emptyDir) ? v.emptyDir.sizeLimit : undefined;
    if ((typeof size === 'string' && /^\s*-/.test(size)) || (typeof size === 'number' && size < 0)) {
      add(RULES.apiVolumes, join(at, 'emptyDir', 'sizeLimit'), 'Forbidden: SizeLimit field must be a valid resource quantity');
    }
  });
  // A StatefulSet's volumeClaimTemplates are volumes of its pods too.
  claimTemplates.forEach((name) => names.add(name));
  return names;
}

/**
 * ValidateVolumeMounts and validateMountPropagation: each mount of a defined
 * volume at its own path, a relative subPath or subPathExpr without `..`,
 * and Bidirectional propagation only in a privileged container.
 */
export function checkVolumeMounts(add: Add, path: string, c: KubeObject, volumes: Set<string>, privileged: boolean): void {
  const paths = new Set<string>();
  list(c.volumeMounts).forEach((m, i) => {
    const at = join(path, 'volumeMounts', i);
    if (typeof m.name !== 'string' || m.name === '') {
      add(RULES.apiVolumes, join(at, 'name'), 'Required value');
    } else if (!volumes.has(m.name)) {
      add(RULES.apiVolumes, join(at, 'name'), `Not found: ${show(m.name)}`);
    }
    if (typeof m.mountPath !== 'string' || m.mountPath === '') {
      add(RULES.apiVolumes, join(at, 'mountPath'), 'Required value');
    } else {
      if (paths.has(m.mountPath)) add(RULES.apiVolumes, join(at, 'mountPath'), `Invalid value: ${show(m.mountPath)}: must be unique`);
      paths.add(m.mountPath);
    }
    if (typeof m.subPath === 'string' && (m.subPath.startsWith('/') || backsteps(m.subPath))) {
      add(RULES.apiVolumes, join(at, 'subPath'), `Invalid value: ${show(m.subPath)}: must be a relative path without '..'`);
    }
    if (typeof m.subPathExpr === 'string' && m.subPathExpr !== '') {
      if (typeof m.subPath === 'string' && m.subPath !== '') add(RULES.apiVolumes, join(at, 'subPathExpr'), 'Invalid value: subPathExpr and subPath are mutually exclusive');
      localDescendingPath(add, join(at, 'subPathExpr'), m.subPathExpr);
    }
    if (m.mountPropagation !== undefined && !['None', 'HostToContainer', 'Bidirectional'].includes(m.mountPropagation)) {
      add(RULES.apiVolumes, join(at, 'mountPropagation'), unsupported(m.mountPropagation, ['Bidirectional', 'HostToContainer', 'None']));
    }
    if (m.mountPropagation === 'Bidirectional' && !privileged) {
      add(RULES.apiVolumes, join(at, 'mountPropagation'), 'Forbidden: Bidirectional mount propagation is available only to privileged containers');
    }
  });
}
