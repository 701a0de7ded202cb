/**
 * Pod Security Standards "restricted", as pod-security-admission enforces
 * them for Kubernetes v1.28 (k8s.io/pod-security-admission/policy,
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/).
 *
 * "restricted" includes every "baseline" control. Each function below is one
 * control; it judges one pod template, including init and ephemeral
 * containers, and returns the fields that break it.
 */
import { join, KubeObject, Problem, show } from './finding';
import { ContainerAt, containersOf, PodTemplate } from './pod-templates';
import { RULES } from './rules';

/** Capabilities a restricted container may add. */
const ALLOWED_ADD_CAPABILITIES = new Set(['NET_BIND_SERVICE']);

/** Volume sources a restricted pod may use. */
const ALLOWED_VOLUME_TYPES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

/** SELinux types a baseline pod may request (v1.28). */
const ALLOWED_SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

/** Sysctls a baseline pod may set (v1.28; ip_local_reserved_ports since v1.27). */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
]);

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_ALLOWED = new Set(['RuntimeDefault', 'Localhost']);

type Control = (pod: PodTemplate, containers: ContainerAt[]) => Problem[];

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
  const problems: Problem[] = [];
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
  const problems: Problem[] = [];
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

const volumeTypes: Control = (pod) => {
  const volumes: unknown[] = Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  const problems: Problem[] = [];
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
  const problems: Problem[] = [];
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

const appArmor: Control = (pod) => {
  const annotations: KubeObject = pod.metadata.annotations ?? {};
  return Object.entries(annotations)
    .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION_PREFIX) && value !== 'runtime/default' && !String(value).startsWith('localhost/'))
    .map(([key, value]) => ({ rule: RULES.appArmor, path: join(pod.metadataPath, 'annotations', key), message: `AppArmor profile ${show(value)} is not runtime/default or localhost/*` }));
};

function seLinuxProblems(options: KubeObject | undefined, path: string, who: string): Problem[] {
  if (!options) {
    return [];
  }
  const problems: Problem[] = [];
  if (options.type !== undefined && !ALLOWED_SELINUX_TYPES.has(options.type)) {
    problems.push({ rule: RULES.seLinux, path: join(path, 'type'), message: `${who} requests SELinux type ${show(options.type)}` });
  }
  for (const field of ['user', 'role']) {
    if (options[field] !== undefined && options[field] !== '') {
      problems.push({ rule: RULES.seLinux, path: join(path, field), message: `${who} sets SELinux ${field} ${show(options[field])}` });
    }
  }
  return problems;
}

const seLinux: Control = (pod, containers) => [
  ...seLinuxProblems(podSecurityContext(pod).seLinuxOptions, join(pod.specPath, 'securityContext', 'seLinuxOptions'), 'the pod'),
  ...containers.flatMap((c) => seLinuxProblems(containerSecurityContext(c).seLinuxOptions, join(c.path, 'securityContext', 'seLinuxOptions'), named(c))),
];

const procMount: Control = (_, containers) => containers
  .filter((c) => containerSecurityContext(c).procMount !== undefined && containerSecurityContext(c).procMount !== 'Default')
  .map((c) => ({ rule: RULES.procMount, path: join(c.path, 'securityContext', 'procMount'), message: `${named(c)} sets procMount ${show(containerSecurityContext(c).procMount)}` }));

const sysctls: Control = (pod) => {
  const list: unknown[] = Array.isArray(podSecurityContext(pod).sysctls) ? podSecurityContext(pod).sysctls : [];
  const problems: Problem[] = [];
  list.forEach((sysctl, i) => {
    const name = (sysctl as KubeObject | null)?.name;
    if (!SAFE_SYSCTLS.has(name)) {
      problems.push({ rule: RULES.sysctls, path: join(pod.specPath, 'securityContext', 'sysctls', i, 'name'), message: `sysctl ${show(name)} is not in the safe set` });
    }
  });
  return problems;
};

const runAsNonRoot: Control = (pod, containers) => {
  const problems: Problem[] = [];
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
  const problems: Problem[] = [];
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
  const problems: Problem[] = [];
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

const CONTROLS: Control[] = [
  hostNamespaces, hostProcess, privileged, capabilities, volumeTypes, hostPorts, appArmor,
  seLinux, procMount, sysctls, runAsNonRoot, runAsUser, seccomp, privilegeEscalation,
];

/** Every Pod Security "restricted" (v1.28) problem of one pod template. */
export function checkPodSecurity(pod: PodTemplate): Problem[] {
  const containers = containersOf(pod);
  return CONTROLS.flatMap((control) => control(pod, containers));
}
