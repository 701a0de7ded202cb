import { createHash } from 'node:crypto';
import { ApiObject, Chart, Duration, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { PodSecurityLevel } from './checks/pod-security';
import { RULES, WAIVER_PREFIX } from './checks/rules';
import { DEFAULT_RUN_AS_ID, SELECTOR_LABEL_KEY } from './defaults';
import { NodeSelectorTerm } from './k8s/scheduling';
import {
  checkAnnotations,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkImage,
  checkInteger,
  checkLabels,
  checkSingleLine,
  defined,
  isRecord,
  Problem,
  problem,
} from './k8s/syntax';
import { NodePolicy } from './node-policy';
import { checkResources, checkRollingUpdate, reportProblems } from './validate-props';

export { PodSecurityLevel };

const LEVEL_ORDER = [PodSecurityLevel.RESTRICTED, PodSecurityLevel.BASELINE, PodSecurityLevel.PRIVILEGED];

/** The pod template annotation that holds the config's checksum, so a config change rolls the agents. */
export const CONFIG_CHECKSUM_ANNOTATION = 'node-reporter.dev/config-sha256';

/** The DaemonSet annotation `kubectl rollout history` shows. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** Environment values from the Downward API that node agents commonly need. */
export class DownwardApi {
  /** The node's name (`spec.nodeName`), e.g. for `NODE_NAME`. */
  public static nodeName(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_NAME);
  }

  /** The pod's name (`metadata.name`), e.g. for `POD_NAME`. */
  public static podName(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME);
  }

  /** The pod's namespace (`metadata.namespace`), e.g. for `POD_NAMESPACE`. */
  public static podNamespace(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE);
  }

  /** The pod's IP (`status.podIP`), e.g. for `POD_IP`. */
  public static podIp(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_IP);
  }

  /** The node's IP (`status.hostIP`), e.g. for `HOST_IP`. */
  public static hostIp(): kplus.EnvValue {
    return kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_IP);
  }

  /** The container's CPU request, in millicores when `divisor` is '1m'. */
  public static cpuRequest(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_REQUEST);
  }

  /** The container's CPU limit (the node's allocatable CPU when it has none). */
  public static cpuLimit(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.CPU_LIMIT);
  }

  /** The container's memory request, in bytes. */
  public static memoryRequest(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_REQUEST);
  }

  /** The container's memory limit in bytes, e.g. for `GOMEMLIMIT`. */
  public static memoryLimit(): kplus.EnvValue {
    return kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_LIMIT);
  }
}

/** One container of a {@link NodeAgent}. */
export interface AgentContainer {
  /** The container's name, a DNS-1123 label. */
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
   * Environment variables, e.g. `{ NODE_NAME: DownwardApi.nodeName() }`.
   * @default - none
   */
  readonly env?: Record<string, kplus.EnvValue>;

  /**
   * Ports the container listens on. With `hostNetwork` each is also its
   * `hostPort` (as the API server would default it).
   * @default - none
   */
  readonly ports?: kplus.ContainerPort[];

  /**
   * The readiness probe.
   * @default - none: ready once started
   */
  readonly readiness?: kplus.Probe;

  /**
   * The liveness probe.
   * @default - none
   */
  readonly liveness?: kplus.Probe;

  /**
   * Requests and limits; the agent runs on every node, so they multiply by the node count.
   * @default - cpu request 10m, memory request 16Mi, memory limit 32Mi
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * The container's security context, over the restricted defaults (uid and gid
   * `runAsUser`, non-root, read-only root, no privilege escalation, drop ALL,
   * seccomp RuntimeDefault).
   * @default - the restricted defaults
   */
  readonly securityContext?: kplus.ContainerSecurityContextProps;

  /**
   * When the kubelet pulls the image.
   * @default kplus.ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
}

/** A host path mounted read-only into every container. */
export interface HostPathMount {
  /** The volume's name, a DNS-1123 label. */
  readonly name: string;
  /** The path on the node, absolute. */
  readonly hostPath: string;
  /** Where the containers see it, absolute. */
  readonly mountPath: string;
}

/** A rule of the agent's ClusterRole. */
export interface AgentPolicyRule {
  /** API groups, '' for the core group. */
  readonly apiGroups: string[];
  /** Resources, e.g. `pods`. */
  readonly resources: string[];
  /** Verbs, e.g. `get`, `list`, `watch`. */
  readonly verbs: string[];
}

/** The agent's identity towards the API server. */
export interface AgentServiceAccount {
  /** What it may do, cluster-wide (a ClusterRole bound to the agent's ServiceAccount). */
  readonly rules: AgentPolicyRule[];
}

/** A config file set, as a ConfigMap mounted read-only into every container. */
export interface AgentConfig {
  /** File name to content. */
  readonly data: Record<string, string>;
  /** Where the containers see the files, absolute. */
  readonly mountPath: string;
}

/** Why an agent cannot meet Pod Security "restricted", and the level it needs. */
export interface AgentPodSecurity {
  /** The level the agent's namespace must enforce: baseline or privileged. */
  readonly level: PodSecurityLevel;
  /** Why, one line; written into each waiver annotation and reported by the checks. */
  readonly reason: string;
}

/** How a new version of the agent reaches the nodes. */
export class AgentUpdateStrategy {
  /**
   * Replace pods node by node: `maxUnavailable` nodes at a time without an
   * agent, or `maxSurge` nodes at a time with two (never both non-zero, as the
   * API server requires).
   * @param options maxUnavailable (default 1, or 0 when maxSurge is non-zero) and maxSurge (default 0)
   */
  public static rollingUpdate(options: { readonly maxUnavailable?: kplus.PercentOrAbsolute; readonly maxSurge?: kplus.PercentOrAbsolute } = {}): AgentUpdateStrategy {
    const maxSurge = options.maxSurge ?? kplus.PercentOrAbsolute.absolute(0);
    const surging = typeof maxSurge?.isZero === 'function' && !maxSurge.isZero();
    const maxUnavailable = options.maxUnavailable ?? kplus.PercentOrAbsolute.absolute(surging ? 0 : 1);
    return new AgentUpdateStrategy('RollingUpdate', maxUnavailable, maxSurge);
  }

