/**
 * The API server's validation that changed after 1.28, each rule with its
 * feature gate in its default state at the version judged by
 * (../versions.ts: FEATURE_GATES), from pkg/apis/core/validation
 * (validateContainers, validateVolumeMounts, validateSleepAction,
 * validateAppArmorProfileField, ValidateSecurityContext,
 * validateResizePolicy, ValidateService) and pkg/apis/batch/validation
 * (validatePodReplacementPolicy, validateSuccessPolicy), and the warnings of
 * pkg/api/pod/warnings.go and pkg/api/service/warnings.go that a server of
 * that version returns. Fields a version does not know are the schema's;
 * fields whose gate is off are dropped before (../normalize.ts).
 */
import { FieldProblem, join, KubeObject, show } from '../finding';
import { containersOf, PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { featureEnabled, KubernetesVersion } from '../versions';
import { Add, isInt, isRecord, list, unsupported } from './common';

const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** validateAppArmorProfileField: a known type, and localhostProfile exactly with Localhost (the field of `sc` at `path`, a securityContext). */
export function checkAppArmorProfile(add: Add, path: string, sc: unknown): void {
  const profile = isRecord(sc) && isRecord(sc.appArmorProfile) ? sc.appArmorProfile : undefined;
  if (profile === undefined) return;
  const at = join(path, 'appArmorProfile');
  if (profile.type === undefined || profile.type === '') {
    add(RULES.apiSecurityContext, join(at, 'type'), 'Required value');
  } else if (!APPARMOR_TYPES.includes(profile.type as string)) {
    add(RULES.apiSecurityContext, join(at, 'type'), unsupported(profile.type, APPARMOR_TYPES));
  }
  const local = profile.localhostProfile;
  if (profile.type === 'Localhost' && (typeof local !== 'string' || local.trim() === '')) {
    add(RULES.apiSecurityContext, join(at, 'localhostProfile'), 'Required value: must be set when AppArmor type is Localhost');
  } else if (profile.type !== 'Localhost' && local !== undefined) {
    add(RULES.apiSecurityContext, join(at, 'localhostProfile'), `Invalid value: ${show(local)}: can only be set when AppArmor type is Localhost`);
  }
}

/** validateSleepAction: a sleep handler's seconds, at most the grace period (and above 0 until PodLifecycleSleepActionAllowZero). */
function checkSleep(add: Add, path: string, handler: unknown, grace: number, version: KubernetesVersion): void {
  const seconds = isRecord(handler) && isRecord(handler.sleep) ? handler.sleep.seconds : undefined;
  if (!isInt(seconds)) return;
  const zero = featureEnabled(version, 'PodLifecycleSleepActionAllowZero');
  if (seconds < (zero ? 0 : 1) || seconds > grace) {
    add(RULES.apiProbes, join(path, 'sleep'), `Invalid value: ${seconds}: must be ${zero ? 'non-negative' : 'greater than 0'} and less than terminationGracePeriodSeconds (${grace})`);
  }
}

/** The version-dependent rules of one pod (or template) and its containers. */
export function checkVersionedPod(add: Add, pod: PodTemplate, version: KubernetesVersion): void {
  const spec = pod.spec;
  if (featureEnabled(version, 'AppArmorFields')) checkAppArmorProfile(add, join(pod.specPath, 'securityContext'), spec.securityContext);
  const grace = isInt(spec.terminationGracePeriodSeconds) ? spec.terminationGracePeriodSeconds : 30;
  for (const c of containersOf(pod)) {
    const container = c.container;
    const sc = container.securityContext;
    if (featureEnabled(version, 'AppArmorFields')) checkAppArmorProfile(add, join(c.path, 'securityContext'), sc);
    if (featureEnabled(version, 'PodLifecycleSleepAction') && isRecord(container.lifecycle)) {
      for (const hook of ['postStart', 'preStop']) checkSleep(add, join(c.path, 'lifecycle', hook), container.lifecycle[hook], grace, version);
    }
    if (featureEnabled(version, 'RecursiveReadOnlyMounts')) {
      list(container.volumeMounts).forEach((m, i) => {
        const at = join(c.path, 'volumeMounts', i, 'recursiveReadOnly');
        const value = m.recursiveReadOnly;
        if (value === undefined) return;
        if (!RECURSIVE_READ_ONLY.includes(value)) {
          add(RULES.apiVolumes, at, unsupported(value, RECURSIVE_READ_ONLY));
        } else if (value !== 'Disabled' && m.readOnly !== true) {
          add(RULES.apiVolumes, at, 'Forbidden: may only be specified when readOnly is true');
        } else if (value !== 'Disabled' && m.mountPropagation !== undefined && m.mountPropagation !== 'None') {
          // validateMountRecursiveReadOnly (v1.30 to v1.36): Enabled and IfPossible alike.
          add(RULES.apiVolumes, at, 'Forbidden: may only be specified when mountPropagation is None or not specified');
        }
      });
    }
    // ProcMountType on (1.33+): the value is validated, and Unmasked needs a user namespace.
    if (featureEnabled(version, 'ProcMountType') && isRecord(sc) && sc.procMount !== undefined) {
      const at = join(c.path, 'securityContext', 'procMount');
      if (!['Default', 'Unmasked'].includes(sc.procMount)) {
        add(RULES.apiSecurityContext, at, unsupported(sc.procMount, ['Default', 'Unmasked']));
      } else if (sc.procMount === 'Unmasked' && spec.hostUsers !== false) {
        add(RULES.apiSecurityContext, at, 'Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`');
      }
    }
    if (featureEnabled(version, 'InPlacePodVerticalScaling')) {
      const seen = new Set<string>();
      list(container.resizePolicy).forEach((r, i) => {
        const at = join(c.path, 'resizePolicy', i);
        if (!['cpu', 'memory'].includes(r.resourceName)) add(RULES.apiResources, join(at, 'resourceName'), unsupported(r.resourceName, ['cpu', 'memory']));
        else if (seen.has(r.resourceName)) add(RULES.apiResources, join(at, 'resourceName'), `Duplicate value: ${show(r.resourceName)}`);
        seen.add(r.resourceName);
        if (!['NotRequired', 'RestartContainer'].includes(r.restartPolicy)) add(RULES.apiResources, join(at, 'restartPolicy'), unsupported(r.restartPolicy, ['NotRequired', 'RestartContainer']));
      });
    }
  }
}

/** The handler kinds of a lifecycle hook: `sleep` too from PodLifecycleSleepAction (1.30). */
export function lifecycleHandlers(version: KubernetesVersion): readonly string[] {
  return featureEnabled(version, 'PodLifecycleSleepAction') ? ['exec', 'httpGet', 'tcpSocket', 'sleep'] : ['exec', 'httpGet', 'tcpSocket'];
}

/** Whether an environment variable name is valid: a C-like identifier, or any printable ASCII but '=' from RelaxedEnvironmentVariableValidation (1.32). */
export function envNameProblem(name: string, version: KubernetesVersion): string | undefined {
  if (featureEnabled(version, 'RelaxedEnvironmentVariableValidation')) {
    return /^[\x20-\x3c\x3e-\x7e]+$/.test(name) ? undefined : "a valid environment variable name must consist only of printable ASCII characters other than '='";
  }
  return /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name) ? undefined : "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
}

