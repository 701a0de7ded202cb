import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CONTAINER_NAME, DEFAULT_IMAGE, DEFAULT_INTERVAL_SECONDS, DEFAULT_NAME } from './defaults';
import { checkDns1123Label, checkImage, checkInteger, checkVersion, defined, isRecord, Problem, problem } from './k8s/syntax';
import { AgentUpdateStrategy, AgentWave, DownwardApi, NodeAgent } from './node-agent';
import { NodePolicy } from './node-policy';
import { unknownKeys } from './prop-keys';
import { checkResources, checkRollingUpdate } from './validate-props';

/**
 * The reporter's resources: NodeAgent's small requests, and a memory limit,
 * which only an agent whose image is known can have: the reporter's busybox
 * loop stays far below 32Mi.
 * @internal
 */
export const DEFAULT_REPORTER_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(10) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) },
};

/**
 * Props for {@link NodeReporterDaemonSet}.
 */
export interface NodeReporterDaemonSetProps extends NodeReporterOptions {
  /**
   * Which nodes run the reporter: a {@link NodePolicy}, such as a
   * `LabeledNodePolicy` (rendered as the pod `nodeSelector`, plus the
   * policy's tolerations).
   */
  readonly policy: NodePolicy;
}

/**
 * The reporter's props other than its policy: what {@link NodeReporterDaemonSetProps}
 * and {@link NodeReporterChartProps} share (the chart makes the policy). A
 * named base instead of `Omit<>`, which jsii cannot carry to other languages.
 */
export interface NodeReporterOptions {
  /**
   * The version the reporter prints (`version=<version>`), a plain token
   * matching `/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/`.
   */
  readonly version: string;

  /**
   * The DaemonSet's name, a DNS-1123 label; also the value of its selector label `app`.
   * @default 'node-reporter'
   */
  readonly name?: string;

  /**
   * The container image, with a tag or a digest. It must provide `sh`,
   * `echo` and `sleep`, and run as uid 65534.
   * @default 'busybox:1.36'
   */
  readonly image?: string;

  /**
   * Seconds between two reports, an integer from 1 to 86400.
   * @default 15
   */
  readonly intervalSeconds?: number;

  /**
   * Resource requests and limits of the reporter container. The agent runs on
   * every eligible node, so its cost multiplies by the node count.
   * @default - cpu request 10m, memory request 16Mi, memory limit 32Mi, no cpu limit
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * The `kubernetes.io/change-cause` annotation of the DaemonSet, which
   * `kubectl rollout history` shows for each revision.
   * @default - '<name> <version>', e.g. 'node-reporter v1'
   */
  readonly changeCause?: string;

  /**
   * Extra labels on the DaemonSet and its pods, such as `app.kubernetes.io/part-of`.
   * They are never part of the selector, and may not set the selector's key `app`.
   * @default - none
   */
  readonly labels?: Record<string, string>;

  /**
   * Extra annotations on the DaemonSet and its pods. Changing one rolls every
   * pod. May not set `kubernetes.io/change-cause` (use `changeCause`).
   * @default - none
   */
  readonly annotations?: Record<string, string>;

  /**
   * The pods' PriorityClass, for example `system-node-critical` so that the
   * agent is not the first to be evicted under node pressure.
   * @default - none: the cluster's default priority
   */
  readonly priorityClassName?: string;

  /**
   * How many eligible nodes may be without a ready reporter during an update.
   * Not both non-zero with `maxSurge` (the API server refuses it).
   * @default - PercentOrAbsolute.absolute(1), or 0 when maxSurge is non-zero
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;

  /**
   * How many nodes may run an old and a new reporter at once during an update.
   * @default PercentOrAbsolute.absolute(0)
   */
  readonly maxSurge?: kplus.PercentOrAbsolute;

  /**
   * Seconds a new pod must be ready before it counts as available, an integer from 0 to 86400.
   * @default 0
   */
  readonly minReadySeconds?: number;

  /**
   * Seconds a pod may take to stop, an integer from 0 to 86400. The reporter's
   * shell runs as PID 1 and ignores SIGTERM, so every stop waits this long;
   * it keeps no state, so a short grace keeps rollouts fast.
   * @default 5
   */
  readonly terminationGracePeriodSeconds?: number;

  /**
   * How many old ControllerRevisions to keep for `kubectl rollout undo`, an integer from 0 to 1000.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;

  /**
   * Roll the reporter out in waves (see NodeAgentProps.waves): a wave's
   * `version` (by default the reporter's) is also what its pods print, and its change cause.
   * @default - one DaemonSet on every node of the policy
   */
  readonly waves?: AgentWave[];
}

/**
 * The node-reporter agent: a {@link NodeAgent} that runs one pod on every node
 * its policy makes eligible. Each pod prints `node=<node name> version=<version>`
 * every `intervalSeconds`.
 *
 * The DaemonSet lands in the enclosing Chart's namespace. Its selector is
 * `app: <name>`, independent of where the construct sits in the tree, so
 * moving it keeps the (immutable) selector and does not roll any pod. The pod
 * passes Pod Security "restricted" and runs as uid/gid 65534.
 *
 * @example
 * const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'practice-tier', value: 'operations' });
 * new NodeReporterDaemonSet(chart, 'NodeReporter', { policy, version: 'v1' });
 */
