/**
 * Pod Security Standards, as pod-security-admission enforces them at each
 * policy version (k8s.io/pod-security-admission/policy: one `check_<id>.go`
 * per control, each with the versions whose rules changed;
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/). The
 * policy version is the namespace's `-version` label (`latest`: the
 * server's); the controls that changed after v1.28 are the baseline sysctls
 * (v1.29, v1.32), the appArmorProfile fields (checked by every version on a
 * server that has them) and the probe and lifecycle hosts (v1.34).
 *
 * Each control below is one PSA check with its level. A pod is judged at a
 * level as PSA judges it: "baseline" runs the baseline checks; "restricted"
 * runs every check, its restricted checks replacing the baseline checks they
 * override (restrictedVolumes replaces hostPathVolumes, seccompProfile_restricted
 * replaces seccompProfile_baseline, capabilities_restricted replaces
 * capabilities_baseline). Every control judges init, regular and ephemeral
 * containers (policy/visitor.go: visitContainers).
 */
import { FieldProblem, join, KubeObject, show } from './finding';
import { ContainerAt, containersOf, PodTemplate } from './pod-templates';
import { RULES } from './rules';
import { DEFAULT_KUBERNETES_VERSION, minorOf } from './versions';

/** The Pod Security Standards levels, from most to least strict. */
export enum PodSecurityLevel {
  /** Hardened: non-root, no privilege escalation, drop ALL, seccomp. */
  RESTRICTED = 'restricted',
  /** No known privilege escalation: no host namespaces, host paths or host ports. */
  BASELINE = 'baseline',
  /** Unrestricted. */
  PRIVILEGED = 'privileged',
}

/** The levels from most to least strict. */
export const POD_SECURITY_LEVELS: readonly PodSecurityLevel[] = [PodSecurityLevel.RESTRICTED, PodSecurityLevel.BASELINE, PodSecurityLevel.PRIVILEGED];

/** Whether `level` is at least as strict as `than`: restricted is stricter than baseline, baseline than privileged. */
export function isAtLeastAsStrict(level: PodSecurityLevel, than: PodSecurityLevel): boolean {
  return POD_SECURITY_LEVELS.indexOf(level) <= POD_SECURITY_LEVELS.indexOf(than);
}

/** Capabilities a restricted container may add. */
const ALLOWED_ADD_CAPABILITIES = new Set(['NET_BIND_SERVICE']);

/** Capabilities a baseline container may add: the container runtimes' default set (check_capabilities_baseline.go). */
const BASELINE_ADD_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

/** Volume sources a restricted pod may use. */
// image: allowed by check_restrictedVolumes at every policy version on servers from 1.33 (kubernetes#130394); an image
// volume reaches admission only from 1.35 (ImageVolume on; dropped before, ../normalize.ts), so always allowed here.
const ALLOWED_VOLUME_TYPES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret']);

/** SELinux types a baseline pod may request (v1.28). */
const ALLOWED_SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
/** check_seLinuxOptions.go: container_engine_t is allowed from policy v1.31 (withOptions v1.31). */
const SELINUX_TYPES_SINCE: ReadonlyArray<[number, string]> = [[31, 'container_engine_t']];

/** Sysctls a baseline pod may set at v1.28 (ip_local_reserved_ports since v1.27). */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
]);

