/**
 * Fuzz: random props for every public construct and random node lists for
 * the CLI, from a fixed seed. Each case must end in valid output (which the
 * manifest checks accept) or a clear error that names the prop; never a
 * TypeError, a crash or a hang.
 *
 * FUZZ_RUNS sets the number of cases per target (default 250; CI runs more).
 * The CLI's malformed manifests and odd folders, and npm run synth's output
 * folders, are fuzzed in fuzz-cli.test.ts.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AgentUpdateStrategy,
  AgentVolume,
  DownwardApi,
  LabeledNodePolicy,
  NodeAgent,
  NodePolicy,
  NodeReporterChart,
  NodeReporterDaemonSet,
  NodeRequirement,
  NodeToleration,
  PodSecurityLevel,
  PodSecurityNamespace,
  ProjectedSource,
  RestrictedNamespace,
  TaintEffect,
  TerminationMessagePolicy,
} from '../lib';
import { checkObject, isBlocking } from '../lib/checks';
import { main } from '../lib/cli/node-reporter';
import { RUNS, SEED } from './fuzz-settings';

/** mulberry32: a small seeded PRNG, so every run sees the same cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(private readonly next: () => number) {}

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  string(): string {
    const pieces = ['a', 'v1', 'Z', '0', '-', '.', '_', '/', ':', '@', '=', ';', '$(id)', '`id`', '|', '&', ' ', '\n', '\r', '\t', '\u0000', '\u001b[2J',
      '\u202e', 'é', '日本', '💥', '"', "'", '\\', '{{', '%', '*', 'kubernetes.io/', 'sha256:', 'a'.repeat(70), 'x'.repeat(300)];
    let s = '';
    const n = this.int(6);
    for (let i = 0; i < n; i++) {
      s += this.pick(pieces);
    }
    return s;
  }

  number(): number {
    return this.pick([0, 1, -1, 2, 15, 65534, 65535, 65536, 86400, 86401, 1.5, -0.5, 2 ** 31, 2 ** 53, 1e308, -1e308, NaN, Infinity, -Infinity]);
  }

  /** Any JavaScript value, as a careless caller might pass. */
  any(depth = 0): unknown {
    switch (this.int(depth > 1 ? 6 : 9)) {
      case 0: return this.string();
      case 1: return this.number();
      case 2: return this.chance(0.5);
      case 3: return null;
      case 4: return undefined;
      case 5: return this.pick([NodeToleration.everything(), Symbol('s'), () => 1, new Date(0), BigInt(1)]);
      case 6: return Array.from({ length: this.int(3) }, () => this.any(depth + 1));
      case 7: return Object.fromEntries(Array.from({ length: this.int(3) }, () => [this.string(), this.any(depth + 1)]));
      default: return { key: this.string(), value: this.any(depth + 1), operator: this.pick(['In', 'Exists', 'Gt', 'x']) };
    }
  }

  /**
   * Usually a plausible value of the prop, sometimes anything. A plausible
   * value that cdk8s itself refuses to build (Size.mebibytes(-1)) becomes anything.
   */
  maybe<T>(plausible: () => T, p = 0.75): unknown {
    if (!this.chance(p)) {
      return this.any();
    }
    try {
      return plausible();
    } catch {
      return this.any();
    }
  }
}

