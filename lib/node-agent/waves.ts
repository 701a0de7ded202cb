/**
 * An agent rolled out in waves: ordered waves (e.g. `canary`, `early`, then
 * the rest), each its own DaemonSet over its own nodes, with its own
 * version, image, command, env and config; the shared objects
 * (ServiceAccount, RBAC, CRDs, Services) once.
 *
 * The last wave is the agent itself: it keeps the single agent's DaemonSet
 * name, selector and ConfigMap name, so that moving an agent to waves
 * replaces only the pods of the earlier waves' nodes. Every earlier wave is a
 * NodeAgent of its own (the same rendering), named `<agent>-<wave>` and
 * selecting `app: <agent>-<wave>`, whose pods carry none of the last wave's
 * selector. Whether two waves can meet on a node is asked of the checks
 * (`sharedNode`), never restated here.
 */
import { Construct } from 'constructs';
import { NodeSelectionLike, sharedNode } from '../checks/overlaps';
import { SELECTOR_LABEL_KEY } from '../defaults';
import { selectorMatches } from '../k8s/scheduling';
import { checkDns1123Label, checkDns1123Subdomain, checkImage, checkLabelValue, checkSingleLine, defined, isRecord, Problem, problem, show } from '../k8s/syntax';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../k8s/waves';
import { NodePolicy, NodePolicyProps, NodeRequirement } from '../node-policy';
import { unknownKeys } from '../prop-keys';
import { ownName } from './adoption';
import { configProblems } from './config';
import { AgentContainer, ContainerDefaults, containerProblems } from './containers';
import { imageTag } from './metadata';
import { NodeAgentProps } from './props';
import { AgentUpdateStrategy } from './update-strategy';
import { AgentWave } from './wave';

const WAVE_KEYS = ['name', 'nodes', 'image', 'version', 'command', 'args', 'env', 'configData', 'updateStrategy', 'changeCause'];

/** @internal What an earlier wave's NodeAgent knows of its place: set by the agent that creates it, never a prop. */
export interface WaveRole {
  /** The wave's name. */
  readonly wave: string;
  /** Whether the ServiceAccount's token is mounted (the agent's own ServiceAccount may say no). */
  readonly automountToken?: boolean;
}

const roles = new WeakMap<object, WaveRole>();

/** @internal The wave role of an earlier wave's props, if they are such. */
export function waveRoleOf(props: object): WaveRole | undefined {
  return roles.get(props);
}

/** The node selections of one wave beyond the agent's policy, in the shape sharedNode reads. */
function waveSelection(waves: readonly AgentWave[], index: number): NodePolicyProps {
  const wave = waves[index];
  if (wave.nodes !== undefined) {
    return { matchLabels: { ...wave.nodes.matchLabels }, matchExpressions: [...wave.nodes.matchExpressions], anyOf: wave.nodes.anyOf.length > 0 ? wave.nodes.anyOf.map((t) => [...t]) : undefined, tolerations: [...wave.nodes.tolerations] };
  }
  if (index < waves.length - 1) {
    return { matchLabels: { [ROLLOUT_WAVE_NODE_LABEL]: wave.name } };
  }
  if (waves.length === 1) {
    return {};
  }
  // The last wave: every node not labelled for an earlier wave (NotIn also takes unlabelled nodes and unknown values).
  return { matchExpressions: [NodeRequirement.notIn(ROLLOUT_WAVE_NODE_LABEL, ...waves.slice(0, -1).map((w) => w.name))] };
}

/** The agent's policy AND a wave's selection, as props of one NodePolicy: labels joined, requirements joined, alternatives multiplied. */
function combined(policy: NodePolicy, selection: NodePolicyProps): NodePolicyProps {
  const a = policy.anyOf.map((t) => [...t]);
  const b = selection.anyOf ?? [];
  const anyOf = a.length === 0 ? b : b.length === 0 ? a : a.flatMap((x) => b.map((y) => [...x, ...y]));
  return {
    matchLabels: { ...policy.matchLabels, ...selection.matchLabels },
    matchExpressions: [...policy.matchExpressions, ...(selection.matchExpressions ?? [])],
    ...(anyOf.length > 0 ? { anyOf } : {}),
    tolerations: [...policy.tolerations, ...(selection.tolerations ?? []).filter((t) => !policy.tolerations.includes(t))],
  };
}