/** Sysctls added to the safe set, by the policy version that allows them (check_sysctls.go: sysctlsV1Dot29, sysctlsV1Dot32). */
const SAFE_SYSCTLS_SINCE: ReadonlyArray<readonly [number, readonly string[]]> = [
  [29, ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];

/** The safe sysctls of a policy version. */
export function safeSysctls(policyMinor: number): ReadonlySet<string> {
  return new Set([...SAFE_SYSCTLS, ...SAFE_SYSCTLS_SINCE.filter(([since]) => policyMinor >= since).flatMap(([, names]) => names)]);
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_ALLOWED = new Set(['RuntimeDefault', 'Localhost']);

type Control = (pod: PodTemplate, containers: ContainerAt[], policyMinor: number) => FieldProblem[];

function podSecurityContext(pod: PodTemplate): KubeObject {
  return pod.spec.securityContext ?? {};
}

function containerSecurityContext(c: ContainerAt): KubeObject {
  return c.container.securityContext ?? {};
}

function named(c: ContainerAt): string {
  return c.container.name ? `container "${c.container.name}"` : 'container';
}

/** Windows pods are exempt from some restricted controls since v1.25. */
function isWindows(pod: PodTemplate): boolean {
  return pod.spec.os?.name === 'windows';
}

const hostNamespaces: Control = (pod) => ['hostNetwork', 'hostPID', 'hostIPC']
  .filter((field) => pod.spec[field] === true)
  .map((field) => ({ rule: RULES.hostNamespaces, path: join(pod.specPath, field), message: `${field}: true shares the node's namespace with the pod` }));

const hostProcess: Control = (pod, containers) => {
  const problems: FieldProblem[] = [];
  if (podSecurityContext(pod).windowsOptions?.hostProcess === true) {
    problems.push({ rule: RULES.hostProcess, path: join(pod.specPath, 'securityContext', 'windowsOptions', 'hostProcess'), message: 'the pod runs as a Windows host process' });
  }
  for (const c of containers) {
    if (containerSecurityContext(c).windowsOptions?.hostProcess === true) {
      problems.push({ rule: RULES.hostProcess, path: join(c.path, 'securityContext', 'windowsOptions', 'hostProcess'), message: `${named(c)} runs as a Windows host process` });
    }
  }
  return problems;
};

const privileged: Control = (_, containers) => containers
  .filter((c) => containerSecurityContext(c).privileged === true)
  .map((c) => ({ rule: RULES.privileged, path: join(c.path, 'securityContext', 'privileged'), message: `${named(c)} is privileged` }));

const capabilities: Control = (pod, containers) => {
  if (isWindows(pod)) {
    return [];
  }
  const problems: FieldProblem[] = [];
  for (const c of containers) {
    const caps = containerSecurityContext(c).capabilities ?? {};
    const drop: unknown[] = Array.isArray(caps.drop) ? caps.drop : [];
    if (!drop.includes('ALL')) {
      problems.push({ rule: RULES.capabilities, path: join(c.path, 'securityContext', 'capabilities', 'drop'), message: `${named(c)} must drop ALL capabilities but drops ${show(caps.drop ?? [])}` });
    }
    const add: unknown[] = Array.isArray(caps.add) ? caps.add : [];
    const extra = add.filter((cap) => !ALLOWED_ADD_CAPABILITIES.has(String(cap)));
    if (extra.length > 0) {
      problems.push({ rule: RULES.capabilities, path: join(c.path, 'securityContext', 'capabilities', 'add'), message: `${named(c)} adds ${show(extra)}; only NET_BIND_SERVICE is allowed` });
    }
  }
  return problems;
};

const capabilitiesBaseline: Control = (_, containers) => {
  const problems: FieldProblem[] = [];
  for (const c of containers) {
    const caps = containerSecurityContext(c).capabilities ?? {};
    const add: unknown[] = Array.isArray(caps.add) ? caps.add : [];
    const extra = add.filter((cap) => !BASELINE_ADD_CAPABILITIES.has(String(cap)));
    if (extra.length > 0) {
      problems.push({ rule: RULES.capabilitiesBaseline, path: join(c.path, 'securityContext', 'capabilities', 'add'), message: `${named(c)} adds ${show(extra)}, beyond the runtime's default set` });
    }
  }
  return problems;
};

const hostPathVolumes: Control = (pod) => {
  const volumes: unknown[] = Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  const problems: FieldProblem[] = [];
  volumes.forEach((volume, i) => {
    const hostPath = (volume as KubeObject | null)?.hostPath;
    if (hostPath !== undefined && hostPath !== null) {
      problems.push({ rule: RULES.hostPathVolumes, path: join(pod.specPath, 'volumes', i, 'hostPath'), message: `volume ${show((volume as KubeObject).name)} mounts the host path ${show(hostPath?.path)}` });
    }
  });
  return problems;
};

const seccompBaseline: Control = (pod, containers) => {
  const problems: FieldProblem[] = [];
  const podType = podSecurityContext(pod).seccompProfile?.type;
  if (podType !== undefined && !SECCOMP_ALLOWED.has(podType)) {
    problems.push({ rule: RULES.seccompBaseline, path: join(pod.specPath, 'securityContext', 'seccompProfile', 'type'), message: `the pod sets seccomp profile ${show(podType)}` });
  }
  for (const c of containers) {
    const type = containerSecurityContext(c).seccompProfile?.type;
    if (type !== undefined && !SECCOMP_ALLOWED.has(type)) {
      problems.push({ rule: RULES.seccompBaseline, path: join(c.path, 'securityContext', 'seccompProfile', 'type'), message: `${named(c)} sets seccomp profile ${show(type)}` });
    }
  }
  return problems;
};

const volumeTypes: Control = (pod) => {
  const volumes: unknown[] = Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  const problems: FieldProblem[] = [];
  volumes.forEach((volume, i) => {
    if (typeof volume !== 'object' || volume === null) {
      return;
    }
    const sources = Object.keys(volume).filter((k) => k !== 'name');
    const forbidden = sources.filter((k) => !ALLOWED_VOLUME_TYPES.has(k));
    if (forbidden.length > 0) {
      const name = (volume as KubeObject).name;
      problems.push({ rule: RULES.volumeTypes, path: join(pod.specPath, 'volumes', i, forbidden[0]), message: `volume ${show(name)} uses ${forbidden.join(', ')}, which restricted pods may not use` });
    }
  });
  return problems;
};

const hostPorts: Control = (_, containers) => {
  const problems: FieldProblem[] = [];
  for (const c of containers) {
    const ports: unknown[] = Array.isArray(c.container.ports) ? c.container.ports : [];
    ports.forEach((port, i) => {
      const hostPort = (port as KubeObject | null)?.hostPort;
      if (hostPort !== undefined && hostPort !== 0) {
        problems.push({ rule: RULES.hostPorts, path: join(c.path, 'ports', i, 'hostPort'), message: `${named(c)} binds host port ${show(hostPort)}` });
      }
    });
  }
  return problems;
};

const appArmor: Control = (pod, containers) => {
  const annotations: KubeObject = pod.metadata.annotations ?? {};
  const fromAnnotations = Object.entries(annotations)
    // check_appArmorProfile.go allowedAnnotationValue: empty (unset), runtime/default or localhost/*.
    .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION_PREFIX) && value !== '' && value !== 'runtime/default' && !String(value).startsWith('localhost/'))
    .map(([key, value]) => ({ rule: RULES.appArmor, path: join(pod.metadataPath, 'annotations', key), message: `AppArmor profile ${show(value)} is not runtime/default or localhost/*` }));
  // The appArmorProfile fields (1.30+), checked at every policy version: only RuntimeDefault and Localhost.
  const unconfined = (sc: KubeObject | undefined) => sc?.appArmorProfile?.type === 'Unconfined';
  const fromFields = [
    ...(unconfined(podSecurityContext(pod)) ? [{ rule: RULES.appArmor, path: join(pod.specPath, 'securityContext', 'appArmorProfile', 'type'), message: 'the pod must not set AppArmor profile type to "Unconfined"' }] : []),
    ...containers.filter((c) => unconfined(containerSecurityContext(c)))
      .map((c) => ({ rule: RULES.appArmor, path: join(c.path, 'securityContext', 'appArmorProfile', 'type'), message: `${named(c)} must not set AppArmor profile type to "Unconfined"` })),
  ];
  return [...fromAnnotations, ...fromFields];
};

