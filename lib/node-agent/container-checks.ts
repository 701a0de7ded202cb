/**
 * What the API server refuses in a container's props and in the pod-level
 * security props, asked of the checks' own functions on the part of the
 * manifest those props make (../prop-checks), so that containers.ts restates
 * no API rule.
 */
import { checkContainerName, checkContainerPolicies, checkContainerPorts, checkEnv, checkHostProcess, checkPodNames, checkSecurityContext, checkWindows } from '../checks/api/core-pod';
import { checkPodAnnotations } from '../checks/api/pod-annotations';
import { checkAppArmorProfile } from '../checks/api/versioned';
import { KubeObject } from '../checks/finding';
import { containersOf } from '../checks/pod-templates';
import { featureEnabled, KubernetesVersion } from '../checks/versions';
import { isRecord, Problem } from '../k8s/syntax';
import { askChecks } from '../prop-checks';
import { APPARMOR_ANNOTATION_PREFIX } from './metadata';
import { CONTAINER_PROP_PATHS, POD_PROP_PATHS, WINDOWS_CONTAINER_PROP_PATHS } from './prop-paths';
import { appArmorField } from './target';

/**
 * @internal
 * What the API server refuses in the pod-level security context props
 * (`runAsUser`, `runAsGroup`, `fsGroup`, `seccompProfile`, `supplementalGroups`):
 * asked of the checks (ValidatePodSecurityContext), whose rules these are.
 */
export function podSecurityContextProblems(props: Record<string, unknown>): Problem[] {
  const fragment = { securityContext: { runAsUser: props.runAsUser, runAsGroup: props.runAsGroup, fsGroup: props.fsGroup, seccompProfile: isRecord(props.seccompProfile) ? props.seccompProfile : undefined, supplementalGroups: props.supplementalGroups } };
  return askChecks('', fragment, POD_PROP_PATHS, (add) => checkSecurityContext(add, 'securityContext', fragment.securityContext, true));
}

/** @internal The pod's names that the API server validates (`runtimeClassName`: ValidateRuntimeClassName), asked of the checks. */
export function podNameProblems(props: Record<string, unknown>): Problem[] {
  const spec = { runtimeClassName: typeof props.runtimeClassName === 'string' ? props.runtimeClassName : undefined };
  return askChecks('', spec, POD_PROP_PATHS, (add) => checkPodNames(add, { metadataPath: 'metadata', metadata: {}, specPath: '', spec }));
}

/** The envFrom sources as the manifest has them: asked only when their shapes are right (`envFromShaped`), so each renders. */
function renderedEnvFrom(envFrom: unknown, envFromShaped: boolean): unknown[] | undefined {
  return envFromShaped && Array.isArray(envFrom) ? envFrom.map((e: { _toKube(): unknown }) => e._toKube()) : undefined;
}

/**
 * @internal
 * On a Windows agent, the Linux-only pod props (`runAsUser`, `runAsGroup`,
 * `fsGroup`, `seccompProfile`, `supplementalGroups`, `shareProcessNamespace`, `hostPID`, `hostIPC`),
 * asked of the checks (validateWindows); use securityContext.windowsOptions.runAsUserName instead.
 */
export function podWindowsProblems(props: Record<string, unknown>): Problem[] {
  const spec = {
    os: { name: 'windows' },
    securityContext: { runAsUser: props.runAsUser, runAsGroup: props.runAsGroup, fsGroup: props.fsGroup, seccompProfile: props.seccompProfile, supplementalGroups: props.supplementalGroups },
    shareProcessNamespace: props.shareProcessNamespace === true ? true : undefined,
    hostPID: props.hostPID,
    hostIPC: props.hostIPC,
    containers: [],
  };
  return askChecks('', spec, POD_PROP_PATHS, (add) => checkWindows(add, { metadataPath: 'metadata', metadata: {}, specPath: '', spec }));
}

/** The part of the container's manifest that the API rules asked here judge, from props whose shapes are right. */
function containerFragment(c: Record<string, unknown>, envFromShaped: boolean): KubeObject {
  const sc = isRecord(c.securityContext) ? c.securityContext : {};
  const caps = isRecord(sc.capabilities) ? sc.capabilities : {};
  return {
    imagePullPolicy: c.imagePullPolicy,
    terminationMessagePolicy: c.terminationMessagePolicy,
    // The API server's hostPort defaulting (the agent's too) makes an unset one equal; only a given one is judged.
    ports: Array.isArray(c.ports) ? c.ports.map((p) => (isRecord(p) ? { containerPort: p.number, hostPort: p.hostPort, protocol: p.protocol, name: p.name } : {})) : undefined,
    env: isRecord(c.env) ? Object.keys(c.env).map((name) => ({ name })) : undefined,
    envFrom: renderedEnvFrom(c.envFrom, envFromShaped),
    securityContext: {
      runAsUser: sc.user,
      runAsGroup: sc.group,
      privileged: sc.privileged,
      allowPrivilegeEscalation: sc.allowPrivilegeEscalation,
      capabilities: Array.isArray(caps.add) || Array.isArray(caps.drop) ? { add: caps.add, drop: caps.drop } : undefined,
      seccompProfile: isRecord(sc.seccompProfile) ? sc.seccompProfile : undefined,
      readOnlyRootFilesystem: sc.readOnlyRootFilesystem,
      seLinuxOptions: sc.seLinuxOptions,
      // Its text here ('runtime/default'), not the rendered object: validateWindows asks only whether it is set.
      appArmorProfile: sc.appArmorProfile,
    },
  };
}

