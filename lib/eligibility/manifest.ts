/**
 * The DaemonSets of a manifest, with the scheduling fields of each checked
 * for the JSON types the API gives them: a malformed DaemonSet is a one-line
 * error naming the input, the DaemonSet and the field, never a crash.
 */
import { waveOf } from '../checks/wave-overlaps';
import { NodeSelectorRequirement } from '../k8s/scheduling';
import { isRecord } from '../k8s/syntax';
import { EligibilityReport, evaluateNodes, KubeNode, PodScheduling } from './evaluate';
import { NodeListError } from './node-list';
import { printable, shown } from './printable';

/** A DaemonSet of a manifest and the scheduling fields of its pod template. */
export interface ManifestDaemonSet {
  /** The DaemonSet's name. */
  readonly name: string;
  /** Its namespace, if the manifest sets one. */
  readonly namespace?: string;
  /** The agent it is a wave of: its `node-reporter.dev/agent` label, when it carries both wave labels. */
  readonly agent?: string;
  /** The wave it is: its `node-reporter.dev/wave` label, when it carries both wave labels. */
  readonly wave?: string;
  /** Its pod template's scheduling fields. */
  readonly scheduling: PodScheduling;
}

/** Checks one value's type, or throws naming the field. */
class Reader {
  constructor(private readonly where: string) {}

  fail(path: string, want: string, got: unknown): never {
    throw new NodeListError(`${this.where}: ${path} must be ${want} but got ${shown(got)}`);
  }

  optional(value: unknown): boolean {
    return value !== undefined && value !== null;
  }

  strings(path: string, value: unknown): string[] | undefined {
    if (!this.optional(value)) return undefined;
    if (!Array.isArray(value)) this.fail(path, 'an array of strings', value);
    value.forEach((v, i) => { if (typeof v !== 'string') this.fail(`${path}[${i}]`, 'a string', v); });
    return value;
  }

  string(path: string, value: unknown): string | undefined {
    if (!this.optional(value)) return undefined;
    if (typeof value !== 'string') this.fail(path, 'a string', value);
    return value;
  }

  requirements(path: string, value: unknown): NodeSelectorRequirement[] | undefined {
    if (!this.optional(value)) return undefined;
    if (!Array.isArray(value)) this.fail(path, 'an array of requirements', value);
    return value.map((r, i) => {
      const at = `${path}[${i}]`;
      if (!isRecord(r)) this.fail(at, 'a requirement { key, operator, values }', r);
      return { key: this.string(`${at}.key`, r.key) ?? '', operator: this.string(`${at}.operator`, r.operator) ?? '', values: this.strings(`${at}.values`, r.values) };
    });
  }
}