  /** Replace a pod only when someone deletes it: a new version never reaches running nodes by itself. */
  public static onDelete(): AgentUpdateStrategy {
    return new AgentUpdateStrategy('OnDelete');
  }

  private constructor(
    /** `RollingUpdate` or `OnDelete`. */
    public readonly type: 'RollingUpdate' | 'OnDelete',
    /** For RollingUpdate: nodes that may be without a ready agent. */
    public readonly maxUnavailable?: kplus.PercentOrAbsolute,
    /** For RollingUpdate: nodes that may run two agents. */
    public readonly maxSurge?: kplus.PercentOrAbsolute,
  ) {}

  /** The problems of this strategy (the API server's rules). */
  public problems(): Problem[] {
    return this.type === 'RollingUpdate' ? checkRollingUpdate(this.maxUnavailable!, this.maxSurge!) : [];
  }

  /** The DaemonSet's `updateStrategy`, in the L1 types of cdk8s-plus. */
  public toKube(): kplus.k8s.DaemonSetUpdateStrategy {
    if (this.type === 'OnDelete') {
      return { type: 'OnDelete' };
    }
    return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: intOrString(this.maxUnavailable!), maxSurge: intOrString(this.maxSurge!) } };
  }
}

/**
 * Props for {@link NodeAgent}.
 */
export interface NodeAgentProps {
  /** Which nodes run the agent. */
  readonly policy: NodePolicy;

  /** The DaemonSet's name, a DNS-1123 label; also its selector label `app`, and the name of its ServiceAccount, ClusterRole and ConfigMap. */
  readonly name: string;

  /** The agent's containers, at least one. */
  readonly containers: AgentContainer[];

  /**
   * Host paths mounted read-only into every container, e.g. `/var/log` or `/`
   * at `/host/root`. They break Pod Security "restricted": set `podSecurity`.
   * @default - none
   */
  readonly hostPaths?: HostPathMount[];

  /**
   * Run in the node's network namespace (and resolve cluster names with
   * `dnsPolicy: ClusterFirstWithHostNet`, set for you). Breaks "restricted".
   * @default false
   */
  readonly hostNetwork?: boolean;

  /**
   * See the node's processes. Breaks "restricted".
   * @default false
   */
  readonly hostPID?: boolean;

  /**
   * A ServiceAccount bound to a ClusterRole with these rules; only then is an
   * API token mounted into the pods.
   * @default - no ServiceAccount of its own and no token
   */
  readonly serviceAccount?: AgentServiceAccount;

  /**
   * Config files, as a ConfigMap `<name>-config` mounted read-only; its
   * checksum on the pod template rolls the agents when the config changes.
   * @default - none
   */
  readonly config?: AgentConfig;

  /**
   * The uid and gid the containers run as. 0 (root) breaks "restricted".
   * @default 65534
   */
  readonly runAsUser?: number;

  /**
   * Required when the agent cannot meet Pod Security "restricted" (host
   * paths, host network, host PID, host ports, root): the level its namespace
   * must enforce and why. The DaemonSet then carries a waiver annotation with
   * this reason for each check it breaks, so `cdk8s synth` reports them.
   * @default - restricted, and an error if the agent is not
   */
  readonly podSecurity?: AgentPodSecurity;

  /**
   * The pods' PriorityClass, e.g. `system-node-critical`.
   * @default - none: the cluster's default priority
   */
  readonly priorityClassName?: string;

  /**
   * How a new version reaches the nodes.
   * @default AgentUpdateStrategy.rollingUpdate(): one node at a time, no surge
   */
  readonly updateStrategy?: AgentUpdateStrategy;

  /**
   * Extra labels on the DaemonSet and its pods, never in the selector; may not set `app`.
   * @default - none
   */
  readonly labels?: Record<string, string>;

  /**
   * Extra annotations on the DaemonSet and its pods. Changing one rolls every
   * pod. May not set the annotations the agent owns (change-cause, config checksum, waivers).
   * @default - none
   */
  readonly annotations?: Record<string, string>;

  /**
   * The `kubernetes.io/change-cause` annotation of the DaemonSet, shown by `kubectl rollout history`.
   * @default - none
   */
  readonly changeCause?: string;

  /**
   * Seconds a new pod must be ready before it counts as available, 0 to 86400.
   * @default 0
   */
  readonly minReadySeconds?: number;