/** @internal What the API server refuses in the container, asked of the checks (pkg/apis/core/validation: validateContainer and the functions it calls). */
export function containerApiProblems(prop: string, c: Record<string, unknown>, defaults: { readonly hostNetwork: boolean; readonly version: KubernetesVersion; readonly windows: boolean }, envFromShaped: boolean): Problem[] {
  const fragment = containerFragment(c, envFromShaped);
  return askChecks(prop, fragment, CONTAINER_PROP_PATHS, (add) => {
    checkContainerPolicies(add, '', fragment);
    checkContainerPorts(add, '', fragment, defaults.hostNetwork);
    checkEnv(add, '', fragment, defaults.version);
    checkSecurityContext(add, 'securityContext', fragment.securityContext, false);
  }).concat(defaults.windows ? windowsProblems(prop, fragment) : appArmorProblems(`${prop}.securityContext.appArmorProfile`, c.securityContext, defaults.version));
}

/**
 * The AppArmor profile as the API server takes it, asked of the checks: its
 * syntax, the annotation's (ValidateAppArmorProfileFormat: runtime/default,
 * unconfined, localhost/...), which is the prop's; and where the target
 * writes the field (AppArmorFields), the field it becomes
 * (validateAppArmorProfileField: Localhost needs a profile name).
 */
function appArmorProblems(prop: string, sc: unknown, version: KubernetesVersion): Problem[] {
  const profile = isRecord(sc) ? sc.appArmorProfile : undefined;
  if (typeof profile !== 'string' || profile === '') return [];
  const annotated = { metadataPath: 'metadata', metadata: { annotations: { [`${APPARMOR_ANNOTATION_PREFIX}c`]: profile } }, specPath: 'spec', spec: { containers: [{ name: 'c' }] } };
  const problems = askChecks(prop, annotated, [[/^metadata\.annotations.*/, '']], (add) => checkPodAnnotations(add, annotated))
    .map((p) => p.replace(' must be valid (', " must be 'runtime/default', 'unconfined' or 'localhost/<profile>' ("));
  if (problems.length > 0 || !featureEnabled(version, 'AppArmorFields')) return problems;
  const field = { securityContext: { appArmorProfile: appArmorField(profile) } };
  return askChecks(prop, field, [[/^securityContext\.appArmorProfile.*/, '']], (add) => checkAppArmorProfile(add, 'securityContext', field.securityContext))
    .map((p) => `${p} (the profile's name after 'localhost/') but got ${JSON.stringify(profile)}`);
}

/** On a Windows agent, the Linux-only fields the container sets (validateWindows), asked of the checks on a windows pod of this container. */
function windowsProblems(prop: string, fragment: KubeObject): Problem[] {
  const pod = { metadataPath: 'metadata', metadata: {}, specPath: '', spec: { os: { name: 'windows' }, containers: [fragment] } };
  return askChecks(prop, pod.spec, WINDOWS_CONTAINER_PROP_PATHS, (add) => checkWindows(add, pod));
}

/** @internal A Windows host process agent: what the API server refuses of its pod (validateWindowsHostProcessPod: host networking), asked of the checks. */
export function podHostProcessProblems(props: Record<string, unknown>): Problem[] {
  const spec = { securityContext: { windowsOptions: { hostProcess: true } }, hostNetwork: props.hostNetwork ?? true, containers: [{}] };
  return askChecks('', spec, POD_PROP_PATHS, (add) => checkHostProcess(add, { metadataPath: 'metadata', metadata: {}, specPath: '', spec }));
}

/**
 * @internal
 * The containers' and init containers' names as the API server takes them
 * (validateContainers, validateInitContainers: DNS-1123 labels, each once in the pod), asked of the checks.
 * @param lists the containers and the init containers, as given (anything that is no object is a shape problem of its own)
 */
export function containerNameProblems(lists: { readonly containers?: unknown; readonly initContainers?: unknown }): Problem[] {
  const spec = { containers: Array.isArray(lists.containers) ? lists.containers : [], initContainers: Array.isArray(lists.initContainers) ? lists.initContainers : [] };
  const names = new Set<string>();
  return askChecks('', spec, [], (add) => containersOf({ metadataPath: 'metadata', metadata: {}, specPath: '', spec }).forEach((c) => checkContainerName(add, c, names)))
    .map((p) => p.replace(' must be unique but got ', ' must be unique among the containers and init containers but got '));
}
