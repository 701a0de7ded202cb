import { ApiObject, Chart, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkApiValidation } from '../checks/api-validation';
import { PodSecurityLevel } from '../checks/pod-security';
import { podTemplateOf } from '../checks/pod-templates';
import { RULES, Severity, WAIVER_PREFIX } from '../checks/rules';
import { KubernetesVersion } from '../checks/versions';
import { DEFAULT_RUN_AS_ID } from '../defaults';
import { watchHostPortClashes } from '../host-port-clashes';
import { isRecord } from '../k8s/syntax';
import { AGENT_LABEL, WAVE_LABEL } from '../k8s/waves';
import { KubernetesTarget, kubernetesTarget, targetAnnotations } from '../kubernetes-target';
import { watchNameClashes } from '../name-clashes';
import { NodePolicy } from '../node-policy';
import { watchSelectorOverlaps } from '../selector-overlaps';
import { reportProblems } from '../validate-props';
import { ownName, selectorOf } from './adoption';
import { AgentDaemonSet } from './agent-daemon-set';
import { CONFIG_CHECKSUM_ANNOTATION, ConfigChange, configChecksum, configVolumeName } from './config';
import { containerNameProblems } from './container-checks';
import { AgentContainer, ContainerDefaults, containerProblems, kplusContainerProps, renderSecurityContext } from './containers';
import { createCrds } from './custom-resources';
import { createExtraServiceAccounts, createGrants } from './grants';
import { APPARMOR_ANNOTATION_PREFIX, CHANGE_CAUSE_ANNOTATION, imageTag, recommendedLabels } from './metadata';
import { createMetrics } from './metrics';
import { podSecurityProblems, RenderedPodSecurity, renderedPodSecurity, writableHostPathProblems } from './pod-security';
import { NodeAgentProps } from './props';
import { configMapNameOf, declaredVolumes, mainContainerOf, mountPathProblems, propsProblems, runAsGroupOf } from './props-problems';
import { createRbac, rbacNames } from './rbac';
import { waiveDangerousGrants } from './rbac-reasons';
import { canonicalResources, checksProblems, nonEmpty, withoutZeroDelays } from './rendering';
import { dedupe, mergeAffinity } from './scheduling';
import { createServices } from './services';
import { RecursiveReadOnly, targetPropsProblems, withTargetForms, writesAppArmorField } from './target';
import { AgentUpdateStrategy } from './update-strategy';
import { AgentMount, AgentVolume, renderMount } from './volumes';
import { crossSelectorProblems, earlierWaveProps, lastWaveProps, wavePolicy, waveRoleOf } from './waves';

const BRAND = Symbol.for('node-reporter.NodeAgent');

/** A container of the agent, and how its mounts are rendered. */
interface OwnContainer {
  readonly spec: AgentContainer;
  readonly init: boolean;
}

