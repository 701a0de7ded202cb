/**
 * Pod Security at the namespace's level: the input's Namespaces carry the
 * levels pod-security-admission enforces and warns at
 * (`pod-security.kubernetes.io/enforce`, `warn`, their `-version`), and the
 * workloads in them are judged at those levels. Namespaces the input does
 * not hold are judged at the level the caller names (`restricted` by
 * default): their labels are not known.
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem, join, KubeObject, show } from './finding';
import { PodSecurityLevel } from './pod-security';
import { RULES } from './rules';
import { KubernetesVersion, minorOf } from './versions';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'audit', 'warn'] as const;
const LEVELS = Object.values(PodSecurityLevel) as string[];
const VERSION = /^(latest|v1\.(0|[1-9]\d*))$/;

/** What a Namespace of the input enforces and warns at. */
export interface NamespacePolicy {
  /** The namespace's name. */
  readonly name: string;
  /** The level pods must meet; PSA's default (privileged) without the label. */
  readonly enforce: PodSecurityLevel;
  /** The level workloads are warned at, when the namespace sets one. */
  readonly warn?: PodSecurityLevel;
  /** The enforced policy version as labelled (`latest`, `v1.28`). */
  readonly enforceVersion?: string;
  /** The warned policy version as labelled. */
  readonly warnVersion?: string;
}

/**
 * The minor of the Pod Security controls a namespace's `-version` label
 * selects on a server of `target`: `latest` (or no label) is the target's
 * own, `v1.N` the controls of 1.N, and a version newer than the server's is
 * the server's latest (pod-security-admission api.ParseVersion and
 * policy.Evaluator: the checks of the newest MinimumVersion at most N).
 */
export function podSecurityVersion(label: string | undefined, target: KubernetesVersion): number {
  const match = typeof label === 'string' ? /^v1\.(0|[1-9]\d*)$/.exec(label) : null;
  return match ? Math.min(Number(match[1]), minorOf(target)) : minorOf(target);
}

/** The Pod Security policy of every Namespace among the objects, by name. */
export function namespacePolicies(objects: readonly KubeObject[]): Map<string, NamespacePolicy> {
  const policies = new Map<string, NamespacePolicy>();
  for (const o of objects) {
    if (o.kind !== 'Namespace' || o.apiVersion !== 'v1' || typeof o.metadata?.name !== 'string') continue;
    const labels: Record<string, unknown> = isRecord(o.metadata.labels) ? o.metadata.labels : {};
    const level = (mode: string) => (LEVELS.includes(labels[`${LABEL_PREFIX}${mode}`] as string) ? labels[`${LABEL_PREFIX}${mode}`] as PodSecurityLevel : undefined);
    const version = (mode: string) => (typeof labels[`${LABEL_PREFIX}${mode}-version`] === 'string' ? labels[`${LABEL_PREFIX}${mode}-version`] as string : undefined);
    policies.set(o.metadata.name, {
      name: o.metadata.name,
      enforce: level('enforce') ?? PodSecurityLevel.PRIVILEGED,
      warn: level('warn'),
      enforceVersion: version('enforce'),
      warnVersion: version('warn'),
    });
  }
  return policies;
}

/**
 * The Pod Security labels of a Namespace, as pod-security-admission
 * validates them when the Namespace is created or changed.
 */
export function checkNamespaceLabels(obj: KubeObject): FieldProblem[] {
  if (obj.kind !== 'Namespace' || !isRecord(obj.metadata?.labels)) return [];
  const problems: FieldProblem[] = [];
  for (const mode of MODES) {
    const level = obj.metadata.labels[`${LABEL_PREFIX}${mode}`];
    if (level !== undefined && !LEVELS.includes(level)) {
      problems.push({ rule: RULES.podSecurityLabels, path: join('metadata', 'labels', `${LABEL_PREFIX}${mode}`), message: `Invalid value: ${show(level)}: must be one of privileged, baseline, restricted` });
    }
    const version = obj.metadata.labels[`${LABEL_PREFIX}${mode}-version`];
    if (version !== undefined && (typeof version !== 'string' || !VERSION.test(version))) {
      problems.push({ rule: RULES.podSecurityLabels, path: join('metadata', 'labels', `${LABEL_PREFIX}${mode}-version`), message: `Invalid value: ${show(version)}: must be "latest" or "v1.x"` });
    }
  }
  return problems;
}
