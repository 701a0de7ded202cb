/**
 * The API server's own field validation, ported from Kubernetes' validation
 * code (release-1.28, and what changed after it by version in
 * ./api/versioned.ts), one module per API group as upstream keeps it
 * (./api/core-pod.ts, ./api/core-volumes.ts, ./api/core-resources.ts and ./api/core.ts: pkg/apis/core/validation; ./api/apps.ts:
 * pkg/apis/apps/validation; and batch, rbac, policy, scheduling, networking,
 * autoscaling). Each rule
 * names its functions in RULES (./rules.ts); messages follow the server's
 * wording ("Required value", "Unsupported value", "Invalid value", "Not
 * found", "Forbidden") so that a finding reads like the refusal it prevents.
 *
 * It judges what the schema check cannot: values and combinations. Wrong
 * JSON types are the schema's; here such fields are skipped.
 */
import { checkDaemonSet, checkDeploymentLike } from './api/apps';
import { checkHorizontalPodAutoscaler } from './api/autoscaling';
import { checkJob } from './api/batch';
import { Add } from './api/common';
import { checkConfig, checkNamespace, checkReplicationController, checkService } from './api/core';
import { checkPod } from './api/core-pod';
import { checkLimitRange, checkPersistentVolumeClaim, checkResourceQuota } from './api/core-resources';
import { checkMeta } from './api/meta';
import { checkIngress, checkNetworkPolicy } from './api/networking';
import { checkPodAnnotations } from './api/pod-annotations';
import { portWarnings } from './api/pod-warnings';
import { checkPdb } from './api/policy';
import { checkRbac } from './api/rbac';
import { checkPriorityClass } from './api/scheduling';
import { checkVersionedJobSpec, checkVersionedPod, checkVersionedService, versionedWarnings } from './api/versioned';
import { FieldProblem,KubeObject } from './finding';
import { PodTemplate } from './pod-templates';
import { DEFAULT_KUBERNETES_VERSION, KubernetesVersion } from './versions';

/** The API server's field validation of one object, at a version. */
export function checkApiValidation(obj: KubeObject, pod: PodTemplate | undefined, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add: Add = (rule, path, message) => problems.push({ rule, path, message });
  checkMeta(add, obj);
  if (pod) {
    const claims: unknown[] = obj.kind === 'StatefulSet' && Array.isArray(obj.spec?.volumeClaimTemplates) ? obj.spec.volumeClaimTemplates : [];
    checkPod(add, pod, claims.map((c) => (c as KubeObject | null)?.metadata?.name).filter((n): n is string => typeof n === 'string'), version);
    checkVersionedPod(add, pod, version);
    checkPodAnnotations(add, pod);
    problems.push(...portWarnings(pod));
  }
  problems.push(...versionedWarnings(obj, pod, version));
  switch (obj.kind) {
    case 'DaemonSet': checkDaemonSet(add, obj, pod); break;
    case 'Deployment': case 'StatefulSet': case 'ReplicaSet': checkDeploymentLike(add, obj, pod); break;
    case 'Job': case 'CronJob': {
      checkJob(add, obj, pod);
      const jobSpec = obj.kind === 'Job' ? obj.spec : obj.spec?.jobTemplate?.spec;
      if (jobSpec !== null && typeof jobSpec === 'object') checkVersionedJobSpec(add, obj.kind === 'Job' ? 'spec' : 'spec.jobTemplate.spec', jobSpec, version);
      break;
    }
    case 'Service': checkService(add, obj); checkVersionedService(add, obj, version); break;
    case 'ConfigMap': case 'Secret': checkConfig(add, obj); break;
    case 'Namespace': checkNamespace(add, obj); break;
    case 'PersistentVolumeClaim': checkPersistentVolumeClaim(add, obj); break;
    case 'ResourceQuota': checkResourceQuota(add, obj); break;
    case 'LimitRange': checkLimitRange(add, obj); break;
    case 'ReplicationController': checkReplicationController(add, obj, pod); break;
    case 'Role': case 'ClusterRole': case 'RoleBinding': case 'ClusterRoleBinding': checkRbac(add, obj); break;
    case 'PriorityClass': checkPriorityClass(add, obj); break;
    case 'PodDisruptionBudget': checkPdb(add, obj); break;
    case 'Ingress': checkIngress(add, obj); break;
    case 'NetworkPolicy': checkNetworkPolicy(add, obj); break;
    case 'HorizontalPodAutoscaler': checkHorizontalPodAutoscaler(add, obj); break;
    default:
  }
  return problems;
}