/** An error a user can act on: a plain Error (not a TypeError or RangeError) that names a prop or a setting. */
function expectClearError(e: unknown, input: unknown): void {
  const ok = e instanceof Error && e.constructor === Error && /'[^']+'|Validation failed/.test(e.message);
  if (!ok) {
    throw new Error(`unclear error for ${safeJson(input)}: ${(e as Error)?.stack ?? String(e)}`);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_, v) => (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function' ? String(v) : v))?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Builds with these props; on success the synthesized objects must pass the checks. */
function attempt(build: (chart: Chart) => unknown, input: unknown): 'ok' | 'refused' {
  const chart = new Chart(Testing.app(), 'fuzz', { namespace: 'fuzz' });
  try {
    build(chart);
    const blocking = Testing.synth(chart).flatMap((o) => checkObject(o)).filter(isBlocking);
    if (blocking.length > 0) {
      throw new Error(`accepted props whose manifest the checks refuse: ${safeJson(input)}\n${blocking.map((f) => `${f.rule.id} ${f.path}: ${f.message}`).join('\n')}`);
    }
    return 'ok';
  } catch (e) {
    if ((e as Error).message.startsWith('accepted props whose manifest')) {
      throw e;
    }
    expectClearError(e, input);
    return 'refused';
  }
}

function labels(g: Gen): unknown {
  return g.maybe(() => Object.fromEntries(Array.from({ length: g.int(3) }, () => [g.pick(['team', 'app.kubernetes.io/part-of', g.string()]), g.pick(['a', '', g.string()])])));
}

function resources(g: Gen): unknown {
  return g.maybe(() => ({
    cpu: g.maybe(() => ({ request: kplus.Cpu.millis(g.number()), limit: g.chance(0.5) ? kplus.Cpu.units(g.number()) : undefined })),
    memory: g.maybe(() => ({ request: Size.mebibytes(g.number()), limit: g.chance(0.5) ? Size.kibibytes(g.number()) : undefined })),
  }), 0.6);
}

function toleration(g: Gen): unknown {
  return g.maybe(() => g.pick([
    () => NodeToleration.everything(),
    () => NodeToleration.controlPlane(),
    () => NodeToleration.exists(g.pick(['dedicated', g.string()]), g.pick([undefined, TaintEffect.NO_EXECUTE, 'NoRun' as TaintEffect]), { tolerationSeconds: g.chance(0.3) ? g.number() : undefined }),
    () => NodeToleration.equal(g.pick(['dedicated', g.string()]), g.pick(['agents', g.string()]), g.pick([undefined, TaintEffect.NO_SCHEDULE])),
  ])());
}

function policyProps(g: Gen): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  if (g.chance(0.5)) props.matchLabels = labels(g);
  if (g.chance(0.5)) {
    props.matchExpressions = g.maybe(() => Array.from({ length: g.int(3) }, () => g.maybe(() => g.pick([
      () => NodeRequirement.in(g.pick(['zone', g.string()]), ...Array.from({ length: g.int(3) }, () => g.pick(['a', g.string()]))),
      () => NodeRequirement.exists(g.pick(['gpu', g.string()])),
      () => NodeRequirement.gt('cores', g.number()),
      () => ({ key: 'zone', operator: g.pick(['In', 'Lt', 'DoesNotExist', g.string()]), values: g.any() }),
    ])())));
  }
  if (g.chance(0.3)) props.operatingSystem = g.maybe(() => g.pick(['linux', 'windows', '']));
  if (g.chance(0.3)) props.architectures = g.maybe(() => g.pick([['amd64'], [], ['arm64', g.string()]]));
  if (g.chance(0.4)) props.tolerations = g.maybe(() => Array.from({ length: g.int(3) }, () => toleration(g)));
  return props;
}

/** NodeToleration factories may throw for bad input; a clear error is fine. */
function safely<T>(g: Gen, make: (g: Gen) => T): T | unknown {
  try {
    return make(g);
  } catch (e) {
    expectClearError(e, 'toleration');
    return undefined;
  }
}

