/**
 * Every rule NodeAgent's props must follow, checked at construction with the
 * prop's name in each message. The rules of the parts (containers, volumes,
 * RBAC, metrics) are theirs; this file puts them together and adds the rules
 * across parts.
 */
import * as kplus from 'cdk8s-plus-28';
import { checkHostPortConflicts } from '../checks/api/core-pod';
import { RULES, WAIVER_PREFIX } from '../checks/rules';
import { KUBERNETES_VERSION_ANNOTATION, KubernetesVersion } from '../checks/versions';
import { waiverProblem } from '../checks/waivers';
import { DEFAULT_RUN_AS_ID, SELECTOR_LABEL_KEY } from '../defaults';
import { checkAnnotations, checkDns1123Label, checkDns1123Subdomain, checkInteger, checkLabels, checkLabelValue, checkQualifiedName, checkSingleLine, defined, isRecord, Problem, problem, show } from '../k8s/syntax';
import { NodePolicy } from '../node-policy';
import { askChecks } from '../prop-checks';
import { unknownKeys } from '../prop-keys';
import { adoptionCrossProblems, adoptionProblems, ownName } from './adoption';
import { CONFIG_CHECKSUM_ANNOTATION, configMountProblems, configProblems, configVolume, configVolumeName } from './config';
import { containerNameProblems, podHostProcessProblems, podNameProblems, podSecurityContextProblems, podWindowsProblems } from './container-checks';
import { AgentContainer, ContainerDefaults, containerProblems } from './containers';
import { crdsProblems } from './custom-resources';
import { extraServiceAccountsProblems, grantsProblems } from './grants';
import { APPARMOR_ANNOTATION_PREFIX, CHANGE_CAUSE_ANNOTATION } from './metadata';
import { metricsProblems } from './metrics';
import { mountsApiProblems, volumeNameProblems } from './mount-checks';
import { NodeAgentProps } from './props';
import { serviceAccountProblems } from './rbac';
import { servicesProblems } from './services';
import { AgentUpdateStrategy } from './update-strategy';
import { AgentMount, AgentVolume, checkAbsolutePath } from './volumes';
import { wavesProblems } from './waves';

const HOST_PATH_KEYS = ['name', 'hostPath', 'mountPath', 'type', 'propagation'];

const PROP_KEYS = [
  'policy', 'name', 'adopt', 'mainContainer', 'boundHostPorts', 'containers', 'initContainers', 'volumes', 'hostPaths', 'hostNetwork', 'hostPID', 'hostIPC', 'hostProcess',
  'serviceAccount', 'serviceAccountName', 'serviceAccounts', 'grants', 'services', 'customResourceDefinitions', 'config', 'runAsUser', 'runAsGroup', 'fsGroup', 'seccompProfile', 'supplementalGroups', 'podSecurity',
  'priorityClassName', 'runtimeClassName', 'imagePullSecrets', 'shareProcessNamespace', 'dns', 'podAntiAffinity', 'metrics',
  'updateStrategy', 'labels', 'version', 'component', 'partOf', 'annotations', 'waivers', 'changeCause', 'minReadySeconds', 'terminationGracePeriodSeconds', 'revisionHistoryLimit',
  'recursiveReadOnly', 'waves', 'podLabels',
];

const ON_THE_POLICY = 'goes on the policy: a NodePolicy (NodePolicyProps) given as policy';
const AGENT_ELSEWHERE: Record<string, string> = Object.fromEntries(['tolerations', 'matchLabels', 'matchExpressions', 'operatingSystem', 'architectures', 'nodeSelector', 'affinity'].map((k) => [k, ON_THE_POLICY]));

/** @internal Every volume of the pods: `volumes`, the `hostPaths` shorthand, and the config's. */
export function declaredVolumes(props: NodeAgentProps): AgentVolume[] {
  return [
    ...(props.hostPaths ?? []).map((m) => AgentVolume.hostPath(m.name, m.hostPath, { type: m.type })),
    ...(props.volumes ?? []),
    ...(props.config ? [configVolume(props.config, configMapNameOf(props))] : []),
  ];
}

/** @internal The name of the agent's ConfigMap: adopted, or derived. */
export function configMapNameOf(props: NodeAgentProps): string {
  return props.adopt?.configMapName ?? ownName(props.name);
}