export class NodeReporterDaemonSet extends NodeAgent {
  /**
   * The version the reporter prints, also its `app.kubernetes.io/version` label.
   * jsii: narrows NodeAgent's optional `version`, which other languages cannot (JSII5009); there it is NodeAgent's, always set.
   * @jsii ignore
   */
  public declare readonly version: string;

  /** The container image. */
  public readonly image: string;

  /** Seconds between two reports. */
  public readonly intervalSeconds: number;

  /** The reporter container's resource requests and limits. */
  public readonly resources: kplus.ContainerResources;

  /**
   * The `kubernetes.io/change-cause` annotation.
   * jsii: narrows NodeAgent's optional `changeCause` (JSII5009); in other languages it is NodeAgent's, always set.
   * @jsii ignore
   */
  public declare readonly changeCause: string;

  /** The container's command: `sh -c <loop>`. */
  public readonly command: string[];

  /** The rolling update's maxUnavailable. */
  public readonly maxUnavailable: kplus.PercentOrAbsolute;

  /** The rolling update's maxSurge. */
  public readonly maxSurge: kplus.PercentOrAbsolute;

  constructor(scope: Construct, id: string, props: NodeReporterDaemonSetProps) {
    // The reporter's own props are judged before super(), so that an unsafe
    // version never reaches the script; the rest are NodeAgent's.
    const own = reporterProblems(props);
    if (own.length > 0) {
      const path = [scope.node.path, id].filter((p) => p !== '').join('/');
      throw new Error(own.map((p) => `${path}: ${p}`).join('\n'));
    }
    const name = props.name ?? DEFAULT_NAME;
    const image = props.image ?? DEFAULT_IMAGE;
    const intervalSeconds = props.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS;
    const resources = props.resources ?? DEFAULT_REPORTER_RESOURCES;
    // The version and interval are validated tokens, so they are safe in the
    // script as they are. `${NODE_NAME}` is for the shell, not TypeScript.
    const commandOf = (version: string) => ['sh', '-c', 'while true; do echo node=${NODE_NAME} version=' + version + '; sleep ' + intervalSeconds + '; done'];
    const command = commandOf(props.version);
    const updateStrategy = AgentUpdateStrategy.rollingUpdate({ maxUnavailable: props.maxUnavailable, maxSurge: props.maxSurge });
    super(scope, id, {
      policy: props.policy,
      name,
      containers: [{ name: CONTAINER_NAME, image, command, env: { NODE_NAME: DownwardApi.nodeName() }, resources }],
      changeCause: props.changeCause ?? `${name} ${props.version}`,
      version: props.version,
      labels: props.labels,
      annotations: props.annotations,
      priorityClassName: props.priorityClassName,
      updateStrategy,
      minReadySeconds: props.minReadySeconds,
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 5,
      revisionHistoryLimit: props.revisionHistoryLimit,
      // A wave's version is what its pods print.
      waves: Array.isArray(props.waves) ? props.waves.map((w) => (!isRecord(w) ? w : w.version !== undefined ? { command: commandOf(w.version), changeCause: `${name} ${w.version}`, ...w } : { version: props.version, ...w })) : props.waves,
    });
    this.image = image;
    this.intervalSeconds = intervalSeconds;
    this.resources = resources;
    this.command = command;
    this.maxUnavailable = updateStrategy.maxUnavailable!;
    this.maxSurge = updateStrategy.maxSurge!;
  }
}

/** The problems of the props only the reporter has. */
/** @internal The keys of {@link NodeReporterDaemonSetProps}. */
export const REPORTER_KEYS = [
  'policy', 'version', 'name', 'image', 'intervalSeconds', 'resources', 'changeCause', 'labels', 'annotations', 'priorityClassName',
  'maxUnavailable', 'maxSurge', 'minReadySeconds', 'terminationGracePeriodSeconds', 'revisionHistoryLimit', 'waves',
];

function reporterProblems(props: NodeReporterDaemonSetProps): Problem[] {
  if (!isRecord(props)) {
    return [problem('props', 'an object of NodeReporterDaemonSetProps { policy, version, ... }', props)];
  }
  return [
    ...unknownKeys('props', props, { known: REPORTER_KEYS, elsewhere: { tolerations: 'goes on the policy (NodePolicyProps.tolerations)' } }),
    ...defined(
      checkVersion('version', props.version),
      props.name !== undefined ? checkDns1123Label('name', props.name) : undefined,
      props.image !== undefined ? checkImage('image', props.image) : undefined,
      props.intervalSeconds !== undefined ? checkInteger('intervalSeconds', props.intervalSeconds, 1, 86400) : undefined,
    ),
    ...(props.resources !== undefined ? checkResources('resources', props.resources) : []),
    // A wave's version goes into the script too.
    ...(Array.isArray(props.waves) ? props.waves.flatMap((w, i) => defined(isRecord(w) && w.version !== undefined ? checkVersion(`waves[${i}].version`, w.version) : undefined)) : []),
    // Named as this construct's own props, not as NodeAgent's updateStrategy.
    ...rollingUpdateProblems(props),
  ];
}

function rollingUpdateProblems(props: NodeReporterDaemonSetProps): Problem[] {
  const strategy = AgentUpdateStrategy.rollingUpdate({ maxUnavailable: props.maxUnavailable, maxSurge: props.maxSurge });
  return checkRollingUpdate(strategy.maxUnavailable!, strategy.maxSurge!);
}
