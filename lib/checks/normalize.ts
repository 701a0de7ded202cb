/**
 * An object as the API server sees it before it validates: explicit nulls are
 * unset (the decoder leaves the field at its zero value), and the fields whose
 * feature gate is off by default in the version judged by are dropped (and so never judged, by
 * validation or by Pod Security admission). A copy: the caller's object is
 * never changed.
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem,join, KubeObject } from './finding';
import { podTemplateOf } from './pod-templates';
import { RULES } from './rules';
import { atLeast, DEFAULT_KUBERNETES_VERSION, featureEnabled, FeatureGate, KubernetesVersion } from './versions';

/** A field the API server drops while its feature gate is off (the default). */
interface GatedField {
  /**
   * The field, relative to where it sits: the pod spec (`hostUsers`), each
   * container, init container or app container (`securityContext.procMount`),
   * each env var of a container, each volume, or the Job spec.
   */
  readonly path: readonly string[];
  /** Where it sits: `container` is every container (init and ephemeral too), `appContainer` only spec.containers. */
  readonly in: 'pod' | 'container' | 'initContainer' | 'appContainer' | 'env' | 'volume' | 'job';
  /** Its feature gate (FEATURE_GATES: on by default from a release). */
  readonly gate: FeatureGate;
  /** The release whose API first has the field (before it, the field is unknown to the schema). */
  readonly since: string;
  /** The release from which the gate is beta (still off by default), when that is before it is on. */
  readonly betaFrom?: string;
  /** The function that drops it and the release whose source it was read from. */
  readonly source: string;
  /** What dropping it does beyond losing the field, when that matters. */
  readonly effect?: string;
  /** Only this value is kept (the rest dropped): an init container's restartPolicy Always, a sidecar's. */
  readonly keeps?: string;
}

/**
 * The fields each release drops, from its pkg/api/pod/util.go
 * (dropDisabledFields and the drop* functions it calls) and
 * pkg/registry/batch/job/strategy.go (dropDisabledFields); a row is dropped
 * at every supported version from `since` until FEATURE_GATES turns its gate on.
 */