/** @internal The agent's main container: `mainContainer`, else the one named like the agent, else the first. */
export function mainContainerOf(props: NodeAgentProps): AgentContainer {
  return props.containers.find((c) => c.name === (props.mainContainer ?? props.name)) ?? props.containers[0];
}

/**
 * @internal
 * What the API server refuses in a container's mounts, its every-container
 * mounts included (a path mounted twice, an undeclared volume, Bidirectional
 * in an unprivileged container, a subPath with '..'): asked of the checks.
 */
export function mountPathProblems(prop: string, every: readonly AgentMount[], container: unknown, volumes: ReadonlyMap<string, unknown>): Problem[] {
  if (!isRecord(container)) return [];
  const privileged = isRecord(container.securityContext) && container.securityContext.privileged === true;
  return mountsApiProblems(prop, every, Array.isArray(container.mounts) ? container.mounts : [], new Set(volumes.keys()), privileged);
}

function checkBoolean(prop: string, value: unknown): Problem | undefined {
  return value !== undefined && typeof value !== 'boolean' ? problem(prop, 'a boolean', value) : undefined;
}

/** The shape of a list of ids; their range is the checks' (ValidatePodSecurityContext), asked in podSecurityContextProblems. */
function checkIds(prop: string, value: unknown): Problem | undefined {
  return Array.isArray(value) && value.every((v) => Number.isInteger(v)) ? undefined : problem(prop, 'an array of integers', value);
}