/** The sources of an env var's valueFrom: fileKeyRef too from EnvFiles (1.35). */
export function envSources(version: KubernetesVersion): readonly string[] {
  return featureEnabled(version, 'EnvFiles') ? ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'] : ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
}

/** Whether a regular (not init) container may set restartPolicy: from ContainerRestartRules (1.35). */
export function regularContainerRestartPolicy(version: KubernetesVersion): readonly string[] | undefined {
  return featureEnabled(version, 'ContainerRestartRules') ? ['Always', 'OnFailure', 'Never'] : undefined;
}

/** ValidateService: trafficDistribution, from ServiceTrafficDistribution (1.31); PreferSameZone and PreferSameNode from PreferSameTrafficDistribution (1.34). */
export function checkVersionedService(add: Add, obj: KubeObject, version: KubernetesVersion): void {
  const value = isRecord(obj.spec) ? obj.spec.trafficDistribution : undefined;
  if (value === undefined || !featureEnabled(version, 'ServiceTrafficDistribution')) return;
  const allowed = featureEnabled(version, 'PreferSameTrafficDistribution') ? ['PreferClose', 'PreferSameZone', 'PreferSameNode'] : ['PreferClose'];
  if (!allowed.includes(value)) add(RULES.apiService, 'spec.trafficDistribution', unsupported(value, allowed));
}

