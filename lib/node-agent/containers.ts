/**
 * The containers of a node agent: main containers, sidecars and init
 * containers, all with the same secure defaults, and a security context that
 * merges field by field over them.
 */
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { KubernetesVersion } from '../checks/versions';
import { checkImage, defined, isRecord, Problem, problem, show } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';
import { checkResources } from '../validate-props';
import { ContainerEnvFrom, ContainerLifecycle, ContainerProbe } from './cdk8s-plus';
import { containerApiProblems } from './container-checks';
import { AgentEnvFrom } from './env-from';
import { AgentMount, checkAbsolutePath, mountProblems } from './volumes';

/**
 * The default container resources: small requests, because the agent runs on
 * every node, and no limit: no library can know what an agent needs, and a
 * guessed memory limit OOM-kills a real one (the checks' `resources` rule
 * warns until you size it; see the README's "Sizing an agent").
 */
export const DEFAULT_AGENT_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(10) },
  memory: { request: Size.mebibytes(16) },
};

/** How the kubelet fills a terminated container's message. */
export enum TerminationMessagePolicy {
  /** Only what the container wrote to its terminationMessagePath. */
  FILE = 'File',
  /** The file, or the end of the container's log when the file is empty and it failed. */
  FALLBACK_TO_LOGS_ON_ERROR = 'FallbackToLogsOnError',
}

/** SELinux labels of a container, e.g. `{ type: 'spc_t' }` for an agent that manages the node. */
export interface SeLinuxOptions {
  /**
   * The SELinux user.
   * @default - the runtime's
   */
  readonly user?: string;
  /**
   * The SELinux role.
   * @default - the runtime's
   */
  readonly role?: string;
  /**
   * The SELinux type, e.g. `spc_t` (super-privileged container).
   * @default - the runtime's
   */
  readonly type?: string;
  /**
   * The SELinux level.
   * @default - the runtime's
   */
  readonly level?: string;
}

/** Windows options of a container. */
export interface WindowsSecurityOptions {
  /**
   * The Windows user the entrypoint runs as, e.g. `ContainerUser` or `ContainerAdministrator`.
   * @default - the image's
   */
  readonly runAsUserName?: string;
}

/**
 * A container's security context, merged field by field over the agent's
 * defaults (on Linux: uid and gid `runAsUser`, non-root unless uid 0,
 * read-only root, no privilege escalation unless privileged or adding
 * SYS_ADMIN, drop ALL; seccomp is the pod's). `capabilities.add` keeps
 * `drop: ['ALL']` unless `drop` is given too.
 */
export interface AgentSecurityContext extends kplus.ContainerSecurityContextProps {
  /**
   * SELinux labels (Linux only).
   * @default - the runtime's
   */
  readonly seLinuxOptions?: SeLinuxOptions;

  /**
   * The AppArmor profile (Linux only): `runtime/default`, `localhost/<profile>` or `unconfined`,
   * written as the pod annotation `container.apparmor.security.beta.kubernetes.io/<container>`.
   * @default - the runtime's default profile
   */
  readonly appArmorProfile?: string;

  /**
   * Windows options (Windows agents only).
   * @default - the image's user
   */
  readonly windowsOptions?: WindowsSecurityOptions;
}

/** One container of a {@link NodeAgent}: a main container, a sidecar or an init container. */
export interface AgentContainer {
  /** The container's name, a DNS-1123 label, unique in the pod. */
  readonly name: string;

  /** The image, with a tag or a digest. */
  readonly image: string;

  /**
   * The entrypoint.
   * @default - the image's
   */
  readonly command?: string[];

  /**
   * The arguments.
   * @default - the image's
   */
  readonly args?: string[];

  /**
   * The working directory, absolute.
   * @default - the image's
   */
  readonly workingDir?: string;

  /**
   * Environment variables, e.g. `{ NODE_NAME: DownwardApi.nodeName() }`, or a
   * Secret's key: `EnvValue.fromSecretValue({ secret: Secret.fromSecretName(...), key })`.
   * @default - none
   */
  readonly env?: Record<string, kplus.EnvValue>;

