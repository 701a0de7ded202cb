/**
 * The pod annotations the API server validates (pkg/apis/core/validation:
 * ValidatePodSpecificAnnotations, release-1.28): AppArmor annotations name a
 * container of the pod and a valid profile; seccomp annotations name a valid
 * profile and, where the matching field is set, agree with it
 * (validateSeccompAnnotationsAndFields).
 */
import { join, KubeObject, show } from '../finding';
import { containersOf, PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, isRecord } from './common';

const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** ValidateAppArmorProfileFormat. */
function appArmorProblem(profile: string): string | undefined {
  return profile === '' || profile === 'runtime/default' || profile === 'unconfined' || profile.startsWith('localhost/') ? undefined : `invalid AppArmor profile name: ${show(profile)}`;
}

/** ValidateSeccompProfile (validateLocalDescendingPath for localhost/). */
function seccompProblem(profile: string): string | undefined {
  if (['runtime/default', 'docker/default', 'unconfined'].includes(profile)) return undefined;
  if (profile.startsWith('localhost/')) {
    const local = profile.slice('localhost/'.length);
    return local !== '' && !local.startsWith('/') && !local.split('/').includes('..') ? undefined : 'must be a relative path without \'..\'';
  }
  return 'must be a valid seccomp profile';
}

/** validateSeccompAnnotationsAndFieldsMatch: a field that is set agrees with the annotation. */
function checkSeccompMatch(add: Add, annotation: string, profile: KubeObject, path: string): void {
  const type = profile.type;
  if (type === 'Unconfined' && annotation !== 'unconfined') {
    add(RULES.apiSecurityContext, join(path, 'type'), 'Forbidden: seccomp type in annotation and field must match');
  } else if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default') {
    add(RULES.apiSecurityContext, join(path, 'type'), 'Forbidden: seccomp type in annotation and field must match');
  } else if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) {
      add(RULES.apiSecurityContext, join(path, 'type'), 'Forbidden: seccomp type in annotation and field must match');
    } else if (annotation.slice('localhost/'.length) !== profile.localhostProfile) {
      add(RULES.apiSecurityContext, join(path, 'localhostProfile'), 'Forbidden: seccomp profile in annotation and field must match');
    }
  }
}

/** The annotation rules of one pod (or template). */
export function checkPodAnnotations(add: Add, pod: PodTemplate): void {
  const annotations: Record<string, unknown> = isRecord(pod.metadata.annotations) ? pod.metadata.annotations : {};
  const containers = containersOf(pod);
  const names = new Set(containers.map((c) => c.container.name));
  for (const [key, value] of Object.entries(annotations)) {
    if (typeof value !== 'string') continue;
    const at = join(pod.metadataPath, 'annotations', key);
    if (key.startsWith(APPARMOR_PREFIX)) {
      const name = key.slice(APPARMOR_PREFIX.length);
      if (!names.has(name)) add(RULES.apiPodAnnotations, at, `Invalid value: ${show(name)}: container not found`);
      const problem = appArmorProblem(value);
      if (problem) add(RULES.apiPodAnnotations, at, `Invalid value: ${show(value)}: ${problem}`);
    } else if (key === SECCOMP_POD || key.startsWith(SECCOMP_CONTAINER_PREFIX)) {
      const problem = seccompProblem(value);
      if (problem) add(RULES.apiPodAnnotations, at, `Invalid value: ${show(value)}: ${problem}`);
    }
  }
  const podProfile = isRecord(pod.spec.securityContext) ? pod.spec.securityContext.seccompProfile : undefined;
  if (typeof annotations[SECCOMP_POD] === 'string' && isRecord(podProfile)) {
    checkSeccompMatch(add, annotations[SECCOMP_POD] as string, podProfile, join(pod.specPath, 'securityContext', 'seccompProfile'));
  }
  for (const c of containers) {
    const profile = isRecord(c.container.securityContext) ? c.container.securityContext.seccompProfile : undefined;
    const annotation = annotations[`${SECCOMP_CONTAINER_PREFIX}${c.container.name}`];
    if (typeof annotation === 'string' && isRecord(profile)) {
      checkSeccompMatch(add, annotation, profile, join(c.path, 'securityContext', 'seccompProfile'));
    }
  }
}
