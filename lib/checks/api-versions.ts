/**
 * API versions that Kubernetes removed before 1.28, or deprecated in it, with
 * their replacements, from the Deprecated API Migration Guide
 * (https://kubernetes.io/docs/reference/using-api/deprecation-guide/).
 */

/** A removed or deprecated apiVersion of a kind. */
export interface ApiChange {
  /** The Kubernetes version that removes (or will remove) it. */
  readonly removedIn: string;
  /** The apiVersion to use instead, or undefined when the API has no successor. */
  readonly replacement?: string;
  /** What to do when there is no successor, or what else changes. */
  readonly note?: string;
}

const removed = (removedIn: string, replacement?: string, note?: string): ApiChange => ({ removedIn, replacement, note });

/** `apiVersion/kind` (`extensions/v1beta1/DaemonSet`) of APIs removed in 1.28 or earlier. */
export const REMOVED_APIS: Readonly<Record<string, ApiChange>> = {
  'extensions/v1beta1/DaemonSet': removed('1.16', 'apps/v1', 'spec.selector is required and spec.templateGeneration is gone'),
  'extensions/v1beta1/Deployment': removed('1.16', 'apps/v1', 'spec.selector is required'),
  'extensions/v1beta1/ReplicaSet': removed('1.16', 'apps/v1'),
  'extensions/v1beta1/NetworkPolicy': removed('1.16', 'networking.k8s.io/v1'),
  'extensions/v1beta1/PodSecurityPolicy': removed('1.16', undefined, 'PodSecurityPolicy is gone since 1.25: label the namespace for Pod Security admission instead'),
  'extensions/v1beta1/Ingress': removed('1.22', 'networking.k8s.io/v1', 'backend.serviceName/servicePort became backend.service.name/port'),
  'apps/v1beta1/Deployment': removed('1.16', 'apps/v1'),
  'apps/v1beta1/StatefulSet': removed('1.16', 'apps/v1'),
  'apps/v1beta1/ControllerRevision': removed('1.16', 'apps/v1'),
  'apps/v1beta2/DaemonSet': removed('1.16', 'apps/v1'),
  'apps/v1beta2/Deployment': removed('1.16', 'apps/v1'),
  'apps/v1beta2/StatefulSet': removed('1.16', 'apps/v1'),
  'apps/v1beta2/ReplicaSet': removed('1.16', 'apps/v1'),
  'apps/v1beta2/ControllerRevision': removed('1.16', 'apps/v1'),
  'batch/v1beta1/CronJob': removed('1.25', 'batch/v1'),
  'batch/v2alpha1/CronJob': removed('1.21', 'batch/v1'),
  'policy/v1beta1/PodDisruptionBudget': removed('1.25', 'policy/v1', 'an empty spec.selector now selects every pod in the namespace'),
  'policy/v1beta1/PodSecurityPolicy': removed('1.25', undefined, 'label the namespace for Pod Security admission instead'),
  'rbac.authorization.k8s.io/v1beta1/ClusterRole': removed('1.22', 'rbac.authorization.k8s.io/v1'),
  'rbac.authorization.k8s.io/v1beta1/ClusterRoleBinding': removed('1.22', 'rbac.authorization.k8s.io/v1'),
  'rbac.authorization.k8s.io/v1beta1/Role': removed('1.22', 'rbac.authorization.k8s.io/v1'),
  'rbac.authorization.k8s.io/v1beta1/RoleBinding': removed('1.22', 'rbac.authorization.k8s.io/v1'),
  'scheduling.k8s.io/v1beta1/PriorityClass': removed('1.22', 'scheduling.k8s.io/v1'),
  'scheduling.k8s.io/v1alpha1/PriorityClass': removed('1.17', 'scheduling.k8s.io/v1'),
  'networking.k8s.io/v1beta1/Ingress': removed('1.22', 'networking.k8s.io/v1'),
  'networking.k8s.io/v1beta1/IngressClass': removed('1.22', 'networking.k8s.io/v1'),
  'apiextensions.k8s.io/v1beta1/CustomResourceDefinition': removed('1.22', 'apiextensions.k8s.io/v1', 'spec.versions[*].schema.openAPIV3Schema is required and structural'),
  'admissionregistration.k8s.io/v1beta1/MutatingWebhookConfiguration': removed('1.22', 'admissionregistration.k8s.io/v1'),
  'admissionregistration.k8s.io/v1beta1/ValidatingWebhookConfiguration': removed('1.22', 'admissionregistration.k8s.io/v1'),
  'certificates.k8s.io/v1beta1/CertificateSigningRequest': removed('1.22', 'certificates.k8s.io/v1'),
  'coordination.k8s.io/v1beta1/Lease': removed('1.22', 'coordination.k8s.io/v1'),
  'storage.k8s.io/v1beta1/CSIDriver': removed('1.22', 'storage.k8s.io/v1'),
  'storage.k8s.io/v1beta1/CSINode': removed('1.22', 'storage.k8s.io/v1'),
  'storage.k8s.io/v1beta1/StorageClass': removed('1.22', 'storage.k8s.io/v1'),
  'storage.k8s.io/v1beta1/VolumeAttachment': removed('1.22', 'storage.k8s.io/v1'),
  'storage.k8s.io/v1beta1/CSIStorageCapacity': removed('1.27', 'storage.k8s.io/v1'),
  'discovery.k8s.io/v1beta1/EndpointSlice': removed('1.25', 'discovery.k8s.io/v1'),
  'events.k8s.io/v1beta1/Event': removed('1.25', 'events.k8s.io/v1'),
  'autoscaling/v2beta1/HorizontalPodAutoscaler': removed('1.25', 'autoscaling/v2'),
  'autoscaling/v2beta2/HorizontalPodAutoscaler': removed('1.26', 'autoscaling/v2'),
  'flowcontrol.apiserver.k8s.io/v1beta1/FlowSchema': removed('1.26', 'flowcontrol.apiserver.k8s.io/v1beta3'),
  'flowcontrol.apiserver.k8s.io/v1beta1/PriorityLevelConfiguration': removed('1.26', 'flowcontrol.apiserver.k8s.io/v1beta3'),
  'node.k8s.io/v1beta1/RuntimeClass': removed('1.25', 'node.k8s.io/v1'),
};

/** APIs that 1.28 serves but deprecates, with the version that removes them. */
export const DEPRECATED_APIS: Readonly<Record<string, ApiChange>> = {
  'flowcontrol.apiserver.k8s.io/v1beta2/FlowSchema': removed('1.29', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta2/PriorityLevelConfiguration': removed('1.29', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema': removed('1.32', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration': removed('1.32', 'flowcontrol.apiserver.k8s.io/v1'),
};