  /**
   * Seconds a pod may take to stop, 0 to 86400.
   * @default 30
   */
  readonly terminationGracePeriodSeconds?: number;

  /**
   * Old ControllerRevisions kept for `kubectl rollout undo`, 0 to 1000.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
}

/** The default container resources: small, because the agent runs on every node. */
export const DEFAULT_AGENT_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(10) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) },
};

const BRAND = Symbol.for('node-reporter.NodeAgent');

/**
 * A node agent: a DaemonSet that runs one pod on every node its
 * {@link NodePolicy} makes eligible, with secure defaults (Pod Security
 * "restricted", uid 65534, read-only root, small requests, no API token).
 *
 * Built on cdk8s-plus-28's DaemonSet for containers, env, probes and volumes.
 * Where cdk8s-plus fights the design it is overridden in one place
 * ({@link NodeAgent} renders `_toKube`): the selector is `app: <name>`
 * rather than a construct-path label, the policy is a real `nodeSelector`
 * (cdk8s-plus only renders affinity), and updateStrategy,
 * revisionHistoryLimit, priorityClassName, host namespaces and host ports,
 * which cdk8s-plus cannot express, are set there too. Tolerations and node
 * affinity added through `daemonSet.scheduling` are merged with the policy's,
 * never dropped.
 *
 * @example
 * new NodeAgent(chart, 'Exporter', {
 *   policy, name: 'node-exporter',
 *   containers: [{ name: 'exporter', image: 'quay.io/prometheus/node-exporter:v1.8.2', ports: [{ number: 9100, name: 'metrics' }] }],
 * });
 */