  /**
   * Every key of ConfigMaps or Secrets as variables: `AgentEnvFrom.configMap(name, { prefix?, optional? })`,
   * `AgentEnvFrom.secret(...)`, or cdk8s-plus' `Env.fromConfigMap(...)`, `Env.fromSecret(...)`.
   * @default - none
   */
  readonly envFrom?: (kplus.EnvFrom | ContainerEnvFrom | AgentEnvFrom)[];

  /**
   * Ports the container listens on. With `hostNetwork` each is also its
   * `hostPort` (as the API server defaults a pod's), which must then equal the port.
   * @default - none
   */
  readonly ports?: kplus.ContainerPort[];

  /**
   * The readiness probe.
   * @default - none: ready once started
   */
  readonly readiness?: kplus.Probe | ContainerProbe;

  /**
   * The liveness probe.
   * @default - none
   */
  readonly liveness?: kplus.Probe | ContainerProbe;

  /**
   * The startup probe: liveness and readiness wait until it succeeds.
   * @default - none
   */
  readonly startup?: kplus.Probe | ContainerProbe;

  /**
   * Hooks run after the container starts and before it stops.
   * @default - none
   */
  readonly lifecycle?: ContainerLifecycle;

  /**
   * Requests and limits; the agent runs on every node, so they multiply by the node count.
   * @default - cpu request 10m, memory request 16Mi, no limit (the checks warn: size it, see the README)
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * The security context, merged field by field over the agent's defaults (see {@link AgentSecurityContext}).
   * @default - the agent's defaults
   */
  readonly securityContext?: AgentSecurityContext;

  /**
   * When the kubelet pulls the image.
   * @default kplus.ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * How the kubelet fills the message of a terminated container.
   * @default TerminationMessagePolicy.FILE
   */
  readonly terminationMessagePolicy?: TerminationMessagePolicy;

  /**
   * The agent's volumes this container mounts.
   * @default - only the mounts every container gets (`hostPaths`, `config.mountPath`)
   */
  readonly mounts?: AgentMount[];
}

/** @internal What the agent decides for all its containers. */
export interface ContainerDefaults {
  /** The uid containers run as. */
  readonly runAsUser: number;
  /** The gid containers run as; none: the image's. */
  readonly runAsGroup?: number;
  /** Whether the agent runs on Windows nodes. */
  readonly windows: boolean;
  /** Whether the pods share the node's network namespace. */
  readonly hostNetwork: boolean;
  /** The Kubernetes version the agent targets: some API rules depend on it (environment variable names). */
  readonly version: KubernetesVersion;
}

const CONTAINER_KEYS = ['name', 'image', 'command', 'args', 'workingDir', 'env', 'envFrom', 'ports', 'readiness', 'liveness', 'startup', 'lifecycle', 'resources', 'securityContext', 'imagePullPolicy', 'terminationMessagePolicy', 'mounts'];
/** Kubernetes' field names, which these props spell in cdk8s-plus' words. */
const CONTAINER_ELSEWHERE: Record<string, string> = {
  volumeMounts: 'is mounts here', readinessProbe: 'is readiness here', livenessProbe: 'is liveness here', startupProbe: 'is startup here',
};
const SECURITY_ELSEWHERE: Record<string, string> = { runAsUser: 'is user here', runAsGroup: 'is group here', runAsNonRoot: 'is ensureNonRoot here' };
const SECURITY_KEYS = ['user', 'group', 'ensureNonRoot', 'privileged', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'capabilities', 'seccompProfile', 'seLinuxOptions', 'appArmorProfile', 'windowsOptions'];
const CAPABILITIES: string[] = Object.values(kplus.Capability);

/** The capability whose holder can escalate anyway, so allowPrivilegeEscalation: false would only pretend. */
function addsSysAdmin(sc: AgentSecurityContext | undefined): boolean {
  return (sc?.capabilities?.add ?? []).some((c) => c === kplus.Capability.SYS_ADMIN);
}

/**
 * @internal
 * The container's security context in the L1 shape: the agent's defaults
 * with the container's own fields over them, field by field. On Windows only
 * the fields a Windows pod may set (pkg/apis/core/validation: validateWindows).
 */