/**
 * A node agent: a DaemonSet that runs one pod on every node its
 * {@link NodePolicy} makes eligible, with secure defaults (Pod Security
 * "restricted", uid 65534, read-only root, drop ALL, seccomp RuntimeDefault,
 * small requests, no API token).
 *
 * Everything an agent needs is a prop: containers, init containers and
 * sidecars, volumes (typed host paths, emptyDir, ConfigMap, Secret,
 * projected) mounted per container, privileges that keep the other defaults,
 * host namespaces, RBAC, a metrics Service, Windows. The Pod Security level
 * and the waivers are not declared twice: the checks judge the rendered pod,
 * and construction fails when `podSecurity` does not match it.
 *
 * Built on cdk8s-plus-28's DaemonSet for containers, env, probes and
 * lifecycle hooks. What cdk8s-plus cannot express is rendered in one place
 * (the DaemonSet's `_toKube`): the selector `app: <name>` (or
 * `adopt.selector`) instead of a
 * construct-path label, the policy's nodeSelector and affinity (merged with
 * what `daemonSet.scheduling` adds), security contexts, volumes and mounts,
 * host namespaces, update strategy.
 *
 * @example
 * new NodeAgent(chart, 'Exporter', {
 *   policy, name: 'node-exporter',
 *   containers: [{ name: 'exporter', image: 'quay.io/prometheus/node-exporter:v1.8.2', ports: [{ number: 9100, name: 'metrics' }] }],
 *   metrics: { port: 'metrics' },
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

  /** The wave this agent's DaemonSet is (with `waves`, the last one), if the agent is rolled out in waves. */
  public readonly wave?: string;

  /** With `waves`: the agents of the waves before the last, in order, each a DaemonSet `<name>-<wave>`; this agent is the last wave. */
  public readonly earlierWaves: NodeAgent[];

  /** The DaemonSet's name. */
  public readonly name: string;

  /** The selector's labels, `{ app: <name> }` or `adopt.selector`; every pod carries them. */
  public readonly selectorLabels: Record<string, string>;

  /** The labels of every object the agent creates and of its pods: the recommended ones, `labels`, and the selector's (with waves, the shared objects' lack the wave label). */
  public readonly labels: Record<string, string>;

  /** The name of the ServiceAccount the pods run as (the agent's own, or `serviceAccountName`), if any. */
  public readonly serviceAccountName?: string;

  /** How a new version reaches the nodes. */
  public readonly updateStrategy: AgentUpdateStrategy;

  /** Seconds a new pod must be ready before it counts as available. */
  public readonly minReadySeconds: number;

  /** Seconds a pod may take to stop. */
  public readonly terminationGracePeriodSeconds: number;

  /** How many old ControllerRevisions are kept. */
  public readonly revisionHistoryLimit: number;

  /** The uid the containers run as (Linux). */
  public readonly runAsUser: number;

  /** The gid the containers run as (Linux); none: the image's. */
  public readonly runAsGroup?: number;

  /** Whether the pods share the node's network namespace. */
  public readonly hostNetwork: boolean;

  /** Whether the pods see the node's processes. */
  public readonly hostPID: boolean;

  /** Whether the pods share the node's IPC namespace. */
  public readonly hostIPC: boolean;

  /** Whether the agent runs on Windows nodes (its policy's operating system). */
  public readonly windows: boolean;

  /** The `app.kubernetes.io/version` label, if any. */
  public readonly version?: string;

  /** The `kubernetes.io/change-cause` annotation, if any. */
  public readonly changeCause?: string;

  /** The pods' PriorityClass, if any. */
  public readonly priorityClassName?: string;

  /** The Pod Security level the agent's namespace must enforce: the strictest that admits its rendered pod. */
  public readonly podSecurityLevel: PodSecurityLevel;

  /** The Kubernetes version the agent is written for: the app's context `node-reporter:kubernetesVersion`, 1.28 when unset. */
  public readonly kubernetesVersion: KubernetesVersion;

  /** How read-only, non-propagating host-path mounts are made recursively read-only where the target has it (1.31+). */
  public readonly recursiveReadOnly: RecursiveReadOnly;

  /** The volumes the pods declare (the `hostPaths` shorthand and the config included). */
  public readonly volumes: AgentVolume[];

  /** The cdk8s-plus DaemonSet underneath (with waves, the last wave's); as a pod selector it selects its pods. */
  public readonly daemonSet: kplus.DaemonSet;

  /** The ServiceAccount, when `serviceAccount` is set. */
  public readonly serviceAccountResource?: kplus.k8s.KubeServiceAccount;

  /** The ConfigMap, when `config` is set; a change to it (`addData`) rolls the agents too, unless `config.onChange` is IN_PLACE. */
  public readonly configMap?: kplus.ConfigMap;

  /** The metrics Service, when `metrics` asks for one. */
  public readonly metricsService?: kplus.k8s.KubeService;

  private readonly ds: AgentDaemonSet;
  private readonly own: OwnContainer[] = [];
  private readonly everyContainerMounts: AgentMount[];
  private readonly volumesByName: Map<string, AgentVolume>;
  private readonly podSecurityReason?: string;
  private readonly props: NodeAgentProps;
  private readonly target: KubernetesTarget;
  /** The nodes of the DaemonSet: the policy, AND the wave's nodes with waves. */
  private readonly nodes: NodePolicy;
  private rules: string[] = [];
  private judged = false;

  constructor(scope: Construct, id: string, agentProps: NodeAgentProps) {
    super(scope, id);
    const namespace = Chart.of(this).namespace;
    this.target = kubernetesTarget(this);
    this.kubernetesVersion = this.target.version;
    reportProblems(this, [...propsProblems(agentProps, namespace, this.kubernetesVersion), ...(isRecord(agentProps) ? targetPropsProblems(agentProps, this.kubernetesVersion) : [])]);
    Object.defineProperty(this, BRAND, { value: true });

    // With waves, this agent is the last wave: its props with the wave's overrides.
    const waves = agentProps.waves;
    const props = waves !== undefined ? lastWaveProps(agentProps, mainContainerOf(agentProps)) : agentProps;
    this.props = props;
    this.policy = props.policy;
    this.wave = waveRoleOf(agentProps)?.wave ?? waves?.[waves.length - 1].name;
    this.nodes = waves !== undefined ? wavePolicy(this, props.policy, waves, waves.length - 1) : props.policy;
    this.name = props.name;
    this.windows = props.policy.matchLabels['kubernetes.io/os'] === 'windows';
    this.updateStrategy = props.updateStrategy ?? AgentUpdateStrategy.rollingUpdate();
    this.minReadySeconds = props.minReadySeconds ?? 0;
    this.terminationGracePeriodSeconds = props.terminationGracePeriodSeconds ?? 30;
    this.revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
    this.runAsUser = props.runAsUser ?? DEFAULT_RUN_AS_ID;
    this.runAsGroup = runAsGroupOf(props);
    this.hostNetwork = props.hostNetwork ?? props.hostProcess === true;
    this.hostPID = props.hostPID ?? false;
    this.hostIPC = props.hostIPC ?? false;
    this.changeCause = props.changeCause;
    this.priorityClassName = props.priorityClassName;
    this.podSecurityReason = props.podSecurity?.reason;
    this.recursiveReadOnly = props.recursiveReadOnly ?? RecursiveReadOnly.IF_POSSIBLE;
    this.selectorLabels = selectorOf(props.adopt, this.name);
    this.volumes = declaredVolumes(props);
    this.volumesByName = new Map(this.volumes.map((v) => [v.name, v]));
    this.everyContainerMounts = [
      ...(props.hostPaths ?? []).map((m) => ({ volume: m.name, path: m.mountPath, readOnly: true, propagation: m.propagation })),
      ...(props.config?.mountPath !== undefined ? [{ volume: configVolumeName(props.config), path: props.config.mountPath }] : []),
    ];

    this.version = props.version ?? imageTag(mainContainerOf(props).image);
    // The recommended labels on every object; the user's over them; the selector's over all.
    const labels = this.labels = { ...recommendedLabels(this.name, this.version, props.component ?? 'node-agent', props.partOf ?? this.name), ...props.labels, ...this.selectorLabels };
    // Objects every wave shares carry the agent, not a wave; its Services select every wave's pods.
    const shared: Record<string, string> = Object.fromEntries(Object.entries(labels).filter(([k]) => waves === undefined || k !== WAVE_LABEL));
    const podsOfAgent = waves !== undefined ? { [AGENT_LABEL]: this.name } : this.selectorLabels;
    const automount = props.serviceAccount !== undefined ? props.serviceAccount.automountToken ?? true : waveRoleOf(agentProps)?.automountToken ?? props.serviceAccountName !== undefined;
    const annotations: Record<string, string> = { ...props.annotations, ...targetAnnotations(this.target) };
    if (this.changeCause !== undefined) {
      annotations[CHANGE_CAUSE_ANNOTATION] = this.changeCause;
    }
    for (const [rule, reason] of Object.entries(props.waivers ?? {})) {
      annotations[WAIVER_PREFIX + rule] = reason;
    }

    if (props.serviceAccount) {
      const rbac = createRbac(this, props.serviceAccount, rbacNames(this.name, namespace!, props.adopt), namespace!, shared);
      this.serviceAccountResource = rbac.serviceAccount;
      waiveDangerousGrants(this, props.serviceAccount.dangerousGrantsReason);
      this.serviceAccountName = rbac.serviceAccount.name;
    } else {
      this.serviceAccountName = props.serviceAccountName;
    }
    createExtraServiceAccounts(this, props.serviceAccounts ?? [], this.name, namespace!, shared);
    createGrants(this, props.grants ?? [], shared);
    createCrds(this, props.customResourceDefinitions ?? [], shared);
    if (props.config) {
      this.configMap = new kplus.ConfigMap(this, 'Config', { metadata: { name: configMapNameOf(props), labels }, data: props.config.data });
    }

    const runAs = this.windows ? undefined : { user: this.runAsUser, group: this.runAsGroup, ensureNonRoot: this.runAsUser !== 0, fsGroup: props.fsGroup };
    const serviceName = props.adopt?.serviceNames?.metrics ?? ownName(this.name);
    this.ds = new AgentDaemonSet(this, 'Resource', {
      metadata: { name: this.name, labels, annotations },
      podMetadata: { labels: { ...props.podLabels, ...labels }, annotations: { ...props.annotations } },
      // cdk8s-plus would select on a label derived from the construct path.
      select: false,
      minReadySeconds: this.minReadySeconds,
      terminationGracePeriod: Duration.seconds(this.terminationGracePeriodSeconds),
      automountServiceAccountToken: automount,
      securityContext: runAs,
      hostNetwork: this.hostNetwork,
      // With host network, ClusterFirstWithHostNet unless dns names another policy.
      dns: this.hostNetwork && props.dns?.policy === undefined ? { ...props.dns, policy: kplus.DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET } : props.dns,
    }, {
      render: (spec) => this.render(spec),
      finish: (manifest) => this.finish(manifest),
      selectorLabels: this.selectorLabels,
      addContainerHint: 'use agent.addContainer({ ... }) or agent.addInitContainer({ ... }), or the containers and initContainers props',
    });
    this.daemonSet = this.ds;
    this.ds.select(kplus.LabelSelector.of({ labels: this.selectorLabels }));
    props.containers.forEach((c) => this.addOwn(c, false));
    (props.initContainers ?? []).forEach((c) => this.addOwn(c, true));
    this.ds._seal();

    if (props.metrics) {
      this.metricsService = createMetrics(this, props.metrics, serviceName, props.containers, podsOfAgent, shared);
    }
    createServices(this, props.services ?? [], props.containers, podsOfAgent, shared);

    // What the pod needs is what the checks say of the rendered pod.
    const rendered = this.renderDaemonSet();
    const needs = renderedPodSecurity(rendered, this.kubernetesVersion);
    reportProblems(this, [...podSecurityProblems(props.podSecurity, needs), ...writableHostPathProblems(props.podSecurity, podTemplateOf(rendered))]);
    this.podSecurityLevel = needs.level;
    this.writeWaivers(needs, props.podSecurity?.writableHostPathsReason);
    // The DaemonSet as just rendered, with the waivers written since (they change its annotations alone): not rendered again.
    const dsObject = ApiObject.of(this.ds);
    this.judgeOwnObjects(new Map([[dsObject, { ...rendered, metadata: { ...rendered.metadata as object, annotations: dsObject.metadata.toJson().annotations } }]]));
    // From now on every manifest of the DaemonSet is held to its level (see finish()).
    this.judged = true;
    watchNameClashes(this);
    watchSelectorOverlaps(this);
    watchHostPortClashes(this, podTemplateOf(rendered)?.spec, agentProps.boundHostPorts);
    // The earlier waves: agents of their own, through the same rendering, sharing this one's ServiceAccount.
    this.earlierWaves = (waves ?? []).slice(0, -1).map((w, i) => new NodeAgent(this, `Wave-${w.name}`,
      earlierWaveProps(agentProps, mainContainerOf(agentProps), i, wavePolicy(this, agentProps.policy, waves!, i), this.serviceAccountName, automount)));
    reportProblems(this, crossSelectorProblems([...this.earlierWaves, this]));
  }

  /** The checks rules the agent's pod breaks on purpose, waived with the `podSecurity` reason. */
  public get waivedRules(): string[] {
    return [...this.rules];
  }

  /**
   * Adds a main container or sidecar with the agent's defaults and its
   * every-container mounts, to every wave; checked like the props.
   */
  public addContainer(container: AgentContainer): void {
    this.addChecked(container, false);
    this.earlierWaves.forEach((w) => w.addContainer(container));
  }

  /** Adds an init container (after those of the props) with the agent's defaults and its every-container mounts. */
  public addInitContainer(container: AgentContainer): void {
    this.addChecked(container, true);
    this.earlierWaves.forEach((w) => w.addInitContainer(container));
  }

  private addChecked(container: AgentContainer, init: boolean): void {
    const prop = `${init ? 'initContainers' : 'containers'}[${this.own.filter((c) => c.init === init).length}]`;
    const own = (asInit: boolean) => [...this.own.filter((c) => c.init === asInit).map((c) => c.spec), ...(init === asInit ? [container] : [])];
    // The new container's name, among the others (containerNameProblems names them all; only the new one's can be wrong).
    const problems = [...containerProblems(prop, container, this.containerDefaults()), ...containerNameProblems({ containers: own(false), initContainers: own(true) })];
    reportProblems(this, problems);
    reportProblems(this, mountPathProblems(prop, this.everyContainerMounts, container, this.volumesByName));
    this.addOwn(container, init);
    // The level and waivers follow the new pod; a level change needs new props.
    const needs = renderedPodSecurity(this.renderDaemonSet({ unjudged: true }), this.kubernetesVersion);
    if (needs.level !== this.podSecurityLevel) {
      throw new Error(`${this.node.path}: ${prop} makes the agent's pod need Pod Security '${needs.level}' (${needs.details.join(', ')}) but it was built for '${this.podSecurityLevel}'; declare it in the props and set podSecurity to match`);
    }
    this.writeWaivers(needs);
    this.judgeOwnObjects();
  }

  private addOwn(container: AgentContainer, init: boolean): void {
    this.own.push({ spec: container, init });
    this.ds._addAgentContainer(kplusContainerProps(container, this.containerDefaults()), init);
  }

  private containerDefaults(): ContainerDefaults {
    return { runAsUser: this.runAsUser, runAsGroup: this.runAsGroup, windows: this.windows, hostNetwork: this.hostNetwork, version: this.kubernetesVersion };
  }

  /** The DaemonSet's manifest as it would be written now; `unjudged`: before finish() holds it to its level. */
  private renderDaemonSet(options: { unjudged?: boolean } = {}): Record<string, unknown> {
    const judged = this.judged;
    this.judged = judged && !options.unjudged;
    try {
      return ApiObject.of(this.ds).toJson();
    } finally {
      this.judged = judged;
    }
  }

  /** One waiver annotation per control the pod breaks, with the `podSecurity` reason. */
  private writeWaivers(needs: RenderedPodSecurity, writableHostPathsReason?: string): void {
    const metadata = ApiObject.of(this.ds).metadata;
    if (writableHostPathsReason !== undefined) metadata.addAnnotation(WAIVER_PREFIX + RULES.hostPathWritable.id, writableHostPathsReason);
    for (const rule of needs.rules) {
      metadata.addAnnotation(WAIVER_PREFIX + rule, this.podSecurityReason!);
    }
    this.rules = needs.rules;
  }

  /** Throws what the checks refuse in the agent's objects; `rendered`: objects whose manifest is already at hand. */
  private judgeOwnObjects(rendered?: ReadonlyMap<ApiObject, Record<string, unknown>>): void {
    reportProblems(this, checksProblems(this, this.kubernetesVersion, rendered));
  }

  /**
   * The DaemonSet's manifest as it is written, each time: what changed after
   * construction (a volume added through `agent.daemonSet`) is judged by the
   * checks' Pod Security rules on the final pod. At the level the agent was
   * built for, its waivers are exactly the controls that pod breaks; at
   * another level, nothing is written: the namespace would refuse the pods.
   * Here rather than in a validation, which cdk8s runs for the whole app once
   * per chart (Chart.toJson), so that this costs nothing but the manifest's
   * own rendering.
   */
  private finish(rendered: Record<string, unknown>): Record<string, unknown> {
    const manifest = withTargetForms(rendered, {
      version: this.kubernetesVersion,
      appArmorProfile: (init, name) => this.own.find((c) => c.init === init && c.spec.name === name)?.spec.securityContext?.appArmorProfile,
      hostPathVolumes: new Set(this.volumes.filter((v) => v.kind === 'hostPath').map((v) => v.name)),
      recursiveReadOnly: this.recursiveReadOnly,
    });
    if (!this.judged) {
      return manifest;
    }
    const needs = renderedPodSecurity(manifest, this.kubernetesVersion);
    if (needs.level !== this.podSecurityLevel) {
      throw new Error(`${this.node.path}: the DaemonSet's pod now needs Pod Security '${needs.level}' (${needs.details.join(', ') || 'it breaks nothing'}) but the agent was built for '${this.podSecurityLevel}': something changed it after construction (agent.daemonSet?); declare it in NodeAgentProps and set podSecurity to match`);
    }
    // The API server's field rules, on the pod as rendered (a Bidirectional mount added through agent.daemonSet).
    const refused = checkApiValidation(manifest, podTemplateOf(manifest), this.kubernetesVersion).filter((p) => p.rule.severity === Severity.ERROR);
    if (refused.length > 0) {
      throw new Error(`${this.node.path}: the API server would refuse the DaemonSet as rendered (something changed it after construction: agent.daemonSet?): ${refused.map((p) => `${p.path}: ${p.message} [${p.rule.id}]`).join('; ')}`);
    }
    this.rules = needs.rules;
    const metadata = manifest.metadata as { annotations?: Record<string, string> };
    const annotations = Object.fromEntries(Object.entries(metadata.annotations ?? {}).filter(([key]) => !key.startsWith(`${WAIVER_PREFIX}pss-`)));
    for (const rule of needs.rules) {
      annotations[WAIVER_PREFIX + rule] = this.podSecurityReason!;
    }
    // Sorted, as cdk8s writes every object's keys.
    const sorted = Object.fromEntries(Object.keys(annotations).sort().map((key) => [key, annotations[key]]));
    return { ...manifest, metadata: { ...metadata, annotations: Object.keys(sorted).length > 0 ? sorted : undefined } };
  }

  /**
   * The one place the DaemonSet's spec gets what cdk8s-plus cannot render:
   * the policy's scheduling (merged with what was added through
   * `daemonSet.scheduling`), the selector-only pod labels, security contexts,
   * volumes and mounts, host namespaces, the service account, priority,
   * update strategy and history limit. The spec is in the L1 types
   * (TypeScript names, IntOrString wrappers).
   */
  private render(spec: kplus.k8s.DaemonSetSpec): kplus.k8s.DaemonSetSpec {
    const pod = spec.template.spec!;
    const props = this.props;
    const policy = this.nodes.podScheduling();
    const metadata = spec.template.metadata ?? {};
    const podLabels = { ...metadata.labels };
    // cdk8s-plus labels pods with their construct address; a moved construct
    // would then roll every pod for nothing.
    delete podLabels['cdk8s.io/metadata.addr'];
    const podAnnotations: Record<string, string> = { ...metadata.annotations };
    // From 1.30 the profile is the securityContext field (finish() writes it); the annotation is deprecated.
    for (const c of writesAppArmorField(this.kubernetesVersion) ? [] : this.own) {
      if (c.spec.securityContext?.appArmorProfile !== undefined) {
        podAnnotations[APPARMOR_ANNOTATION_PREFIX + c.spec.name] = c.spec.securityContext.appArmorProfile;
      }
    }
    if (this.configMap && (props.config?.onChange ?? ConfigChange.ROLL) === ConfigChange.ROLL) {
      // From the ConfigMap as it is now, so that configMap.addData() rolls the agents too.
      podAnnotations[CONFIG_CHECKSUM_ANNOTATION] = configChecksum(this.configMap.data);
    }
    const tolerations = dedupe([...(policy.tolerations ?? []), ...(pod.tolerations ?? [])]);
    const volumes = [...(pod.volumes ?? []), ...this.volumes.map((v) => v._toKube())];
    const defaults = this.containerDefaults();
    const renderContainer = (init: boolean) => (c: kplus.k8s.Container): kplus.k8s.Container => {
      const own = this.own.find((o) => o.init === init && o.spec.name === c.name);
      if (!own) {
        return c;
      }
      const mounts = [...this.everyContainerMounts, ...(own.spec.mounts ?? [])].map((m) => renderMount(m, this.volumesByName.get(m.volume)!));
      return {
        ...c,
        ...withoutZeroDelays(c),
        resources: canonicalResources(c.resources),
        securityContext: renderSecurityContext(own.spec, defaults),
        volumeMounts: nonEmpty([...(c.volumeMounts ?? []), ...mounts]),
        terminationMessagePolicy: own.spec.terminationMessagePolicy,
      };
    };
    return {
      ...spec,
      // Zero and false are the API's defaults, which it does not store: rendered, every apply would report a change.
      minReadySeconds: spec.minReadySeconds || undefined,
      revisionHistoryLimit: this.revisionHistoryLimit,
      updateStrategy: this.updateStrategy.toKube(),
      template: {
        ...spec.template,
        metadata: { ...metadata, labels: podLabels, annotations: Object.keys(podAnnotations).length > 0 ? podAnnotations : undefined },
        spec: {
          ...pod,
          hostNetwork: pod.hostNetwork || undefined,
          containers: pod.containers.map(renderContainer(false)),
          initContainers: pod.initContainers?.map(renderContainer(true)),
          volumes: nonEmpty(volumes),
          securityContext: this.windows
            // Windows: non-root (ContainerUser, not ContainerAdministrator) as on Linux; a host process runs as a system account.
            ? (props.hostProcess ? { windowsOptions: { hostProcess: true } } : { runAsNonRoot: true })
            : {
              ...pod.securityContext,
              // At the pod, so that every container inherits it, those added by `kubectl debug` too.
              seccompProfile: props.seccompProfile ? { ...props.seccompProfile } : { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
              supplementalGroups: props.supplementalGroups ? [...props.supplementalGroups] : undefined,
            },
          os: this.windows ? { name: 'windows' } : pod.os,
          nodeSelector: policy.nodeSelector ? { ...policy.nodeSelector, ...pod.nodeSelector } : pod.nodeSelector,
          tolerations: tolerations.length > 0 ? tolerations : undefined,
          affinity: mergeAffinity(pod.affinity, policy.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms, props.podAntiAffinity),
          ...(this.hostPID ? { hostPid: true } : {}),
          ...(this.hostIPC ? { hostIpc: true } : {}),
          ...(props.shareProcessNamespace ? { shareProcessNamespace: true } : {}),
          ...(props.runtimeClassName !== undefined ? { runtimeClassName: props.runtimeClassName } : {}),
          ...(props.imagePullSecrets ? { imagePullSecrets: props.imagePullSecrets.map((name) => ({ name })) } : {}),
          ...(this.serviceAccountName !== undefined ? { serviceAccountName: this.serviceAccountName } : {}),
          ...(this.priorityClassName !== undefined ? { priorityClassName: this.priorityClassName } : {}),
        },
      },
    };
  }
}
