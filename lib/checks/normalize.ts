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
  /** The field, relative to the pod spec (`hostUsers`), to each container (`securityContext.procMount`) or to the Job spec. */
  readonly path: readonly string[];
  /** Where it sits. */
  readonly in: 'pod' | 'container' | 'job';
  /** Its feature gate (FEATURE_GATES: on by default from a release). */
  readonly gate: FeatureGate;
  /** The release whose API first has the field (before it, the field is unknown to the schema). */
  readonly since: string;
  /** The release from which the gate is beta (still off by default), when that is before it is on. */
  readonly betaFrom?: string;
}

/** pkg/api/pod and pkg/registry/batch/job: dropDisabledFields, release by release. */
const GATED_FIELDS: readonly GatedField[] = [
  { in: 'container', path: ['securityContext', 'procMount'], gate: 'ProcMountType', since: '1.12', betaFrom: '1.31' },
  { in: 'container', path: ['resizePolicy'], gate: 'InPlacePodVerticalScaling', since: '1.27' },
  { in: 'container', path: ['resources', 'claims'], gate: 'DynamicResourceAllocation', since: '1.26', betaFrom: '1.32' },
  { in: 'pod', path: ['hostUsers'], gate: 'UserNamespacesSupport', since: '1.25', betaFrom: '1.30' },
  { in: 'pod', path: ['resourceClaims'], gate: 'DynamicResourceAllocation', since: '1.26', betaFrom: '1.32' },
  { in: 'pod', path: ['resources'], gate: 'PodLevelResources', since: '1.32' },
  { in: 'pod', path: ['securityContext', 'supplementalGroupsPolicy'], gate: 'SupplementalGroupsPolicy', since: '1.31' },
  { in: 'pod', path: ['securityContext', 'seLinuxChangePolicy'], gate: 'SELinuxChangePolicy', since: '1.32' },
  { in: 'job', path: ['backoffLimitPerIndex'], gate: 'JobBackoffLimitPerIndex', since: '1.28' },
  { in: 'job', path: ['maxFailedIndexes'], gate: 'JobBackoffLimitPerIndex', since: '1.28' },
  { in: 'job', path: ['podReplacementPolicy'], gate: 'JobPodReplacementPolicy', since: '1.28' },
  { in: 'job', path: ['managedBy'], gate: 'JobManagedBy', since: '1.30' },
];

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

/** Removes one field of an object by path; whether it was there. */
function drop(from: KubeObject, path: readonly string[]): boolean {
  let node: unknown = from;
  for (const key of path.slice(0, -1)) {
    node = isRecord(node) ? node[key] : undefined;
  }
  const last = path[path.length - 1];
  if (!isRecord(node) || !(last in node)) return false;
  delete node[last];
  return true;
}

/** The object as the API server of `version` validates it, and a warning for each field it drops. */
export function normalize(obj: KubeObject, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): { object: KubeObject; problems: FieldProblem[] } {
  const object = withoutNulls(obj) as KubeObject;
  const problems: FieldProblem[] = [];
  const gated = droppedAt(version);
  const dropped = (path: string, field: GatedField) => problems.push({
    rule: RULES.droppedField, path,
    message: `the ${version} API server drops this field: its feature gate ${field.gate} (${field.betaFrom !== undefined && atLeast(version, field.betaFrom) ? 'beta, off by default' : 'alpha'}) is off by default, so it is neither validated nor applied`,
  });
  const pod = podTemplateOf(object);
  if (pod) {
    for (const field of gated.filter((f) => f.in === 'pod')) {
      if (drop(pod.spec, field.path)) dropped(join(pod.specPath, ...field.path), field);
    }
    for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
      const containers: unknown[] = Array.isArray(pod.spec[list]) ? pod.spec[list] : [];
      containers.forEach((c, i) => {
        if (!isRecord(c)) return;
        for (const field of gated.filter((f) => f.in === 'container')) {
          if (drop(c, field.path)) dropped(join(pod.specPath, list, i, ...field.path), field);
        }
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