export class NodeAgent extends Construct {
  /**
   * Whether `x` is a NodeAgent, also one made by another copy of this
   * package (where `instanceof` would say no).
   */
  public static isNodeAgent(x: unknown): x is NodeAgent {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The eligibility policy. */
  public readonly policy: NodePolicy;

  /** The DaemonSet's name. */
  public readonly name: string;

  /** The selector's labels, `{ app: <name> }`; every pod carries them. */
  public readonly selectorLabels: Record<string, string>;

  /** How a new version reaches the nodes. */
  public readonly updateStrategy: AgentUpdateStrategy;

  /** Seconds a new pod must be ready before it counts as available. */
  public readonly minReadySeconds: number;

  /** Seconds a pod may take to stop. */
  public readonly terminationGracePeriodSeconds: number;

  /** How many old ControllerRevisions are kept. */
  public readonly revisionHistoryLimit: number;

  /** The uid and gid the containers run as. */
  public readonly runAsUser: number;

  /** The `kubernetes.io/change-cause` annotation, if any. */
  public readonly changeCause?: string;

  /** The pods' PriorityClass, if any. */
  public readonly priorityClassName?: string;

  /** The Pod Security level the agent's namespace must enforce. */
  public readonly podSecurityLevel: PodSecurityLevel;

  /** The checks rules the agent breaks on purpose, waived with the `podSecurity` reason. */
  public readonly waivedRules: readonly string[];

  /** The cdk8s-plus DaemonSet underneath, for further customisation. */
  public readonly daemonSet: kplus.DaemonSet;

  /** The ServiceAccount, when `serviceAccount` is set. */
  public readonly serviceAccountResource?: kplus.k8s.KubeServiceAccount;

  /** The ConfigMap, when `config` is set. */
  public readonly configMap?: kplus.ConfigMap;

  private ownObjects?: Set<ApiObject>;

  constructor(scope: Construct, id: string, props: NodeAgentProps) {
    super(scope, id);
    reportProblems(this, problemsOf(props, Chart.of(this).namespace));
    Object.defineProperty(this, BRAND, { value: true });

    this.policy = props.policy;
    this.name = props.name;
    this.updateStrategy = props.updateStrategy ?? AgentUpdateStrategy.rollingUpdate();
    this.minReadySeconds = props.minReadySeconds ?? 0;
    this.terminationGracePeriodSeconds = props.terminationGracePeriodSeconds ?? 30;
    this.revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
    this.runAsUser = props.runAsUser ?? DEFAULT_RUN_AS_ID;
    this.changeCause = props.changeCause;
    this.priorityClassName = props.priorityClassName;
    this.selectorLabels = { [SELECTOR_LABEL_KEY]: this.name };
    const hostNetwork = props.hostNetwork ?? false;
    const hostPID = props.hostPID ?? false;
    const needs = restrictedBreaks(props, this.runAsUser);
    this.podSecurityLevel = props.podSecurity?.level ?? needs.level;
    this.waivedRules = needs.rules;

    const labels = { ...props.labels, ...this.selectorLabels };
    const podAnnotations: Record<string, string> = { ...props.annotations };
    const annotations: Record<string, string> = { ...props.annotations };
    if (this.changeCause !== undefined) {
      annotations[CHANGE_CAUSE_ANNOTATION] = this.changeCause;
    }
    for (const rule of this.waivedRules) {
      annotations[WAIVER_PREFIX + rule] = props.podSecurity!.reason;
    }
    if (props.config) {
      podAnnotations[CONFIG_CHECKSUM_ANNOTATION] = checksum(props.config.data);
    }

    if (props.serviceAccount) {
      const namespace = Chart.of(this).namespace!;
      this.serviceAccountResource = new kplus.k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: this.name, labels } });
      const roleName = `${namespace}-${this.name}`;
      const role = new kplus.k8s.KubeClusterRole(this, 'ClusterRole', {
        metadata: { name: roleName, labels },
        rules: props.serviceAccount.rules.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], verbs: [...r.verbs] })),
      });
      const binding = new kplus.k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
        metadata: { name: roleName, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
        subjects: [{ kind: 'ServiceAccount', name: this.name, namespace }],
      });
      clusterScoped(role);
      clusterScoped(binding);
    }

    const runAs = { user: this.runAsUser, group: this.runAsUser, ensureNonRoot: this.runAsUser !== 0 };
    this.daemonSet = new AgentDaemonSet(this, 'Resource', {
      metadata: { name: this.name, labels, annotations },
      podMetadata: { labels, annotations: podAnnotations },
      // cdk8s-plus would select on a label derived from the construct path.
      select: false,
      minReadySeconds: this.minReadySeconds,
      terminationGracePeriod: Duration.seconds(this.terminationGracePeriodSeconds),
      automountServiceAccountToken: props.serviceAccount !== undefined,
      securityContext: runAs,
      hostNetwork,
      dns: hostNetwork ? { policy: kplus.DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET } : undefined,
      containers: props.containers.map((c) => ({
        name: c.name,
        image: c.image,
        imagePullPolicy: c.imagePullPolicy ?? kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command: c.command,
        args: c.args,
        envVariables: c.env,
        ports: c.ports?.map((p) => (hostNetwork && p.hostPort === undefined ? { ...p, hostPort: p.number } : p)),
        readiness: c.readiness,
        liveness: c.liveness,
        resources: c.resources ?? DEFAULT_AGENT_RESOURCES,
        securityContext: {
          ...runAs,
          privileged: false,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: [kplus.Capability.ALL] },
          seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
          ...c.securityContext,
        },
      })),
    }, (spec) => this.render(spec, { hostPID, serviceAccount: props.serviceAccount !== undefined }));
    this.daemonSet.select(kplus.LabelSelector.of({ labels: this.selectorLabels }));

    (props.hostPaths ?? []).forEach((m, i) => {
      const volume = kplus.Volume.fromHostPath(this, `HostPath${i}`, m.name, { path: m.hostPath });
      this.daemonSet.containers.forEach((c) => c.mount(m.mountPath, volume, { readOnly: true }));
    });
    if (props.config) {
      this.configMap = new kplus.ConfigMap(this, 'Config', { metadata: { name: `${this.name}-config`, labels }, data: props.config.data });
      const volume = kplus.Volume.fromConfigMap(this, 'ConfigVolume', this.configMap, { name: 'config' });
      this.daemonSet.containers.forEach((c) => c.mount(props.config!.mountPath, volume, { readOnly: true }));
    }

    // Only at synth is the whole app known.
    this.node.addValidation({ validate: () => this.nameClashes() });
  }

  /**
   * The one place the DaemonSet's spec gets what cdk8s-plus cannot render:
   * the policy's scheduling (merged with what was added through
   * `daemonSet.scheduling`), the selector-only pod labels, host PID, the
   * service account, priority, update strategy and history limit. The spec
   * is in the L1 types (TypeScript names, IntOrString wrappers).
   */
  private render(spec: kplus.k8s.DaemonSetSpec, options: { hostPID: boolean; serviceAccount: boolean }): kplus.k8s.DaemonSetSpec {
    const pod = spec.template.spec!;
    const policy = this.policy.podScheduling();
    const podLabels = { ...spec.template.metadata?.labels };
    // cdk8s-plus labels pods with their construct address; a moved construct
    // would then roll every pod for nothing.
    delete podLabels['cdk8s.io/metadata.addr'];
    const tolerations = [...(policy.tolerations ?? []), ...(pod.tolerations ?? [])];
    return {
      ...spec,
      revisionHistoryLimit: this.revisionHistoryLimit,
      updateStrategy: this.updateStrategy.toKube(),
      template: {
        ...spec.template,
        metadata: { ...spec.template.metadata, labels: podLabels },
        spec: {
          ...pod,
          nodeSelector: policy.nodeSelector ? { ...policy.nodeSelector, ...pod.nodeSelector } : pod.nodeSelector,
          tolerations: tolerations.length > 0 ? dedupe(tolerations) : undefined,
          affinity: mergeAffinity(pod.affinity, policy.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms),
          ...(options.hostPID ? { hostPid: true } : {}),
          ...(options.serviceAccount ? { serviceAccountName: this.name } : {}),
          ...(this.priorityClassName !== undefined ? { priorityClassName: this.priorityClassName } : {}),
        },
      },
    };
  }

  /** Two objects of one kind with one name in one namespace: each apply would overwrite the other. */
  private nameClashes(): string[] {
    // The agent's objects are all made in its constructor.
    const mine = this.ownObjects ??= new Set(this.node.findAll().filter(ApiObject.isApiObject));
    const chart = Chart.of(this);
    const group = groupOf(chart);
    const index = apiObjectIndex(this.node.root);
    const errors: string[] = [];
    for (const own of mine) {
      for (const [token, byChart] of index.get(objectKey(own)) ?? []) {
        // Charts of one variant group are alternatives: within the group only this chart's own objects can clash.
        const candidates = token === group ? byChart.get(chart) ?? [] : [...byChart.values()].flat();
        for (const other of candidates.filter((o) => !mine.has(o))) {
          errors.push(`${own.kind} "${own.name}"${own.metadata.namespace ? ` in namespace "${own.metadata.namespace}"` : ''} is also defined by ${other.node.path}: each apply would overwrite the other; give one of them another name`);
        }
      }
    }
    return errors;
  }
}

