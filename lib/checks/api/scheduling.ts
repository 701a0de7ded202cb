/**
 * scheduling.k8s.io/v1 (pkg/apis/scheduling/validation): PriorityClass.
 */
import { KubeObject } from '../finding';
import { RULES } from '../rules';
import { Add, isInt, unsupported } from './common';

/** ValidatePriorityClass. */
export function checkPriorityClass(add: Add, obj: KubeObject): void {
  const name = obj.metadata?.name;
  const system = ['system-node-critical', 'system-cluster-critical'];
  if (typeof name === 'string' && name.startsWith('system-')) {
    if (!system.includes(name)) {
      add(RULES.apiPriorityClass, 'metadata.name', `Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: ${name} is not a known system priority class`);
    }
  } else if (isInt(obj.value) && obj.value > 1000000000) {
    add(RULES.apiPriorityClass, 'value', 'Forbidden: maximum allowed value of a user defined priority is 1000000000');
  }
  if (obj.preemptionPolicy !== undefined && !['Never', 'PreemptLowerPriority'].includes(obj.preemptionPolicy)) {
    add(RULES.apiPriorityClass, 'preemptionPolicy', unsupported(obj.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
}
