/**
 * An object as the API server sees it before it validates: explicit nulls are
 * unset (the decoder leaves the field at its zero value), and the fields whose
 * feature gate is off by default in 1.28 are dropped (and so never judged, by
 * validation or by Pod Security admission). A copy: the caller's object is
 * never changed.
 */
import { isObject, join, KubeObject, Problem } from './finding';
import { podTemplateOf } from './pod-templates';
import { RULES } from './rules';

/** How deep the checks read a document; far deeper than any manifest, far below what overflows the stack. */
export const MAX_DEPTH = 200;

/** A field the 1.28 API server drops while its feature gate is off (the default). */
interface GatedField {
  /** The field, relative to the pod spec (`hostUsers`) or to each container (`securityContext.procMount`). */
  readonly path: readonly string[];
  /** Where it sits. */
  readonly in: 'pod' | 'container';
  /** The feature gate and its stage in 1.28. */
  readonly gate: string;
}

/** pkg/api/pod: dropDisabledFields (release-1.28). */
const GATED_POD_FIELDS: readonly GatedField[] = [
  { in: 'container', path: ['securityContext', 'procMount'], gate: 'ProcMountType (alpha)' },
  { in: 'container', path: ['resizePolicy'], gate: 'InPlacePodVerticalScaling (alpha)' },
  { in: 'container', path: ['resources', 'claims'], gate: 'DynamicResourceAllocation (alpha)' },
  { in: 'pod', path: ['hostUsers'], gate: 'UserNamespacesSupport (alpha)' },
  { in: 'pod', path: ['resourceClaims'], gate: 'DynamicResourceAllocation (alpha)' },
];

/** pkg/registry/batch/job: dropDisabledFields (release-1.28), relative to the Job spec. */
const GATED_JOB_FIELDS: ReadonlyArray<{ readonly field: string; readonly gate: string }> = [
  { field: 'backoffLimitPerIndex', gate: 'JobBackoffLimitPerIndex (alpha)' },
  { field: 'maxFailedIndexes', gate: 'JobBackoffLimitPerIndex (alpha)' },
  { field: 'podReplacementPolicy', gate: 'JobPodReplacementPolicy (alpha)' },
];

/** The nesting depth of a value, counted without recursion (a hostile document cannot overflow the stack). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_DEPTH) break;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      stack.push([child, depth + 1]);
    }
  }
  return deepest;
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
    node = isObject(node) ? node[key] : undefined;
  }
  const last = path[path.length - 1];
  if (!isObject(node) || !(last in node)) return false;
  delete node[last];
  return true;
}

/** The object as the API server validates it, and a warning for each field it drops. */
export function normalize(obj: KubeObject): { object: KubeObject; problems: Problem[] } {
  const object = withoutNulls(obj) as KubeObject;
  const problems: Problem[] = [];
  const dropped = (path: string, gate: string) => problems.push({
    rule: RULES.droppedField, path,
    message: `the 1.28 API server drops this field: its feature gate ${gate} is off by default, so it is neither validated nor applied`,
  });
  const pod = podTemplateOf(object);
  if (pod) {
    for (const field of GATED_POD_FIELDS.filter((f) => f.in === 'pod')) {
      if (drop(pod.spec, field.path)) dropped(join(pod.specPath, ...field.path), field.gate);
    }
    for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
      const containers: unknown[] = Array.isArray(pod.spec[list]) ? pod.spec[list] : [];
      containers.forEach((c, i) => {
        if (!isObject(c)) return;
        for (const field of GATED_POD_FIELDS.filter((f) => f.in === 'container')) {
          if (drop(c, field.path)) dropped(join(pod.specPath, list, i, ...field.path), field.gate);
        }
      });
    }
  }
  const jobSpecPath = object.kind === 'Job' ? ['spec'] : object.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : undefined;
  const jobSpec = jobSpecPath?.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), object);
  if (jobSpecPath && isObject(jobSpec)) {
    for (const { field, gate } of GATED_JOB_FIELDS) {
      if (drop(jobSpec, [field])) dropped(join('', ...jobSpecPath, field), gate);
    }
  }
  return { object, problems };
}