/** key (kind, namespace, name) -> variant group (or the chart itself) -> chart -> objects. */
type ApiObjectIndex = Map<string, Map<unknown, Map<Chart, ApiObject[]>>>;

const indexes = new WeakMap<IConstruct, ApiObjectIndex>();

/**
 * Every API object of the app by kind, namespace and name, grouped by
 * variant group and chart. Built once per validation pass, not once per
 * agent: cdk8s validates every construct (and, in Chart.toJson, the whole app
 * again for every chart), so a scan per agent would cost O(N²) or worse.
 * Synthesis is synchronous and adds no construct, so the index is dropped
 * after the pass, at the next microtask.
 */
function apiObjectIndex(root: IConstruct): ApiObjectIndex {
  let byKey = indexes.get(root);
  if (!byKey) {
    byKey = new Map();
    for (const c of root.node.findAll()) {
      if (!ApiObject.isApiObject(c)) {
        continue;
      }
      const key = objectKey(c);
      const chart = Chart.of(c);
      const token = groupOf(chart) ?? chart;
      const byToken = byKey.get(key) ?? new Map<unknown, Map<Chart, ApiObject[]>>();
      const byChart = byToken.get(token) ?? new Map<Chart, ApiObject[]>();
      byChart.set(chart, [...(byChart.get(chart) ?? []), c]);
      byToken.set(token, byChart);
      byKey.set(key, byToken);
    }
    indexes.set(root, byKey);
    queueMicrotask(() => indexes.delete(root));
  }
  return byKey;
}

/**
 * A chart's variant group, when it has one: charts of one group are
 * alternatives (variants of one deployable, applied one instead of the
 * other) whose objects may share names. `NodeReporterChart` has one.
 */
function groupOf(chart: IConstruct): string | undefined {
  const group = (chart as { variantGroup?: unknown }).variantGroup;
  return typeof group === 'string' ? group : undefined;
}

function objectKey(o: ApiObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return `${group}/${o.kind}/${o.metadata.namespace ?? ''}/${o.name}`;
}

/**
 * cdk8s-plus-28's DaemonSet, with one hook: its rendered spec goes through
 * `render` (see {@link NodeAgent}). `_toKube` is how cdk8s-plus produces the
 * spec lazily at synth; it is public in its declarations.
 */
class AgentDaemonSet extends kplus.DaemonSet {
  constructor(scope: Construct, id: string, props: kplus.DaemonSetProps, private readonly renderSpec: (spec: kplus.k8s.DaemonSetSpec) => kplus.k8s.DaemonSetSpec) {
    super(scope, id, props);
  }

  public override _toKube(): kplus.k8s.DaemonSetSpec {
    return this.renderSpec(super._toKube());
  }
}

/**
 * Required node affinity is an OR of terms: the policy's term must hold in
 * each, so it is added to every term added through `daemonSet.scheduling`.
 */
