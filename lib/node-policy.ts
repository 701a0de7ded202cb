import { Construct } from 'constructs';
import { checkNodeSelectorRequirement } from './checks/api/core-pod-scheduling';
import { Affinity, affinityMatches, NodeSelectorRequirement, parseInt64, selectorMatches, Toleration } from './k8s/scheduling';
import { checkLabels, checkLabelValue, defined, isRecord, Problem, problem } from './k8s/syntax';
import { NodeToleration } from './node-toleration';
import { askChecks } from './prop-checks';
import { unknownKeys } from './prop-keys';
import { reportProblems } from './validate-props';

/** @internal The node label the kubelet sets to the node's operating system. */
export const OS_LABEL = 'kubernetes.io/os';

/** @internal The node label the kubelet sets to the node's CPU architecture. */
export const ARCH_LABEL = 'kubernetes.io/arch';

/**
 * Requirements on node labels, for {@link NodePolicyProps.matchExpressions}.
 * Each returns the plain Kubernetes `NodeSelectorRequirement`.
 */
export class NodeRequirement {
  /** The label is present with one of these values. */
  public static in(key: string, ...values: string[]): NodeSelectorRequirement {
    return { key, operator: 'In', values };
  }

  /** The label is absent, or present with none of these values (e.g. skip virtual nodes). */
  public static notIn(key: string, ...values: string[]): NodeSelectorRequirement {
    return { key, operator: 'NotIn', values };
  }

  /** The label is present, whatever its value. */
  public static exists(key: string): NodeSelectorRequirement {
    return { key, operator: 'Exists' };
  }

  /** The label is absent. */
  public static doesNotExist(key: string): NodeSelectorRequirement {
    return { key, operator: 'DoesNotExist' };
  }

  /** The label is an integer greater than `value`. */
  public static gt(key: string, value: number): NodeSelectorRequirement {
    return { key, operator: 'Gt', values: [String(value)] };
  }

  /** The label is an integer less than `value`. */
  public static lt(key: string, value: number): NodeSelectorRequirement {
    return { key, operator: 'Lt', values: [String(value)] };
  }
}

/**
 * The pod fields that decide where a DaemonSet's pods run, in the shape of a
 * Kubernetes pod spec.
 */
export interface NodePolicyScheduling {
  /** Labels a node must carry, each with exactly this value. */
  readonly nodeSelector?: Record<string, string>;
  /** Required node affinity, when the policy has match expressions. */
  readonly affinity?: Affinity;
  /** The policy's tolerations; the DaemonSet controller adds its own to every pod. */
  readonly tolerations?: Toleration[];
}

/**
 * Props for {@link NodePolicy}.
 */
export interface NodePolicyProps {
  /**
   * Labels a node must carry, each with exactly this value. Rendered as the
   * pod's `nodeSelector`, so `kubectl get ds -o wide` shows it.
   * @default - none
   */
  readonly matchLabels?: Record<string, string>;

  /**
   * Requirements on node labels that must all hold (`In`, `NotIn`, `Exists`,
   * `DoesNotExist`, `Gt`, `Lt`; see {@link NodeRequirement}). Rendered as one
   * term of required node affinity.
   * @default - none
   */
  readonly matchExpressions?: NodeSelectorRequirement[];

  /**
   * Alternatives: a node must also match at least one of these terms, each a
   * list of requirements that must all hold (e.g. "a GPU label from NFD, or
   * one set by hand"). Rendered as OR'd terms of required node affinity, each
   * with every `matchExpressions` requirement in it too.
   * @default - no alternatives
   */
  readonly anyOf?: NodeSelectorRequirement[][];

  /**
   * The node operating system, e.g. `linux`: adds `kubernetes.io/os` to the
   * nodeSelector.
   * @default - any operating system
   */
  readonly operatingSystem?: string;

  /**
   * The CPU architectures, e.g. `['amd64', 'arm64']`: adds
   * `kubernetes.io/arch In (...)` to the match expressions.
   * @default - any architecture
   */
  readonly architectures?: string[];

  /**
   * Taints the agents may run on: {@link NodeToleration.everything} (as
   * node-exporter does), {@link NodeToleration.controlPlane}, or keys and
   * values. A DaemonSet pod also gets the tolerations the DaemonSet controller
   * adds to every DaemonSet pod.
   * @default - none: eligible nodes with a NoSchedule or NoExecute taint get no agent
   */
  readonly tolerations?: NodeToleration[];
}

const BRAND = Symbol.for('node-reporter.NodePolicy');

/** @internal The keys of {@link NodePolicyProps}. */
export const POLICY_KEYS = ['matchLabels', 'matchExpressions', 'anyOf', 'operatingSystem', 'architectures', 'tolerations'];

