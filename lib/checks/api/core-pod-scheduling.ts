/**
 * A pod's scheduling fields as the API server validates them
 * (pkg/apis/core/validation: ValidateTolerations, validateAffinity,
 * ValidateNodeSelector, validatePodAffinityTerm,
 * validateTopologySpreadConstraints), for Pods and every pod template.
 */
import { NodeSelectorTerm, termParseProblem } from '../../k8s/scheduling';
import { checkDns1123Label, checkLabelValue, checkQualifiedName } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { atLeast, KubernetesVersion } from '../versions';
import { Add, checkLabelSelector, invalid, isInt, isRecord, list, unsupported } from './common';

/** ValidateTolerations, as the server applies it (label-value syntax for Equal). */
export function checkTolerations(add: Add, path: string, tolerations: unknown): void {
  list(tolerations).forEach((t, i) => {
    const at = join(path, 'tolerations', i);
    // An empty operator means Equal.
    const operator = t.operator || 'Equal';
    if (typeof t.key === 'string' && t.key !== '') {
      const problem = checkQualifiedName('key', t.key);
      if (problem) add(RULES.apiTolerations, join(at, 'key'), invalid(t.key, problem)!);
    } else if (operator !== 'Exists') {
      add(RULES.apiTolerations, join(at, 'operator'), `Invalid value: ${show(t.operator ?? '')}: operator must be Exists when \`key\` is empty, which means "match all values and all keys"`);
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      add(RULES.apiTolerations, join(at, 'effect'), `Invalid value: ${show(t.effect ?? '')}: effect must be 'NoExecute' when \`tolerationSeconds\` is set`);
    }
    if (operator === 'Equal') {
      const problem = checkLabelValue('value', t.value ?? '');
      if (problem) add(RULES.apiTolerations, join(at, 'value'), invalid(t.value, problem)!);
    } else if (operator === 'Exists') {
      if (typeof t.value === 'string' && t.value !== '') {
        add(RULES.apiTolerations, join(at, 'operator'), 'Invalid value: ' + show(t.value) + ": value must be empty when `operator` is 'Exists'");
      }
    } else {
      add(RULES.apiTolerations, join(at, 'operator'), unsupported(operator, ['Equal', 'Exists']));
    }
    if (t.effect !== undefined && t.effect !== '' && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      add(RULES.apiTolerations, join(at, 'effect'), unsupported(t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
}

const NODE_OPERATORS = ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'];

/**
 * ValidateNodeSelectorRequirement: In and NotIn need values, Exists and
 * DoesNotExist take none, Gt and Lt take exactly one; a known operator; a
 * qualified key. (The values as label values are the term's, by version:
 * checkAffinity.) The constructs (NodePolicy's matchExpressions and anyOf) ask it too.
 */
export function checkNodeSelectorRequirement(add: Add, path: string, r: KubeObject): void {
  const values: unknown[] = Array.isArray(r.values) ? r.values : [];
  switch (r.operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) add(RULES.apiAffinity, join(path, 'values'), "Required value: must be specified when `operator` is 'In' or 'NotIn'");
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) add(RULES.apiAffinity, join(path, 'values'), "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) add(RULES.apiAffinity, join(path, 'values'), "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
      break;
    default:
      add(RULES.apiAffinity, join(path, 'operator'), unsupported(r.operator, NODE_OPERATORS));
  }
  const problem = checkQualifiedName('key', r.key);
  if (problem) add(RULES.apiAffinity, join(path, 'key'), invalid(r.key, problem)!);
}

function checkNodeSelectorTerm(add: Add, path: string, term: KubeObject): void {
  list(term.matchExpressions).forEach((r, i) => checkNodeSelectorRequirement(add, join(path, 'matchExpressions', i), r));
  list(term.matchFields).forEach((r, i) => {
    const at = join(path, 'matchFields', i);
    if (r.key !== 'metadata.name') {
      add(RULES.apiAffinity, join(at, 'key'), unsupported(r.key, ['metadata.name']));
    }
    if (!['In', 'NotIn'].includes(r.operator)) {
      add(RULES.apiAffinity, join(at, 'operator'), unsupported(r.operator, ['In', 'NotIn']));
    } else if (!Array.isArray(r.values) || r.values.length !== 1) {
      add(RULES.apiAffinity, join(at, 'values'), 'Required value: must be only one value when `operator` is \'In\' or \'NotIn\' for node field selector');
    }
  });
}

/** validatePodAffinityTerm: a topologyKey, valid selectors, namespaces that are DNS-1123 labels. */
function checkPodAffinityTerm(add: Add, path: string, term: KubeObject): void {
  if (typeof term.topologyKey !== 'string' || term.topologyKey === '') {
    add(RULES.apiAffinity, join(path, 'topologyKey'), 'Required value: can not be empty');
  } else {
    const problem = checkQualifiedName('key', term.topologyKey);
    if (problem) add(RULES.apiAffinity, join(path, 'topologyKey'), invalid(term.topologyKey, problem)!);
  }
  checkLabelSelector(add, join(path, 'labelSelector'), term.labelSelector);
  checkLabelSelector(add, join(path, 'namespaceSelector'), term.namespaceSelector);
  (Array.isArray(term.namespaces) ? term.namespaces : []).forEach((ns: unknown, i: number) => {
    const problem = checkDns1123Label('namespace', ns);
    if (problem) add(RULES.apiAffinity, join(path, 'namespaces', i), invalid(ns, problem)!);
  });
}

/** validatePodAffinity and validatePodAntiAffinity: required terms, and weighted preferred ones. */
function checkPodAffinity(add: Add, path: string, affinity: unknown): void {
  if (!isRecord(affinity)) return;
  list(affinity.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => checkPodAffinityTerm(add, join(path, 'requiredDuringSchedulingIgnoredDuringExecution', i), t));
  list(affinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((p, i) => {
    const at = join(path, 'preferredDuringSchedulingIgnoredDuringExecution', i);
    if (isInt(p.weight) && (p.weight < 1 || p.weight > 100)) add(RULES.apiAffinity, join(at, 'weight'), `Invalid value: ${p.weight}: must be in the range 1-100`);
    if (isRecord(p.podAffinityTerm)) checkPodAffinityTerm(add, join(at, 'podAffinityTerm'), p.podAffinityTerm);
  });
}

export function checkAffinity(add: Add, path: string, affinity: unknown, version: KubernetesVersion): void {
  if (!isRecord(affinity)) return;
  checkPodAffinity(add, join(path, 'affinity', 'podAffinity'), affinity.podAffinity);
  checkPodAffinity(add, join(path, 'affinity', 'podAntiAffinity'), affinity.podAntiAffinity);
  if (!isRecord(affinity.nodeAffinity)) return;
  const at = join(path, 'affinity', 'nodeAffinity');
  const required = affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (isRecord(required)) {
    if (list(required.nodeSelectorTerms).length === 0) {
      add(RULES.apiAffinity, join(at, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'), 'Required value: must have at least one node selector term');
    }
    list(required.nodeSelectorTerms).forEach((t, i) => {
      const tat = join(at, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms', i);
      checkNodeSelectorTerm(add, tat, t);
      const problem = termParseProblem(t as NodeSelectorTerm);
      // From 1.33 the server refuses such a value on create (kubernetes/kubernetes#128212: ValidateNodeSelectorRequirement checks label values).
      if (problem && atLeast(version, '1.33')) add(RULES.apiAffinity, tat, `${problem} (from 1.33 the API server validates In and NotIn values as label values)`);
      else if (problem) add(RULES.unparsableAffinityTerm, tat, `${problem}: the DaemonSet controller and the scheduler cannot parse this term, so it matches no node${list(required.nodeSelectorTerms).length === 1 ? ' and no pod is placed' : ''}`);
    });
  }
  list(affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((p, i) => {
    const pat = join(at, 'preferredDuringSchedulingIgnoredDuringExecution', i);
    if (isInt(p.weight) && (p.weight < 1 || p.weight > 100)) add(RULES.apiAffinity, join(pat, 'weight'), `Invalid value: ${p.weight}: must be in the range 1-100`);
    if (isRecord(p.preference)) checkNodeSelectorTerm(add, join(pat, 'preference'), p.preference);
  });
}

export function checkTopologySpread(add: Add, path: string, constraints: unknown): void {
  const seen = new Set<string>();
  list(constraints).forEach((c, i) => {
    const at = join(path, 'topologySpreadConstraints', i);
    if (isInt(c.maxSkew) && c.maxSkew <= 0) add(RULES.apiTopologySpread, join(at, 'maxSkew'), `Invalid value: ${c.maxSkew}: must be greater than zero`);
    if (typeof c.topologyKey !== 'string' || c.topologyKey === '') add(RULES.apiTopologySpread, join(at, 'topologyKey'), 'Required value: can not be empty');
    if (!['DoNotSchedule', 'ScheduleAnyway'].includes(c.whenUnsatisfiable)) add(RULES.apiTopologySpread, join(at, 'whenUnsatisfiable'), unsupported(c.whenUnsatisfiable, ['DoNotSchedule', 'ScheduleAnyway']));
    if (c.minDomains !== undefined) {
      if (isInt(c.minDomains) && c.minDomains <= 0) add(RULES.apiTopologySpread, join(at, 'minDomains'), `Invalid value: ${c.minDomains}: must be greater than 0`);
      else if (c.whenUnsatisfiable !== 'DoNotSchedule') add(RULES.apiTopologySpread, join(at, 'minDomains'), `Invalid value: ${c.minDomains}: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`);
    }
    checkLabelSelector(add, join(at, 'labelSelector'), c.labelSelector);
    const key = `${c.topologyKey}/${c.whenUnsatisfiable}`;
    if (seen.has(key)) add(RULES.apiTopologySpread, at, `Duplicate value: "{${c.topologyKey}, ${c.whenUnsatisfiable}}"`);
    seen.add(key);
  });
}
