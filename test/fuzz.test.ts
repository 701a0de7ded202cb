/**
 * Fuzz: random props for every public construct and random node lists for
 * the CLI, from a fixed seed. Each case must end in valid output (which the
 * manifest checks accept) or a clear error that names the prop; never a
 * TypeError, a crash or a hang.
 *
 * FUZZ_RUNS sets the number of cases per target (default 250; CI runs more).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';
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
import { clusterRbacName } from '../lib/node-agent/rbac';
import { state } from './sandbox';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);

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

// eslint-disable-next-line @typescript-eslint/no-require-imports
const outputFolder = require('../scripts/output-folder.js') as {
  UsageError: new (message: string) => Error;
  claimOutputFolder(given: string, options: { kind: 'manifests'; root: string; cwd: string; owned: string }): string;
  workFolderBeside(outdir: string, hint: string): string;
  swapIn(fresh: string, outdir: string, work: string): void;
};

/** A random tree beside and inside a project, and an output folder as a user may type it. */
const NAMES = ['dist', 'lib', 'out', 'a.k8s.yaml', 'b.yaml', 'README.md', '.git', 'x y', '..', '.', 'templates', 'notes.txt'];
const entry = fc.record({
  where: fc.constantFrom('project', 'project/dist', 'project/lib', 'scratch', 'project/out'),
  name: fc.constantFrom(...NAMES.filter((n) => n !== '..' && n !== '.')),
  kind: fc.constantFrom('file', 'folder', 'symlink'),
});
const folderArg = fc.oneof(
  fc.constantFrom('.', '..', '../..', '/', 'dist', './dist/', 'lib', 'out', 'new', 'dist/..', 'lib/../dist', 'missing/out', 'a.k8s.yaml', 'notes.txt', '.git', 'x y'),
  fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
  fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }).map((parts) => `/ABS/${parts.join('/')}`),
);

describe('fuzz: derived names of cluster-scoped objects (fast-check, shrinking to the smallest clash)', () => {
  const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/);
  test('two different (namespace, agent) pairs never share a ClusterRole name, and none is a built-in role', () => {
    fc.assert(fc.property(label, label, label, label, (ns1, a1, ns2, a2) => {
      fc.pre(ns1 !== ns2 || a1 !== a2);
      const [one, two] = [clusterRbacName(ns1, a1), clusterRbacName(ns2, a2)];
      return one !== two && !['cluster-admin', 'admin', 'edit', 'view'].includes(one) && !one.startsWith('system:');
    }), { numRuns: RUNS * 4, seed: SEED });
  });
});