/**
 * The values the kubelet sets `kubernetes.io/os` to: Go's runtime.GOOS of a
 * node that can run one (k8s.io/api/core/v1 well_known_labels.go LabelOSStable;
 * the kubelet runs on Linux and Windows). Anything else, `Linux` included,
 * matches no node.
 */
const OPERATING_SYSTEMS = ['linux', 'windows'];

function copyRequirement(r: NodeSelectorRequirement): NodeSelectorRequirement {
  return { key: r.key, operator: r.operator, ...(r.values !== undefined ? { values: [...r.values] } : {}) };
}

/**
 * The problems of one node selector requirement. The API server's rules
 * (ValidateNodeSelectorRequirement: the operator, how many values, the key)
 * are asked of the checks, their one home. The policy's own: In and NotIn
 * values are label values (the server checks them only from 1.33, but no
 * node label could match another, and the scheduler cannot parse the term),
 * and a Gt or Lt value is an integer (the scheduler's parser refuses another,
 * so the term matches no node).
 */
function requirementProblems(prop: string, requirement: unknown): Problem[] {
  if (!isRecord(requirement)) {
    return [problem(prop, 'an object { key, operator, values? }', requirement)];
  }
  const r = requirement as Record<string, unknown>;
  if (r.values !== undefined && (!Array.isArray(r.values) || r.values.some((v) => typeof v !== 'string'))) {
    return [problem(`${prop}.values`, 'an array of strings', r.values)];
  }
  const problems = askChecks(prop, r, [], (add) => checkNodeSelectorRequirement(add, '', r));
  const values = (r.values ?? []) as string[];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    values.forEach((v, i) => problems.push(...defined(checkLabelValue(`${prop}.values[${i}]`, v))));
  } else if ((r.operator === 'Gt' || r.operator === 'Lt') && values.length === 1 && parseInt64(values[0]) === undefined) {
    problems.push(problem(`${prop}.values[0]`, `an integer when operator is ${r.operator} (the scheduler parses no other, so the term would match no node)`, values[0]));
  }
  return problems;
}

/** The problems of a policy's props, with the prop names of {@link NodePolicyProps}. */
function problemsOf(props: NodePolicyProps): Problem[] {
  if (!isRecord(props)) {
    return [problem('props', 'an object of NodePolicyProps', props)];
  }
  const problems: Problem[] = unknownKeys('props', props, { known: POLICY_KEYS });
  if (props.matchLabels !== undefined) {
    problems.push(...checkLabels('matchLabels', props.matchLabels));
  }
  if (props.matchExpressions !== undefined) {
    if (!Array.isArray(props.matchExpressions)) {
      problems.push(problem('matchExpressions', 'an array of { key, operator, values? }', props.matchExpressions));
    } else {
      props.matchExpressions.forEach((r, i) => problems.push(...requirementProblems(`matchExpressions[${i}]`, r)));
    }
  }
  if (props.anyOf !== undefined) {
    if (!Array.isArray(props.anyOf) || props.anyOf.length === 0) {
      problems.push(problem('anyOf', 'a non-empty array of terms, each a non-empty array of { key, operator, values? }', props.anyOf));
    } else {
      props.anyOf.forEach((term, i) => {
        if (!Array.isArray(term) || term.length === 0) {
          problems.push(problem(`anyOf[${i}]`, 'a non-empty array of { key, operator, values? } (a term with no requirement matches no node)', term));
        } else {
          term.forEach((r, j) => problems.push(...requirementProblems(`anyOf[${i}][${j}]`, r)));
        }
      });
    }
  }
  if (props.operatingSystem !== undefined) {
    if (!OPERATING_SYSTEMS.includes(props.operatingSystem)) {
      problems.push(problem('operatingSystem', `one of ${OPERATING_SYSTEMS.join(', ')} (the kubelet's ${OS_LABEL} label: no node carries another)`, props.operatingSystem));
    }
    if (isRecord(props.matchLabels) && OS_LABEL in props.matchLabels && props.matchLabels[OS_LABEL] !== props.operatingSystem) {
      problems.push(`'operatingSystem' and 'matchLabels.${OS_LABEL}' must agree but got ${JSON.stringify(props.operatingSystem)} and ${JSON.stringify(props.matchLabels[OS_LABEL])}`);
    }
  }
  if (props.architectures !== undefined) {
    if (!Array.isArray(props.architectures) || props.architectures.length === 0) {
      problems.push(problem('architectures', "a non-empty array of architectures such as ['amd64', 'arm64']", props.architectures));
    } else {
      props.architectures.forEach((a, i) => problems.push(...defined(a === '' ? problem(`architectures[${i}]`, 'a non-empty label value', a) : checkLabelValue(`architectures[${i}]`, a))));
    }
  }
  if (props.tolerations !== undefined) {
    if (!Array.isArray(props.tolerations)) {
      problems.push(problem('tolerations', 'an array of NodeToleration', props.tolerations));
    } else {
      props.tolerations.forEach((t, i) => {
        if (!NodeToleration.isNodeToleration(t)) {
          problems.push(problem(`tolerations[${i}]`, 'a NodeToleration (NodeToleration.controlPlane(), .exists(), .equal() or .everything())', t));
        }
      });
    }
  }
  return problems;
}