/** check_hostProbesAndHostLifecycle.go (v1.34+): probes and lifecycle handlers may not name a host. */
const probeHosts: Control = (_, containers, policyMinor) => {
  if (policyMinor < 34) return [];
  const problems: FieldProblem[] = [];
  for (const c of containers) {
    const handlers: Array<[string[], unknown]> = [
      ...['livenessProbe', 'readinessProbe', 'startupProbe'].map((p): [string[], unknown] => [[p], c.container[p]]),
      ...['postStart', 'preStop'].map((h): [string[], unknown] => [['lifecycle', h], c.container.lifecycle?.[h]]),
    ];
    for (const [at, handler] of handlers) {
      for (const kind of ['httpGet', 'tcpSocket']) {
        const host = (handler as KubeObject | undefined)?.[kind]?.host;
        if (typeof host === 'string' && host !== '') {
          problems.push({ rule: RULES.probeHost, path: join(c.path, ...at, kind, 'host'), message: `${named(c)} uses probe or lifecycle host ${show(host)}` });
        }
      }
    }
  }
  return problems;
};

function seLinuxProblems(options: KubeObject | undefined, path: string, who: string, policyMinor: number): FieldProblem[] {
  if (!options) {
    return [];
  }
  const problems: FieldProblem[] = [];
  const allowed = (type: string) => ALLOWED_SELINUX_TYPES.has(type) || SELINUX_TYPES_SINCE.some(([since, t]) => policyMinor >= since && t === type);
  if (options.type !== undefined && !allowed(options.type)) {
    problems.push({ rule: RULES.seLinux, path: join(path, 'type'), message: `${who} requests SELinux type ${show(options.type)}` });
  }
  for (const field of ['user', 'role']) {
    if (options[field] !== undefined && options[field] !== '') {
      problems.push({ rule: RULES.seLinux, path: join(path, field), message: `${who} sets SELinux ${field} ${show(options[field])}` });
    }
  }
  return problems;
}

