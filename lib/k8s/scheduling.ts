/**
 * Pod scheduling semantics: node selectors, node affinity, tolerations
 * against taints. A leaf: plain Kubernetes objects, no cdk8s, nothing thrown.
 * The node policies render with these types, eligibility judges with these
 * functions, and the checks validate with these types (their rules live in
 * lib/checks/api).
 */
import { checkLabelValue } from './syntax';

/** The operators of a node selector requirement (core/v1 NodeSelectorOperator). */
export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

/** The operators of a node selector requirement, in the API's order. */
export const NODE_SELECTOR_OPERATORS: readonly NodeSelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

/** A requirement on one node label (or, in `matchFields`, one node field). */
export interface NodeSelectorRequirement {
  /** The label key (or field path). */
  readonly key: string;
  /** How the node's value relates to `values`. */
  readonly operator: string;
  /** The values: several for In and NotIn, none for Exists and DoesNotExist, one integer for Gt and Lt. */
  readonly values?: string[];
}

/** One term of required node affinity: all its requirements hold. */
export interface NodeSelectorTerm {
  /** Requirements on node labels. */
  readonly matchExpressions?: NodeSelectorRequirement[];
  /** Requirements on node fields; only `metadata.name` exists. */
  readonly matchFields?: NodeSelectorRequirement[];
}

/** Required node affinity: the node matches any of the terms (core/v1 NodeSelector). */
export interface NodeSelector {
  /** The terms, ORed. */
  readonly nodeSelectorTerms: NodeSelectorTerm[];
}

/** A pod's node affinity; only the required part decides eligibility. */
export interface NodeAffinity {
  /** The terms a node must match for the pod to be placed there. */
  readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
}

/** A pod's affinity; only node affinity decides eligibility. */
export interface Affinity {
  /** Node affinity. */
  readonly nodeAffinity?: NodeAffinity;
}

/** A pod toleration. */
export interface Toleration {
  /** The taint key; empty or absent with Exists: every key. */
  readonly key?: string;
  /** `Exists` or `Equal` (the default). */
  readonly operator?: string;
  /** The taint value, for Equal. */
  readonly value?: string;
  /** The effect tolerated; absent: every effect. */
  readonly effect?: string;
  /** How long a NoExecute taint is tolerated before the pod is evicted. */
  readonly tolerationSeconds?: number;
}

/** A node taint. */
export interface Taint {
  /** The taint key. */
  readonly key?: string;
  /** The taint value. */
  readonly value?: string;
  /** NoSchedule, PreferNoSchedule or NoExecute. */
  readonly effect?: string;
}

/** The taint effects. */
export const TAINT_EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * Whether a toleration tolerates a taint (k8s.io/api/core/v1
 * Toleration.ToleratesTaint): the effects match or the toleration has none;
 * the keys match or the toleration has none (with Exists: every taint);
 * Exists ignores the value, Equal (the default) compares it.
 */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) {
    return false;
  }
  if (toleration.key && toleration.key !== taint.key) {
    return false;
  }
  switch (toleration.operator || 'Equal') {
    case 'Exists': return true;
    case 'Equal': return (toleration.value ?? '') === (taint.value ?? '');
    default: return false;
  }
}

/** Whether a label set satisfies a nodeSelector: every key present with exactly its value. */
export function selectorMatches(nodeSelector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(nodeSelector).every(([key, value]) => Object.prototype.hasOwnProperty.call(labels, key) && labels[key] === value);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An int64 as strconv.ParseInt(s, 10, 64) reads it (an optional sign, decimal
 * digits, in range), exactly; undefined when it reads none.
 */
export function parseInt64(text: unknown): bigint | undefined {
  if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/**
 * Whether a label's value (undefined when the label is absent) satisfies one
 * selector requirement: In, NotIn, Exists, DoesNotExist, and for node
 * selectors Gt and Lt, which compare int64s as the scheduler and the
 * DaemonSet controller do (apimachinery labels.Requirement.Matches:
 * strconv.ParseInt, 64 bits; a label that overflows matches nothing).
 */
export function requirementMatches(requirement: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    // Gt and Lt compare int64s; a value that is none (or overflows) does not match.
    case 'Gt':
    case 'Lt': {
      const label = parseInt64(value);
      const bound = values.length === 1 ? parseInt64(values[0]) : undefined;
      return label !== undefined && bound !== undefined && (requirement.operator === 'Gt' ? label > bound : label < bound);
    }
    default: return false;
  }
}

function labelOf(labels: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
}

/**
 * Why a node selector term cannot be parsed, or undefined: the DaemonSet
 * controller and the scheduler read each term with
 * nodeSelectorRequirementsAsSelector (component-helpers nodeaffinity,
 * NewLazyErrorNodeSelector), whose labels.NewRequirement refuses an In or
 * NotIn value that is not a label value; such a term matches no node, while
 * the API server accepts it (ValidateNodeSelectorRequirement does not check
 * the values).
 */
export function termParseProblem(term: NodeSelectorTerm): string | undefined {
  for (const [i, r] of (term.matchExpressions ?? []).entries()) {
    if (r.operator !== 'In' && r.operator !== 'NotIn') continue;
    for (const [j, v] of (r.values ?? []).entries()) {
      const bad = checkLabelValue(`matchExpressions[${i}].values[${j}]`, v);
      if (bad) return bad;
    }
  }
  return undefined;
}

/**
 * Whether a node matches required node affinity: any of the terms; a term
 * when all its expressions (labels) and fields (`metadata.name`) match; a term
 * with neither, or one that cannot be parsed (termParseProblem), matches
 * nothing (component-helpers nodeaffinity).
 */
export function affinityMatches(terms: readonly NodeSelectorTerm[], name: string, labels: Readonly<Record<string, string>>, parsed = false): boolean {
  return terms.some((term) => {
    const expressions = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    // `parsed`: the caller kept only terms termParseProblem passed (once per list, not once per node).
    if ((expressions.length === 0 && fields.length === 0) || (!parsed && termParseProblem(term) !== undefined)) {
      return false;
    }
    return expressions.every((r) => requirementMatches(r, labelOf(labels, r.key)))
      && fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, name));
  });
}
