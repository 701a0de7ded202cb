/**
 * Whether two (or more) pod specs can land on one node: satisfiability over
 * node labels and the node's name, exactly as the DaemonSet controller and
 * the scheduler match a node (on top of ../k8s/scheduling: its types and
 * matchers, never a second copy of the selector algebra). The one home of
 * the question for the waves of one agent, asked by `check` and by the
 * constructs.
 *
 * A pod spec selects the nodes matching its `nodeSelector` AND its required
 * node affinity (any of the `nodeSelectorTerms`; a term when all its
 * `matchExpressions` and `matchFields` hold; no term, an empty term or one
 * that cannot be parsed matches nothing) AND, when set, its `nodeName`:
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity (v1.35)
 * GetRequiredNodeAffinity and NewLazyErrorNodeSelector, and
 * pkg/controller/daemon (v1.35) predicates (fitsNodeName).
 */
import { Affinity, affinityMatches, NodeSelectorRequirement, NodeSelectorTerm, parseInt64, requirementMatches, selectorMatches, termParseProblem } from '../k8s/scheduling';
import { checkDns1123Subdomain, checkLabelValue } from '../k8s/syntax';

/** The node-selection fields of a pod spec (a rendered pod spec or eligibility's PodScheduling both fit). */
export interface NodeSelectionLike {
  /** Labels a node must carry, each with exactly this value. */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Only `nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` selects nodes. */
  readonly affinity?: Affinity;
  /** A pod spec with a node name runs on that node only; empty: any node. */
  readonly nodeName?: string;
}

/** A node both selections accept: its labels (and name, when a selection pins one). */
export interface SharedNode {
  /** The node's name, when a selection constrains it (`nodeName` or `matchFields` on `metadata.name`). */
  readonly name?: string;
  /** The node's labels: only those the selections ask about. */
  readonly labels: Record<string, string>;
}

/**
 * Whether a node with this name and these labels is accepted by a selection,
 * by the matchers of ../k8s/scheduling (eligibility's evaluateNode without
 * the taints).
 */
export function selectionAccepts(selection: NodeSelectionLike, name: string, labels: Readonly<Record<string, string>>): boolean {
  if (selection.nodeName && selection.nodeName !== name) return false;
  if (!selectorMatches(selection.nodeSelector ?? {}, labels)) return false;
  const terms = requiredTerms(selection);
  return terms === undefined || affinityMatches(terms, name, labels);
}

/**
 * A node that every given selection accepts, or undefined when no node
 * labels (and name) can satisfy them all. Exact, not a heuristic: every
 * combination of one required-affinity term per selection is tried, and for
 * each label key the candidate values cover every value that could satisfy
 * its requirements. Only values a node can carry count: label values valid
 * as the API server validates node labels (so `Lt 0`, which needs a negative
 * number, no node can satisfy), names that are DNS-1123 subdomains.
 *
 * Tolerations are ignored: they never keep a pod off a node without taints,
 * and an untainted node admits every pod, so they cannot prevent a shared node.
 * With no selection, or none that constrains anything, any node is shared:
 * the witness is a node without labels.
 */
export function sharedNode(...selections: NodeSelectionLike[]): SharedNode | undefined {
  const choices = selections.map((s) => {
    const terms = requiredTerms(s);
    // No required affinity: one "term" that asks nothing.
    return terms === undefined ? [undefined] : terms.filter(usableTerm);
  });
  for (const combination of product(choices)) {
    const witness = witnessOf(selections, combination);
    // Never return a node the matchers themselves would refuse.
    if (witness && selections.every((s) => selectionAccepts(s, witness.name ?? '', witness.labels))) {
      return witness;
    }
  }
  return undefined;
}

const METADATA_NAME = 'metadata.name';

function requiredTerms(selection: NodeSelectionLike): readonly NodeSelectorTerm[] | undefined {
  return selection.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
}

/** A term that can match some node at all: not empty, parsable, fields only on the name (affinityMatches). */
function usableTerm(term: NodeSelectorTerm): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  return (expressions.length > 0 || fields.length > 0) && fields.every((f) => f.key === METADATA_NAME) && termParseProblem(term) === undefined;
}

