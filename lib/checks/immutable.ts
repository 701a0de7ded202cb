/**
 * Fields the API server refuses to change on update: the `*Update`
 * validation functions of pkg/apis/<group>/validation. A change to one of
 * these cannot be applied; the object has to be deleted (its pods orphaned
 * where it owns pods) and created again.
 *
 * Each rule here is one a real v1.32 and v1.35 server refuses, proven by
 * e2e/diff.ts (it applies the old object and then the new one).
 */
import { isRecord } from '../k8s/syntax';
import { KubeObject } from './finding';

/** A change the API server refuses on update. */
export interface ImmutableChange {
  /** The field, e.g. `spec.selector`. */
  readonly path: string;
  /** The server's validation function, e.g. `pkg/apis/apps/validation: ValidateDaemonSetUpdate`. */
  readonly citation: string;
  /** How to make the change anyway. */
  readonly recipe: string;
}

/** The value at a dotted path (no array indexes). */
function at(obj: KubeObject, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), obj);
}

/** JSON equality of two decoded values, with key order ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/** Empty lists and maps, and null, as absent: a Go nil and an empty slice or map decode alike to apiequality.Semantic.DeepEqual. */
const isEmpty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).every((k) => v[k] === undefined));

/**
 * Equality as the update validation compares (ValidateImmutableField and the
 * `*Update` functions use apiequality.Semantic.DeepEqual, which takes an
 * empty slice or map for nil): `matchExpressions: []` is no change.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => semanticEqual(a[k], b[k]));
  return sameValue(a, b);
}

/**
 * A StatefulSet's volumeClaimTemplates as stored: each claim defaulted as a
 * PersistentVolumeClaim (pkg/apis/core/v1/defaults.go:
 * SetDefaults_PersistentVolumeClaimSpec, volumeMode Filesystem;
 * SetDefaults_PersistentVolumeClaim, status.phase Pending).
 */
function storedClaims(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((claim) => {
    if (!isRecord(claim)) return claim;
    const spec = isRecord(claim.spec) ? claim.spec : {};
    const status = isRecord(claim.status) ? claim.status : {};
    return { ...claim, spec: { ...spec, volumeMode: spec.volumeMode ?? 'Filesystem' }, status: { ...status, phase: status.phase ?? 'Pending' } };
  });
}

/** `kind/name` as kubectl names it, with `-n NAMESPACE` when namespaced. */
function kubectlTarget(obj: KubeObject): string {
  const namespace = typeof obj.metadata?.namespace === 'string' ? ` -n ${obj.metadata.namespace}` : '';
  return `${String(obj.kind).toLowerCase()}/${String(obj.metadata?.name ?? '')}${namespace}`;
}

const orphan = (obj: KubeObject) => `kubectl delete ${kubectlTarget(obj)} --cascade=orphan, then apply the new manifest (its pods keep running meanwhile; pods the new selector does not match stay behind: delete them once the new ones run)`;
const recreateCrd = (obj: KubeObject) => `no update can do it: kubectl delete ${kubectlTarget(obj)} deletes every custom resource of it (back them up first: kubectl get ${String(isRecord(obj.spec) && isRecord(obj.spec.names) ? obj.spec.names.plural : '')} -A -o yaml), then apply the new manifest and restore them`;
const recreate = (obj: KubeObject) => `kubectl delete ${kubectlTarget(obj)}, then apply the new manifest (or kubectl replace --force -f with it)`;

/** One immutable field: where, whose rule, and when a change counts. */
interface Rule {
  readonly kinds: readonly string[];
  readonly path: string;
  readonly citation: string;
  readonly recipe: (obj: KubeObject) => string;
  /** Whether this old/new pair is refused (default: the values differ). */
  readonly refused?: (old: KubeObject, next: KubeObject) => boolean;
}

/**
 * A field the server defaults or allocates is kept from the old object when
 * the new one leaves it out (the registry strategies' PrepareForUpdate), so
 * only a different value that is set is a change.
 */
const setAndDifferent = (path: string) => (old: KubeObject, next: KubeObject) => {
  const [a, b] = [at(old, path), at(next, path)];
  return a !== undefined && b !== undefined && a !== '' && b !== '' && !sameValue(a, b);
};

/** @internal A Secret's data as the server stores it: stringData written (base64) over data (pkg/apis/core/v1 conversion). */
export function secretData(secret: KubeObject): Record<string, unknown> {
  const data: Record<string, unknown> = { ...(isRecord(secret.data) ? secret.data : {}) };
  for (const [k, v] of Object.entries(isRecord(secret.stringData) ? secret.stringData : {})) data[k] = Buffer.from(String(v), 'utf-8').toString('base64');
  return data;
}

/** The StatefulSet spec fields ValidateStatefulSetUpdate lets change; any other spec field may not. */
const STATEFULSET_MUTABLE = new Set(['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds']);

