/**
 * Object metadata (staging/src/k8s.io/apimachinery/pkg/api/validation:
 * ValidateObjectMeta), for every kind. The name's syntax is the name function
 * each kind's validation passes to ValidateObjectMeta; a kind whose
 * validation passes none gets only the generic registry's
 * (apiserver/pkg/registry/rest: BeforeCreate, path.ValidatePathSegmentName).
 */
import { ANNOTATIONS_SIZE_LIMIT, annotationsSize } from '../../k8s/apply';
import { checkQualifiedName, DNS1035_LABEL, DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, invalid, isRecord } from './common';

/** A name function: the problem of a name, or undefined. */
interface NameFunction {
  /** The upstream function and what it checks, for the message. */
  readonly source: string;
  /** The problem of a name (or of a generateName prefix), as the server words it. */
  check(name: string, prefix: boolean): string | undefined;
}

/** NameIsDNS*: a generateName prefix may end in '-' (maskTrailingDash). */
function masked(name: string, prefix: boolean): string {
  return prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

const subdomain = (source: string): NameFunction => ({
  source: `${source}: a DNS-1123 subdomain`,
  check: (name, prefix) => {
    const n = masked(name, prefix);
    if (n.length > 253) return 'must be no more than 253 characters';
    return DNS1123_SUBDOMAIN.test(n) ? undefined : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  },
});

const label = (source: string): NameFunction => ({
  source: `${source}: a DNS-1123 label`,
  check: (name, prefix) => {
    const n = masked(name, prefix);
    if (n.length > 63) return 'must be no more than 63 characters';
    return DNS1123_LABEL.test(n) ? undefined : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  },
});

const dns1035 = (source: string): NameFunction => ({
  source: `${source}: a DNS-1035 label`,
  check: (name, prefix) => {
    const n = masked(name, prefix);
    if (n.length > 63) return 'must be no more than 63 characters';
    return DNS1035_LABEL.test(n) ? undefined : "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  },
});

const pathSegment = (source: string): NameFunction => ({
  source: `${source}: a path segment name (anything but '.', '..', '/' and '%')`,
  check: (name, prefix) => {
    if (!prefix && (name === '.' || name === '..')) return `may not be '${name}'`;
    if (name.includes('/')) return "may not contain '/'";
    if (name.includes('%')) return "may not contain '%'";
    return undefined;
  },
});

/**
 * The name function of each built-in kind, by kind (release-1.28; each one
 * was also asked of a real 1.32 API server with names such as "Foo", "a:b",
 * "a.b" and "1abc").
 */
const NAME_FUNCTIONS: Record<string, NameFunction> = {
  Namespace: label('pkg/apis/core/validation: ValidateNamespaceName'),
  Service: dns1035('pkg/apis/core/validation: ValidateServiceName'),
  StatefulSet: label('pkg/apis/apps/validation: ValidateStatefulSetName (a label since 1.27: the name becomes the pods\' hostname)'),
  Role: pathSegment('pkg/apis/rbac/validation: ValidateRBACName'),
  ClusterRole: pathSegment('pkg/apis/rbac/validation: ValidateRBACName'),
  RoleBinding: pathSegment('pkg/apis/rbac/validation: ValidateRBACName'),
  ClusterRoleBinding: pathSegment('pkg/apis/rbac/validation: ValidateRBACName'),
  // policy/validation's ValidatePodDisruptionBudget validates no name: the generic registry's rule applies.
  PodDisruptionBudget: pathSegment('apiserver/pkg/registry/rest: BeforeCreate (ValidatePodDisruptionBudget adds no name rule)'),
  Pod: subdomain('pkg/apis/core/validation: ValidatePodName'),
  PodTemplate: subdomain('pkg/apis/core/validation: ValidatePodName'),
  ReplicationController: subdomain('pkg/apis/core/validation: ValidateReplicationControllerName'),
  ConfigMap: subdomain('pkg/apis/core/validation: ValidateConfigMapName'),
  Secret: subdomain('pkg/apis/core/validation: ValidateSecretName'),
  ServiceAccount: subdomain('pkg/apis/core/validation: ValidateServiceAccountName'),
  Endpoints: subdomain('pkg/apis/core/validation: ValidateEndpointsName'),
  Node: subdomain('pkg/apis/core/validation: ValidateNodeName'),
  PersistentVolume: subdomain('pkg/apis/core/validation: ValidatePersistentVolumeName'),
  PersistentVolumeClaim: subdomain('pkg/apis/core/validation: ValidatePersistentVolumeName'),
  LimitRange: subdomain('pkg/apis/core/validation: ValidateLimitRangeName'),
  ResourceQuota: subdomain('pkg/apis/core/validation: ValidateResourceQuotaName'),
  DaemonSet: subdomain('pkg/apis/apps/validation: ValidateDaemonSetName'),
  Deployment: subdomain('pkg/apis/apps/validation: ValidateDeploymentName'),
  ReplicaSet: subdomain('pkg/apis/apps/validation: ValidateReplicaSetName'),
  ControllerRevision: subdomain('pkg/apis/apps/validation: ValidateControllerRevisionName'),
  Job: subdomain('pkg/apis/batch/validation: ValidateJob (ValidateReplicationControllerName)'),
  CronJob: subdomain('pkg/apis/batch/validation: ValidateCronJob (ValidateReplicationControllerName)'),
  PriorityClass: subdomain('pkg/apis/scheduling/validation: ValidatePriorityClass (NameIsDNSSubdomain)'),
};

/** The name function for the other built-in kinds and for custom resources (apiextensions: NameIsDNSSubdomain). */
const DEFAULT_NAME_FUNCTION = subdomain('ValidateObjectMeta (NameIsDNSSubdomain, the name function of the other kinds)');

/** The finalizers every name may use without a domain (pkg/apis/core: FinalizerKubernetes; metav1: FinalizerOrphanDependents, FinalizerDeleteDependents). */
const STANDARD_FINALIZERS = ['foregroundDeletion', 'kubernetes', 'orphan'];

/**
 * ValidateFinalizerName: a qualified name (apimachinery's ValidateFinalizerName);
 * for the built-in kinds also a standard finalizer or one with a domain
 * (pkg/apis/core/validation: ValidateFinalizerName). Namespaces' spec.finalizers too.
 */
export function checkFinalizers(add: Add, path: string, finalizers: unknown, builtIn: boolean, indexed = true): void {
  if (!Array.isArray(finalizers)) return;
  finalizers.forEach((name, i) => {
    if (typeof name !== 'string') return;
    const at = indexed ? join(path, i) : path;
    const problem = checkQualifiedName('finalizer', name);
    if (problem) add(RULES.apiObjectMeta, at, invalid(name, problem)!);
    else if (builtIn && !name.includes('/') && !STANDARD_FINALIZERS.includes(name)) add(RULES.apiObjectMeta, at, `Invalid value: ${show(name)}: name is neither a standard finalizer name nor is it fully qualified`);
  });
}

/** ValidateOwnerReferences: each reference complete (validateOwnerReference), at most one the controller. */
function checkOwnerReferences(add: Add, refs: unknown): void {
  if (!Array.isArray(refs)) return;
  const controllers: string[] = [];
  refs.forEach((ref, i) => {
    if (!isRecord(ref)) return;
    const at = join('metadata', 'ownerReferences', i);
    const version = typeof ref.apiVersion === 'string' ? ref.apiVersion.split('/').pop() : undefined;
    if (typeof ref.apiVersion === 'string' && (version === '' || ref.apiVersion.split('/').length > 2)) add(RULES.apiObjectMeta, join(at, 'apiVersion'), `Invalid value: ${show(ref.apiVersion)}: version must not be empty`);
    for (const field of ['kind', 'name', 'uid']) {
      if (ref[field] === '') add(RULES.apiObjectMeta, join(at, field), `Invalid value: "": ${field} must not be empty`);
    }
    if (ref.apiVersion === 'v1' && ref.kind === 'Event') add(RULES.apiObjectMeta, join(at, 'kind'), 'Invalid value: "Event": is not allowed (an Event cannot own objects)');
    if (ref.controller === true) controllers.push(`${String(ref.kind)}/${String(ref.name)}`);
  });
  if (controllers.length > 1) add(RULES.apiObjectMeta, 'metadata.ownerReferences', `Invalid value: Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`);
}

/**
 * ValidateObjectMeta: a name of the kind's syntax, a valid generateName
 * prefix, the annotations' size, finalizers and owner references. `custom`:
 * a custom resource, whose finalizers need only be qualified names.
 */
export function checkMeta(add: Add, obj: KubeObject, custom = false): void {
  const meta = isRecord(obj.metadata) ? obj.metadata : {};
  const nameFunction = NAME_FUNCTIONS[obj.kind] ?? DEFAULT_NAME_FUNCTION;
  const hasName = typeof meta.name === 'string' && meta.name !== '';
  const hasGenerateName = typeof meta.generateName === 'string' && meta.generateName !== '';
  if (!hasName && !hasGenerateName) {
    add(RULES.apiObjectMeta, 'metadata.name', 'Required value: name or generateName is required');
  } else if (!hasName) {
    add(RULES.kubectlApply, 'metadata.generateName', `from ${meta.generateName}: cannot use generate name with apply`);
  }
  for (const [field, prefix] of [['name', false], ['generateName', true]] as const) {
    if (typeof meta[field] === 'string' && meta[field] !== '') {
      const problem = nameFunction.check(meta[field], prefix);
      if (problem) add(RULES.apiObjectMeta, join('metadata', field), `Invalid value: ${show(meta[field])}: ${problem} (${nameFunction.source})`);
    }
  }
  checkFinalizers(add, 'metadata.finalizers', meta.finalizers, !custom);
  checkOwnerReferences(add, meta.ownerReferences);
  if (isRecord(meta.annotations)) {
    // ValidateAnnotationsSize.
    if (annotationsSize(meta.annotations) > ANNOTATIONS_SIZE_LIMIT) add(RULES.apiObjectMeta, 'metadata.annotations', `Too long: must have at most ${ANNOTATIONS_SIZE_LIMIT} bytes`);
  }
}