function agentProps(g: Gen, chart: Chart): Record<string, unknown> {
  const props: Record<string, unknown> = {
    policy: g.maybe(() => new NodePolicy(chart, `P${g.int(1e9)}`, { operatingSystem: 'linux' }), 0.9),
    name: g.maybe(() => g.pick(['agent', 'node-exporter', g.string()]), 0.8),
    containers: g.maybe(() => Array.from({ length: 1 + g.int(2) }, (_, i) => g.maybe(() => ({
      name: g.maybe(() => `c${i}`, 0.9),
      image: g.maybe(() => g.pick(['busybox:1.36', 'example.com/a:1', g.string()]), 0.8),
      ...(g.chance(0.3) ? { command: g.maybe(() => ['sh', '-c', g.string()]) } : {}),
      ...(g.chance(0.3) ? { args: g.maybe(() => [g.string()]) } : {}),
      ...(g.chance(0.3) ? { env: g.maybe(() => ({ [g.pick(['NODE_NAME', g.string()])]: g.maybe(() => DownwardApi.nodeName()) })) } : {}),
      ...(g.chance(0.3) ? { ports: g.maybe(() => [g.maybe(() => ({ number: g.pick([9100, g.number()]), name: g.maybe(() => g.pick(['metrics', g.string()])), ...(g.chance(0.2) ? { hostPort: g.any() } : {}), ...(g.chance(0.2) ? { protocol: g.pick([kplus.Protocol.UDP, g.string()]) } : {}) }))]) } : {}),
      ...(g.chance(0.2) ? { readiness: g.maybe(() => kplus.Probe.fromTcpSocket({ port: 9100 })) } : {}),
      ...(g.chance(0.3) ? { resources: resources(g) } : {}),
      ...(g.chance(0.3) ? { securityContext: g.maybe(() => ({ [g.pick(['privileged', 'allowPrivilegeEscalation', 'user', 'ensureNonRoot', 'readOnlyRootFilesystem', 'group'])]: g.pick([true, false, 0, 1000, g.any()]) })) } : {}),
      ...(g.chance(0.2) ? { imagePullPolicy: g.maybe(() => g.pick([kplus.ImagePullPolicy.ALWAYS, g.string()])) } : {}),
    }), 0.9)), 0.9),
  };
  if (g.chance(0.2)) props.hostNetwork = g.maybe(() => g.chance(0.5));
  if (g.chance(0.2)) props.hostPID = g.maybe(() => g.chance(0.5));
  if (g.chance(0.2)) props.hostPaths = g.maybe(() => [g.maybe(() => ({ name: g.pick(['root', 'config', g.string()]), hostPath: g.pick(['/', '/var/log', g.string()]), mountPath: g.pick(['/host', '/var/log', g.string()]) }))]);
  if (g.chance(0.2)) props.serviceAccount = g.maybe(() => ({ rules: [g.maybe(() => ({ apiGroups: [''], resources: [g.pick(['pods', g.string()])], verbs: g.maybe(() => ['get']) }))] }));
  if (g.chance(0.2)) props.config = g.maybe(() => ({ data: g.maybe(() => ({ [g.pick(['a.conf', g.string()])]: g.maybe(() => g.string()) })), mountPath: g.pick(['/etc/agent', g.string()]) }));
  if (g.chance(0.2)) props.runAsUser = g.maybe(() => g.pick([0, 1000, g.number()]));
  if (g.chance(0.3)) props.podSecurity = g.maybe(() => ({ level: g.pick([PodSecurityLevel.PRIVILEGED, PodSecurityLevel.BASELINE, g.string()]), reason: g.pick(['reads the node', '', g.string()]) }));
  if (g.chance(0.2)) props.priorityClassName = g.maybe(() => g.pick(['system-node-critical', g.string()]));
  if (g.chance(0.2)) props.updateStrategy = g.maybe(() => g.pick([AgentUpdateStrategy.onDelete(), AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(g.number()) })]));
  if (g.chance(0.2)) props.labels = labels(g);
  if (g.chance(0.2)) props.annotations = g.maybe(() => ({ [g.pick(['example.com/owner', 'kubernetes.io/change-cause', g.string()])]: g.maybe(() => g.string()) }));
  for (const key of ['changeCause', 'minReadySeconds', 'terminationGracePeriodSeconds', 'revisionHistoryLimit']) {
    if (g.chance(0.15)) props[key] = g.maybe(() => (key === 'changeCause' ? g.string() : g.number()));
  }
  if (g.chance(0.2)) props.waves = waves(g, chart);
  return props;
}