const seLinux: Control = (pod, containers, policyMinor) => [
  ...seLinuxProblems(podSecurityContext(pod).seLinuxOptions, join(pod.specPath, 'securityContext', 'seLinuxOptions'), 'the pod', policyMinor),
  ...containers.flatMap((c) => seLinuxProblems(containerSecurityContext(c).seLinuxOptions, join(c.path, 'securityContext', 'seLinuxOptions'), named(c), policyMinor)),
];

/** check_procMount_restricted.go: only the default /proc masks (procMount unset or Default). */
const procMountRestricted: Control = (_, containers) => containers
  .filter((c) => containerSecurityContext(c).procMount !== undefined && containerSecurityContext(c).procMount !== 'Default')
  .map((c) => ({ rule: RULES.procMount, path: join(c.path, 'securityContext', 'procMount'), message: `${named(c)} sets procMount ${show(containerSecurityContext(c).procMount)}` }));

/**
 * check_procMount_baseline.go: as restricted, but from policy v1.35 a pod in
 * a user namespace (hostUsers: false) may set any procMount
 * (relaxPolicyForUserNamespacePod); "restricted" keeps the strict check.
 */
const procMount: Control = (pod, containers, policyMinor) => (policyMinor >= 35 && pod.spec.hostUsers === false ? [] : procMountRestricted(pod, containers, policyMinor));

const sysctls: Control = (pod, _, policyMinor) => {
  const list: unknown[] = Array.isArray(podSecurityContext(pod).sysctls) ? podSecurityContext(pod).sysctls : [];
  const safe = safeSysctls(policyMinor);
  const problems: FieldProblem[] = [];
  list.forEach((sysctl, i) => {
    const name = (sysctl as KubeObject | null)?.name;
    if (!safe.has(name)) {
      problems.push({ rule: RULES.sysctls, path: join(pod.specPath, 'securityContext', 'sysctls', i, 'name'), message: `sysctl ${show(name)} is not in the safe set` });
    }
  });
  return problems;
};

const runAsNonRoot: Control = (pod, containers) => {
  const problems: FieldProblem[] = [];
  const podValue = podSecurityContext(pod).runAsNonRoot;
  if (podValue === false) {
    problems.push({ rule: RULES.runAsNonRoot, path: join(pod.specPath, 'securityContext', 'runAsNonRoot'), message: 'the pod sets runAsNonRoot: false' });
  }
  for (const c of containers) {
    const value = containerSecurityContext(c).runAsNonRoot;
    if (value === false) {
      problems.push({ rule: RULES.runAsNonRoot, path: join(c.path, 'securityContext', 'runAsNonRoot'), message: `${named(c)} sets runAsNonRoot: false` });
    } else if (value !== true && podValue !== true) {
      problems.push({ rule: RULES.runAsNonRoot, path: join(c.path, 'securityContext', 'runAsNonRoot'), message: `${named(c)} may run as root: neither it nor the pod sets runAsNonRoot: true` });
    }
  }
  return problems;
};

const runAsUser: Control = (pod, containers) => {
  const problems: FieldProblem[] = [];
  if (podSecurityContext(pod).runAsUser === 0) {
    problems.push({ rule: RULES.runAsUser, path: join(pod.specPath, 'securityContext', 'runAsUser'), message: 'the pod runs as uid 0 (root)' });
  }
  for (const c of containers) {
    if (containerSecurityContext(c).runAsUser === 0) {
      problems.push({ rule: RULES.runAsUser, path: join(c.path, 'securityContext', 'runAsUser'), message: `${named(c)} runs as uid 0 (root)` });
    }
  }
  return problems;
};

const seccomp: Control = (pod, containers) => {
  // Linux-only since v1.25: Windows pods are exempt.
  if (isWindows(pod)) {
    return [];
  }
  const problems: FieldProblem[] = [];
  const podType = podSecurityContext(pod).seccompProfile?.type;
  const podOk = SECCOMP_ALLOWED.has(podType);
  if (podType !== undefined && !podOk) {
    problems.push({ rule: RULES.seccomp, path: join(pod.specPath, 'securityContext', 'seccompProfile', 'type'), message: `the pod sets seccomp profile ${show(podType)}` });
  }
  for (const c of containers) {
    const type = containerSecurityContext(c).seccompProfile?.type;
    if (type !== undefined ? !SECCOMP_ALLOWED.has(type) : !podOk) {
      problems.push({
        rule: RULES.seccomp,
        path: join(c.path, 'securityContext', 'seccompProfile', 'type'),
        message: type !== undefined ? `${named(c)} sets seccomp profile ${show(type)}` : `${named(c)} has no seccomp profile, and the pod sets none`,
      });
    }
  }
  return problems;
};