/** @internal Every problem with the props, named by prop, in one list. */
export function propsProblems(props: NodeAgentProps, namespace: string | undefined, version: KubernetesVersion): Problem[] {
  if (!isRecord(props)) {
    return [problem('props', 'an object of NodeAgentProps { policy, name, containers, ... }', props)];
  }
  const policyOk = NodePolicy.isNodePolicy(props.policy);
  const windows = policyOk && props.policy.matchLabels['kubernetes.io/os'] === 'windows';
  const hostNetwork = props.hostNetwork ?? props.hostProcess === true;
  const problems = defined(
    policyOk ? undefined : problem('policy', 'a NodePolicy (or LabeledNodePolicy)', props.policy),
    checkDns1123Label('name', props.name),
    ...(['hostNetwork', 'hostPID', 'hostIPC', 'hostProcess', 'shareProcessNamespace'] as const).map((k) => checkBoolean(k, props[k])),
    ...(['runAsUser', 'runAsGroup', 'fsGroup'] as const).map((k) => (props[k] !== undefined && !Number.isInteger(props[k]) ? problem(k, 'an integer', props[k]) : undefined)),
    props.supplementalGroups !== undefined ? checkIds('supplementalGroups', props.supplementalGroups) : undefined,
    props.priorityClassName !== undefined ? checkDns1123Subdomain('priorityClassName', props.priorityClassName) : undefined,
    props.runtimeClassName !== undefined && typeof props.runtimeClassName !== 'string' ? problem('runtimeClassName', 'a RuntimeClass name', props.runtimeClassName) : undefined,
    props.serviceAccountName !== undefined ? checkDns1123Subdomain('serviceAccountName', props.serviceAccountName) : undefined,
    props.serviceAccountName !== undefined && props.serviceAccount !== undefined ? problem('serviceAccountName', 'unset when the agent creates its own serviceAccount', props.serviceAccountName) : undefined,
    props.changeCause !== undefined ? checkSingleLine('changeCause', props.changeCause, 1024) : undefined,
    props.minReadySeconds !== undefined ? checkInteger('minReadySeconds', props.minReadySeconds, 0, 86400) : undefined,
    props.terminationGracePeriodSeconds !== undefined ? checkInteger('terminationGracePeriodSeconds', props.terminationGracePeriodSeconds, 0, 86400) : undefined,
    props.revisionHistoryLimit !== undefined ? checkInteger('revisionHistoryLimit', props.revisionHistoryLimit, 0, 1000) : undefined,
    props.hostProcess === true && !windows ? problem('hostProcess', "false unless the policy's operatingSystem is 'windows'", props.hostProcess) : undefined,
  );
  if (props.hostProcess === true && windows) {
    problems.push(...podHostProcessProblems(props as unknown as Record<string, unknown>));
  }
  problems.push(...unknownKeys('props', props, { known: PROP_KEYS, what: 'NodeAgentProps', elsewhere: AGENT_ELSEWHERE }));
  if (windows) {
    problems.push(...podWindowsProblems(props as unknown as Record<string, unknown>));
  }
  if (props.seccompProfile !== undefined && !windows && !isRecord(props.seccompProfile)) {
    problems.push(problem('seccompProfile', '{ type, localhostProfile? } (kplus.SeccompProfileType)', props.seccompProfile));
  }
  if (!windows) {
    problems.push(...podSecurityContextProblems(props as unknown as Record<string, unknown>));
  }
  problems.push(...podNameProblems(props as unknown as Record<string, unknown>));
  if (props.imagePullSecrets !== undefined) {
    if (!Array.isArray(props.imagePullSecrets)) {
      problems.push(problem('imagePullSecrets', 'an array of Secret names', props.imagePullSecrets));
    } else {
      props.imagePullSecrets.forEach((s, i) => problems.push(...defined(checkDns1123Subdomain(`imagePullSecrets[${i}]`, s))));
    }
  }
  for (const key of ['version', 'component', 'partOf'] as const) {
    if (props[key] !== undefined) {
      problems.push(...defined(props[key] === '' ? problem(key, 'a non-empty label value', '') : checkLabelValue(key, props[key])));
    }
  }
  if (props.adopt !== undefined) {
    problems.push(...adoptionProblems(props.adopt));
  }
  const account = isRecord(props.serviceAccount) ? props.serviceAccount : undefined;
  problems.push(...adoptionCrossProblems(props.adopt, props.name, {
    serviceAccount: account !== undefined,
    config: props.config !== undefined,
    metricsService: isRecord(props.metrics) && props.metrics.service !== false,
    clusterRoles: Array.isArray(account?.clusterRoles) ? account.clusterRoles : [],
    rules: account?.rules !== undefined,
    namespacedRules: account?.namespacedRules !== undefined,
  }));
  if (props.mainContainer !== undefined && !(Array.isArray(props.containers) && props.containers.some((c) => isRecord(c) && c.name === props.mainContainer))) {
    problems.push(problem('mainContainer', `the name of one of the containers (${Array.isArray(props.containers) ? props.containers.filter(isRecord).map((c) => show(c.name)).join(', ') : 'none'})`, props.mainContainer));
  }
  if (props.labels !== undefined) {
    problems.push(...checkLabels('labels', props.labels));
    const selector = isRecord(props.adopt) && isRecord(props.adopt.selector) ? props.adopt.selector : { [SELECTOR_LABEL_KEY]: '' };
    for (const key of isRecord(props.labels) ? Object.keys(props.labels).filter((k) => Object.prototype.hasOwnProperty.call(selector, k)) : []) {
      problems.push(`'labels' must not set '${key}', a label of the selector this construct owns (so that it selects exactly the agent's pods), but got "${key}: ${props.labels[key]}"`);
    }
  }
  if (props.podLabels !== undefined) {
    problems.push(...checkLabels('podLabels', props.podLabels));
    const selector = isRecord(props.adopt) && isRecord(props.adopt.selector) ? props.adopt.selector : { [SELECTOR_LABEL_KEY]: '' };
    for (const key of isRecord(props.podLabels) ? Object.keys(props.podLabels).filter((k) => Object.prototype.hasOwnProperty.call(selector, k)) : []) {
      problems.push(`'podLabels' must not set '${key}', a label of the selector this construct owns (so that it selects exactly the agent's pods), but got "${key}: ${props.podLabels[key]}"`);
    }
  }
  if (props.annotations !== undefined) {
    problems.push(...checkAnnotations('annotations', props.annotations));
    for (const key of isRecord(props.annotations) ? Object.keys(props.annotations) : []) {
      const owned = key === CHANGE_CAUSE_ANNOTATION ? "use 'changeCause'" : key.startsWith(WAIVER_PREFIX) ? "use 'podSecurity' with a reason"
        : key === CONFIG_CHECKSUM_ANNOTATION ? 'it is the config checksum' : key.startsWith(APPARMOR_ANNOTATION_PREFIX) ? "use the container's securityContext.appArmorProfile"
          : key === KUBERNETES_VERSION_ANNOTATION ? "it marks the app's Kubernetes target: set the context 'node-reporter:kubernetesVersion'" : undefined;
      if (owned) {
        problems.push(`'annotations' must not set ${JSON.stringify(key)}, which this construct owns (${owned})`);
      }
    }
  }
  if (props.waivers !== undefined) {
    if (!isRecord(props.waivers)) {
      problems.push(problem('waivers', 'an object of rule ids to reasons', props.waivers));
    } else {
      for (const [id, reason] of Object.entries(props.waivers)) {
        // The checks say which rules can be waived; Pod Security's come from 'podSecurity'.
        const why = id.startsWith('pss-') && waiverProblem(id) === undefined ? "it is a Pod Security rule, whose waivers come from 'podSecurity'" : waiverProblem(id);
        problems.push(...defined(
          why === undefined ? undefined : `'waivers' must not name ${JSON.stringify(id)}: ${why}`,
          checkSingleLine(`waivers.${id}`, reason, 512),
        ));
      }
    }
  }
  if (props.updateStrategy !== undefined) {
    problems.push(...(props.updateStrategy instanceof AgentUpdateStrategy || typeof (props.updateStrategy as { problems?: unknown })?.problems === 'function'
      ? props.updateStrategy.problems()
      : [problem('updateStrategy', 'an AgentUpdateStrategy (AgentUpdateStrategy.rollingUpdate() or .onDelete())', props.updateStrategy)]));
  }
  problems.push(...volumeProblems(props, windows));
  const volumes = new Map(volumesOrNone(props).map((v) => [v.name, v]));
  const defaults: ContainerDefaults = { runAsUser: props.runAsUser ?? DEFAULT_RUN_AS_ID, runAsGroup: runAsGroupOf(props), windows, hostNetwork, version };
  const everyContainer = [
    ...(Array.isArray(props.hostPaths) ? props.hostPaths : []).map((m) => ({ volume: String(m?.name), path: m?.mountPath })),
    ...(isRecord(props.config) && props.config.mountPath !== undefined ? [{ volume: configVolumeName(props.config), path: props.config.mountPath }] : []),
  ] as AgentMount[];
  const containers: AgentContainer[] = [];
  for (const [key, min] of [['containers', 1], ['initContainers', 0]] as const) {
    const list = props[key];
    if (list === undefined && min === 0) continue;
    if (!Array.isArray(list) || list.length < min) {
      problems.push(problem(key, `an array of ${min > 0 ? 'at least one ' : ''}AgentContainer`, list));
      continue;
    }
    list.forEach((c, i) => {
      problems.push(...containerProblems(`${key}[${i}]`, c, defaults));
      if (isRecord(c)) {
        problems.push(...mountPathProblems(`${key}[${i}]`, everyContainer, c, volumes));
        containers.push(c);
      }
    });
  }
  problems.push(...containerNameProblems(props));
  problems.push(...hostPortProblems(props, hostNetwork));
  if (props.waves !== undefined) {
    const main = containers.length > 0 && containers.length === props.containers.length ? mainContainerOf(props) : undefined;
    problems.push(...wavesProblems(props, main, policyOk, defaults));
    // A wave's own update strategy meets the host-port rule too, named as the wave's.
    (Array.isArray(props.waves) ? props.waves : []).forEach((w, i) => {
      if (isRecord(w) && w.updateStrategy instanceof AgentUpdateStrategy) {
        problems.push(...hostPortProblems({ ...props, updateStrategy: w.updateStrategy }, hostNetwork).filter((p) => p.startsWith("'updateStrategy'") || p.startsWith("'boundHostPorts' must be set"))
          .map((p) => p.replace(/^'updateStrategy'/, `'waves[${i}].updateStrategy'`).replace(/^'boundHostPorts' must be set/, `'boundHostPorts' must be set (waves[${i}].updateStrategy surges)`)));
      }
    });
  }
  if (props.serviceAccount !== undefined) {
    problems.push(...serviceAccountProblems(props.serviceAccount, isRecord(props.adopt) ? props.adopt.serviceAccountName : undefined, namespace));
  }
  if (props.serviceAccounts !== undefined) {
    const own = props.serviceAccount !== undefined ? (isRecord(props.adopt) && typeof props.adopt.serviceAccountName === 'string' ? props.adopt.serviceAccountName : ownName(typeof props.name === 'string' ? props.name : '')) : props.serviceAccountName;
    problems.push(...extraServiceAccountsProblems(props.serviceAccounts, own, namespace));
  }
  if (props.grants !== undefined) {
    problems.push(...grantsProblems(props.grants));
  }
  if (props.services !== undefined) {
    problems.push(...servicesProblems(props.services, Array.isArray(props.containers) ? props.containers.filter(isRecord) : []));
  }
  if (props.customResourceDefinitions !== undefined) {
    problems.push(...crdsProblems(props.customResourceDefinitions));
  }
  if (props.metrics !== undefined) {
    problems.push(...metricsProblems(props.metrics, Array.isArray(props.containers) ? props.containers.filter(isRecord) : []));
  }
  problems.push(...configMountProblems(props.config, { containers: props.containers, initContainers: props.initContainers }));
  if (props.dns !== undefined && !isRecord(props.dns)) {
    problems.push(problem('dns', 'cdk8s-plus PodDnsProps { policy?, nameservers?, searches?, options? }', props.dns));
  }
  if (props.podAntiAffinity !== undefined) {
    if (!Array.isArray(props.podAntiAffinity)) {
      problems.push(problem('podAntiAffinity', 'an array of { labels, topologyKey? }', props.podAntiAffinity));
    } else {
      props.podAntiAffinity.forEach((t, i) => problems.push(...(isRecord(t) ? [
        ...checkLabels(`podAntiAffinity[${i}].labels`, t.labels),
        ...defined(t.topologyKey !== undefined ? checkQualifiedName(`podAntiAffinity[${i}].topologyKey`, t.topologyKey) : undefined),
      ] : [problem(`podAntiAffinity[${i}]`, 'an object { labels, topologyKey? }', t)])));
    }
  }
  return problems;
}

