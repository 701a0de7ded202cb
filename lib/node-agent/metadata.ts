/**
 * The labels and annotation keys of an agent's objects: the recommended
 * app.kubernetes.io/* labels, the version label's source, the annotations
 * kubectl and the runtime read.
 */
import { checkLabelValue } from '../k8s/syntax';
/** The DaemonSet annotation `kubectl rollout history` shows. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** The pod annotation prefix of a container's AppArmor profile (Kubernetes 1.28). */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** The label `managed-by` value of every object the library creates. */
export const MANAGED_BY = 'node-reporter';

/**
 * The recommended labels (https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/)
 * of an agent's objects: name, instance, version, component, part-of, managed-by.
 */
export function recommendedLabels(name: string, version: string | undefined, component: string, partOf: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/instance': name,
    ...(version !== undefined ? { 'app.kubernetes.io/version': version } : {}),
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/part-of': partOf,
    'app.kubernetes.io/managed-by': MANAGED_BY,
  };
}

/** @internal An image's tag, when it has one that is a label value (`busybox:1.36` -> `1.36`; a digest alone -> none). */
export function imageTag(image: string): string | undefined {
  // The tag is after the last ':' of the last path segment (a registry's port is in the first), before any digest.
  const path = image.split('@')[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : undefined;
  return tag !== undefined && checkLabelValue('tag', tag) === undefined ? tag : undefined;
}