/** @internal The policy of the wave at `index`: the agent's policy AND the wave's nodes, a NodePolicy under `scope`. */
export function wavePolicy(scope: Construct, policy: NodePolicy, waves: readonly AgentWave[], index: number): NodePolicy {
  return new NodePolicy(scope, `WaveNodes-${waves[index].name}`, combined(policy, waveSelection(waves, index)));
}

/** @internal The name of the DaemonSet of an earlier wave. */
export function waveDaemonSetName(agent: string, wave: string): string {
  return `${agent}-${wave}`;
}

/** The main container with a wave's overrides. */
function mainWithWave(main: AgentContainer, wave: AgentWave): AgentContainer {
  return {
    ...main,
    ...(wave.image !== undefined ? { image: wave.image } : {}),
    ...(wave.command !== undefined ? { command: wave.command } : {}),
    ...(wave.args !== undefined ? { args: wave.args } : {}),
    ...(wave.env !== undefined ? { env: { ...main.env, ...wave.env } } : {}),
  };
}

/**
 * @internal
 * The props of a wave as a single agent's: the main container, version,
 * config, update strategy and change cause of the wave, the wave's labels.
 * For the last wave, the agent's own props with those; the shared objects
 * stay its own.
 */
export function lastWaveProps(props: NodeAgentProps, main: AgentContainer): NodeAgentProps {
  const waves = props.waves!;
  const wave = waves[waves.length - 1];
  return {
    ...props,
    ...overrides(props, main, wave),
    labels: { ...props.labels, [AGENT_LABEL]: props.name, [WAVE_LABEL]: wave.name },
  };
}

function overrides(props: NodeAgentProps, main: AgentContainer, wave: AgentWave): Partial<NodeAgentProps> {
  return {
    containers: props.containers.map((c) => (c === main ? mainWithWave(c, wave) : c)),
    // A wave's own image says its version (none when it has no tag): the agent's would be wrong there.
    version: wave.version ?? (wave.image !== undefined ? imageTag(wave.image) : props.version ?? imageTag(main.image)),
    ...(props.config !== undefined && wave.configData !== undefined ? { config: { ...props.config, data: wave.configData } } : {}),
    ...(wave.updateStrategy !== undefined ? { updateStrategy: wave.updateStrategy } : {}),
    ...(wave.changeCause !== undefined ? { changeCause: wave.changeCause } : {}),
  };
}

/**
 * @internal
 * The props of an earlier wave's NodeAgent: the agent's pods with the wave's
 * overrides, its own name, selector and ConfigMap, and none of the shared
 * objects (it runs as the agent's ServiceAccount).
 */
export function earlierWaveProps(props: NodeAgentProps, main: AgentContainer, index: number, policy: NodePolicy, serviceAccountName: string | undefined, automountToken: boolean): NodeAgentProps {
  const wave = props.waves![index];
  const name = waveDaemonSetName(props.name, wave.name);
  const configMapName = `${props.adopt?.configMapName ?? ownName(props.name)}-${wave.name}`;
  const wavePropsOf: NodeAgentProps = {
    ...props,
    ...overrides(props, main, wave),
    policy,
    name,
    // Its own container names stay; the main one is found by name, as the agent found it.
    mainContainer: main.name,
    partOf: props.partOf ?? props.name,
    labels: { ...props.labels, [AGENT_LABEL]: props.name, [WAVE_LABEL]: wave.name },
    adopt: props.config !== undefined ? { configMapName } : undefined,
    waves: undefined,
    serviceAccount: undefined,
    serviceAccountName,
    serviceAccounts: undefined,
    grants: undefined,
    services: undefined,
    metrics: undefined,
    customResourceDefinitions: undefined,
  };
  roles.set(wavePropsOf, { wave: wave.name, automountToken });
  return wavePropsOf;
}

/**
 * @internal
 * Every problem of the `waves` prop, named `waves[i].<field>`: the list, the
 * names (label values, unique, each earlier wave's DaemonSet name a DNS-1123
 * label), the overrides (as the agent's own props are judged), and the
 * nodes: each wave's selection must be able to match a node of the agent's
 * policy, and no two waves may share a node, as the checks' `sharedNode`
 * decides.
 */