/** @internal The gid the containers run as: `runAsGroup`; 65534 when runAsUser is unset too; else none (the image's). */
export function runAsGroupOf(props: NodeAgentProps): number | undefined {
  return props.runAsGroup ?? (props.runAsUser === undefined ? DEFAULT_RUN_AS_ID : undefined);
}

/** The volumes the props declare, when they can be read. */
function volumesOrNone(props: NodeAgentProps): AgentVolume[] {
  return [
    ...(Array.isArray(props.hostPaths) ? props.hostPaths.filter(isRecord).map((m) => AgentVolume.hostPath(m.name, m.hostPath, { type: m.type })) : []),
    ...(Array.isArray(props.volumes) ? props.volumes.filter((v): v is AgentVolume => v instanceof AgentVolume) : []),
    ...(isRecord(props.config) ? [AgentVolume.configMap(configVolumeName(props.config), ownName(typeof props.name === 'string' ? props.name : ''))] : []),
  ];
}

function volumeProblems(props: NodeAgentProps, windows: boolean): Problem[] {
  const problems: Problem[] = [];
  const names: { prop: string; name: unknown }[] = [];
  if (props.volumes !== undefined) {
    if (!Array.isArray(props.volumes)) {
      problems.push(problem('volumes', 'an array of AgentVolume (AgentVolume.hostPath(...), .emptyDir(...), .configMap(...), .secret(...), .projected(...))', props.volumes));
    } else {
      props.volumes.forEach((v, i) => {
        if (!(v instanceof AgentVolume)) {
          problems.push(problem(`volumes[${i}]`, 'an AgentVolume (AgentVolume.hostPath(...), .emptyDir(...), ...)', v));
        } else {
          problems.push(...v.problems(`volumes[${i}]`, windows));
          names.push({ prop: `volumes[${i}].name`, name: v.name });
        }
      });
    }
  }
  if (props.hostPaths !== undefined) {
    if (!Array.isArray(props.hostPaths)) {
      problems.push(problem('hostPaths', 'an array of { name, hostPath, mountPath, type?, propagation? }', props.hostPaths));
    } else {
      props.hostPaths.forEach((m, i) => {
        const mount: Record<string, unknown> = isRecord(m) ? m : {};
        problems.push(
          ...unknownKeys(`hostPaths[${i}]`, m, { known: HOST_PATH_KEYS }),
          ...AgentVolume.hostPath(mount.name as string, mount.hostPath as string, { type: mount.type as kplus.HostPathVolumeType }).problems(`hostPaths[${i}]`, windows)
            .map((p) => p.replace(`'hostPaths[${i}].path'`, `'hostPaths[${i}].hostPath'`)),
          ...defined(
            checkAbsolutePath(`hostPaths[${i}].mountPath`, mount.mountPath, windows),
            mount.propagation !== undefined && mount.propagation !== kplus.MountPropagation.HOST_TO_CONTAINER && mount.propagation !== kplus.MountPropagation.NONE
              ? problem(`hostPaths[${i}].propagation`, 'HostToContainer or None (the shorthand mounts into every container; Bidirectional needs privileged ones: use volumes and mounts)', mount.propagation) : undefined,
          ),
        );
        names.push({ prop: `hostPaths[${i}].name`, name: mount.name });
      });
    }
  }
  if (props.config !== undefined) {
    problems.push(...configProblems(props.config, windows));
    if (isRecord(props.config) && isRecord(props.config.data)) {
      names.push({ prop: props.config.volumeName !== undefined ? 'config.volumeName' : 'config', name: configVolumeName(props.config) });
    }
  }
  // One name per volume is the API server's (ValidateVolumes): asked of the checks, in the pod's order (hostPaths, volumes, config).
  const rank = (n: { prop: string }) => (n.prop.startsWith('hostPaths') ? 0 : n.prop.startsWith('volumes') ? 1 : 2);
  problems.push(...volumeNameProblems([...names].sort((a, b) => rank(a) - rank(b)))
    .map((p) => p.replace(/^('config' must be a volume name no other volume uses)/, "$1 ('config' is the config's volume)")));
  return problems;
}

