/**
 * How the agent's scheduling joins what its policy and cdk8s-plus'
 * `scheduling` give: affinity terms combined, tolerations once each.
 */
import * as kplus from 'cdk8s-plus-28';
import { NodeSelectorTerm, Toleration } from '../k8s/scheduling';
import { PodAntiAffinityTerm } from './props';

/**
 * Required node affinity is an OR of terms: each of the policy's terms must
 * hold with each term added through `daemonSet.scheduling`, so the result is
 * their product. Pod anti-affinity from the props joins any added there.
 */
export function mergeAffinity(affinity: kplus.k8s.Affinity | undefined, policyTerms: readonly NodeSelectorTerm[] | undefined, antiAffinity: readonly PodAntiAffinityTerm[] | undefined): kplus.k8s.Affinity | undefined {
  let merged = affinity;
  if (policyTerms) {
    const copy = (r: { key: string; operator: string; values?: readonly string[] }) => ({ ...r, values: r.values ? [...r.values] : undefined });
    const userTerms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    const terms = userTerms.length === 0
      ? policyTerms.map((p) => ({ matchExpressions: (p.matchExpressions ?? []).map(copy) }))
      : policyTerms.flatMap((p) => userTerms.map((t) => ({ ...t, matchExpressions: [...(p.matchExpressions ?? []).map(copy), ...(t.matchExpressions ?? [])] })));
    merged = { ...merged, nodeAffinity: { ...merged?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
  }
  if (antiAffinity && antiAffinity.length > 0) {
    const required = [
      ...(merged?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...antiAffinity.map((t) => ({ labelSelector: { matchLabels: { ...t.labels } }, topologyKey: t.topologyKey ?? 'kubernetes.io/hostname' })),
    ];
    merged = { ...merged, podAntiAffinity: { ...merged?.podAntiAffinity, requiredDuringSchedulingIgnoredDuringExecution: required } };
  }
  return merged;
}

/** Tolerations once each, whatever the order of their keys. */
export function dedupe(items: readonly Toleration[]): Toleration[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    // An unset field and an absent one are the same toleration.
    const key = JSON.stringify(Object.keys(t).filter((k) => (t as Record<string, unknown>)[k] !== undefined).sort().map((k) => [k, (t as Record<string, unknown>)[k]]));
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
