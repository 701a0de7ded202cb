/**
 * apps/v1 workloads (pkg/apis/apps/validation): DaemonSet, Deployment,
 * StatefulSet, ReplicaSet.
 */
import { join, KubeObject, show } from '../finding';
import { PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, checkLabelSelector, checkNonNegative, intOrPercent, isInt, isRecord, unsupported } from './common';
import { checkTemplateRestartPolicy } from './core-pod';

/** ValidateDaemonSet: ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet. */
export function checkDaemonSet(add: Add, obj: KubeObject, pod: PodTemplate | undefined): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (!isRecord(spec.selector)) add(RULES.apiDaemonSet, 'spec.selector', 'Required value');
  checkLabelSelector(add, 'spec.selector', spec.selector);
  if (!pod) return;
  checkTemplateRestartPolicy(add, RULES.apiDaemonSet, pod, ['Always']);
  if (pod.spec.activeDeadlineSeconds !== undefined) add(RULES.apiDaemonSet, join(pod.specPath, 'activeDeadlineSeconds'), 'Forbidden: activeDeadlineSeconds in DaemonSet is not Supported');
  checkNonNegative(add, RULES.apiDaemonSet, 'spec.minReadySeconds', spec.minReadySeconds);
  checkNonNegative(add, RULES.apiDaemonSet, 'spec.revisionHistoryLimit', spec.revisionHistoryLimit);
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : undefined;
  if (!strategy) return;
  const type = strategy.type ?? 'RollingUpdate';
  if (!['RollingUpdate', 'OnDelete'].includes(type)) {
    add(RULES.apiDaemonSet, 'spec.updateStrategy.type', unsupported(type, ['OnDelete', 'RollingUpdate']));
    return;
  }
  // ValidateDaemonSetUpdateStrategy ignores rollingUpdate with OnDelete (unlike a Deployment's Recreate).
  if (type === 'RollingUpdate' && isRecord(strategy.rollingUpdate)) {
    // Unset, maxUnavailable is 1 and maxSurge 0; an invalid value is reported by intOrPercent.
    const unavailableZero = (intOrPercent(add, RULES.apiDaemonSet, 'spec.updateStrategy.rollingUpdate.maxUnavailable', strategy.rollingUpdate.maxUnavailable) ?? { zero: false }).zero;
    const surge = intOrPercent(add, RULES.apiDaemonSet, 'spec.updateStrategy.rollingUpdate.maxSurge', strategy.rollingUpdate.maxSurge) ?? { zero: true };
    if (unavailableZero && surge.zero) {
      add(RULES.apiDaemonSet, 'spec.updateStrategy.rollingUpdate.maxUnavailable', 'Invalid value: 0: may not be 0 when `maxSurge` is 0');
    }
    if (!unavailableZero && !surge.zero) {
      add(RULES.apiDaemonSet, 'spec.updateStrategy.rollingUpdate.maxSurge', `Invalid value: ${show(strategy.rollingUpdate.maxSurge)}: may not be set when maxUnavailable is non-zero`);
    }
  }
}

/** ValidateDeploymentSpec, ValidateStatefulSetSpec, ValidateReplicaSetSpec. */
export function checkDeploymentLike(add: Add, obj: KubeObject, pod: PodTemplate | undefined): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  checkNonNegative(add, RULES.apiDeployment, 'spec.replicas', spec.replicas);
  checkNonNegative(add, RULES.apiDeployment, 'spec.minReadySeconds', spec.minReadySeconds);
  checkNonNegative(add, RULES.apiDeployment, 'spec.revisionHistoryLimit', spec.revisionHistoryLimit);
  if (!isRecord(spec.selector)) add(RULES.apiDeployment, 'spec.selector', 'Required value');
  checkLabelSelector(add, 'spec.selector', spec.selector);
  if (pod) checkTemplateRestartPolicy(add, RULES.apiDeployment, pod, ['Always']);
  if (pod?.spec.activeDeadlineSeconds !== undefined) add(RULES.apiDeployment, join(pod.specPath, 'activeDeadlineSeconds'), `Forbidden: activeDeadlineSeconds in ${obj.kind} is not Supported`);
  if (obj.kind === 'Deployment' && isRecord(spec.strategy)) {
    const type = spec.strategy.type ?? 'RollingUpdate';
    if (!['Recreate', 'RollingUpdate'].includes(type)) {
      add(RULES.apiDeployment, 'spec.strategy.type', unsupported(type, ['Recreate', 'RollingUpdate']));
    } else if (type === 'Recreate' && spec.strategy.rollingUpdate !== undefined) {
      add(RULES.apiDeployment, 'spec.strategy.rollingUpdate', "Forbidden: may not be specified when strategy `type` is 'Recreate'");
    } else if (isRecord(spec.strategy.rollingUpdate)) {
      const ru = spec.strategy.rollingUpdate;
      const unavailable = intOrPercent(add, RULES.apiDeployment, 'spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable);
      const surge = intOrPercent(add, RULES.apiDeployment, 'spec.strategy.rollingUpdate.maxSurge', ru.maxSurge);
      if (unavailable?.zero && surge?.zero) {
        add(RULES.apiDeployment, 'spec.strategy.rollingUpdate.maxUnavailable', 'Invalid value: 0: may not be 0 when `maxSurge` is 0');
      }
    }
  }
  if (obj.kind === 'Deployment' && isInt(spec.progressDeadlineSeconds) && isInt(spec.minReadySeconds) && spec.progressDeadlineSeconds <= spec.minReadySeconds) {
    add(RULES.apiDeployment, 'spec.progressDeadlineSeconds', `Invalid value: ${spec.progressDeadlineSeconds}: must be greater than minReadySeconds`);
  }
  if (obj.kind === 'StatefulSet') {
    // ValidateStatefulSetSpec: the first ordinal (StatefulSetStartOrdinal, on by default since 1.27).
    if (isRecord(spec.ordinals)) checkNonNegative(add, RULES.apiDeployment, 'spec.ordinals.start', spec.ordinals.start);
    if (spec.podManagementPolicy !== undefined && !['OrderedReady', 'Parallel'].includes(spec.podManagementPolicy)) {
      add(RULES.apiDeployment, 'spec.podManagementPolicy', unsupported(spec.podManagementPolicy, ['OrderedReady', 'Parallel']));
    }
    if (isRecord(spec.updateStrategy) && spec.updateStrategy.type !== undefined && !['RollingUpdate', 'OnDelete'].includes(spec.updateStrategy.type)) {
      add(RULES.apiDeployment, 'spec.updateStrategy.type', unsupported(spec.updateStrategy.type, ['OnDelete', 'RollingUpdate']));
    }
  }
}