/**
 * Host ports across the pod: each at most once (pkg/apis/core/validation:
 * AccumulateUniqueHostPorts), and no surge with host ports (the surge pod
 * could never bind the port the old pod holds, kubernetes/kubernetes#106417).
 */
function hostPortProblems(props: NodeAgentProps, hostNetwork: boolean): Problem[] {
  const problems: Problem[] = [];
  let bindsHost = false;
  // A port binds the node's when it has a hostPort, or (hostNetwork) always: the agent renders the API server's defaulting.
  const rendered = (list: unknown) => (Array.isArray(list) ? list : []).map((c) => ({
    ports: (isRecord(c) && Array.isArray(c.ports) ? c.ports as unknown[] : []).map((p) => (isRecord(p) ? { containerPort: p.number, hostPort: p.hostPort ?? (hostNetwork ? p.number : undefined), protocol: p.protocol } : {})),
  }));
  const spec = { containers: rendered(props.containers), initContainers: rendered(props.initContainers) };
  bindsHost = [...spec.containers, ...spec.initContainers].some((c) => c.ports.some((p) => typeof (p as { hostPort?: unknown }).hostPort === 'number'));
  // One host port twice among the containers is the API server's refusal (checkHostPortConflicts), asked of the checks; init containers run before them.
  problems.push(...askChecks('', spec, [[/^(containers\[\d+\]\.ports\[\d+\])\.hostPort/, '$1.hostPort']], (add) => checkHostPortConflicts(add, { metadataPath: 'metadata', metadata: {}, specPath: '', spec }, false))
    .map((p) => p.replace(' must be unique but got ', ` must be a host port no other container binds too${hostNetwork ? ' (with hostNetwork every port is a host port)' : ''} but got `)));
  const bound = props.boundHostPorts;
  if (bound !== undefined) {
    if (!hostNetwork) {
      problems.push(problem('boundHostPorts', 'unset without hostNetwork (a pod binds node ports only through hostPort, which ports declare)', bound));
    } else if (!Array.isArray(bound) || !bound.every((p) => Number.isInteger(p) && p >= 1 && p <= 65535)) {
      problems.push(problem('boundHostPorts', 'an array of port numbers from 1 to 65535 ([] when the agent binds none)', bound));
    } else if (bound.length > 0) {
      bindsHost = true;
    }
  }
  // The checks' rule hostport-surge, said for the prop; its waiver counts here too.
  const waived = isRecord(props.waivers) && props.waivers[RULES.hostPortSurge.id] !== undefined;
  const surges = props.updateStrategy instanceof AgentUpdateStrategy && props.updateStrategy.surges;
  if (hostNetwork && !bindsHost && bound === undefined && surges && !waived) {
    // A host-network agent binds what its binary binds, declared or not (kube-proxy's 10249 and 10256 are in no port list).
    problems.push(problem('boundHostPorts', `set for a host-network agent with a surge: the node ports it binds ([] when none), since a surge pod could never bind a port the old pod holds; or waive '${RULES.hostPortSurge.id}' in 'waivers' with a reason`, undefined));
  }
  if (bindsHost && !waived && surges) {
    problems.push(problem('updateStrategy', 'a rolling update without surge (maxSurge 0) for an agent that binds host ports (hostNetwork or hostPort): the surge pod could never bind the port the old pod holds, so the rollout stalls on every node (kubernetes/kubernetes#106417)', props.updateStrategy.maxSurge?.value));
  }
  return problems;
}