const GATED_FIELDS: readonly GatedField[] = [
  { in: 'container', path: ['securityContext', 'procMount'], gate: 'ProcMountType', since: '1.12', betaFrom: '1.31', source: 'dropDisabledProcMountField (v1.28.0 to v1.32)' },
  { in: 'container', path: ['resizePolicy'], gate: 'InPlacePodVerticalScaling', since: '1.27', source: 'dropDisabledFields: InPlacePodVerticalScaling (v1.28.0 to v1.32)' },
  { in: 'container', path: ['resources', 'claims'], gate: 'DynamicResourceAllocation', since: '1.26', betaFrom: '1.32', source: 'dropDisabledDynamicResourceAllocationFields (v1.28.0 to v1.33)' },
  { in: 'pod', path: ['hostUsers'], gate: 'UserNamespacesSupport', since: '1.25', betaFrom: '1.30', source: 'dropDisabledFields: UserNamespacesSupport (v1.28.0 to v1.32)' },
  { in: 'pod', path: ['resourceClaims'], gate: 'DynamicResourceAllocation', since: '1.26', betaFrom: '1.32', source: 'dropDisabledDynamicResourceAllocationFields (v1.28.0 to v1.33)' },
  { in: 'pod', path: ['resources'], gate: 'PodLevelResources', since: '1.32', source: 'dropDisabledPodLevelResources (v1.32 to v1.33)' },
  { in: 'pod', path: ['securityContext', 'supplementalGroupsPolicy'], gate: 'SupplementalGroupsPolicy', since: '1.31', source: 'dropDisabledFields: SupplementalGroupsPolicy (v1.31 to v1.32)' },
  { in: 'pod', path: ['securityContext', 'seLinuxChangePolicy'], gate: 'SELinuxChangePolicy', since: '1.32', source: 'dropSELinuxChangePolicy (v1.32)' },
  {
    in: 'initContainer', path: ['restartPolicy'], gate: 'SidecarContainers', since: '1.28', source: 'dropDisabledFields: SidecarContainers (v1.28.0)',
    effect: 'the sidecar becomes a plain init container, which must exit before the next one and the app containers start: one that runs for the life of the pod blocks it',
  },
  { in: 'volume', path: ['image'], gate: 'ImageVolume', since: '1.31', betaFrom: '1.33', source: 'dropImageVolumes (v1.31 to v1.34)', effect: 'the volume is dropped with every mount of it' },
  { in: 'container', path: ['lifecycle', 'stopSignal'], gate: 'ContainerStopSignals', since: '1.33', source: 'dropContainerStopSignals (v1.33 to v1.35)', effect: 'the container is stopped with its image\'s STOPSIGNAL' },
  { in: 'pod', path: ['hostnameOverride'], gate: 'HostnameOverride', since: '1.34', source: 'dropDisabledFields: HostnameOverride (v1.34)', effect: 'the pod\'s hostname is its name' },
  {
    in: 'env', path: ['valueFrom', 'fileKeyRef'], gate: 'EnvFiles', since: '1.34', source: 'dropFileKeyRefInUse (v1.34)',
    effect: 'its valueFrom is left empty, which validation then refuses (ValidateEnv: must specify one of the sources)',
  },
  { in: 'initContainer', path: ['restartPolicy'], keeps: 'Always', gate: 'ContainerRestartRules', since: '1.34', source: 'dropContainerRestartRules (v1.34)', effect: 'the pod\'s restartPolicy applies to the init container' },
  { in: 'appContainer', path: ['restartPolicy'], gate: 'ContainerRestartRules', since: '1.34', source: 'dropContainerRestartRules (v1.34)', effect: 'the pod\'s restartPolicy applies to the container' },
  { in: 'appContainer', path: ['restartPolicyRules'], gate: 'ContainerRestartRules', since: '1.34', source: 'dropContainerRestartRules (v1.34)' },
  { in: 'job', path: ['backoffLimitPerIndex'], gate: 'JobBackoffLimitPerIndex', since: '1.28', source: 'job strategy dropDisabledFields (v1.28.0)' },
  { in: 'job', path: ['maxFailedIndexes'], gate: 'JobBackoffLimitPerIndex', since: '1.28', source: 'job strategy dropDisabledFields (v1.28.0)' },
  { in: 'job', path: ['podReplacementPolicy'], gate: 'JobPodReplacementPolicy', since: '1.28', source: 'job strategy dropDisabledFields (v1.28.0)' },
  { in: 'job', path: ['managedBy'], gate: 'JobManagedBy', since: '1.30', source: 'job strategy dropDisabledFields (v1.31)' },
];

/** @internal The dropped-field table, for its tests: each row's field, gate and source. */
export function gatedFieldRows(): ReadonlyArray<{ readonly field: string; readonly gate: FeatureGate; readonly since: string; readonly source: string }> {
  return GATED_FIELDS.map((f) => ({ field: `${f.in}:${f.path.join('.')}`, gate: f.gate, since: f.since, source: f.source }));
}

/** The gated fields a version drops: those its API has, behind a gate still off. */
function droppedAt(version: KubernetesVersion): GatedField[] {
  return GATED_FIELDS.filter((f) => atLeast(version, f.since) && !featureEnabled(version, f.gate));
}

/** A deep copy without the object properties that are null (array elements stay). Iterative; the depth is checked before. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[unknown, Record<string, unknown> | unknown[]]> = [[value, root as Record<string, unknown>]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    const entries: Array<[string | number, unknown]> = Array.isArray(from) ? from.map((v, i) => [i, v]) : Object.entries(from as Record<string, unknown>);
    for (const [key, child] of entries) {
      if (child === null && !Array.isArray(from)) continue;
      if (typeof child === 'object' && child !== null) {
        const copy = Array.isArray(child) ? [] : {};
        (to as Record<string | number, unknown>)[key] = copy;
        stack.push([child, copy]);
      } else {
        (to as Record<string | number, unknown>)[key] = child;
      }
    }
  }
  return root;
}

/** Removes one field of an object by path (but the value it keeps); whether it was there. */
function drop(from: KubeObject, path: readonly string[], keeps?: string): boolean {
  let node: unknown = from;
  for (const key of path.slice(0, -1)) {
    node = isRecord(node) ? node[key] : undefined;
  }
  const last = path[path.length - 1];
  if (!isRecord(node) || !(last in node) || (keeps !== undefined && node[last] === keeps)) return false;
  delete node[last];
  return true;
}

