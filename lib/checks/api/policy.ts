/**
 * policy/v1 (pkg/apis/policy/validation): PodDisruptionBudget.
 */
import { KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, checkLabelSelector, intOrPercent, isRecord, unsupported } from './common';

/** ValidatePodDisruptionBudget (ValidatePodDisruptionBudgetSpec). */
export function checkPdb(add: Add, obj: KubeObject): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    add(RULES.apiPdb, 'spec', `Invalid value: ${show(spec)}: minAvailable and maxUnavailable cannot be both set`);
  }
  intOrPercent(add, RULES.apiPdb, 'spec.minAvailable', spec.minAvailable);
  intOrPercent(add, RULES.apiPdb, 'spec.maxUnavailable', spec.maxUnavailable);
  checkLabelSelector(add, 'spec.selector', spec.selector);
  if (spec.unhealthyPodEvictionPolicy !== undefined && !['IfHealthyBudget', 'AlwaysAllow'].includes(spec.unhealthyPodEvictionPolicy)) {
    add(RULES.apiPdb, 'spec.unhealthyPodEvictionPolicy', unsupported(spec.unhealthyPodEvictionPolicy, ['AlwaysAllow', 'IfHealthyBudget']));
  }
}