/** Waves: names, overrides and nodes of their own, mostly plausible. */
function waves(g: Gen, chart: Chart): unknown {
  return g.maybe(() => Array.from({ length: g.int(4) }, () => g.maybe(() => ({
    name: g.maybe(() => g.pick(['canary', 'early', 'rest', '', g.string()]), 0.9),
    ...(g.chance(0.2) ? { image: g.maybe(() => g.pick(['busybox:1.37', g.string()])) } : {}),
    ...(g.chance(0.2) ? { version: g.maybe(() => g.pick(['v2', g.string()])) } : {}),
    ...(g.chance(0.2) ? { env: g.maybe(() => ({ [g.pick(['LEVEL', g.string()])]: g.maybe(() => kplus.EnvValue.fromValue('debug')) })) } : {}),
    ...(g.chance(0.2) ? { configData: g.maybe(() => ({ [g.pick(['a.conf', g.string()])]: g.maybe(() => g.string()) })) } : {}),
    ...(g.chance(0.2) ? { updateStrategy: g.maybe(() => AgentUpdateStrategy.onDelete()) } : {}),
    ...(g.chance(0.2) ? { nodes: g.maybe(() => new NodePolicy(chart, `W${g.int(1e9)}`, { matchLabels: { zone: g.pick(['a', 'b']) } })) } : {}),
  }), 0.9)));
}

