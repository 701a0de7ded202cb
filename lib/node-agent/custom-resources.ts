/**
 * The CustomResourceDefinitions an agent ships (Alloy's PodLogs, Calico's
 * resources): cluster-scoped, so never stamped with the chart's namespace,
 * named `<plural>.<group>` as the API server requires, with the agent's labels.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkCustomResourceDefinition } from '../checks/crds';
import { clusterScoped } from '../cluster-scoped';
import { isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks } from '../prop-checks';
import { crdSpecShapeProblems } from './crd-shapes';

/** @internal A CRD's name: `<plural>.<group>` (apiextensions/validation: ValidateCustomResourceDefinition). */
export function crdName(spec: kplus.k8s.CustomResourceDefinitionSpec): string {
  return `${spec.names.plural}.${spec.group}`;
}

/** The spec as the manifest has it (`openAPIV3Schema`, not the L1 `openApiv3Schema`): asked only of a spec whose shapes are right (crdSpecShapeProblems found none), which converts whole. */
function specJson(spec: Record<string, unknown>): Record<string, unknown> {
  return kplus.k8s.toJson_CustomResourceDefinitionSpec(spec as unknown as kplus.k8s.CustomResourceDefinitionSpec) as Record<string, unknown>;
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
    const shapes = crdSpecShapeProblems(at, c);
    if (shapes.length > 0) {
      problems.push(...shapes);
      return;
    }
    // The group, the plural, the scope and the versions are the API server's (ValidateCustomResourceDefinition): asked of the checks on the CRD as rendered.
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${String(c.names.plural)}.${String(c.group)}` }, spec: specJson(c) };
    problems.push(...askChecks(at, crd, [[/^spec\./, '']], (add) => checkCustomResourceDefinition(crd).forEach((p) => add(p.rule, p.path, p.message))));
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
