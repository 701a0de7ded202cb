/**
 * What a node agent writes differently for its Kubernetes target: the
 * fields of newer versions, added to the DaemonSet's manifest as JSON
 * (cdk8s-plus-28's L1 types would drop them), where the target has them.
 * Which target has which field is the checks' table (FEATURE_GATES), asked
 * through featureEnabled().
 */
import { featureEnabled, KubernetesVersion } from '../checks/versions';
import { isRecord, Problem, problem } from '../k8s/syntax';

/**
 * How read-only host-path mounts are made recursively read-only (the
 * volume mount's `recursiveReadOnly`, Kubernetes 1.31+), so that the host's
 * submounts below a read-only path are read-only too.
 */
export enum RecursiveReadOnly {
  /**
   * Recursively read-only where the container runtime can (containerd 2.0+,
   * CRI-O 1.30+, on Linux 5.12+); elsewhere read-only as before.
   */
  IF_POSSIBLE = 'IfPossible',
  /**
   * Recursively read-only, or the container does not start: on a runtime
   * without it (containerd 1.6, 1.7) the pod stays in CreateContainerConfigError.
   */
  ENABLED = 'Enabled',
  /** Not recursive (what 1.28 writes): the host's submounts stay writable. Nothing is written. */
  DISABLED = 'Disabled',
}

/** The props of {@link NodeAgentProps} that choose how newer forms of the target are written. */
export interface NodeAgentTargetProps {
  /**
   * How read-only host-path mounts that do not propagate (`propagation`
   * unset or None; the API server allows recursiveReadOnly on no other) are
   * made recursively read-only, where the app's Kubernetes target has the
   * field (1.31+; see README, "Kubernetes versions"). `ENABLED` needs a
   * target that has it.
   * @default RecursiveReadOnly.IF_POSSIBLE
   */
  readonly recursiveReadOnly?: RecursiveReadOnly;
}

const RECURSIVE_READ_ONLY: string[] = Object.values(RecursiveReadOnly);

/** @internal The problems of the target props at `version`. */
export function targetPropsProblems(props: NodeAgentTargetProps, version: KubernetesVersion): Problem[] {
  const mode = props.recursiveReadOnly;
  if (mode === undefined) {
    return [];
  }
  if (!RECURSIVE_READ_ONLY.includes(mode)) {
    return [problem('recursiveReadOnly', `one of ${RECURSIVE_READ_ONLY.join(', ')} (RecursiveReadOnly)`, mode)];
  }
  if (mode === RecursiveReadOnly.ENABLED && !featureEnabled(version, 'RecursiveReadOnlyMounts')) {
    return [problem('recursiveReadOnly', `IfPossible, Disabled or unset at Kubernetes ${version}, which has no recursiveReadOnly (1.31+: set the context 'node-reporter:kubernetesVersion')`, mode)];
  }
  return [];
}

/** @internal What the agent tells the rendering of its target. */
export interface TargetForms {
  /** The target. */
  readonly version: KubernetesVersion;
  /** The AppArmor profile a container asks for (`runtime/default`, `localhost/<name>`, `unconfined`), if any. */
  readonly appArmorProfile: (init: boolean, container: string) => string | undefined;
  /** The names of the agent's hostPath volumes. */
  readonly hostPathVolumes: ReadonlySet<string>;
  /** The recursiveReadOnly prop, resolved. */
  readonly recursiveReadOnly: RecursiveReadOnly;
}

/** @internal Whether the target writes the AppArmor profile as the securityContext field rather than the pod annotation (1.30+). */
export function writesAppArmorField(version: KubernetesVersion): boolean {
  return featureEnabled(version, 'AppArmorFields');
}

/**
 * @internal
 * The securityContext field of an AppArmor profile in the annotation's
 * syntax (pkg/apis/core/validation: ValidateAppArmorProfileField takes
 * type RuntimeDefault, Localhost with a localhostProfile, or Unconfined).
 */
export function appArmorField(profile: string): Record<string, string> {
  if (profile.startsWith('localhost/')) {
    return { localhostProfile: profile.slice('localhost/'.length), type: 'Localhost' };
  }
  return { type: profile === 'unconfined' ? 'Unconfined' : 'RuntimeDefault' };
}

/** Keys in order, as cdk8s writes every object. */
function sorted(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

/**
 * @internal
 * The DaemonSet manifest with the target's forms: each container's AppArmor
 * profile as its securityContext field (1.30+), and `recursiveReadOnly` on
 * every read-only, non-propagating mount of a hostPath volume (1.31+; the
 * API server refuses it with readOnly false or a propagation other than
 * None: pkg/apis/core/validation: ValidateVolumeMounts,
 * validateMountRecursiveReadOnly). At the default target, the manifest as it is.
 */
export function withTargetForms(manifest: Record<string, unknown>, forms: TargetForms): Record<string, unknown> {
  const appArmor = writesAppArmorField(forms.version);
  const recursive = featureEnabled(forms.version, 'RecursiveReadOnlyMounts') && forms.recursiveReadOnly !== RecursiveReadOnly.DISABLED;
  const spec = isRecord(manifest.spec) ? manifest.spec : undefined;
  const template = isRecord(spec?.template) ? spec.template : undefined;
  const pod = isRecord(template?.spec) ? template.spec : undefined;
  if ((!appArmor && !recursive) || !spec || !template || !pod) {
    return manifest;
  }
  const container = (init: boolean) => (c: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...c };
    const profile = appArmor ? forms.appArmorProfile(init, String(c.name)) : undefined;
    if (profile !== undefined) {
      out.securityContext = sorted({ ...(isRecord(c.securityContext) ? c.securityContext : {}), appArmorProfile: appArmorField(profile) });
    }
    if (recursive && Array.isArray(c.volumeMounts)) {
      out.volumeMounts = c.volumeMounts.map((m: Record<string, unknown>) => (m.readOnly === true && forms.hostPathVolumes.has(String(m.name)) && (m.mountPropagation ?? 'None') === 'None'
        ? sorted({ ...m, recursiveReadOnly: forms.recursiveReadOnly }) : m));
    }
    return out;
  };
  const containers = (list: unknown, init: boolean) => (Array.isArray(list) ? list.map(container(init)) : list);
  const newPod = { ...pod, containers: containers(pod.containers, false), ...(pod.initContainers !== undefined ? { initContainers: containers(pod.initContainers, true) } : {}) };
  return { ...manifest, spec: { ...spec, template: { ...template, spec: newPod } } };
}