/** What real agents need of NodeAgent: volumes, per-container mounts, init containers, security contexts, ports across containers, RBAC, config. */
function realAgentProps(g: Gen, chart: Chart): Record<string, unknown> {
  const volume = () => g.maybe(() => g.pick([
    () => AgentVolume.hostPath(g.pick(['state', 'logs', 'config', g.string()]), g.pick(['/var/lib/agent', '/var/log', 'relative', '/a/../b', g.string()]), { type: g.pick([undefined, kplus.HostPathVolumeType.DIRECTORY_OR_CREATE, kplus.HostPathVolumeType.FILE, 'Dir' as kplus.HostPathVolumeType]) }),
    () => AgentVolume.emptyDir(g.pick(['tmp', g.string()]), { medium: g.pick([undefined, kplus.EmptyDirMedium.MEMORY]), sizeLimit: g.chance(0.5) ? Size.mebibytes(g.pick([64, 0.5])) : undefined }),
    () => AgentVolume.configMap(g.pick(['rules', g.string()]), g.pick(['agent-rules', g.string()]), { items: g.chance(0.5) ? [{ key: g.pick(['a.yaml', '..data', '.', g.string()]), path: g.pick(['a.yaml', '../x', '/abs', g.string()]) }] : undefined, defaultMode: g.chance(0.3) ? g.number() : undefined }),
    () => AgentVolume.secret(g.pick(['tls', g.string()]), g.pick(['agent-tls', g.string()]), { optional: g.chance(0.5) }),
    () => AgentVolume.projected(g.pick(['identity', g.string()]), [g.pick([
      ProjectedSource.serviceAccountToken({ path: g.pick(['token', '/token', g.string()]), audience: g.pick([undefined, 'vault']), expirationSeconds: g.pick([undefined, 600, 599, g.number()]) }),
      ProjectedSource.downwardApi([{ path: g.pick(['labels', g.string()]), fieldPath: g.pick(['metadata.labels', 'spec.nodeName', g.string()]) }]),
    ])]),
  ])());
  const capability = () => g.pick([kplus.Capability.NET_ADMIN, kplus.Capability.SYS_ADMIN, kplus.Capability.NET_BIND_SERVICE, kplus.Capability.CHOWN, kplus.Capability.ALL, 'CAP_KILL', g.string()]);
  const securityContext = () => g.maybe(() => ({
    ...(g.chance(0.3) ? { privileged: g.pick([true, false, g.any()]) } : {}),
    ...(g.chance(0.3) ? { user: g.pick([0, 1000, g.number()]) } : {}),
    ...(g.chance(0.2) ? { ensureNonRoot: g.pick([true, false]) } : {}),
    ...(g.chance(0.2) ? { allowPrivilegeEscalation: g.pick([true, false]) } : {}),
    ...(g.chance(0.4) ? { capabilities: g.maybe(() => ({ ...(g.chance(0.8) ? { add: [capability()] } : {}), ...(g.chance(0.3) ? { drop: [capability()] } : {}) })) } : {}),
    ...(g.chance(0.2) ? { seccompProfile: g.maybe(() => ({ type: g.pick([kplus.SeccompProfileType.LOCALHOST, kplus.SeccompProfileType.UNCONFINED, kplus.SeccompProfileType.RUNTIME_DEFAULT]), ...(g.chance(0.5) ? { localhostProfile: g.pick(['agent.json', '']) } : {}) })) } : {}),
    ...(g.chance(0.1) ? { seLinuxOptions: g.maybe(() => ({ type: g.pick(['spc_t', 'container_t']) })) } : {}),
    ...(g.chance(0.1) ? { appArmorProfile: g.pick(['unconfined', 'runtime/default', g.string()]) } : {}),
  }));
  const container = (i: number) => g.maybe(() => ({
    name: g.maybe(() => g.pick([`c${i}`, 'c0', g.string()]), 0.9),
    image: 'example.com/agent:1',
    ...(g.chance(0.5) ? { ports: g.maybe(() => Array.from({ length: 1 + g.int(2) }, () => ({ number: g.pick([9100, 8080, g.number()]), ...(g.chance(0.3) ? { name: g.pick(['metrics', 'http']) } : {}), ...(g.chance(0.2) ? { hostPort: g.pick([9100, 9101, g.number()]) } : {}) }))) } : {}),
    ...(g.chance(0.5) ? { mounts: g.maybe(() => Array.from({ length: 1 + g.int(2) }, () => ({ volume: g.pick(['state', 'logs', 'tmp', 'rules', 'tls', 'identity', 'config', 'missing']), path: g.pick(['/state', '/var/log', '/tmp', 'relative', g.string()]), ...(g.chance(0.3) ? { readOnly: g.pick([true, false]) } : {}), ...(g.chance(0.3) ? { propagation: g.pick([kplus.MountPropagation.BIDIRECTIONAL, kplus.MountPropagation.HOST_TO_CONTAINER, 'Shared' as kplus.MountPropagation]) } : {}), ...(g.chance(0.2) ? { subPath: g.pick(['a.yaml', '../x', g.string()]) } : {}) }))) } : {}),
    ...(g.chance(0.5) ? { securityContext: securityContext() } : {}),
    ...(g.chance(0.1) ? { startup: kplus.Probe.fromHttpGet('/', { port: 9100, successThreshold: g.pick([1, 2]) }) } : {}),
    ...(g.chance(0.1) ? { liveness: kplus.Probe.fromHttpGet('/', { port: 9100, successThreshold: g.pick([1, 2]) }) } : {}),
    ...(g.chance(0.1) ? { terminationMessagePolicy: g.pick([TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR, 'Logs' as TerminationMessagePolicy]) } : {}),
  }), 0.95);
  const props: Record<string, unknown> = {
    policy: new NodePolicy(chart, `P${g.int(1e9)}`, g.chance(0.2) ? { operatingSystem: 'windows' } : { operatingSystem: 'linux' }),
    name: g.pick(['agent', 'default', 'a-b', '9agent', g.string()]),
    containers: Array.from({ length: 1 + g.int(2) }, (_, i) => container(i)),
  };
  if (g.chance(0.4)) props.initContainers = [container(5)];
  if (g.chance(0.6)) props.volumes = g.maybe(() => Array.from({ length: 1 + g.int(3) }, volume));
  if (g.chance(0.3)) props.hostNetwork = g.chance(0.5);
  if (g.chance(0.2)) props.hostIPC = g.chance(0.5);
  if (g.chance(0.3)) props.config = g.maybe(() => ({ data: { [g.pick(['a.conf', '.', '..', '..data', 'ok.yaml'])]: g.pick(['x', 'y'.repeat(g.pick([10, 300 * 1024]))]) }, ...(g.chance(0.5) ? { mountPath: g.pick(['/etc/agent', '/tmp']) } : {}) }));
  if (g.chance(0.3)) props.serviceAccount = g.maybe(() => ({ ...(g.chance(0.6) ? { rules: [g.pick([{ apiGroups: [''], resources: ['nodes'], verbs: ['get'], resourceNames: g.pick([undefined, ['a'], []]) }, { nonResourceURLs: ['/metrics'], verbs: ['get'] }, { apiGroups: [''], nonResourceURLs: ['/x'], verbs: ['get'] }])] } : {}), ...(g.chance(0.3) ? { namespacedRules: [{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['agent'], verbs: ['patch'] }] } : {}), ...(g.chance(0.3) ? { clusterRoles: [g.pick(['system:node-problem-detector', 'a/b', 'view'])] } : {}) }));
  if (g.chance(0.3)) props.metrics = g.maybe(() => ({ port: g.pick(['metrics', 9100, 'http', 1]), ...(g.chance(0.3) ? { serviceMonitor: true } : {}) }));
  if (g.chance(0.2)) props.updateStrategy = AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(g.pick([0, 1])) });
  if (g.chance(0.5)) props.podSecurity = { level: g.pick([PodSecurityLevel.PRIVILEGED, PodSecurityLevel.BASELINE]), reason: 'the agent manages the node' };
  return props;
}