export function renderSecurityContext(c: AgentContainer, defaults: ContainerDefaults): kplus.k8s.SecurityContext | undefined {
  const sc = c.securityContext ?? {};
  if (defaults.windows) {
    const windows = sc.windowsOptions ? { runAsUserName: sc.windowsOptions.runAsUserName } : undefined;
    return windows === undefined && sc.ensureNonRoot === undefined ? undefined : { windowsOptions: windows, runAsNonRoot: sc.ensureNonRoot };
  }
  const user = sc.user ?? defaults.runAsUser;
  const privileged = sc.privileged ?? false;
  return {
    runAsUser: user,
    runAsGroup: sc.group ?? defaults.runAsGroup,
    // A runAsNonRoot container that runs as uid 0 never starts.
    runAsNonRoot: sc.ensureNonRoot ?? user !== 0,
    privileged,
    readOnlyRootFilesystem: sc.readOnlyRootFilesystem ?? true,
    allowPrivilegeEscalation: sc.allowPrivilegeEscalation ?? (privileged || addsSysAdmin(sc)),
    capabilities: { drop: sc.capabilities?.drop ?? [kplus.Capability.ALL], add: sc.capabilities?.add },
    // Unset, the container inherits the pod's profile (RuntimeDefault by default).
    seccompProfile: sc.seccompProfile,
    seLinuxOptions: sc.seLinuxOptions ? { ...sc.seLinuxOptions } : undefined,
  };
}

/** @internal The cdk8s-plus props of the container; its security context and mounts are rendered by the agent. */
export function kplusContainerProps(c: AgentContainer, defaults: ContainerDefaults): kplus.ContainerProps {
  return {
    name: c.name,
    image: c.image,
    imagePullPolicy: c.imagePullPolicy ?? kplus.ImagePullPolicy.IF_NOT_PRESENT,
    command: c.command,
    args: c.args,
    workingDir: c.workingDir,
    envVariables: c.env,
    // Typed by what the agent uses of them (./cdk8s-plus.ts): a newer cdk8s-plus' render the same.
    envFrom: c.envFrom as kplus.EnvFrom[] | undefined,
    // The API server defaults a host-network pod's hostPort to the port.
    ports: c.ports?.map((p) => (defaults.hostNetwork && p.hostPort === undefined ? { ...p, hostPort: p.number } : p)),
    readiness: c.readiness as kplus.Probe | undefined,
    liveness: c.liveness as kplus.Probe | undefined,
    startup: c.startup as kplus.Probe | undefined,
    lifecycle: c.lifecycle as kplus.ContainerLifecycle | undefined,
    resources: c.resources ?? DEFAULT_AGENT_RESOURCES,
  };
}

function checkStringArray(prop: string, value: unknown): Problem | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : problem(prop, 'an array of strings', value);
}

function hasToKube(value: unknown): boolean {
  return typeof (value as { _toKube?: unknown })?._toKube === 'function';
}

/** A cdk8s-plus EnvValue: a string value, or a source (field, resource, ConfigMap, Secret). */
function isEnvValue(value: unknown): boolean {
  return isRecord(value) && (typeof value.value === 'string' ? value.valueFrom === undefined : value.value === undefined && isRecord(value.valueFrom));
}