const RULES: readonly Rule[] = [
  { kinds: ['apps/DaemonSet'], path: 'spec.selector', citation: 'pkg/apis/apps/validation: ValidateDaemonSetUpdate (field is immutable)', recipe: orphan },
  { kinds: ['apps/Deployment'], path: 'spec.selector', citation: 'pkg/apis/apps/validation: ValidateDeploymentUpdate (field is immutable)', recipe: orphan },
  { kinds: ['apps/ReplicaSet'], path: 'spec.selector', citation: 'pkg/apis/apps/validation: ValidateReplicaSetUpdate (field is immutable)', recipe: orphan },
  ...['selector', 'serviceName', 'podManagementPolicy', 'volumeClaimTemplates'].map((field): Rule => ({
    kinds: ['apps/StatefulSet'], path: `spec.${field}`, recipe: orphan,
    ...(field === 'volumeClaimTemplates' ? { refused: (old: KubeObject, next: KubeObject) => !semanticEqual(storedClaims(at(old, 'spec.volumeClaimTemplates')), storedClaims(at(next, 'spec.volumeClaimTemplates'))) } : {}),
    citation: `pkg/apis/apps/validation: ValidateStatefulSetUpdate (updates to statefulset spec for fields other than ${[...STATEFULSET_MUTABLE].map((f) => `'${f}'`).join(', ')} are forbidden)`,
  })),
  { kinds: ['batch/Job'], path: 'spec.template', citation: 'pkg/apis/batch/validation: ValidateJobSpecUpdate (field is immutable; only a suspended Job may change its scheduling directives)', recipe: orphan },
  { kinds: ['batch/Job'], path: 'spec.completionMode', citation: 'pkg/apis/batch/validation: ValidateJobSpecUpdate (field is immutable)', recipe: orphan, refused: (old, next) => (at(old, 'spec.completionMode') ?? 'NonIndexed') !== (at(next, 'spec.completionMode') ?? 'NonIndexed') },
  { kinds: ['core/Service'], path: 'spec.clusterIP', citation: 'pkg/apis/core/validation: ValidateServiceUpdate (spec.clusterIPs[0]: may not change once set)', recipe: recreate, refused: (old, next) => at(next, 'spec.type') !== 'ExternalName' && setAndDifferent('spec.clusterIP')(old, next) },
  { kinds: ['core/Secret'], path: 'type', citation: 'pkg/apis/core/validation: ValidateSecretUpdate (field is immutable)', recipe: recreate, refused: (old, next) => (old.type ?? 'Opaque') !== (next.type ?? 'Opaque') },
  ...['data', 'binaryData'].map((field): Rule => ({
    kinds: ['core/ConfigMap'], path: field, recipe: recreate,
    citation: 'pkg/apis/core/validation: ValidateConfigMapUpdate (field is immutable when `immutable` is set)',
    refused: (old, next) => old.immutable === true && !sameValue(old[field], next[field]),
  })),
  {
    kinds: ['core/Secret'], path: 'data', recipe: recreate,
    citation: 'pkg/apis/core/validation: ValidateSecretUpdate (field is immutable when `immutable` is set; stringData is written into data)',
    refused: (old, next) => old.immutable === true && !sameValue(secretData(old), secretData(next)),
  },
  {
    kinds: ['core/ConfigMap', 'core/Secret'], path: 'immutable', recipe: recreate,
    citation: 'pkg/apis/core/validation: ValidateConfigMapUpdate, ValidateSecretUpdate (field is immutable when `immutable` is set)',
    refused: (old, next) => old.immutable === true && next.immutable !== true,
  },
  {
    kinds: ['rbac.authorization.k8s.io/RoleBinding', 'rbac.authorization.k8s.io/ClusterRoleBinding'], path: 'roleRef',
    citation: 'pkg/apis/rbac/validation: ValidateRoleBindingUpdate, ValidateClusterRoleBindingUpdate (cannot change roleRef)',
    recipe: (obj) => `kubectl auth reconcile -f the new manifest (it deletes and re-creates a binding whose roleRef changed), or kubectl delete ${kubectlTarget(obj)} and apply`,
  },
  // apiextensions-apiserver validation.go: validateCustomResourceDefinitionSpecUpdate (v1.28 to v1.36): scope and
  // names.kind once Established (a CRD the cluster serves is), group and names.plural always (they make its name).
  ...(['spec.scope', 'spec.names.kind', 'spec.group', 'spec.names.plural'] as const).map((path): Rule => ({
    kinds: ['apiextensions.k8s.io/CustomResourceDefinition'], path, recipe: recreateCrd,
    citation: `apiextensions-apiserver/pkg/apis/apiextensions/validation: validateCustomResourceDefinitionSpecUpdate (field is immutable${path === 'spec.scope' || path === 'spec.names.kind' ? ' once the CRD is Established' : ''})`,
  })),
  ...['provisioner', 'parameters', 'reclaimPolicy', 'volumeBindingMode'].map((field): Rule => ({
    kinds: ['storage.k8s.io/StorageClass'], path: field, recipe: recreate,
    citation: `pkg/apis/storage/validation: ValidateStorageClassUpdate (updates to ${field} are forbidden)`,
    refused: field === 'reclaimPolicy' ? (old, next) => (old.reclaimPolicy ?? 'Delete') !== (next.reclaimPolicy ?? 'Delete')
      : field === 'volumeBindingMode' ? (old, next) => (old.volumeBindingMode ?? 'Immediate') !== (next.volumeBindingMode ?? 'Immediate') : undefined,
  })),
];

/** `group/Kind` of an object (`core` for the legacy group). */
export function groupKind(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  return `${slash < 0 ? 'core' : apiVersion.slice(0, slash)}/${String(obj.kind)}`;
}

/**
 * The changes from `old` to `next` (one object, same kind, namespace and
 * name) that the API server refuses on update.
 */
export function immutableChanges(old: KubeObject, next: KubeObject): ImmutableChange[] {
  const kind = groupKind(next);
  return RULES
    .filter((r) => r.kinds.includes(kind) && (r.refused ? r.refused(old, next) : !semanticEqual(at(old, r.path), at(next, r.path))))
    .map((r) => ({ path: r.path, citation: r.citation, recipe: r.recipe(next) }));
}
