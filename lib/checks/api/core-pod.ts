/**
 * The pod spec as the API server validates it (pkg/apis/core/validation,
 * validation.go: ValidatePodSpec and the functions it calls), for Pods and every
 * pod template.
 */
import { compareQuantities, parseQuantity } from '../../k8s/quantity';
import { checkDns1123Label, checkDns1123Subdomain, checkQualifiedName, configKeyReason, portNameProblem } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { ContainerAt, containersOf, PodTemplate } from '../pod-templates';
import { Rule, RULES } from '../rules';
import { DEFAULT_KUBERNETES_VERSION, KubernetesVersion } from '../versions';
import { Add, checkLabels, invalid, isInt, isRecord, list, unsupported } from './common';
import { checkAffinity, checkTolerations, checkTopologySpread } from './core-pod-scheduling';
import { checkProbes } from './core-probes';
import { checkVolumeMounts, checkVolumes } from './core-volumes';
import { envNameProblem, envSources, regularContainerRestartPolicy } from './versioned';

/** The protocols of ports (core/v1 Protocol). */
export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** The image pull policies (core/v1 PullPolicy). */
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

/** The termination message policies (core/v1 TerminationMessagePolicy). */
export const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

const FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];

const RESOURCE_FIELDS = ['limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage'];