function securityContextProblems(prop: string, sc: unknown, windows: boolean): Problem[] {
  if (!isRecord(sc)) {
    return [problem(prop, 'an AgentSecurityContext object', sc)];
  }
  const problems: Problem[] = [];
  for (const key of Object.keys(sc)) {
    if (!SECURITY_KEYS.includes(key)) {
      problems.push(...unknownKeys(prop, { [key]: sc[key] }, { known: SECURITY_KEYS, elsewhere: SECURITY_ELSEWHERE }));
    } else if (sc[key] !== undefined && !windows && key === 'windowsOptions') {
      problems.push(problem(`${prop}.windowsOptions`, "unset on a Linux agent (give the policy operatingSystem: 'windows')", sc[key]));
    }
  }
  for (const key of ['user', 'group'] as const) {
    if (sc[key] !== undefined && !Number.isInteger(sc[key])) {
      problems.push(problem(`${prop}.${key}`, 'an integer', sc[key]));
    }
  }
  for (const key of ['ensureNonRoot', 'privileged', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation'] as const) {
    if (sc[key] !== undefined && typeof sc[key] !== 'boolean') {
      problems.push(problem(`${prop}.${key}`, 'a boolean', sc[key]));
    }
  }
  if (sc.ensureNonRoot === true && sc.user === 0) {
    problems.push(problem(`${prop}.ensureNonRoot`, 'false or unset with user 0: the kubelet refuses to start a runAsNonRoot container as root', true));
  }
  if (sc.capabilities !== undefined) {
    const caps = sc.capabilities;
    if (!isRecord(caps)) {
      problems.push(problem(`${prop}.capabilities`, 'an object { add?, drop? }', caps));
    } else {
      for (const key of Object.keys(caps)) {
        if (key !== 'add' && key !== 'drop') {
          problems.push(problem(`${prop}.capabilities[key]`, 'add or drop', key));
        } else if (caps[key] !== undefined && (!Array.isArray(caps[key]) || !(caps[key] as unknown[]).every((c) => CAPABILITIES.includes(c as string)))) {
          problems.push(problem(`${prop}.capabilities.${key}`, 'an array of kplus.Capability values (capability names without the CAP_ prefix, e.g. NET_ADMIN, or ALL)', caps[key]));
        }
      }
    }
  }
  if (sc.seccompProfile !== undefined && !isRecord(sc.seccompProfile)) {
    problems.push(problem(`${prop}.seccompProfile`, '{ type, localhostProfile? } (kplus.SeccompProfileType)', sc.seccompProfile));
  }
  if (sc.seLinuxOptions !== undefined) {
    const se = sc.seLinuxOptions;
    if (!isRecord(se) || Object.entries(se).some(([k, v]) => !['user', 'role', 'type', 'level'].includes(k) || typeof v !== 'string')) {
      problems.push(problem(`${prop}.seLinuxOptions`, 'an object of strings { user?, role?, type?, level? }', se));
    }
  }
  // Its syntax is the API server's (ValidateAppArmorProfileFormat, validateAppArmorProfileField): asked of the checks (appArmorProblems).
  if (sc.appArmorProfile !== undefined && (typeof sc.appArmorProfile !== 'string' || sc.appArmorProfile === '')) {
    problems.push(problem(`${prop}.appArmorProfile`, "a non-empty string: 'runtime/default', 'unconfined' or 'localhost/<profile>'", sc.appArmorProfile));
  }
  if (sc.windowsOptions !== undefined && (!isRecord(sc.windowsOptions) || Object.keys(sc.windowsOptions).some((k) => k !== 'runAsUserName') || (sc.windowsOptions.runAsUserName !== undefined && typeof sc.windowsOptions.runAsUserName !== 'string'))) {
    problems.push(problem(`${prop}.windowsOptions`, 'an object { runAsUserName? }', sc.windowsOptions));
  }
  return problems;
}

function portProblems(prop: string, ports: unknown): Problem[] {
  if (!Array.isArray(ports)) {
    return [problem(prop, 'an array of { number, name?, protocol?, hostPort? }', ports)];
  }
  const problems: Problem[] = [];
  const numbers = new Set<string>();
  ports.forEach((p: unknown, i: number) => {
    const port: Record<string, unknown> = isRecord(p) ? p : {};
    const protocol = port.protocol ?? kplus.Protocol.TCP;
    problems.push(...defined(
      Number.isInteger(port.number) ? undefined : problem(`${prop}[${i}].number`, 'an integer', port.number),
      port.hostPort !== undefined && !Number.isInteger(port.hostPort) ? problem(`${prop}[${i}].hostPort`, 'an integer', port.hostPort) : undefined,
      port.protocol !== undefined && typeof port.protocol !== 'string' ? problem(`${prop}[${i}].protocol`, 'a kplus.Protocol', port.protocol) : undefined,
      port.hostIp !== undefined ? problem(`${prop}[${i}].hostIp`, 'unset (an agent on every node binds all addresses)', port.hostIp) : undefined,
      port.name !== undefined && typeof port.name !== 'string' ? problem(`${prop}[${i}].name`, 'a string', port.name) : undefined,
      // The API server only warns of a number used twice; a Service could not tell the two apart.
      numbers.has(`${show(port.number)}/${show(protocol)}`) ? problem(`${prop}[${i}].number`, `unique among the container's ${String(show(protocol)).replace(/"/g, '')} ports`, port.number) : undefined,
    ));
    numbers.add(`${show(port.number)}/${show(protocol)}`);
  });
  return problems;
}

/**
 * @internal
 * Every problem of one container, named by `prop`.
 * @param prop the prop that holds it, e.g. `initContainers[0]`
 * @param c the container
 * @param defaults what the agent decides for all containers
 */
export function containerProblems(prop: string, c: unknown, defaults: ContainerDefaults): Problem[] {
  if (!isRecord(c)) {
    return [problem(prop, 'an AgentContainer { name, image, ... }', c)];
  }
  // The envFrom sources' shapes, apart: the API server's rules on envFrom are asked only once these are right.
  const envFromProblems = defined(
    c.envFrom !== undefined && !(Array.isArray(c.envFrom) && c.envFrom.every(hasToKube)) ? problem(`${prop}.envFrom`, 'an array of AgentEnvFrom (AgentEnvFrom.configMap(...), .secret(...)) or cdk8s-plus EnvFrom', c.envFrom) : undefined,
    ...(Array.isArray(c.envFrom) ? c.envFrom.flatMap((e, i) => (e instanceof AgentEnvFrom ? e._problems(`${prop}.envFrom[${i}]`) : [])) : []),
  );
  const problems = defined(
    checkImage(`${prop}.image`, c.image),
    c.command !== undefined ? checkStringArray(`${prop}.command`, c.command) : undefined,
    c.args !== undefined ? checkStringArray(`${prop}.args`, c.args) : undefined,
    c.workingDir !== undefined ? checkAbsolutePath(`${prop}.workingDir`, c.workingDir, defaults.windows) : undefined,
    c.lifecycle !== undefined && !(isRecord(c.lifecycle) && Object.entries(c.lifecycle).every(([k, h]) => ['postStart', 'preStop'].includes(k) && (h === undefined || hasToKube(h))))
      ? problem(`${prop}.lifecycle`, 'an object { postStart?, preStop? } of cdk8s-plus Handlers (Handler.fromCommand(...), .fromHttpGet(...))', c.lifecycle) : undefined,
    ...envFromProblems,
  );
  problems.push(...unknownKeys(prop, c, { known: CONTAINER_KEYS, elsewhere: CONTAINER_ELSEWHERE }));
  if (c.env !== undefined) {
    if (!isRecord(c.env)) {
      problems.push(problem(`${prop}.env`, 'an object of variable names to EnvValue (e.g. DownwardApi.nodeName())', c.env));
    } else {
      for (const [name, value] of Object.entries(c.env)) {
        if (!isEnvValue(value)) {
          problems.push(problem(`${prop}.env.${name}`, 'an EnvValue, e.g. EnvValue.fromValue(...) or DownwardApi.nodeName()', value));
        }
      }
    }
  }
  for (const probe of ['readiness', 'liveness', 'startup'] as const) {
    if (c[probe] !== undefined && !hasToKube(c[probe])) {
      problems.push(problem(`${prop}.${probe}`, 'a cdk8s-plus Probe, e.g. Probe.fromHttpGet(...)', c[probe]));
    }
  }
  if (c.securityContext !== undefined) {
    problems.push(...securityContextProblems(`${prop}.securityContext`, c.securityContext, defaults.windows));
  }
  if (c.resources !== undefined) {
    problems.push(...checkResources(`${prop}.resources`, c.resources as kplus.ContainerResources));
  }
  if (c.ports !== undefined) {
    problems.push(...portProblems(`${prop}.ports`, c.ports));
  }
  problems.push(...containerApiProblems(prop, c, defaults, envFromProblems.length === 0));
  if (c.mounts !== undefined) {
    if (!Array.isArray(c.mounts)) {
      problems.push(problem(`${prop}.mounts`, 'an array of AgentMount { volume, path, ... }', c.mounts));
    } else {
      c.mounts.forEach((m, i) => problems.push(...mountProblems(`${prop}.mounts[${i}]`, m, defaults.windows)));
    }
  }
  return problems;
}
