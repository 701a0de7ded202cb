/**
 * autoscaling/v2 (pkg/apis/autoscaling/validation, release-1.28):
 * HorizontalPodAutoscaler, its target, bounds and metrics.
 */
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, isInt, isRecord, list, unsupported } from './common';

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const TARGET_TYPES = ['AverageValue', 'Utilization', 'Value'];

/** validateMetricTarget: a type, and the value it names. */
function checkTarget(add: Add, path: string, target: unknown): void {
  if (!isRecord(target)) {
    add(RULES.apiAutoscaling, path, 'Required value: must specify a metric target');
    return;
  }
  if (!TARGET_TYPES.includes(target.type as string)) {
    add(RULES.apiAutoscaling, join(path, 'type'), `Invalid value: ${show(target.type ?? '')}: must be either Utilization, Value, or AverageValue`);
  }
  if (isInt(target.averageUtilization) && target.averageUtilization < 1) {
    add(RULES.apiAutoscaling, join(path, 'averageUtilization'), `Invalid value: ${target.averageUtilization}: must be greater than 0`);
  }
  if (target.type === 'Utilization' && target.averageUtilization === undefined) {
    add(RULES.apiAutoscaling, join(path, 'averageUtilization'), 'Required value: must set averageUtilization when metric target type is Utilization');
  }
}

/** ValidateHorizontalPodAutoscaler: the target reference, minReplicas at most maxReplicas, each metric of a known type with its source. */
export function checkHorizontalPodAutoscaler(add: Add, obj: KubeObject): void {
  if (obj.apiVersion !== 'autoscaling/v2') return;
  const spec = isRecord(obj.spec) ? obj.spec : {};
  const ref = isRecord(spec.scaleTargetRef) ? spec.scaleTargetRef : {};
  for (const field of ['kind', 'name']) {
    if (typeof ref[field] !== 'string' || ref[field] === '') add(RULES.apiAutoscaling, join('spec', 'scaleTargetRef', field), 'Required value');
  }
  if (isInt(spec.minReplicas) && spec.minReplicas < 1) {
    add(RULES.apiAutoscaling, 'spec.minReplicas', `Invalid value: ${spec.minReplicas}: must be greater than or equal to 1`);
  }
  if (isInt(spec.maxReplicas) && spec.maxReplicas < Math.max(1, isInt(spec.minReplicas) ? spec.minReplicas : 1)) {
    add(RULES.apiAutoscaling, 'spec.maxReplicas', `Invalid value: ${spec.maxReplicas}: must be greater than or equal to \`minReplicas\``);
  }
  list(spec.metrics).forEach((m, i) => {
    const at = join('spec', 'metrics', i);
    if (!METRIC_TYPES.includes(m.type)) {
      add(RULES.apiAutoscaling, join(at, 'type'), unsupported(m.type ?? '', METRIC_TYPES));
      return;
    }
    const source = { ContainerResource: 'containerResource', External: 'external', Object: 'object', Pods: 'pods', Resource: 'resource' }[m.type as string]!;
    if (!isRecord(m[source])) {
      add(RULES.apiAutoscaling, join(at, source), `Required value: must populate information for the given metric source (type ${m.type})`);
      return;
    }
    checkTarget(add, join(at, source, 'target'), m[source].target);
  });
}
