/**
 * The CustomResourceDefinitions an agent ships (Alloy's PodLogs, Calico's
 * resources): cluster-scoped, so never stamped with the chart's namespace,
 * named `<plural>.<group>` as the API server requires, with the agent's labels.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { clusterScoped } from '../cluster-scoped';
import { checkDns1123Label, checkDns1123Subdomain, defined, isRecord, Problem, problem } from '../k8s/syntax';

/** @internal A CRD's name: `<plural>.<group>` (apiextensions/validation: ValidateCustomResourceDefinition). */
export function crdName(spec: kplus.k8s.CustomResourceDefinitionSpec): string {
  return `${spec.names.plural}.${spec.group}`;
}

/** @internal The problems of `customResourceDefinitions` the props decide; the rest is the checks' (apiextensions validation). */
export function crdsProblems(crds: unknown): Problem[] {
  if (!Array.isArray(crds) || crds.length === 0) {
    return [problem('customResourceDefinitions', 'a non-empty array of CustomResourceDefinitionSpec { group, names, scope, versions }', crds)];
  }
  const problems: Problem[] = [];
  const names = new Set<string>();
  crds.forEach((c: unknown, i: number) => {
    const at = `customResourceDefinitions[${i}]`;
    if (!isRecord(c) || !isRecord(c.names)) {
      problems.push(problem(at, 'a CustomResourceDefinitionSpec { group, names: { kind, plural, ... }, scope, versions }', c));
      return;
    }
    problems.push(...defined(
      checkDns1123Subdomain(`${at}.group`, c.group),
      typeof c.group === 'string' && !c.group.includes('.') ? problem(`${at}.group`, "a group with a '.' (e.g. monitoring.grafana.com), as the API server requires", c.group) : undefined,
      checkDns1123Label(`${at}.names.plural`, c.names.plural),
      c.scope !== 'Namespaced' && c.scope !== 'Cluster' ? problem(`${at}.scope`, 'Namespaced or Cluster', c.scope) : undefined,
    ));
    const name = `${String(c.names.plural)}.${String(c.group)}`;
    if (names.has(name)) problems.push(problem(`${at}.names.plural`, 'a resource no other of customResourceDefinitions defines', name));
    names.add(name);
  });
  return problems;
}

/** @internal Creates the CRDs under `scope`, cluster-scoped. */
export function createCrds(scope: Construct, crds: readonly kplus.k8s.CustomResourceDefinitionSpec[], labels: Record<string, string>): kplus.k8s.KubeCustomResourceDefinition[] {
  return crds.map((spec) => {
    const crd = new kplus.k8s.KubeCustomResourceDefinition(scope, `Crd-${crdName(spec)}`, { metadata: { name: crdName(spec), labels }, spec });
    clusterScoped(crd);
    return crd;
  });
}