function reporterProps(g: Gen, chart: Chart): Record<string, unknown> {
  const props: Record<string, unknown> = {
    policy: g.maybe(() => new LabeledNodePolicy(chart, `P${g.int(1e9)}`, { key: 'tier', value: 'edge' }), 0.9),
    version: g.maybe(() => g.pick(['v1', 'v4-rc.1', g.string()]), 0.8),
  };
  if (g.chance(0.2)) props.name = g.maybe(() => g.pick(['node-reporter', g.string()]));
  if (g.chance(0.2)) props.image = g.maybe(() => g.pick(['busybox:1.36', g.string()]));
  if (g.chance(0.2)) props.intervalSeconds = g.maybe(() => g.number());
  if (g.chance(0.2)) props.resources = resources(g);
  if (g.chance(0.2)) props.labels = labels(g);
  if (g.chance(0.2)) props.annotations = g.maybe(() => ({ [g.string()]: g.string() }));
  if (g.chance(0.2)) props.maxUnavailable = g.maybe(() => kplus.PercentOrAbsolute.percent(g.number()));
  if (g.chance(0.2)) props.maxSurge = g.maybe(() => kplus.PercentOrAbsolute.absolute(g.number()));
  if (g.chance(0.2)) props.priorityClassName = g.maybe(() => g.string());
  return props;
}

type Target = [string, (g: Gen) => [(chart: Chart) => unknown, unknown]];

const TARGETS: Target[] = [
  ['LabeledNodePolicy', (g) => {
    const props = g.maybe(() => ({ key: g.maybe(() => g.pick(['tier', g.string()])), value: g.maybe(() => g.pick(['edge', '', g.string()])), tolerations: g.maybe(() => [toleration(g)]) }), 0.9);
    return [(c) => new LabeledNodePolicy(c, 'P', props as never), props];
  }],
  ['NodePolicy', (g) => {
    const props = safely(g, policyProps);
    return [(c) => new NodePolicy(c, 'P', props as never), props];
  }],
  ['NodeToleration', (g) => {
    const args = [g.maybe(() => g.pick(['dedicated', g.string()])), g.maybe(() => g.pick(['agents', g.string()])), g.maybe(() => g.pick(['NoSchedule', 'NoExecute', g.string()])), g.maybe(() => ({ tolerationSeconds: g.number() }))];
    return [() => (g.chance(0.5) ? NodeToleration.exists(args[0] as string, args[2] as TaintEffect, args[3] as never) : NodeToleration.equal(args[0] as string, args[1] as string, args[2] as TaintEffect, args[3] as never)), args];
  }],
  ['NodeAgent', (g) => {
    let props: unknown;
    return [(c) => {
      props = g.maybe(() => agentProps(g, c), 0.95);
      if (g.chance(0.4) && typeof props === 'object' && props !== null && Object.keys(props).length > 0) {
        // Mostly valid: a working agent with one of the random props.
        const [key, value] = g.pick(Object.entries(props as Record<string, unknown>));
        props = { policy: new NodePolicy(c, 'Valid', {}), name: 'agent', containers: [{ name: 'c', image: 'busybox:1.36' }], [key]: key === 'policy' ? new NodePolicy(c, 'Other', {}) : value };
      }
      return new NodeAgent(c, 'Agent', props as never);
    }, { get props() { return props; } }];
  }],
  ['NodeAgent, as real agents use it', (g) => {
    let props: unknown;
    return [(c) => {
      props = realAgentProps(g, c);
      return new NodeAgent(c, 'Agent', props as never);
    }, { get props() { return props; } }];
  }],
  ['NodeReporterDaemonSet', (g) => {
    let props: unknown;
    return [(c) => {
      props = g.maybe(() => reporterProps(g, c), 0.95);
      return new NodeReporterDaemonSet(c, 'Reporter', props as never);
    }, { get props() { return props; } }];
  }],
  ['NodeReporterChart', (g) => {
    const props = g.maybe(() => ({
      version: g.maybe(() => g.pick(['v1', g.string()])),
      ...(g.chance(0.4) ? { namespace: g.maybe(() => g.pick(['practice-daemon', 'kube-system', 'default', g.string()])) } : {}),
      ...(g.chance(0.3) ? { createNamespace: g.maybe(() => g.chance(0.5)) } : {}),
      ...(g.chance(0.3) ? { policyKey: g.maybe(() => g.string()), policyValue: g.maybe(() => g.string()) } : {}),
      ...(g.chance(0.2) ? { tolerations: g.maybe(() => [toleration(g)]) } : {}),
    }), 0.95);
    return [(c) => new NodeReporterChart(c, 'Variant', props as never), props];
  }],
  ['RestrictedNamespace and PodSecurityNamespace', (g) => {
    const props = g.maybe(() => ({ name: g.maybe(() => g.pick(['agents', 'kube-system', g.string()])), enforce: g.maybe(() => g.pick([undefined, PodSecurityLevel.BASELINE, g.string()])) }), 0.95);
    return [(c) => (g.chance(0.5) ? new RestrictedNamespace(c, 'Namespace', props as never) : new PodSecurityNamespace(c, 'Namespace', props as never)), props];
  }],
];