describe(`fuzz: output folders of npm run synth (seed ${SEED}, ${RUNS} cases)`, () => {
  test('a refusal changes nothing; an accepted folder held only manifests (or is dist/), and nothing outside it changes', () => {
    fc.assert(fc.property(fc.array(entry, { maxLength: 8 }), folderArg, fc.constantFrom('project', 'project/lib', 'scratch'), (entries, given, cwdAt) => {
      // GIVEN a project with sources and dist/, and random files, folders and symlinks around it
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-outdir-'));
      try {
        const project = path.join(scratch, 'project');
        fs.mkdirSync(path.join(project, 'lib'), { recursive: true });
        fs.mkdirSync(path.join(project, 'dist'));
        fs.writeFileSync(path.join(project, 'main.ts'), 'app\n');
        fs.writeFileSync(path.join(project, 'lib', 'index.ts'), 'lib\n');
        fs.writeFileSync(path.join(project, 'dist', 'v1.k8s.yaml'), 'kind: V1\n');
        for (const e of entries) {
          const target = path.join(scratch, e.where, e.name);
          if (fs.existsSync(path.dirname(target)) && fs.statSync(path.dirname(target)).isDirectory() && !fs.existsSync(target)) {
            if (e.kind === 'file') {
              fs.writeFileSync(target, e.name);
            } else if (e.kind === 'folder') {
              fs.mkdirSync(target);
            } else {
              fs.symlinkSync(project, target);
            }
          }
        }
        const cwd = path.join(scratch, cwdAt);
        const arg = given.replace(/^\/ABS/, scratch);
        // Cases that leave the scratch folder (../x from it) are not run: they would write outside it.
        const resolved = path.resolve(cwd, arg);
        if (resolved !== '/' && !resolved.startsWith(`${scratch}${path.sep}`) && resolved !== scratch) {
          return;
        }
        const before = state(scratch);

        // WHEN the script claims the folder, then writes a manifest and swaps it in
        let outdir: string;
        try {
          outdir = outputFolder.claimOutputFolder(arg, { kind: 'manifests', root: project, cwd, owned: path.join(project, 'dist') });
        } catch (error) {
          // THEN a refusal is one line, and nothing changed
          expect(error).toBeInstanceOf(outputFolder.UsageError);
          expect((error as Error).message).not.toContain('\n');
          expect(state(scratch)).toEqual(before);
          return;
        }
        const work = outputFolder.workFolderBeside(outdir, 'hint');
        fs.mkdirSync(path.join(work, 'out'));
        fs.writeFileSync(path.join(work, 'out', 'new.k8s.yaml'), 'kind: New\n');
        outputFolder.swapIn(path.join(work, 'out'), outdir, work);
        fs.rmSync(work, { recursive: true, force: true });

        // THEN only the output folder changed, it held only manifests unless it is dist/, and now holds the new one
        const after = state(scratch);
        // By real path: through a symlinked parent, the folder written may be dist/ itself.
        const realOut = fs.realpathSync(outdir);
        const inside = (p: string) => path.join(scratch, p) === realOut || path.join(scratch, p).startsWith(`${realOut}${path.sep}`);
        const relOut = path.relative(scratch, realOut);
        for (const [p, content] of Object.entries(before)) {
          if (!inside(p)) {
            expect([p, after[p]]).toEqual([p, content]);
          } else if (realOut !== path.join(project, 'dist') && p !== relOut) {
            expect(p).toMatch(/\.k8s\.yaml$/);
          }
        }
        expect(Object.keys(after).filter(inside).sort()).toEqual([relOut, path.join(relOut, 'new.k8s.yaml')]);
        expect(fs.readFileSync(path.join(project, 'main.ts'), 'utf-8')).toBe('app\n');
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    }), { numRuns: RUNS, seed: SEED });
  });
});

/**
 * The inputs that crashed the CLI (issue 18): malformed DaemonSets for
 * `eligible --manifest`, deep or odd YAML for `check`, odd folders. Every
 * case ends in exit 0 or 1 (check) with a report, or 2 with one line.
 */
describe(`fuzz: the CLI on malformed manifests, deep YAML and odd folders (seed ${SEED}, ${RUNS} cases)`, () => {
  const nodes = fs.readFileSync(path.join(__dirname, 'fixtures', 'nodes', 'kubeadm-three.json'), 'utf-8');
  const anyJson: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.constant({})), { maxLength: 3 }));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
  const term = fc.oneof(anyJson, fc.record({ matchExpressions: maybe(fc.oneof(anyJson, fc.array(fc.record({ key: fc.oneof(fc.constant('cores'), anyJson), operator: fc.constantFrom('In', 'Gt', 'Lt', 'Exists', 'x'), values: maybe(fc.oneof(anyJson, fc.array(fc.constantFrom('1', '99999999999999999999', '-3', 'x')))) })))), matchFields: maybe(anyJson) }));
  const spec = fc.record({
    nodeSelector: maybe(fc.oneof(anyJson, fc.dictionary(fc.constantFrom('tier', 'a/b'), anyJson))),
    tolerations: maybe(fc.oneof(anyJson, fc.array(fc.oneof(anyJson, fc.record({ key: maybe(anyJson), operator: maybe(fc.constantFrom('Exists', 'Equal', 'x')), effect: maybe(anyJson) }))))),
    affinity: maybe(fc.oneof(anyJson, fc.record({ nodeAffinity: maybe(fc.oneof(anyJson, fc.record({ requiredDuringSchedulingIgnoredDuringExecution: maybe(fc.oneof(anyJson, fc.record({ nodeSelectorTerms: maybe(fc.oneof(anyJson, fc.array(term, { maxLength: 3 }))) }))) }))) }))),
    hostNetwork: maybe(anyJson),
    nodeName: maybe(fc.oneof(fc.constantFrom('cp-1', 'worker-1', ''), anyJson)),
  });
  const daemonSet = fc.record({ template: maybe(fc.oneof(anyJson, fc.record({ spec: maybe(fc.oneof(anyJson, spec)) }))) })
    .map(({ template }) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { template } }));
  const cli = (args: string[], stdin: string, listDir?: (p: string) => fs.Dirent[]) => {
    let out = '';
    let err = '';
    const code = main(args, { readFile: (f) => (f === '-' ? stdin : fs.readFileSync(f)), listDir, out: (t) => { out += t; }, err: (t) => { err += t; } });
    return { code, out, err };
  };
  const oneLineOr = (r: { code: number; out: string; err: string }, codes: number[]) => {
    expect(codes).toContain(r.code);
    if (r.code === 2) {
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^node-reporter( \w+)?: [^\n]+\n$/);
    } else {
      expect(r.err).toBe('');
    }
  };

  test('eligible --manifest on malformed DaemonSets: exit 0 or 2 with one line', () => {
    const codes = new Set<number>();
    fc.assert(fc.property(daemonSet, (ds) => {
      // --nodes - reads stdin: the manifest gets a file of its own.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-manifest-'));
      try {
        fs.writeFileSync(path.join(dir, 'ds.yaml'), JSON.stringify(ds));
        const result = cli(['eligible', '--nodes', '-', '--manifest', path.join(dir, 'ds.yaml')], nodes);
        oneLineOr(result, [0, 2]);
        codes.add(result.code);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }), { seed: SEED, numRuns: RUNS });
    expect([...codes].sort()).toEqual([0, 2]);
  });

  test('check on deep, listed, merged or custom YAML: exit 0, 1 or 2 (one line), never a crash', () => {
    const depth = fc.integer({ min: 0, max: 1500 });
    const doc = fc.oneof(
      depth.map((d) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  a: ${'['.repeat(d)}${']'.repeat(d)}\n`),
      depth.map((d) => `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: Math.min(d, 400) }, (_, i) => `${' '.repeat(i)}- items:\n`).join('')}`),
      fc.constantFrom('<<: 5\n', 'a: &x {b: 1}\nc: *x\n', 'apiVersion: v1\nkind: List\nitems: 5\n', '', '---\n---\n', 'values: {a: 1}\n', '"just a string"\n', '[1, 2]\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nitems: []\n'),
      fc.record({ schema: anyJson, body: anyJson }).map(({ schema, body }) => [
        JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ws.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'ws', kind: 'W' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: schema } } } }] } }),
        JSON.stringify({ apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w' }, spec: body }),
      ].join('\n---\n')),
      daemonSet.map((ds) => JSON.stringify(ds)),
    );
    const codes = new Set<number>();
    fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), fc.constantFrom('text', 'json', 'sarif'), (docs, format) => {
      // A stream that starts with { is JSON to kubectl, and --- between JSON objects is refused: a comment first keeps it YAML.
      const result = cli(['check', '-', '--format', format], `# fuzz\n${docs.join('\n---\n')}`);
      oneLineOr(result, [0, 1, 2]);
      codes.add(result.code);
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 4) });
    expect([...codes].sort()).toEqual([0, 1, 2]);
  });

  test('check on odd folders (folders named *.yaml, links, loops, unreadable ones): a report or one line', () => {
    const node = fc.record({
      at: fc.constantFrom('', 'a', 'a/b', 'x.yaml', 'c.yml/d'),
      name: fc.constantFrom('x.yaml', 'y.yml', 'z.txt', 'sub', '.hidden', 'node_modules', 'loop', 'Chart.yaml', 'values.yaml'),
      kind: fc.constantFrom('file', 'folder', 'link-up', 'link-missing'),
    });
    fc.assert(fc.property(fc.array(node, { maxLength: 8 }), fc.constantFrom(undefined, 'a', 'x.yaml', 'sub'), (nodesOfTree, unreadable) => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-check-'));
      try {
        fs.writeFileSync(path.join(root, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
        for (const n of nodesOfTree) {
          const dir = path.join(root, n.at);
          const file = path.join(dir, n.name);
          try {
            fs.mkdirSync(dir, { recursive: true });
            if (fs.existsSync(file)) continue;
            if (n.kind === 'file') fs.writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n');
            else if (n.kind === 'folder') fs.mkdirSync(file);
            else fs.symlinkSync(n.kind === 'link-up' ? root : path.join(root, 'nowhere'), file);
          } catch {
            // A path through a file: the tree simply lacks this node.
          }
        }
        const listDir = (p: string) => {
          if (unreadable !== undefined && path.basename(p) === unreadable) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
          return fs.readdirSync(p, { withFileTypes: true });
        };
        oneLineOr(cli(['check', root], '', listDir), [0, 1, 2]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 5) });
  });
});