/**
 * Which nodes run a node agent: nodes with all of `matchLabels`, matching all
 * `matchExpressions`, of the operating system and architectures given, and
 * without a NoSchedule or NoExecute taint the policy does not tolerate.
 *
 * A policy adds no API object. {@link NodePolicy.podScheduling} is the one
 * place it becomes pod fields: the agents render them, `node-reporter
 * eligible` judges nodes by them, and {@link NodePolicy.matches} agrees with
 * both. One policy can serve several agents, in several charts.
 *
 * @example
 * new NodePolicy(chart, 'Linux', {
 *   operatingSystem: 'linux',
 *   matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate')],
 *   tolerations: [NodeToleration.everything()],
 * });
 */
export class NodePolicy extends Construct {
  /**
   * Whether `x` is a NodePolicy, also one made by another copy of this
   * package (where `instanceof` would say no).
   */
  public static isNodePolicy(x: unknown): x is NodePolicy {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The labels a node must carry (the operating system included); rendered as the nodeSelector. */
  public readonly matchLabels: Record<string, string>;

  /** The requirements on node labels (the architectures included); rendered as required node affinity. */
  public readonly matchExpressions: NodeSelectorRequirement[];

  /** The alternatives: a node matches at least one of these terms too. */
  public readonly anyOf: NodeSelectorRequirement[][];

  /** The taints tolerated, beyond those the DaemonSet controller adds. */
  public readonly tolerations: NodeToleration[];

  constructor(scope: Construct, id: string, props: NodePolicyProps = {}) {
    super(scope, id);
    reportProblems(this, problemsOf(props));
    Object.defineProperty(this, BRAND, { value: true });
    this.matchLabels = {
      ...props.matchLabels,
      ...(props.operatingSystem !== undefined ? { [OS_LABEL]: props.operatingSystem } : {}),
    };
    this.matchExpressions = [
      ...(props.matchExpressions ?? []).map(copyRequirement),
      ...(props.architectures !== undefined ? [{ key: ARCH_LABEL, operator: 'In', values: [...props.architectures] }] : []),
    ];
    this.anyOf = (props.anyOf ?? []).map((term) => term.map(copyRequirement));
    this.tolerations = [...(props.tolerations ?? [])];
  }

  /**
   * The pod `nodeSelector`: `matchLabels`. A fresh object on each call, so
   * callers cannot change the policy.
   */
  public get nodeSelector(): Record<string, string> {
    return { ...this.matchLabels };
  }

  /**
   * The pod scheduling fields of this policy: `nodeSelector`, required node
   * affinity (one term with every match expression, or one per alternative
   * of `anyOf`, each with them) and `tolerations`, each only when the policy
   * has some. Fresh objects on each call.
   */
  public podScheduling(): NodePolicyScheduling {
    const terms = this.anyOf.length > 0
      ? this.anyOf.map((term) => [...this.matchExpressions, ...term])
      : this.matchExpressions.length > 0 ? [this.matchExpressions] : [];
    return {
      ...(Object.keys(this.matchLabels).length > 0 ? { nodeSelector: this.nodeSelector } : {}),
      ...(terms.length > 0 ? {
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.map((t) => ({ matchExpressions: t.map(copyRequirement) })) } } },
      } : {}),
      ...(this.tolerations.length > 0 ? { tolerations: this.tolerations.map((t) => t.toKube()) } : {}),
    };
  }

  /**
   * Whether a node with these labels is eligible by its labels (taints aside):
   * the nodeSelector and the required node affinity of {@link podScheduling}
   * both match, as the scheduler decides.
   */
  public matches(nodeLabels: Record<string, string>): boolean {
    const scheduling = this.podScheduling();
    const terms = scheduling.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    return selectorMatches(scheduling.nodeSelector ?? {}, nodeLabels) && (terms === undefined || affinityMatches(terms, '', nodeLabels));
  }
}
