/**
 * DaemonSet rules that no linter has, each from the upstream issue or
 * documentation cited in its rule.
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem, join, KubeObject, show } from './finding';
import { containersOf, PodTemplate } from './pod-templates';
import { RULES } from './rules';
import { labelSelectorMatches } from './workload';

function nonZero(value: unknown): boolean {
  return value !== undefined && value !== null && value !== 0 && value !== '0%' && value !== '0';
}

/** The rules on one DaemonSet. */
export function checkDaemonSetRules(obj: KubeObject, pod: PodTemplate | undefined): FieldProblem[] {
  if (obj.kind !== 'DaemonSet' || !pod) {
    return [];
  }
  const problems: FieldProblem[] = [];
  const strategy = isRecord(obj.spec?.updateStrategy) ? obj.spec.updateStrategy : {};
  const surge = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate.maxSurge : undefined;
  if ((strategy.type ?? 'RollingUpdate') === 'RollingUpdate' && nonZero(surge)) {
    const hostPorts = containersOf(pod).flatMap((c) => (Array.isArray(c.container.ports) ? c.container.ports : [])
      .map((p: KubeObject, i: number) => ({ p, path: join(c.path, 'ports', i) }))
      .filter(({ p }: { p: KubeObject }) => isRecord(p) && (nonZero(p.hostPort) || pod.spec.hostNetwork === true)));
    for (const { p, path } of hostPorts) {
      problems.push({ rule: RULES.hostPortSurge, path: 'spec.updateStrategy.rollingUpdate.maxSurge', message: `maxSurge ${show(surge)} with ${pod.spec.hostNetwork === true ? 'hostNetwork and port' : 'hostPort'} ${show(p.hostPort ?? p.containerPort)} (${path}): the surge pod can never bind the port the old pod holds, so the rollout stalls on every node` });
    }
  }
  if (pod.spec.hostNetwork === true && pod.spec.dnsPolicy !== 'ClusterFirstWithHostNet' && pod.spec.dnsPolicy !== 'None') {
    problems.push({ rule: RULES.hostNetworkDns, path: join(pod.specPath, 'dnsPolicy'), message: `hostNetwork: true with dnsPolicy ${show(pod.spec.dnsPolicy ?? 'ClusterFirst')}: the pod uses the node's resolver and cannot resolve cluster service names` });
  }
  if (strategy.type === 'OnDelete') {
    problems.push({ rule: RULES.onDelete, path: 'spec.updateStrategy.type', message: 'OnDelete: a new version reaches a node only when someone deletes its pod' });
  }
  return problems;
}

/** A PodDisruptionBudget that selects a DaemonSet's pods, in the same namespace. */
export function checkPdbsAgainstDaemonSets(objects: readonly KubeObject[]): Map<KubeObject, FieldProblem[]> {
  const result = new Map<KubeObject, FieldProblem[]>();
  const daemonSets = objects.filter((o) => isRecord(o) && o.kind === 'DaemonSet' && isRecord(o.spec?.template?.metadata?.labels));
  for (const pdb of objects.filter((o) => isRecord(o) && o.kind === 'PodDisruptionBudget' && isRecord(o.spec?.selector))) {
    for (const ds of daemonSets) {
      if ((pdb.metadata?.namespace ?? '') !== (ds.metadata?.namespace ?? '')) continue;
      if (labelSelectorMatches(pdb.spec.selector, ds.spec.template.metadata.labels)) {
        result.set(pdb, [...(result.get(pdb) ?? []), {
          rule: RULES.pdbSelectsDaemonSet, path: 'spec.selector',
          message: `selects the pods of DaemonSet ${show(ds.metadata?.name)}: evictions for node drains and autoscaling are blocked by a budget the DaemonSet never needs`,
        }]);
      }
    }
  }
  return result;
}