function mergeAffinity(affinity: kplus.k8s.Affinity | undefined, policyTerms: readonly NodeSelectorTerm[] | undefined): kplus.k8s.Affinity | undefined {
  if (!policyTerms) {
    return affinity;
  }
  const policy = policyTerms[0].matchExpressions ?? [];
  const userTerms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const terms = userTerms.length === 0
    ? [{ matchExpressions: policy.map((r) => ({ ...r, values: r.values ? [...r.values] : undefined })) }]
    : userTerms.map((t) => ({ ...t, matchExpressions: [...policy.map((r) => ({ ...r, values: r.values ? [...r.values] : undefined })), ...(t.matchExpressions ?? [])] }));
  return {
    ...affinity,
    nodeAffinity: { ...affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  };
}

function dedupe<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const key = JSON.stringify(t);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function intOrString(value: kplus.PercentOrAbsolute): kplus.k8s.IntOrString {
  return typeof value.value === 'number' ? kplus.k8s.IntOrString.fromNumber(value.value) : kplus.k8s.IntOrString.fromString(value.value);
}

/** A stable digest of the config: file names sorted, so key order does not roll the agents. */
function checksum(data: Record<string, string>): string {
  const sorted = Object.keys(data).sort().map((k) => [k, data[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** A Chart stamps its namespace on every object; a cluster-scoped one must not carry it. */
export function clusterScoped(obj: ApiObject): void {
  if (Chart.of(obj).namespace !== undefined) {
    obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }
}

/** Which checks the agent breaks on purpose, and the Pod Security level that admits it. */
function restrictedBreaks(props: NodeAgentProps, runAsUser: number): { level: PodSecurityLevel; rules: string[] } {
  const rules: string[] = [];
  let level = PodSecurityLevel.RESTRICTED;
  const raise = (to: PodSecurityLevel) => {
    level = LEVEL_ORDER.indexOf(to) > LEVEL_ORDER.indexOf(level) ? to : level;
  };
  if (props.hostNetwork || props.hostPID) {
    rules.push(RULES.hostNamespaces.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  if ((props.hostPaths ?? []).length > 0) {
    rules.push(RULES.volumeTypes.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  const ports = props.containers.flatMap((c) => c.ports ?? []);
  if (ports.some((p) => p.hostPort !== undefined) || (props.hostNetwork && ports.length > 0)) {
    rules.push(RULES.hostPorts.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  // What the containers' own security contexts relax (they override the restricted defaults).
  const contexts = props.containers.map((c) => (isRecord(c?.securityContext) ? c.securityContext : {}));
  if (runAsUser === 0 || contexts.some((sc) => sc.user === 0 || sc.ensureNonRoot === false)) {
    rules.push(RULES.runAsNonRoot.id, RULES.runAsUser.id);
    raise(PodSecurityLevel.BASELINE);
  }
  if (contexts.some((sc) => sc.allowPrivilegeEscalation === true)) {
    rules.push(RULES.privilegeEscalation.id);
    raise(PodSecurityLevel.BASELINE);
  }
  if (contexts.some((sc) => sc.seccompProfile !== undefined && !['RuntimeDefault', 'Localhost'].includes((sc.seccompProfile as { type?: string }).type ?? ''))) {
    rules.push(RULES.seccomp.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  if (contexts.some((sc) => sc.capabilities !== undefined)) {
    // Anything but the default "drop ALL" is judged by the checks; baseline
    // allows only a few added capabilities, so the agent is taken as privileged.
    rules.push(RULES.capabilities.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  if (contexts.some((sc) => sc.privileged === true)) {
    rules.push(RULES.privileged.id);
    raise(PodSecurityLevel.PRIVILEGED);
  }
  return { level, rules };
}

function checkAbsolutePath(prop: string, value: unknown): Problem | undefined {
  return typeof value === 'string' && value.startsWith('/') && !/[\u0000-\u001f\u007f]/.test(value) && !value.split('/').includes('..')
    ? undefined : problem(prop, "an absolute path without '..' or control characters", value);
}

function checkStringArray(prop: string, value: unknown, min = 0): Problem | undefined {
  return Array.isArray(value) && value.length >= min && value.every((v) => typeof v === 'string') ? undefined : problem(prop, `an array of ${min > 0 ? 'at least one ' : ''}strings`, value);
}

function checkContainer(prop: string, c: unknown): Problem[] {
  if (!isRecord(c)) {
    return [problem(prop, 'an AgentContainer { name, image, ... }', c)];
  }
  const problems = defined(
    checkDns1123Label(`${prop}.name`, c.name),
    checkImage(`${prop}.image`, c.image),
    c.command !== undefined ? checkStringArray(`${prop}.command`, c.command) : undefined,
    c.args !== undefined ? checkStringArray(`${prop}.args`, c.args) : undefined,
    c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy as string) ? problem(`${prop}.imagePullPolicy`, `one of ${PULL_POLICIES.join(', ')}`, c.imagePullPolicy) : undefined,
  );
  if (c.env !== undefined) {
    if (!isRecord(c.env)) {
      problems.push(problem(`${prop}.env`, 'an object of variable names to EnvValue (e.g. DownwardApi.nodeName())', c.env));
    } else {
      for (const [name, value] of Object.entries(c.env)) {
        problems.push(...defined(
          /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name) ? undefined : problem(`${prop}.env[key]`, 'an environment variable name ([-._a-zA-Z][-._a-zA-Z0-9]*, as the API server requires)', name),
          isEnvValue(value) ? undefined : problem(`${prop}.env.${name}`, 'an EnvValue, e.g. EnvValue.fromValue(...) or DownwardApi.nodeName()', value),
        ));
      }
    }
  }
  for (const probe of ['readiness', 'liveness'] as const) {
    if (c[probe] !== undefined && typeof (c[probe] as { _toKube?: unknown })?._toKube !== 'function') {
      problems.push(problem(`${prop}.${probe}`, 'a cdk8s-plus Probe, e.g. Probe.fromHttpGet(...)', c[probe]));
    }
  }
  if (c.securityContext !== undefined) {
    problems.push(...checkSecurityContext(`${prop}.securityContext`, c.securityContext));
  }
  if (c.resources !== undefined) {
    problems.push(...checkResources(`${prop}.resources`, c.resources as kplus.ContainerResources));
  }
  if (c.ports !== undefined) {
    if (!Array.isArray(c.ports)) {
      problems.push(problem(`${prop}.ports`, 'an array of { number, name?, protocol?, hostPort? }', c.ports));
    } else {
      c.ports.forEach((p: unknown, i: number) => {
        const port: Record<string, unknown> = isRecord(p) ? p : {};
        problems.push(...defined(
          checkInteger(`${prop}.ports[${i}].number`, port.number, 1, 65535),
          port.hostPort !== undefined ? checkInteger(`${prop}.ports[${i}].hostPort`, port.hostPort, 1, 65535) : undefined,
          port.protocol !== undefined && !PROTOCOLS.includes(port.protocol as string) ? problem(`${prop}.ports[${i}].protocol`, `one of ${PROTOCOLS.join(', ')}`, port.protocol) : undefined,
          port.hostIp !== undefined ? problem(`${prop}.ports[${i}].hostIp`, 'unset (an agent on every node binds all addresses)', port.hostIp) : undefined,
          port.name !== undefined && (typeof port.name !== 'string' || !/^(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(port.name) || port.name.length > 15 || port.name.includes('--'))
            ? problem(`${prop}.ports[${i}].name`, 'an IANA service name (at most 15 characters of a-z, 0-9 and single dashes, with a letter)', port.name) : undefined,
        ));
      });
    }
  }
  return problems;
}

const PULL_POLICIES: string[] = Object.values(kplus.ImagePullPolicy);
const PROTOCOLS: string[] = Object.values(kplus.Protocol);

/** A cdk8s-plus EnvValue: a string value, or a source (field, resource, ConfigMap, Secret). */
function isEnvValue(value: unknown): boolean {
  return isRecord(value) && (typeof value.value === 'string' ? value.valueFrom === undefined : value.value === undefined && isRecord(value.valueFrom));
}

function checkSecurityContext(prop: string, sc: unknown): Problem[] {
  if (!isRecord(sc)) {
    return [problem(prop, 'an object of cdk8s-plus ContainerSecurityContextProps', sc)];
  }
  const problems: Problem[] = [];
  for (const key of ['user', 'group'] as const) {
    if (sc[key] !== undefined) {
      problems.push(...defined(checkInteger(`${prop}.${key}`, sc[key], 0, 2147483647)));
    }
  }
  for (const key of ['ensureNonRoot', 'privileged', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation'] as const) {
    if (sc[key] !== undefined && typeof sc[key] !== 'boolean') {
      problems.push(problem(`${prop}.${key}`, 'a boolean', sc[key]));
    }
  }
  for (const key of Object.keys(sc)) {
    if (!['user', 'group', 'ensureNonRoot', 'privileged', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'capabilities', 'seccompProfile'].includes(key)) {
      problems.push(problem(`${prop}[key]`, 'one of user, group, ensureNonRoot, privileged, readOnlyRootFilesystem, allowPrivilegeEscalation, capabilities, seccompProfile', key));
    }
  }
  return problems;
}

/** Every problem with the props, named by prop, in one list. */
function problemsOf(props: NodeAgentProps, namespace: string | undefined): Problem[] {
  if (!isRecord(props)) {
    return [problem('props', 'an object of NodeAgentProps { policy, name, containers, ... }', props)];
  }
  const problems = defined(
    NodePolicy.isNodePolicy(props.policy) ? undefined : problem('policy', 'a NodePolicy (or LabeledNodePolicy)', props.policy),
    checkDns1123Label('name', props.name),
    props.hostNetwork !== undefined && typeof props.hostNetwork !== 'boolean' ? problem('hostNetwork', 'a boolean', props.hostNetwork) : undefined,
    props.hostPID !== undefined && typeof props.hostPID !== 'boolean' ? problem('hostPID', 'a boolean', props.hostPID) : undefined,
    props.runAsUser !== undefined ? checkInteger('runAsUser', props.runAsUser, 0, 2147483647) : undefined,
    props.priorityClassName !== undefined ? checkDns1123Subdomain('priorityClassName', props.priorityClassName) : undefined,
    props.changeCause !== undefined ? checkSingleLine('changeCause', props.changeCause, 1024) : undefined,
    props.minReadySeconds !== undefined ? checkInteger('minReadySeconds', props.minReadySeconds, 0, 86400) : undefined,
    props.terminationGracePeriodSeconds !== undefined ? checkInteger('terminationGracePeriodSeconds', props.terminationGracePeriodSeconds, 0, 86400) : undefined,
    props.revisionHistoryLimit !== undefined ? checkInteger('revisionHistoryLimit', props.revisionHistoryLimit, 0, 1000) : undefined,
  );
  if (!Array.isArray(props.containers) || props.containers.length === 0) {
    problems.push(problem('containers', 'an array of at least one AgentContainer', props.containers));
  } else {
    props.containers.forEach((c, i) => problems.push(...checkContainer(`containers[${i}]`, c)));
    const names = props.containers.map((c) => (isRecord(c) ? c.name : undefined));
    names.forEach((n, i) => {
      if (names.indexOf(n) !== i) {
        problems.push(problem(`containers[${i}].name`, 'unique among the containers', n));
      }
    });
  }
  if (props.labels !== undefined) {
    problems.push(...checkLabels('labels', props.labels));
    if (isRecord(props.labels) && Object.prototype.hasOwnProperty.call(props.labels, SELECTOR_LABEL_KEY)) {
      problems.push(`'labels' must not set '${SELECTOR_LABEL_KEY}', the selector label this construct owns, but got "${SELECTOR_LABEL_KEY}: ${props.labels[SELECTOR_LABEL_KEY]}"`);
    }
  }
  if (props.annotations !== undefined) {
    problems.push(...checkAnnotations('annotations', props.annotations));
    for (const key of isRecord(props.annotations) ? Object.keys(props.annotations) : []) {
      if (key === CHANGE_CAUSE_ANNOTATION || key === CONFIG_CHECKSUM_ANNOTATION || key.startsWith(WAIVER_PREFIX)) {
        problems.push(`'annotations' must not set ${JSON.stringify(key)}, which this construct owns (${key === CHANGE_CAUSE_ANNOTATION ? "use 'changeCause'" : key.startsWith(WAIVER_PREFIX) ? "use 'podSecurity' with a reason" : 'it is the config checksum'})`);
      }
    }
  }
  if (props.updateStrategy !== undefined) {
    problems.push(...(props.updateStrategy instanceof AgentUpdateStrategy || typeof (props.updateStrategy as { problems?: unknown })?.problems === 'function'
      ? props.updateStrategy.problems()
      : [problem('updateStrategy', 'an AgentUpdateStrategy (AgentUpdateStrategy.rollingUpdate() or .onDelete())', props.updateStrategy)]));
  }
  const mounts: { prop: string; path: unknown }[] = [];
  if (props.hostPaths !== undefined) {
    if (!Array.isArray(props.hostPaths)) {
      problems.push(problem('hostPaths', 'an array of { name, hostPath, mountPath }', props.hostPaths));
    } else {
      props.hostPaths.forEach((m, i) => {
        const mount: Record<string, unknown> = isRecord(m) ? m : {};
        problems.push(...defined(
          checkDns1123Label(`hostPaths[${i}].name`, mount.name),
          mount.name === 'config' ? problem(`hostPaths[${i}].name`, "another name than 'config' (the config volume)", mount.name) : undefined,
          checkAbsolutePath(`hostPaths[${i}].hostPath`, mount.hostPath),
          checkAbsolutePath(`hostPaths[${i}].mountPath`, mount.mountPath),
        ));
        mounts.push({ prop: `hostPaths[${i}].mountPath`, path: mount.mountPath });
      });
    }
  }
  if (props.serviceAccount !== undefined) {
    const sa = props.serviceAccount;
    if (!isRecord(sa) || !Array.isArray(sa.rules) || sa.rules.length === 0) {
      problems.push(problem('serviceAccount', 'an object { rules } with at least one rule', sa));
    } else {
      sa.rules.forEach((r, i) => problems.push(...defined(
        checkStringArray(`serviceAccount.rules[${i}].apiGroups`, isRecord(r) ? r.apiGroups : undefined, 1),
        checkStringArray(`serviceAccount.rules[${i}].resources`, isRecord(r) ? r.resources : undefined, 1),
        checkStringArray(`serviceAccount.rules[${i}].verbs`, isRecord(r) ? r.verbs : undefined, 1),
      )));
    }
    if (namespace === undefined) {
      problems.push("'serviceAccount' needs the chart's namespace (the ClusterRoleBinding names the ServiceAccount's namespace) but the chart has none");
    }
  }
  if (props.config !== undefined) {
    const config = props.config;
    if (!isRecord(config) || !isRecord(config.data) || Object.keys(config.data).length === 0) {
      problems.push(problem('config', 'an object { data, mountPath } with at least one file', config));
    } else {
      for (const [file, content] of Object.entries(config.data)) {
        problems.push(...defined(
          /^[-._a-zA-Z0-9]+$/.test(file) && file.length <= 253 ? undefined : problem('config.data[key]', "a file name of at most 253 characters of A-Z, a-z, 0-9, '-', '_' and '.'", file),
          typeof content === 'string' ? undefined : problem(`config.data.${file}`, 'a string', content),
        ));
      }
      problems.push(...defined(checkAbsolutePath('config.mountPath', config.mountPath)));
      mounts.push({ prop: 'config.mountPath', path: config.mountPath });
    }
  }
  mounts.forEach((m, i) => {
    if (mounts.findIndex((o) => o.path === m.path) !== i) {
      problems.push(problem(m.prop, 'a mount path no other mount uses', m.path));
    }
  });
  if (problems.length === 0) {
    problems.push(...podSecurityProblems(props));
  }
  return problems;
}

function podSecurityProblems(props: NodeAgentProps): Problem[] {
  const needs = restrictedBreaks(props, props.runAsUser ?? DEFAULT_RUN_AS_ID);
  const given = props.podSecurity;
  if (given === undefined) {
    return needs.level === PodSecurityLevel.RESTRICTED ? [] : [
      `'podSecurity' must be set to { level: '${needs.level}', reason: '...' } because the agent breaks Pod Security "restricted" (${needs.rules.join(', ')}); say why, and deploy it into a namespace that enforces '${needs.level}'`,
    ];
  }
  if (!isRecord(given) || !LEVEL_ORDER.includes(given.level)) {
    return [problem('podSecurity', "an object { level: 'baseline' | 'privileged', reason }", given)];
  }
  return defined(
    checkSingleLine('podSecurity.reason', given.reason, 512),
    needs.level === PodSecurityLevel.RESTRICTED
      ? problem('podSecurity', 'unset: the agent meets Pod Security "restricted"', given)
      : LEVEL_ORDER.indexOf(given.level) < LEVEL_ORDER.indexOf(needs.level)
        ? problem('podSecurity.level', `'${needs.level}' or laxer, because the agent breaks ${needs.rules.join(', ')}`, given.level) : undefined,
  );
}
