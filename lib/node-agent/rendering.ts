/**
 * Internal: how the agent writes its containers so that the API server stores them as
 * written (a re-apply reports no change), and where a finding of the checks
 * comes from in the props.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { checkObject, isBlocking } from '../checks/index';
import { RULES } from '../checks/rules';
import { KubernetesVersion } from '../checks/versions';
import { checkApplySize } from '../k8s/apply';
import { canonicalResourceQuantity } from '../k8s/quantity';
import { defined, Problem } from '../k8s/syntax';
import { propOfDaemonSetPath } from './prop-paths';

/** Where in the props a manifest path of the DaemonSet comes from, for the checks' findings. */
export function propOf(path: string, kind: unknown, obj?: unknown): string {
  const prop = kind === 'DaemonSet' ? propOfDaemonSetPath(path, obj) : undefined;
  if (prop !== undefined && prop !== '') {
    return `'${prop}'`;
  }
  const container = /^spec\.template\.spec\.(containers|initContainers)\[(\d+)\]/.exec(path);
  if (container) {
    return `'${container[1]}[${container[2]}]'`;
  }
  const field = /^spec\.template\.spec\.([A-Za-z]+)/.exec(path);
  return field ? `'${field[1]}'` : `The ${String(kind)}`;
}

/**
 * The container's probes without `initialDelaySeconds: 0`: the API's
 * default, which it does not store, so that a re-apply reports no change.
 */
export function withoutZeroDelays(c: kplus.k8s.Container): Partial<kplus.k8s.Container> {
  const strip = (p: kplus.k8s.Probe | undefined) => (p?.initialDelaySeconds === 0 ? { ...p, initialDelaySeconds: undefined } : p);
  return { livenessProbe: strip(c.livenessProbe), readinessProbe: strip(c.readinessProbe), startupProbe: strip(c.startupProbe) };
}

/** Requests and limits in the form the API server stores them (`2048Mi` is `2Gi`), so that a re-apply reports no change. */
export function canonicalResources(resources: kplus.k8s.ResourceRequirements | undefined): kplus.k8s.ResourceRequirements | undefined {
  const canonical = (amounts: Record<string, kplus.k8s.Quantity> | undefined) => (amounts === undefined ? undefined
    : Object.fromEntries(Object.entries(amounts).map(([k, q]) => [k, kplus.k8s.Quantity.fromString(canonicalResourceQuantity(String(q.value)))])));
  return resources && { ...resources, limits: canonical(resources.limits), requests: canonical(resources.requests) };
}

/** The items, or undefined when there are none (an empty list is not written). */
export function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}

/**
 * What the manifest checks would refuse in the objects under `scope`, as
 * problems of the props: the checks are the one home of the API server's
 * rules, and this makes construction fail where synth would. Custom
 * resources (a ServiceMonitor) are the checks' to judge against their CRD.
 * @param rendered manifests already at hand, by object (not rendered again)
 */
export function checksProblems(scope: IConstruct, kubernetesVersion: KubernetesVersion, rendered?: ReadonlyMap<ApiObject, Record<string, unknown>>): Problem[] {
  const problems: Problem[] = [];
  for (const obj of scope.node.findAll().filter(ApiObject.isApiObject)) {
    const json = rendered?.get(obj) ?? obj.toJson();
    if (String(json.apiVersion).startsWith('monitoring.coreos.com/')) {
      continue;
    }
    // An API token the agent was promised not to have is refused, though the checks only warn of it in any manifest.
    // The size client-side apply stores is judged below, by the prop that makes it (`apply: 'server-side'` leaves it out here).
    for (const f of checkObject(json, undefined, { kubernetesVersion, apply: 'server-side' }).filter((f) => isBlocking(f) || f.rule === RULES.projectedApiToken)) {
      problems.push(`${propOf(f.path, json.kind, json)} is refused by the manifest checks: ${f.object} ${f.path}: ${f.message} [${f.rule.id}]${f.rule === RULES.projectedApiToken ? `: ${f.rule.fix}` : ''}`);
    }
    problems.push(...defined(checkApplySize(json.kind === 'ConfigMap' ? 'config.data' : json.kind === 'DaemonSet' ? 'annotations' : 'props', json)));
  }
  return problems;
}