describe(`fuzz (seed ${SEED}, ${RUNS} cases per target)`, () => {
  test.each(TARGETS)('%s: valid output or a clear error, never a crash', (name, make) => {
    const g = new Gen(prng(SEED + name.length));
    const outcomes = { ok: 0, refused: 0 };
    for (let i = 0; i < RUNS; i++) {
      const [build, input] = make(g);
      outcomes[attempt(build, input)]++;
    }
    // Both kinds of outcome occur: the generator reaches valid props and bad ones.
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  test('node-reporter eligible: exit 0 or 2 with one line, never a crash', () => {
    const g = new Gen(prng(SEED));
    const codes = new Set<number>();
    for (let i = 0; i < RUNS * 4; i++) {
      const nodes = Array.from({ length: g.int(4) }, () => g.maybe(() => ({
        kind: g.maybe(() => 'Node', 0.8),
        metadata: g.maybe(() => ({ name: g.maybe(() => g.pick(['n1', g.string()])), labels: g.maybe(() => ({ 'practice-tier': g.maybe(() => g.pick(['operations', g.string()])) })) })),
        spec: g.maybe(() => ({ taints: g.maybe(() => [g.maybe(() => ({ key: g.string(), value: g.any(), effect: g.maybe(() => g.pick(['NoSchedule', 'NoExecute', 'PreferNoSchedule'])) }))]), unschedulable: g.any() })),
      })));
      const text = g.chance(0.9) ? JSON.stringify({ kind: g.pick(['List', 'NodeList', 'Pod']), items: nodes }, (_, v) => (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function' ? String(v) : v)) ?? '' : g.string();
      const args = ['eligible', '--nodes', '-', ...(g.chance(0.3) ? ['--selector', g.pick(['a=b', 'a=', g.string()])] : []), ...(g.chance(0.2) ? ['--toleration', g.pick(['a:NoSchedule', g.string()])] : []), ...(g.chance(0.5) ? ['--format', 'json'] : [])];
      let out = '';
      let err = '';
      const code = main(args, { readFile: () => text, out: (t) => { out += t; }, err: (t) => { err += t; } });
      codes.add(code);
      if (code === 0) {
        expect(err).toBe('');
        expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
      } else {
        expect(code).toBe(2);
        expect(err.split('\n')[0]).toMatch(/^node-reporter( eligible)?: /);
        expect(err.split('\n')).toHaveLength(2);
        expect(err.split('\n')[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
      }
    }
    expect([...codes].sort()).toEqual([0, 2]);
  });
});