/** ValidateJobSpec: podReplacementPolicy (1.29) and successPolicy (1.31). */
export function checkVersionedJobSpec(add: Add, path: string, spec: KubeObject, version: KubernetesVersion): void {
  if (featureEnabled(version, 'JobPodReplacementPolicy') && spec.podReplacementPolicy !== undefined) {
    const allowed = isRecord(spec.podFailurePolicy) ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
    if (!allowed.includes(spec.podReplacementPolicy)) add(RULES.apiJob, join(path, 'podReplacementPolicy'), unsupported(spec.podReplacementPolicy, allowed));
  }
  if (featureEnabled(version, 'JobSuccessPolicy') && isRecord(spec.successPolicy)) {
    const at = join(path, 'successPolicy');
    if (spec.completionMode !== 'Indexed') add(RULES.apiJob, at, `Invalid value: ${show(spec.completionMode ?? 'NonIndexed')}: requires indexed completion mode`);
    const rules = list(spec.successPolicy.rules);
    if (rules.length === 0) add(RULES.apiJob, join(at, 'rules'), 'Required value: at least one rules must be specified when the successPolicy is specified');
    if (rules.length > 20) add(RULES.apiJob, join(at, 'rules'), `Too many: ${rules.length}: must have at most 20 items`);
    rules.forEach((r, i) => {
      if (r.succeededIndexes === undefined && r.succeededCount === undefined) {
        add(RULES.apiJob, join(at, 'rules', i), 'Required value: at least one of succeededCount or succeededIndexes must be specified');
      }
      if (r.succeededCount !== undefined && isInt(r.succeededCount) && r.succeededCount < 0) {
        add(RULES.apiJob, join(at, 'rules', i, 'succeededCount'), `Invalid value: ${r.succeededCount}: must be greater than or equal to 0`);
      }
    });
  }
}

/**
 * The warnings a server of `version` returns and the checks repeat: the
 * AppArmor annotation once the field exists (pkg/api/pod/warnings.go, 1.30+),
 * and trafficDistribution PreferClose once PreferSameZone is its new name
 * (pkg/api/service/warnings.go, with PreferSameTrafficDistribution).
 */
export function versionedWarnings(obj: KubeObject, pod: PodTemplate | undefined, version: KubernetesVersion): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (pod && featureEnabled(version, 'AppArmorFields') && isRecord(pod.metadata.annotations)) {
    for (const key of Object.keys(pod.metadata.annotations).filter((k) => k.startsWith(APPARMOR_ANNOTATION_PREFIX))) {
      problems.push({ rule: RULES.deprecatedField, path: join(pod.metadataPath, 'annotations', key), message: 'deprecated since v1.30; use the "appArmorProfile" field instead (securityContext.appArmorProfile of the pod or the container)' });
    }
  }
  if (obj.kind === 'Service' && isRecord(obj.spec) && obj.spec.trafficDistribution === 'PreferClose' && featureEnabled(version, 'PreferSameTrafficDistribution')) {
    problems.push({ rule: RULES.deprecatedField, path: 'spec.trafficDistribution', message: '"PreferClose" is deprecated; use "PreferSameZone"' });
  }
  return problems;
}