export function wavesProblems(props: NodeAgentProps, main: AgentContainer | undefined, policyOk: boolean, defaults: ContainerDefaults): Problem[] {
  const waves: unknown = props.waves;
  if (!Array.isArray(waves) || waves.length === 0) {
    return [problem('waves', 'a non-empty array of AgentWave { name, nodes?, image?, version?, ... }, in rollout order (the last takes every other node)', waves)];
  }
  const problems: Problem[] = [];
  const names = new Map<unknown, number>();
  waves.forEach((w: unknown, i: number) => {
    const at = `waves[${i}]`;
    if (!isRecord(w)) {
      problems.push(problem(at, 'an AgentWave { name, nodes?, image?, version?, command?, args?, env?, configData?, updateStrategy?, changeCause? }', w));
      return;
    }
    problems.push(...unknownKeys(at, w, { known: WAVE_KEYS }));
    const nameProblem = w.name === '' || typeof w.name !== 'string' ? problem(`${at}.name`, 'a non-empty label value', w.name) : checkLabelValue(`${at}.name`, w.name);
    problems.push(...defined(
      nameProblem,
      names.has(w.name) ? problem(`${at}.name`, `a name no other wave has (waves[${names.get(w.name)}] has it)`, w.name) : undefined,
      // An earlier wave is a DaemonSet and a ConfigMap of its own, named after it.
      nameProblem === undefined && i < waves.length - 1 && checkDns1123Label('name', waveDaemonSetName(String(props.name), w.name as string)) !== undefined
        ? problem(`${at}.name`, `a name that makes its DaemonSet's name ${show(waveDaemonSetName(String(props.name), String(w.name)))} a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters with the agent's name and '-')`, w.name) : undefined,
      nameProblem === undefined && i < waves.length - 1 && props.config !== undefined ? checkDns1123Subdomain(`${at}.name`, `${props.adopt?.configMapName ?? ownName(String(props.name))}-${String(w.name)}`) : undefined,
      w.nodes !== undefined && !NodePolicy.isNodePolicy(w.nodes) ? problem(`${at}.nodes`, 'a NodePolicy', w.nodes) : undefined,
      w.image !== undefined ? checkImage(`${at}.image`, w.image) : undefined,
      w.version !== undefined ? (w.version === '' ? problem(`${at}.version`, 'a non-empty label value', '') : checkLabelValue(`${at}.version`, w.version)) : undefined,
      w.changeCause !== undefined ? checkSingleLine(`${at}.changeCause`, w.changeCause, 1024) : undefined,
      w.configData !== undefined && props.config === undefined ? problem(`${at}.configData`, "unset: the agent has no 'config' whose files it would replace", '{...}') : undefined,
    ));
    names.set(w.name, names.get(w.name) ?? i);
    if (w.updateStrategy !== undefined) {
      problems.push(...(w.updateStrategy instanceof AgentUpdateStrategy
        ? w.updateStrategy.problems().map((p) => p.replace(/'updateStrategy\./g, `'${at}.updateStrategy.`))
        : [problem(`${at}.updateStrategy`, 'an AgentUpdateStrategy (AgentUpdateStrategy.rollingUpdate() or .onDelete())', w.updateStrategy)]));
    }
    if (w.configData !== undefined && props.config !== undefined && !(isRecord(w.configData) && Object.keys(w.configData).length > 0)) {
      problems.push(problem(`${at}.configData`, 'a non-empty object of file names to contents', w.configData));
    } else if (w.configData !== undefined && props.config !== undefined) {
      problems.push(...configProblems({ ...props.config, data: w.configData }, false).map((p) => p.replace(/'config\.data/g, `'${at}.configData`).replace(/'config'/g, `'${at}.configData'`)));
    }
    // The overridden container fields, judged as the agent's own containers are (the other fields were judged as 'containers').
    if (main !== undefined && isRecord(main) && (w.image !== undefined || w.command !== undefined || w.args !== undefined || w.env !== undefined)) {
      const own = containerProblems(at, { name: main.name, image: w.image ?? main.image, command: w.command, args: w.args, env: w.env }, defaults);
      problems.push(...own.filter((p) => /^'waves\[\d+\]\.(image|command|args|env)/.test(p)));
    }
  });
  if (isRecord(props.labels)) {
    if (Object.prototype.hasOwnProperty.call(props.labels, SELECTOR_LABEL_KEY)) {
      problems.push(`'labels' must not set '${SELECTOR_LABEL_KEY}' when the agent has waves: each earlier wave selects its pods by '${SELECTOR_LABEL_KEY}: <name>-<wave>', but got "${SELECTOR_LABEL_KEY}: ${(props.labels as Record<string, string>)[SELECTOR_LABEL_KEY]}"`);
    }
    // The agent label may be there already (added before the move to waves), with the agent's name.
    for (const key of [AGENT_LABEL, WAVE_LABEL].filter((k) => Object.prototype.hasOwnProperty.call(props.labels, k) && (k === WAVE_LABEL || (props.labels as Record<string, string>)[k] !== props.name))) {
      problems.push(`'labels' must not set '${key}' when the agent has waves: the waves own it (the label the checks read), but got "${key}: ${(props.labels as Record<string, string>)[key]}"`);
    }
  }
  if (problems.length === 0 && policyOk) {
    problems.push(...nodeProblems(props.policy, waves as AgentWave[]));
  }
  return problems;
}

/** The waves' nodes, asked of the checks: each wave can have a node of the agent's policy, and no node is in two waves. */
function nodeProblems(policy: NodePolicy, waves: readonly AgentWave[]): Problem[] {
  const problems: Problem[] = [];
  const agent = policy.podScheduling();
  waves.forEach((w, i) => {
    if (w.nodes === undefined && i === waves.length - 1 && waves.slice(0, -1).some((e) => e.nodes !== undefined)) {
      problems.push(problem(`waves[${i}].nodes`, 'a NodePolicy when an earlier wave selects its nodes with one: the last wave takes "every other node" only of waves selected by the rollout-wave label', undefined));
      return;
    }
    if (sharedNode(agent, selectionOf(waves, i)) === undefined) {
      problems.push(problem(`waves[${i}].nodes`, "a selection that matches some node of the agent's policy (no node labels satisfy both)", w.nodes !== undefined ? selectionText(w.nodes) : 'the default'));
    }
  });
  waves.forEach((a, i) => waves.slice(i + 1).forEach((b, k) => {
    const j = i + 1 + k;
    const both = sharedNode(agent, selectionOf(waves, i), selectionOf(waves, j));
    if (both !== undefined) {
      problems.push(`'waves[${j}].nodes' must select no node that waves[${i}] ("${a.name}") selects, but a node labelled ${JSON.stringify(both.labels)} is in both "${a.name}" and "${b.name}": it would run two agents; give the waves disjoint selections`);
    }
  }));
  return problems;
}

/** A wave's selection as pod scheduling fields (the shape sharedNode reads): its NodePolicy's, or the rollout-wave label's. */
function selectionOf(waves: readonly AgentWave[], index: number): NodeSelectionLike {
  const nodes = waves[index].nodes;
  if (nodes !== undefined) {
    return nodes.podScheduling();
  }
  const selection = waveSelection(waves, index);
  const expressions = selection.matchExpressions ?? [];
  return {
    nodeSelector: selection.matchLabels,
    affinity: expressions.length > 0 ? { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions }] } } } : undefined,
  };
}

function selectionText(nodes: NodePolicy): string {
  return JSON.stringify({ matchLabels: nodes.matchLabels, matchExpressions: nodes.matchExpressions, anyOf: nodes.anyOf.length > 0 ? nodes.anyOf : undefined });
}

/**
 * @internal
 * No wave's selector selects another wave's pods, on the labels as built (an
 * adopted selector of the last wave could select an earlier wave's
 * recommended labels): each DaemonSet controller would take the other's pods.
 */
export function crossSelectorProblems(waves: readonly { readonly wave?: string; readonly selectorLabels: Record<string, string>; readonly labels: Record<string, string> }[]): Problem[] {
  const problems: Problem[] = [];
  waves.forEach((a, i) => waves.forEach((b, j) => {
    if (i !== j && selectorMatches(a.selectorLabels, b.labels)) {
      problems.push(`'waves[${Math.min(i, j)}].name' must give the waves pods that one another's selectors do not select, but the selector ${JSON.stringify(a.selectorLabels)} of wave "${a.wave}" selects the pods of wave "${b.wave}" (${JSON.stringify(b.labels)}): its DaemonSet controller would take them; adopt a selector that the earlier waves' pods do not match`);
    }
  }));
  return problems;
}
