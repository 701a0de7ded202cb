import { isRecord } from '../k8s/syntax';
import { join, KubeObject } from './finding';

/** A pod spec inside an object, with where it sits. */
export interface PodTemplate {
  /** The path of the pod's metadata (`spec.template.metadata`, or `metadata` for a Pod). */
  readonly metadataPath: string;
  /** The pod's metadata. */
  readonly metadata: KubeObject;
  /** The path of the pod spec. */
  readonly specPath: string;
  /** The pod spec. */
  readonly spec: KubeObject;
}

/** A container of a pod spec, of any of the three kinds, with its path. */
export interface ContainerAt {
  /** The container. */
  readonly container: KubeObject;
  /** Its path, e.g. `spec.template.spec.initContainers[0]`. */
  readonly path: string;
}

/** Kinds whose pod template is at spec.template. */
const TEMPLATE_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Job']);

/**
 * The pod template of a workload object, if its kind has one (Pod, DaemonSet,
 * Deployment, StatefulSet, ReplicaSet, ReplicationController, Job, CronJob,
 * PodTemplate). A missing template or spec is an empty one, as the API server
 * decodes it: validation then finds what it lacks (no containers).
 */
export function podTemplateOf(obj: KubeObject): PodTemplate | undefined {
  let at: string[];
  if (obj.kind === 'Pod') {
    return { metadataPath: 'metadata', metadata: isRecord(obj.metadata) ? obj.metadata : {}, specPath: 'spec', spec: isRecord(obj.spec) ? obj.spec : {} };
  } else if (TEMPLATE_KINDS.has(obj.kind)) {
    at = ['spec', 'template'];
  } else if (obj.kind === 'CronJob') {
    at = ['spec', 'jobTemplate', 'spec', 'template'];
  } else if (obj.kind === 'PodTemplate') {
    at = ['template'];
  } else {
    return undefined;
  }
  const template = at.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), obj);
  const base = join('', ...at);
  return {
    metadataPath: join(base, 'metadata'),
    metadata: isRecord(template) && isRecord(template.metadata) ? template.metadata : {},
    specPath: join(base, 'spec'),
    spec: isRecord(template) && isRecord(template.spec) ? template.spec : {},
  };
}

/** Every container of a pod spec: containers, initContainers and ephemeralContainers. */
export function containersOf(pod: PodTemplate): ContainerAt[] {
  const result: ContainerAt[] = [];
  for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
    const list = pod.spec[field];
    if (Array.isArray(list)) {
      list.forEach((container, i) => {
        if (isRecord(container)) {
          result.push({ container, path: join(pod.specPath, field, i) });
        }
      });
    }
  }
  return result;
}