/** Every way to pick one item of each list (none when a list is empty). */
function* product<T>(lists: readonly (readonly T[])[]): Generator<T[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = lists;
  for (const item of first) {
    for (const tail of product(rest)) yield [item, ...tail];
  }
}

/** The node that meets the selections with these terms, or undefined. */
function witnessOf(selections: readonly NodeSelectionLike[], terms: readonly (NodeSelectorTerm | undefined)[]): SharedNode | undefined {
  const byKey = new Map<string, NodeSelectorRequirement[]>();
  const add = (key: string, r: NodeSelectorRequirement) => byKey.set(key, [...(byKey.get(key) ?? []), r]);
  const nameRequirements: NodeSelectorRequirement[] = [];
  for (const [i, selection] of selections.entries()) {
    // A nodeSelector entry is an In of one value: present with exactly that value.
    for (const [key, value] of Object.entries(selection.nodeSelector ?? {})) add(key, { key, operator: 'In', values: [value] });
    if (selection.nodeName) nameRequirements.push({ key: METADATA_NAME, operator: 'In', values: [selection.nodeName] });
    for (const r of terms[i]?.matchExpressions ?? []) add(r.key, r);
    nameRequirements.push(...terms[i]?.matchFields ?? []);
  }
  const labels: [string, string][] = [];
  for (const [key, requirements] of byKey) {
    const value = firstSatisfying(requirements, false);
    if (value === null) return undefined;
    if (value !== undefined) labels.push([key, value]);
  }
  let name: string | undefined;
  if (nameRequirements.length > 0) {
    const value = firstSatisfying(nameRequirements, true);
    if (value === null || value === undefined) return undefined;
    name = value;
  }
  // fromEntries makes own properties, even of a key such as __proto__.
  return { ...(name !== undefined ? { name } : {}), labels: Object.fromEntries(labels) };
}

/**
 * A value (undefined: the label is absent) that satisfies every requirement
 * on one key, or null when none does. The candidates are complete: with an
 * In, its values; with Gt or Lt, integers from the lowest allowed, one more
 * than there are NotIn values; otherwise absence and one value no
 * requirement names.
 */
function firstSatisfying(requirements: readonly NodeSelectorRequirement[], isName: boolean): string | undefined | null {
  const valid = (v: string) => (isName ? checkDns1123Subdomain('name', v) : checkLabelValue('value', v)) === undefined;
  const candidates = candidateValues(requirements).filter((v) => (v === undefined ? !isName : valid(v)));
  for (const candidate of candidates) {
    if (requirements.every((r) => requirementMatches(r, candidate))) return candidate;
  }
  return null;
}

const INT64_MAX = 2n ** 63n - 1n;

function candidateValues(requirements: readonly NodeSelectorRequirement[]): (string | undefined)[] {
  const listed = requirements.flatMap((r) => r.values ?? []);
  const anIn = requirements.find((r) => r.operator === 'In');
  if (anIn) return [...(anIn.values ?? [])];
  const bounds = requirements.filter((r) => r.operator === 'Gt' || r.operator === 'Lt');
  if (bounds.length > 0) {
    // Valid label values have no sign: the integers a node label can hold start at 0.
    let low = 0n;
    let high = INT64_MAX;
    for (const r of bounds) {
      const bound = r.values?.length === 1 ? parseInt64(r.values[0]) : undefined;
      if (bound === undefined) return [];
      if (r.operator === 'Gt' && bound + 1n > low) low = bound + 1n;
      if (r.operator === 'Lt' && bound - 1n < high) high = bound - 1n;
    }
    const out: string[] = [];
    // NotIn excludes at most `listed.length` strings, so one more candidate than that suffices.
    for (let v = low; v <= high && out.length <= listed.length; v++) out.push(v.toString());
    return out;
  }
  let fresh = 'x';
  for (let n = 1; listed.includes(fresh); n++) fresh = `x${n}`;
  return [undefined, fresh];
}