/** ValidateEnv and ValidateEnvFrom: the container's variables and their sources; the constructs ask it too. */
export function checkEnv(add: Add, path: string, c: KubeObject, version: KubernetesVersion): void {
  list(c.env).forEach((e, i) => {
    const at = join(path, 'env', i);
    if (typeof e.name !== 'string' || e.name === '') {
      add(RULES.apiEnv, join(at, 'name'), 'Required value');
    } else {
      const problem = envNameProblem(e.name, version);
      if (problem) add(RULES.apiEnv, join(at, 'name'), `Invalid value: ${show(e.name)}: ${problem}`);
    }
    if (!isRecord(e.valueFrom)) return;
    const from = e.valueFrom;
    const sources = envSources(version).filter((k) => isRecord(from[k]));
    if (e.value !== undefined && e.value !== '' && sources.length > 0) {
      add(RULES.apiEnv, join(at, 'valueFrom'), 'Invalid value: "": may not be specified when `value` is not empty');
    }
    if (sources.length !== 1) {
      const names = envSources(version).map((k) => `\`${k}\``);
      add(RULES.apiEnv, join(at, 'valueFrom'), sources.length === 0 ? `Invalid value: "": must specify one of: ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : 'Invalid value: "": may not have more than one field specified at a time');
      return;
    }
    const [source] = sources;
    const ref = from[source];
    const refAt = join(at, 'valueFrom', source);
    if (source === 'fieldRef') {
      if (typeof ref.fieldPath !== 'string' || ref.fieldPath === '') {
        add(RULES.apiEnv, join(refAt, 'fieldPath'), 'Required value');
      } else if (!FIELD_PATHS.includes(ref.fieldPath) && !/^metadata\.(labels|annotations)\['[^']+'\]$/.test(ref.fieldPath) && !/^metadata\.(labels|annotations)$/.test(ref.fieldPath)) {
        add(RULES.apiEnv, join(refAt, 'fieldPath'), unsupported(ref.fieldPath, ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs']));
      }
      if (ref.apiVersion !== undefined && ref.apiVersion !== 'v1') {
        add(RULES.apiEnv, join(refAt, 'apiVersion'), unsupported(ref.apiVersion, ['v1']));
      }
    } else if (source === 'resourceFieldRef') {
      if (typeof ref.resource !== 'string' || ref.resource === '') {
        add(RULES.apiEnv, join(refAt, 'resource'), 'Required value');
      } else if (!RESOURCE_FIELDS.includes(ref.resource) && !/^(limits|requests)\.hugepages-/.test(ref.resource)) {
        add(RULES.apiEnv, join(refAt, 'resource'), unsupported(ref.resource, RESOURCE_FIELDS));
      }
    } else if (source === 'fileKeyRef') {
      // validateFileKeyRef (v1.35): a volume, a path and a key, each required.
      for (const field of ['volumeName', 'path', 'key']) {
        if (typeof ref[field] !== 'string' || ref[field] === '') add(RULES.apiEnv, join(refAt, field), 'Required value');
      }
    } else {
      if (typeof ref.key !== 'string' || ref.key === '') {
        add(RULES.apiEnv, join(refAt, 'key'), 'Required value');
      } else if (configKeyReason(ref.key) !== undefined) {
        // validateConfigMapKeySelector, validateSecretKeySelector: IsConfigMapKey.
        add(RULES.apiEnv, join(refAt, 'key'), `Invalid value: ${show(ref.key)}: ${configKeyReason(ref.key)}`);
      }
      if (typeof ref.name !== 'string' || ref.name === '') {
        add(RULES.apiEnv, join(refAt, 'name'), 'Required value');
      }
    }
  });
  list(c.envFrom).forEach((e, i) => {
    const at = join(path, 'envFrom', i);
    const sources = ['configMapRef', 'secretRef'].filter((k) => isRecord(e[k]));
    if (sources.length !== 1) {
      add(RULES.apiEnv, at, sources.length === 0 ? 'Invalid value: "": must specify one of: `configMapRef` or `secretRef`' : 'Invalid value: "": may not have more than one field specified at a time');
    }
    const prefixProblem = typeof e.prefix === 'string' && e.prefix !== '' ? envNameProblem(e.prefix, version) : undefined;
    if (prefixProblem) add(RULES.apiEnv, join(at, 'prefix'), `Invalid value: ${show(e.prefix)}: ${prefixProblem}`);
    for (const s of sources) {
      const name: unknown = e[s].name;
      if (typeof name !== 'string' || name === '') {
        add(RULES.apiEnv, join(at, s, 'name'), 'Required value');
      } else {
        // validateConfigMapEnvSource, validateSecretEnvSource: ValidateConfigMapName, ValidateSecretName.
        const problem = checkDns1123Subdomain('name', name);
        if (problem) add(RULES.apiEnv, join(at, s, 'name'), invalid(name, problem)!);
      }
    }
  });
}

const STANDARD_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/** ValidateContainerResourceRequirements: resource names, non-negative quantities, each request within its limit; the constructs ask it too. */
export function checkResources(add: Add, path: string, c: KubeObject): void {
  const r = c.resources;
  if (!isRecord(r)) return;
  for (const kind of ['limits', 'requests']) {
    if (!isRecord(r[kind])) continue;
    for (const [name, value] of Object.entries(r[kind])) {
      const at = join(path, 'resources', kind, name);
      const standard = STANDARD_RESOURCES.includes(name) || name.startsWith('hugepages-');
      if (!standard && (!name.includes('/') || checkQualifiedName('resource', name) !== undefined || name.startsWith('kubernetes.io/') || name.startsWith('requests.'))) {
        add(RULES.apiResources, at, `Invalid value: ${show(name)}: must be a standard resource type or fully qualified`);
        continue;
      }
      const v = parseQuantity(value);
      if (v !== undefined && v.nanos < 0n) {
        add(RULES.apiResources, at, `Invalid value: ${show(value)}: must be greater than or equal to 0`);
      }
      if (!standard && v !== undefined && v.nanos % 1_000_000_000n !== 0n) {
        add(RULES.apiResources, at, `Invalid value: ${show(value)}: must be an integer`);
      }
    }
  }
  if (isRecord(r.limits) && isRecord(r.requests)) {
    for (const [name, value] of Object.entries(r.requests)) {
      const req = parseQuantity(value);
      const lim = parseQuantity(r.limits[name]);
      if (req !== undefined && lim !== undefined && compareQuantities(req, lim) > 0) {
        add(RULES.apiResources, join(path, 'resources', 'requests', name), `Invalid value: ${show(value)}: must be less than or equal to ${name} limit of ${show(r.limits[name])}`);
      } else if (lim !== undefined && !STANDARD_RESOURCES.includes(name) && (req === undefined || compareQuantities(req, lim) !== 0)) {
        // Extended resources cannot be overcommitted.
        add(RULES.apiResources, join(path, 'resources', 'requests', name), `Invalid value: ${show(value)}: must be equal to ${name} limit of ${show(r.limits[name])}`);
      }
    }
  }
}

/** validateContainer: the imagePullPolicy and terminationMessagePolicy are of their enums; the constructs ask it too. */
export function checkContainerPolicies(add: Add, path: string, container: KubeObject): void {
  if (container.imagePullPolicy !== undefined && !PULL_POLICIES.includes(container.imagePullPolicy)) {
    add(RULES.apiContainer, join(path, 'imagePullPolicy'), unsupported(container.imagePullPolicy, PULL_POLICIES));
  }
  if (container.terminationMessagePolicy !== undefined && !TERMINATION_MESSAGE_POLICIES.includes(container.terminationMessagePolicy)) {
    add(RULES.apiContainer, join(path, 'terminationMessagePolicy'), unsupported(container.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
}

/** ValidateSecurityContext compares the literal text: "SYS_ADMIN" (what the runtime takes) does not count. */
const CAPABILITY_SYS_ADMIN = 'CAP_SYS_ADMIN';

/** ValidateSecurityContext and ValidatePodSecurityContext (`pod`): ids, seccomp, privilege escalation; the constructs ask it too. */
export function checkSecurityContext(add: Add, path: string, sc: unknown, pod: boolean): void {
  if (!isRecord(sc)) return;
  for (const id of ['runAsUser', 'runAsGroup', ...(pod ? ['fsGroup'] : [])]) {
    if (isInt(sc[id]) && (sc[id] < 0 || sc[id] > 2147483647)) {
      add(RULES.apiSecurityContext, join(path, id), `Invalid value: ${sc[id]}: must be between 0 and 2147483647, inclusive`);
    }
  }
  if (pod) {
    // ValidatePodSecurityContext: each supplemental group IsValidGroupID.
    (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((g: unknown, i: number) => {
      if (isInt(g) && (g < 0 || g > 2147483647)) add(RULES.apiSecurityContext, join(path, 'supplementalGroups', i), `Invalid value: ${g}: must be between 0 and 2147483647, inclusive`);
    });
    const sysctlNames = new Set<unknown>();
    list(sc.sysctls).forEach((s, i) => {
      // validateSysctls: each name once.
      if (sysctlNames.has(s.name)) add(RULES.apiSecurityContext, join(path, 'sysctls', i, 'name'), `Duplicate value: ${show(s.name)}`);
      sysctlNames.add(s.name);
      if (typeof s.name !== 'string' || s.name === '') add(RULES.apiSecurityContext, join(path, 'sysctls', i, 'name'), 'Required value');
      else if (!/^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/.test(s.name)) {
        add(RULES.apiSecurityContext, join(path, 'sysctls', i, 'name'), `Invalid value: ${show(s.name)}: must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`);
      }
    });
    if (sc.fsGroupChangePolicy !== undefined && !['OnRootMismatch', 'Always'].includes(sc.fsGroupChangePolicy as string)) {
      add(RULES.apiSecurityContext, join(path, 'fsGroupChangePolicy'), unsupported(sc.fsGroupChangePolicy, ['OnRootMismatch', 'Always']));
    }
  } else {
    if (sc.privileged === true && sc.allowPrivilegeEscalation === false) {
      add(RULES.apiSecurityContext, path, 'Invalid value: "": cannot set `allowPrivilegeEscalation` to false and `privileged` to true');
    }
    const added: unknown[] = isRecord(sc.capabilities) && Array.isArray(sc.capabilities.add) ? sc.capabilities.add : [];
    if (sc.allowPrivilegeEscalation === false && added.includes(CAPABILITY_SYS_ADMIN)) {
      add(RULES.apiSecurityContext, path, 'Invalid value: "": cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN');
    }
    if (sc.procMount !== undefined && !['Default', 'Unmasked'].includes(sc.procMount as string)) {
      add(RULES.apiSecurityContext, join(path, 'procMount'), unsupported(sc.procMount, ['Default', 'Unmasked']));
    }
  }
  const seccomp = sc.seccompProfile;
  if (isRecord(seccomp)) {
    const at = join(path, 'seccompProfile');
    if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(seccomp.type as string)) {
      add(RULES.apiSecurityContext, join(at, 'type'), seccomp.type === undefined ? 'Required value' : unsupported(seccomp.type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
    } else if (seccomp.type === 'Localhost' && (typeof seccomp.localhostProfile !== 'string' || seccomp.localhostProfile === '')) {
      add(RULES.apiSecurityContext, join(at, 'localhostProfile'), 'Required value: must be set when seccomp type is Localhost');
    } else if (seccomp.type !== 'Localhost' && seccomp.localhostProfile !== undefined) {
      add(RULES.apiSecurityContext, join(at, 'localhostProfile'), `Invalid value: ${show(seccomp.localhostProfile)}: can only be set when seccomp type is Localhost`);
    }
  }
}

/** validateContainerPorts and validateHostNetwork: port numbers, names, protocols; the constructs ask it too. */
export function checkContainerPorts(add: Add, path: string, c: KubeObject, hostNetwork: boolean): void {
  const names = new Set<string>();
  list(c.ports).forEach((p, i) => {
    const at = join(path, 'ports', i);
    if (p.containerPort === undefined) {
      add(RULES.apiPorts, join(at, 'containerPort'), 'Required value');
    } else if (isInt(p.containerPort) && (p.containerPort < 1 || p.containerPort > 65535)) {
      add(RULES.apiPorts, join(at, 'containerPort'), `Invalid value: ${p.containerPort}: must be between 1 and 65535, inclusive`);
    }
    if (isInt(p.hostPort) && (p.hostPort < 0 || p.hostPort > 65535)) {
      add(RULES.apiPorts, join(at, 'hostPort'), `Invalid value: ${p.hostPort}: must be between 1 and 65535, inclusive`);
    }
    if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol)) {
      add(RULES.apiPorts, join(at, 'protocol'), unsupported(p.protocol, PROTOCOLS));
    }
    if (typeof p.name === 'string' && p.name !== '') {
      const problem = portNameProblem(p.name);
      if (problem) add(RULES.apiPorts, join(at, 'name'), `Invalid value: ${show(p.name)}: ${problem}`);
      if (names.has(p.name)) add(RULES.apiPorts, join(at, 'name'), `Duplicate value: ${show(p.name)}`);
      names.add(p.name);
    }
    if (hostNetwork && isInt(p.hostPort) && p.hostPort !== 0 && p.hostPort !== p.containerPort) {
      add(RULES.apiPorts, join(at, 'hostPort'), `Invalid value: ${p.hostPort}: must match \`containerPort\` when \`hostNetwork\` is true`);
    }
  });
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const isIp = (s: unknown) => typeof s === 'string' && (IPV4.test(s) || (/^[0-9a-fA-F:.]+$/.test(s) && s.includes(':')));

function checkDns(add: Add, pod: PodTemplate): void {
  const spec = pod.spec;
  const policies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (spec.dnsPolicy !== undefined && !policies.includes(spec.dnsPolicy)) {
    add(RULES.apiDns, join(pod.specPath, 'dnsPolicy'), unsupported(spec.dnsPolicy, policies));
  }
  const config = isRecord(spec.dnsConfig) ? spec.dnsConfig : undefined;
  if (spec.dnsPolicy === 'None' && (!config || !Array.isArray(config.nameservers) || config.nameservers.length === 0)) {
    add(RULES.apiDns, join(pod.specPath, 'dnsConfig', 'nameservers'), 'Required value: must provide at least one DNS nameserver when DNSPolicy is set to "None"');
  }
  if (config) {
    const ns: unknown[] = Array.isArray(config.nameservers) ? config.nameservers : [];
    if (ns.length > 3) add(RULES.apiDns, join(pod.specPath, 'dnsConfig', 'nameservers'), `Invalid value: ${show(ns)}: must not have more than 3 nameservers`);
    ns.forEach((n, i) => { if (!isIp(n)) add(RULES.apiDns, join(pod.specPath, 'dnsConfig', 'nameservers', i), `Invalid value: ${show(n)}: must be a valid IP address`); });
    const searches: unknown[] = Array.isArray(config.searches) ? config.searches : [];
    if (searches.length > 32) add(RULES.apiDns, join(pod.specPath, 'dnsConfig', 'searches'), `Invalid value: ${show(searches)}: must not have more than 32 search paths`);
    list(config.options).forEach((o, i) => { if (typeof o.name !== 'string' || o.name === '') add(RULES.apiDns, join(pod.specPath, 'dnsConfig', 'options', i), 'Required value: Option.Name must not be empty'); });
  }
  list(spec.hostAliases).forEach((h, i) => {
    const at = join(pod.specPath, 'hostAliases', i);
    if (!isIp(h.ip)) add(RULES.apiDns, join(at, 'ip'), h.ip === undefined ? 'Required value' : `Invalid value: ${show(h.ip)}: must be a valid IP address`);
    (Array.isArray(h.hostnames) ? h.hostnames : []).forEach((n: unknown, j: number) => {
      const problem = checkDns1123Subdomain('hostname', n);
      if (problem) add(RULES.apiDns, join(at, 'hostnames', j), invalid(n, problem)!);
    });
  });
}

/** The pod restart policies. */
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

/** validateWindows: the Linux-only fields a pod with os.name windows may not set; the constructs ask it too. */
export function checkWindows(add: Add, pod: PodTemplate): void {
  const forbid = (path: string) => add(RULES.apiSecurityContext, path, 'Forbidden: cannot be set for a windows pod');
  const podContext = isRecord(pod.spec.securityContext) ? pod.spec.securityContext : {};
  for (const field of ['seLinuxOptions', 'seccompProfile', 'appArmorProfile', 'fsGroup', 'fsGroupChangePolicy', 'sysctls', 'runAsUser', 'runAsGroup', 'supplementalGroups']) {
    if (podContext[field] !== undefined) forbid(join(pod.specPath, 'securityContext', field));
  }
  // The host namespaces only when true: false is what the server defaults them to.
  for (const field of ['shareProcessNamespace', 'hostPID', 'hostIPC']) {
    if (field === 'shareProcessNamespace' ? pod.spec[field] !== undefined : pod.spec[field] === true) forbid(join(pod.specPath, field));
  }
  for (const c of containersOf(pod)) {
    const sc = isRecord(c.container.securityContext) ? c.container.securityContext : {};
    for (const field of ['seLinuxOptions', 'seccompProfile', 'appArmorProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (sc[field] !== undefined) forbid(join(c.path, 'securityContext', field));
    }
  }
}

/**
 * validateWindowsHostProcessPod: a pod with any hostProcess container has
 * only hostProcess containers (set, or inherited from the pod) and the host
 * network; pod and container may not disagree. The constructs ask it too.
 */
export function checkHostProcess(add: Add, pod: PodTemplate): void {
  const podValue = isRecord(pod.spec.securityContext) && isRecord(pod.spec.securityContext.windowsOptions) ? pod.spec.securityContext.windowsOptions.hostProcess : undefined;
  const containers = containersOf(pod);
  let hostProcess = 0;
  for (const c of containers) {
    const sc = c.container.securityContext;
    const value = isRecord(sc) && isRecord(sc.windowsOptions) ? sc.windowsOptions.hostProcess : undefined;
    if (typeof podValue === 'boolean' && typeof value === 'boolean' && podValue !== value) {
      add(RULES.apiSecurityContext, join(c.path, 'securityContext', 'windowsOptions', 'hostProcess'), `Invalid value: ${value}: pod hostProcess value must be identical if both are specified, was ${podValue}`);
    }
    if (value === true || (value === undefined && podValue === true)) hostProcess++;
  }
  if (hostProcess === 0) return;
  if (hostProcess !== containers.length) {
    add(RULES.apiSecurityContext, pod.specPath, 'Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers');
  }
  if (pod.spec.hostNetwork !== true) {
    add(RULES.apiSecurityContext, join(pod.specPath, 'hostNetwork'), 'Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers');
  }
}

/**
 * checkHostPortConflicts: one host port (by protocol and host IP) once
 * across the pod's containers. A Pod on the host network binds its container
 * ports on the node (SetDefaults_Pod copies containerPort to hostPort); a
 * template is not defaulted, so there only hostPort counts. The constructs ask it too.
 */
export function checkHostPortConflicts(add: Add, pod: PodTemplate, isPod: boolean): void {
  const seen = new Set<string>();
  list(pod.spec.containers).forEach((c, i) => {
    list(c.ports).forEach((p, j) => {
      const hostPort = isInt(p.hostPort) && p.hostPort !== 0 ? p.hostPort : isPod && pod.spec.hostNetwork === true && isInt(p.containerPort) ? p.containerPort : 0;
      if (hostPort === 0) return;
      const key = `${typeof p.protocol === 'string' && p.protocol !== '' ? p.protocol : 'TCP'}/${typeof p.hostIP === 'string' ? p.hostIP : ''}/${hostPort}`;
      if (seen.has(key)) add(RULES.apiPorts, join(pod.specPath, 'containers', i, 'ports', j, 'hostPort'), `Duplicate value: ${show(key)}`);
      seen.add(key);
    });
  });
}

/**
 * ValidatePodSpec's names: hostname and subdomain DNS-1123 labels;
 * priorityClassName, serviceAccountName, nodeName and runtimeClassName
 * (ValidateRuntimeClassName) DNS-1123 subdomains. The constructs ask it too.
 */
export function checkPodNames(add: Add, pod: PodTemplate): void {
  for (const [field, check] of [['hostname', checkDns1123Label], ['subdomain', checkDns1123Label], ['priorityClassName', checkDns1123Subdomain], ['serviceAccountName', checkDns1123Subdomain], ['nodeName', checkDns1123Subdomain], ['runtimeClassName', checkDns1123Subdomain]] as const) {
    if (typeof pod.spec[field] === 'string' && pod.spec[field] !== '') {
      const problem = check(field, pod.spec[field]);
      if (problem) add(RULES.apiPodSpec, join(pod.specPath, field), invalid(pod.spec[field], problem)!);
    }
  }
}

/**
 * ValidatePodSpec and the containers in it; a StatefulSet's claim templates
 * name volumes too. A template (not a Pod) may hold no ephemeral containers
 * (ValidatePodTemplateSpec), and a Pod gets them only after it is created
 * (ValidatePodCreate).
 */
export function checkPod(add: Add, pod: PodTemplate, claimTemplates: readonly string[] = [], version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): void {
  const spec = pod.spec;
  const at = pod.specPath;
  const isPod = pod.metadataPath === 'metadata';
  if (list(spec.containers).length === 0) {
    add(RULES.apiContainer, join(at, 'containers'), 'Required value');
  }
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0) {
    add(RULES.apiContainer, join(at, 'ephemeralContainers'), isPod ? 'Forbidden: cannot be set on create' : 'Forbidden: ephemeral containers not allowed in pod template');
  }
  checkHostProcess(add, pod);
  checkHostPortConflicts(add, pod, isPod);
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    add(RULES.apiPodSpec, join(at, 'restartPolicy'), unsupported(spec.restartPolicy, RESTART_POLICIES));
  }
  // A negative terminationGracePeriodSeconds is accepted, with a warning, and treated as 1.
  if (isInt(spec.activeDeadlineSeconds) && spec.activeDeadlineSeconds <= 0) {
    add(RULES.apiPodSpec, join(at, 'activeDeadlineSeconds'), `Invalid value: ${spec.activeDeadlineSeconds}: must be between 1 and 2147483647, inclusive`);
  }
  checkPodNames(add, pod);
  checkLabels(add, RULES.apiPodSpec, join(at, 'nodeSelector'), spec.nodeSelector);
  if (spec.os !== undefined && isRecord(spec.os) && !['linux', 'windows'].includes(spec.os.name)) {
    add(RULES.apiPodSpec, join(at, 'os', 'name'), unsupported(spec.os.name, ['linux', 'windows']));
  }
  checkSecurityContext(add, join(at, 'securityContext'), spec.securityContext, true);
  if (isRecord(spec.os) && spec.os.name === 'windows') {
    checkWindows(add, pod);
  }
  checkTolerations(add, at, spec.tolerations);
  checkAffinity(add, at, spec.affinity, version);
  checkTopologySpread(add, at, spec.topologySpreadConstraints);
  checkDns(add, pod);
  // validateReadinessGates: each conditionType a qualified name.
  list(spec.readinessGates).forEach((g, i) => {
    const problem = checkQualifiedName('conditionType', g.conditionType);
    if (problem) add(RULES.apiPodSpec, join(at, 'readinessGates', i, 'conditionType'), invalid(g.conditionType, problem)!);
  });
  const volumes = checkVolumes(add, pod, claimTemplates);
  const names = new Set<string>();
  for (const c of containersOf(pod)) {
    const container = c.container;
    const init = c.path.includes('initContainers');
    checkContainerName(add, c, names);
    if (typeof container.image !== 'string' || container.image === '') {
      add(RULES.apiContainer, join(c.path, 'image'), 'Required value');
    }
    checkContainerPolicies(add, c.path, container);
    const regular = regularContainerRestartPolicy(version);
    if (container.restartPolicy !== undefined && !(init ? container.restartPolicy === 'Always' : regular?.includes(container.restartPolicy))) {
      add(RULES.apiContainer, join(c.path, 'restartPolicy'), init ? unsupported(container.restartPolicy, ['Always']) : regular ? unsupported(container.restartPolicy, regular) : 'Forbidden: may not be set for non-init containers');
    }
    if (c.path.includes('ephemeralContainers')) {
      for (const field of ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources']) {
        if (container[field] !== undefined) add(RULES.apiContainer, join(c.path, field), 'Forbidden: cannot be set for an Ephemeral Container');
      }
    } else {
      checkContainerPorts(add, c.path, container, spec.hostNetwork === true);
      checkProbes(add, c.path, container, init, version);
      checkResources(add, c.path, container);
    }
    checkEnv(add, c.path, container, version);
    checkVolumeMounts(add, c.path, container, volumes, container.securityContext?.privileged === true);
    checkSecurityContext(add, join(c.path, 'securityContext'), container.securityContext, false);
  }
}

/** validateContainers, validateInitContainers: a container's name is a DNS-1123 label, once among `names` (the pod's so far); the constructs ask it too. */
export function checkContainerName(add: Add, c: ContainerAt, names: Set<string>): void {
  const name: unknown = c.container.name;
  if (typeof name !== 'string' || name === '') {
    add(RULES.apiContainer, join(c.path, 'name'), 'Required value');
    return;
  }
  const problem = checkDns1123Label('name', name);
  if (problem) add(RULES.apiContainer, join(c.path, 'name'), invalid(name, problem)!);
  if (names.has(name)) add(RULES.apiContainer, join(c.path, 'name'), `Duplicate value: ${show(name)}`);
  names.add(name);
}

/** A workload's pod template restartPolicy: only the policies the kind allows. */
export function checkTemplateRestartPolicy(add: Add, rule: Rule, pod: PodTemplate, allowed: string[]): void {
  const policy = pod.spec.restartPolicy;
  if (policy !== undefined && RESTART_POLICIES.includes(policy) && !allowed.includes(policy)) {
    add(rule, join(pod.specPath, 'restartPolicy'), unsupported(policy, allowed));
  }
}