/** dropImageVolumes: each volume with a gated source goes, and with it every mount of it in every container. */
function dropVolumes(spec: KubeObject, specPath: string, fields: readonly GatedField[], dropped: (path: string, field: GatedField) => void): void {
  if (fields.length === 0 || !Array.isArray(spec.volumes)) return;
  const gone = new Set<string>();
  spec.volumes.forEach((v: unknown, i: number) => {
    const field = isRecord(v) ? fields.find((f) => f.path[0] in v) : undefined;
    if (field === undefined || !isRecord(v)) return;
    gone.add(String(v.name));
    dropped(join(specPath, 'volumes', i, ...field.path), field);
  });
  if (gone.size === 0) return;
  spec.volumes = spec.volumes.filter((v: unknown) => !(isRecord(v) && gone.has(String(v.name))));
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) {
      if (isRecord(c) && Array.isArray(c.volumeMounts)) c.volumeMounts = c.volumeMounts.filter((m: unknown) => !(isRecord(m) && gone.has(String(m.name))));
    }
  }
}

/** The object as the API server of `version` validates it, and a warning for each field it drops. */
export function normalize(obj: KubeObject, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): { object: KubeObject; problems: FieldProblem[] } {
  const object = withoutNulls(obj) as KubeObject;
  const problems: FieldProblem[] = [];
  const gated = droppedAt(version);
  const dropped = (path: string, field: GatedField) => problems.push({
    rule: RULES.droppedField, path,
    message: `the ${version} API server drops this field: its feature gate ${field.gate} (${field.betaFrom !== undefined && atLeast(version, field.betaFrom) ? 'beta, off by default' : 'alpha'}) is off by default, so it is neither validated nor applied${field.effect !== undefined ? `; ${field.effect}` : ''} (pkg/api/pod/util.go: ${field.source})`,
  });
  const pod = podTemplateOf(object);
  if (pod) {
    for (const field of gated.filter((f) => f.in === 'pod')) {
      if (drop(pod.spec, field.path)) dropped(join(pod.specPath, ...field.path), field);
    }
    dropVolumes(pod.spec, pod.specPath, gated.filter((f) => f.in === 'volume'), dropped);
    for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
      const containers: unknown[] = Array.isArray(pod.spec[list]) ? pod.spec[list] : [];
      const here = gated.filter((f) => f.in === 'container' || (f.in === 'initContainer' && list === 'initContainers') || (f.in === 'appContainer' && list === 'containers'));
      containers.forEach((c, i) => {
        if (!isRecord(c)) return;
        for (const field of here) {
          if (drop(c, field.path, field.keeps)) dropped(join(pod.specPath, list, i, ...field.path), field);
        }
        // dropContainerStopSignals: a lifecycle left empty goes too.
        if (isRecord(c.lifecycle) && Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
        const env: unknown[] = Array.isArray(c.env) ? c.env : [];
        env.forEach((e, j) => {
          if (!isRecord(e)) return;
          for (const field of gated.filter((f) => f.in === 'env')) {
            if (drop(e, field.path)) dropped(join(pod.specPath, list, i, 'env', j, ...field.path), field);
          }
        });
      });
    }
  }
  const jobSpecPath = object.kind === 'Job' ? ['spec'] : object.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : undefined;
  const jobSpec = jobSpecPath?.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), object);
  if (jobSpecPath && isRecord(jobSpec)) {
    for (const field of gated.filter((f) => f.in === 'job')) {
      if (drop(jobSpec, field.path)) dropped(join('', ...jobSpecPath, ...field.path), field);
    }
  }
  return { object, problems };
}
