/**
 * The API groups, versions and kinds each supported Kubernetes version
 * serves: those removed (with their replacements) and deprecated (with the
 * release that removes them), from the Deprecated API Migration Guide
 * (https://kubernetes.io/docs/reference/using-api/deprecation-guide/), as
 * pluto reports them; the kinds added after 1.28, from the release each
 * serves them; and the group versions a server serves by default (beta APIs
 * added since 1.24 are off by default: KEP-3136), as `kubectl api-versions`
 * lists them on a v1.32.13 and a v1.35.6 server.
 */
import { atLeast, KubernetesVersion } from './versions';

/** A removed or deprecated apiVersion of a kind. */
export interface ApiChange {
  /** The Kubernetes version that removes (or will remove) it; undefined when no removal is planned. */
  readonly removedIn?: string;
  /** The Kubernetes version that deprecates it, when it is removed after 1.28 (or not at all). */
  readonly deprecatedIn?: string;
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

const deprecated = (deprecatedIn: string, removedIn: string | undefined, replacement: string): ApiChange => ({ deprecatedIn, removedIn, replacement });

/**
 * APIs that a supported version serves but deprecates: each is a warning
 * naming the release that removes it from its `deprecatedIn` on (from 1.28
 * when it has none), and an error from its `removedIn`.
 */
export const DEPRECATED_APIS: Readonly<Record<string, ApiChange>> = {
  'flowcontrol.apiserver.k8s.io/v1beta2/FlowSchema': removed('1.29', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta2/PriorityLevelConfiguration': removed('1.29', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema': removed('1.32', 'flowcontrol.apiserver.k8s.io/v1'),
  'flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration': removed('1.32', 'flowcontrol.apiserver.k8s.io/v1'),
  // The API server warns "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice" (no removal planned).
  'v1/Endpoints': deprecated('1.33', undefined, 'discovery.k8s.io/v1 EndpointSlice'),
};

/** What a version does with an apiVersion/kind: removed (an error), deprecated (a warning), or neither. */
export function apiChange(gvk: string, version: KubernetesVersion): { removed: ApiChange } | { deprecated: ApiChange } | undefined {
  if (Object.prototype.hasOwnProperty.call(REMOVED_APIS, gvk)) return { removed: REMOVED_APIS[gvk] };
  const change = Object.prototype.hasOwnProperty.call(DEPRECATED_APIS, gvk) ? DEPRECATED_APIS[gvk] : undefined;
  if (change === undefined) return undefined;
  if (change.removedIn !== undefined && atLeast(version, change.removedIn)) return { removed: change };
  return change.deprecatedIn === undefined || atLeast(version, change.deprecatedIn) ? { deprecated: change } : undefined;
}

/**
 * Kinds that became generally available after 1.28, with the release that
 * first serves them: before it, a manifest of one is refused ("no matches
 * for kind").
 */
export const ADDED_APIS: Readonly<Record<string, string>> = {
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': '1.29',
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': '1.29',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': '1.30',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': '1.30',
  'networking.k8s.io/v1/IPAddress': '1.33',
  'networking.k8s.io/v1/ServiceCIDR': '1.33',
  'resource.k8s.io/v1/DeviceClass': '1.34',
  'resource.k8s.io/v1/ResourceClaim': '1.34',
  'resource.k8s.io/v1/ResourceClaimTemplate': '1.34',
  'resource.k8s.io/v1/ResourceSlice': '1.34',
  'storage.k8s.io/v1/VolumeAttributesClass': '1.34',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicy': '1.36',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding': '1.36',
};

/** The group versions every supported version from 1.31 serves by default (`kubectl api-versions` of v1.32.13). */
const SERVED_1_32 = [
  'admissionregistration.k8s.io/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1', 'apps/v1', 'authentication.k8s.io/v1',
  'authorization.k8s.io/v1', 'autoscaling/v1', 'autoscaling/v2', 'batch/v1', 'certificates.k8s.io/v1', 'coordination.k8s.io/v1',
  'discovery.k8s.io/v1', 'events.k8s.io/v1', 'flowcontrol.apiserver.k8s.io/v1', 'networking.k8s.io/v1', 'node.k8s.io/v1', 'policy/v1',
  'rbac.authorization.k8s.io/v1', 'scheduling.k8s.io/v1', 'storage.k8s.io/v1', 'v1',
];

/**
 * The group versions each version serves by default. 1.28 is judged as
 * before: every group version of its definitions but the alpha ones. 1.32
 * and 1.35 are what their servers list; 1.31 adds the deprecated
 * flowcontrol v1beta3 that 1.32 removes; 1.33 serves what 1.32 does (its new
 * betas are off); resource.k8s.io/v1 is served from 1.34 on.
 */
const SERVED: Readonly<Record<KubernetesVersion, readonly string[] | undefined>> = {
  '1.28': undefined,
  '1.31': [...SERVED_1_32, 'flowcontrol.apiserver.k8s.io/v1beta3'],
  '1.32': SERVED_1_32,
  '1.33': SERVED_1_32,
  '1.34': [...SERVED_1_32, 'resource.k8s.io/v1'],
  '1.35': [...SERVED_1_32, 'resource.k8s.io/v1'],
  '1.36': [...SERVED_1_32, 'resource.k8s.io/v1'],
};

/** Whether a version serves a group version (`apps/v1`, `v1`) by default. */
export function isServed(groupVersion: string, version: KubernetesVersion): boolean {
  const served = SERVED[version];
  return served === undefined ? !/alpha/.test(groupVersion) : served.includes(groupVersion);
}