/** The scheduling fields of a DaemonSet's pod template, each of its JSON type, or an error naming the field. */
function schedulingOf(ds: Record<string, unknown>, where: string): PodScheduling {
  // Typed, so that the never-returning fail() narrows the values checked before it.
  const read: Reader = new Reader(where);
  const template = isRecord(ds.spec) ? ds.spec.template : undefined;
  const spec = isRecord(template) ? template.spec : undefined;
  if (!isRecord(spec)) {
    throw new NodeListError(`${where} has no pod template (spec.template.spec)`);
  }
  const at = 'spec.template.spec';
  let nodeSelector: Record<string, string> | undefined;
  if (read.optional(spec.nodeSelector)) {
    if (!isRecord(spec.nodeSelector)) read.fail(`${at}.nodeSelector`, 'an object of label values', spec.nodeSelector);
    for (const [key, value] of Object.entries(spec.nodeSelector)) {
      if (typeof value !== 'string') read.fail(`${at}.nodeSelector.${key}`, 'a string', value);
    }
    nodeSelector = spec.nodeSelector as Record<string, string>;
  }
  let tolerations: PodScheduling['tolerations'];
  if (read.optional(spec.tolerations)) {
    if (!Array.isArray(spec.tolerations)) read.fail(`${at}.tolerations`, 'an array of tolerations', spec.tolerations);
    tolerations = spec.tolerations.map((t, i) => {
      const tat = `${at}.tolerations[${i}]`;
      if (!isRecord(t)) read.fail(tat, 'a toleration { key, operator, value, effect }', t);
      return { key: read.string(`${tat}.key`, t.key), operator: read.string(`${tat}.operator`, t.operator), value: read.string(`${tat}.value`, t.value), effect: read.string(`${tat}.effect`, t.effect) };
    });
  }
  let affinity: PodScheduling['affinity'];
  const nodeAffinity = isRecord(spec.affinity) ? spec.affinity.nodeAffinity : undefined;
  if (read.optional(spec.affinity) && !isRecord(spec.affinity)) read.fail(`${at}.affinity`, 'an object', spec.affinity);
  if (read.optional(nodeAffinity) && !isRecord(nodeAffinity)) read.fail(`${at}.affinity.nodeAffinity`, 'an object', nodeAffinity);
  const required = isRecord(nodeAffinity) ? nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined;
  const rat = `${at}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
  if (read.optional(required)) {
    if (!isRecord(required)) read.fail(rat, 'a node selector { nodeSelectorTerms }', required);
    const terms = required.nodeSelectorTerms;
    if (!Array.isArray(terms)) read.fail(`${rat}.nodeSelectorTerms`, 'an array of node selector terms', terms);
    affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: terms.map((term, i) => {
            const tat = `${rat}.nodeSelectorTerms[${i}]`;
            if (!isRecord(term)) read.fail(tat, 'a node selector term (an object)', term);
            return { matchExpressions: read.requirements(`${tat}.matchExpressions`, term.matchExpressions), matchFields: read.requirements(`${tat}.matchFields`, term.matchFields) };
          }),
        },
      },
    };
  }
  if (read.optional(spec.hostNetwork) && typeof spec.hostNetwork !== 'boolean') read.fail(`${at}.hostNetwork`, 'a boolean', spec.hostNetwork);
  return { nodeSelector, tolerations, affinity, hostNetwork: spec.hostNetwork === true, nodeName: read.string(`${at}.nodeName`, spec.nodeName) };
}

/**
 * Every DaemonSet among a manifest's objects with its scheduling fields.
 * @param source what to call the manifest in errors, e.g. its file name
 * @throws NodeListError when a DaemonSet has no pod template, or a scheduling field of the wrong type
 */
export function daemonSetsOfManifest(objects: readonly unknown[], source: string): ManifestDaemonSet[] {
  return objects
    .filter((o): o is Record<string, unknown> => isRecord(o) && o.kind === 'DaemonSet')
    .map((ds) => {
      const metadata = isRecord(ds.metadata) ? ds.metadata : {};
      const name = typeof metadata.name === 'string' ? metadata.name : '';
      const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : undefined;
      return { name, namespace, ...waveOf(ds), scheduling: schedulingOf(ds, `${source}: DaemonSet ${printable(name, true)}`) };
    });
}

/** The verdicts for one DaemonSet of a manifest. */
export interface DaemonSetEligibility extends EligibilityReport {
  /** The DaemonSet's name. */
  readonly name: string;
  /** Its namespace, if the manifest sets one. */
  readonly namespace?: string;
  /** The agent it is a wave of (its `node-reporter.dev/agent` label), when it carries both wave labels. */
  readonly agent?: string;
  /** The wave it is (its `node-reporter.dev/wave` label), when it carries both wave labels. */
  readonly wave?: string;
}

/**
 * Every DaemonSet among a manifest's objects, each evaluated against the nodes.
 * @param source what to call the manifest in errors, e.g. its file name
 * @throws NodeListError when a DaemonSet has no pod template, or a scheduling field of the wrong type
 */
export function daemonSetsIn(objects: readonly unknown[], nodes: readonly KubeNode[], source = 'the manifest'): DaemonSetEligibility[] {
  return daemonSetsOfManifest(objects, source).map(({ scheduling, ...ds }) => ({ ...ds, ...evaluateNodes(nodes, scheduling) }));
}