const privilegeEscalation: Control = (pod, containers) => isWindows(pod) ? [] : containers
  .filter((c) => containerSecurityContext(c).allowPrivilegeEscalation !== false)
  .map((c) => ({ rule: RULES.privilegeEscalation, path: join(c.path, 'securityContext', 'allowPrivilegeEscalation'), message: `${named(c)} must set allowPrivilegeEscalation: false but has ${show(containerSecurityContext(c).allowPrivilegeEscalation)}` }));

/** One PSA check: its level, and the baseline check it replaces at "restricted". */
interface Check {
  readonly level: PodSecurityLevel.BASELINE | PodSecurityLevel.RESTRICTED;
  readonly run: Control;
  readonly overrides?: Control;
}

/** The checks, in pod-security-admission's order of IDs (each judges by the policy version it is given). */
const CHECKS: Check[] = [
  { level: PodSecurityLevel.BASELINE, run: hostNamespaces },
  { level: PodSecurityLevel.BASELINE, run: hostProcess },
  { level: PodSecurityLevel.BASELINE, run: privileged },
  { level: PodSecurityLevel.BASELINE, run: capabilitiesBaseline },
  { level: PodSecurityLevel.BASELINE, run: hostPathVolumes },
  { level: PodSecurityLevel.BASELINE, run: hostPorts },
  { level: PodSecurityLevel.BASELINE, run: appArmor },
  { level: PodSecurityLevel.BASELINE, run: seLinux },
  { level: PodSecurityLevel.BASELINE, run: procMount },
  { level: PodSecurityLevel.BASELINE, run: seccompBaseline },
  { level: PodSecurityLevel.BASELINE, run: sysctls },
  { level: PodSecurityLevel.BASELINE, run: probeHosts },
  { level: PodSecurityLevel.RESTRICTED, run: capabilities, overrides: capabilitiesBaseline },
  { level: PodSecurityLevel.RESTRICTED, run: procMountRestricted, overrides: procMount },
  { level: PodSecurityLevel.RESTRICTED, run: volumeTypes, overrides: hostPathVolumes },
  { level: PodSecurityLevel.RESTRICTED, run: runAsNonRoot },
  { level: PodSecurityLevel.RESTRICTED, run: runAsUser },
  { level: PodSecurityLevel.RESTRICTED, run: seccomp, overrides: seccompBaseline },
  { level: PodSecurityLevel.RESTRICTED, run: privilegeEscalation },
];

/**
 * Every Pod Security problem of one pod template at a level and policy
 * version (the minor: 28 for v1.28), as pod-security-admission would refuse
 * the pod: nothing at "privileged", the baseline controls at "baseline",
 * every control at "restricted".
 */
export function checkPodSecurity(pod: PodTemplate, level: PodSecurityLevel = PodSecurityLevel.RESTRICTED, policyMinor: number = minorOf(DEFAULT_KUBERNETES_VERSION)): FieldProblem[] {
  if (level === PodSecurityLevel.PRIVILEGED) {
    return [];
  }
  const checks = CHECKS.filter((c) => level === PodSecurityLevel.RESTRICTED || c.level === PodSecurityLevel.BASELINE);
  const overridden = new Set(checks.map((c) => c.overrides).filter((c) => c !== undefined));
  const containers = containersOf(pod);
  return checks.filter((c) => !overridden.has(c.run)).flatMap((c) => c.run(pod, containers, policyMinor));
}

/** What a pod needs of its namespace's Pod Security level. */
export interface PodSecurityNeeds {
  /** The strictest level that admits the pod. */
  readonly level: PodSecurityLevel;
  /** What the pod breaks at "restricted": one problem per field, each naming its rule. */
  readonly problems: FieldProblem[];
}

/**
 * The strictest level that admits the pod (restricted, baseline or
 * privileged) and what it breaks at "restricted": the controls an agent
 * must waive, with a reason, to run in a laxer namespace.
 */
export function podSecurityNeeds(pod: PodTemplate, policyMinor: number = minorOf(DEFAULT_KUBERNETES_VERSION)): PodSecurityNeeds {
  const problems = checkPodSecurity(pod, PodSecurityLevel.RESTRICTED, policyMinor);
  if (problems.length === 0) {
    return { level: PodSecurityLevel.RESTRICTED, problems };
  }
  const level = checkPodSecurity(pod, PodSecurityLevel.BASELINE, policyMinor).length === 0 ? PodSecurityLevel.BASELINE : PodSecurityLevel.PRIVILEGED;
  return { level, problems };
}
