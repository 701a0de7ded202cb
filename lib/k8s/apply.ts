/**
 * What `kubectl apply` (client-side, the documented way) adds to an object:
 * the annotation `kubectl.kubernetes.io/last-applied-configuration` holding
 * the object's JSON. The API server limits all annotations of an object to
 * 256 KiB together (k8s.io/apimachinery/pkg/api/validation:
 * ValidateAnnotationsSize, TotalAnnotationSizeLimitB), so an object whose
 * JSON is close to that size is refused with "metadata.annotations: Too long".
 */
import { Problem } from './syntax';

/** The annotation client-side apply writes. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The most bytes all annotations of one object may hold together. */
export const ANNOTATIONS_SIZE_LIMIT = 256 * 1024;

/**
 * The bytes of the last-applied annotation's value: the object's compact
 * JSON as Go's encoder writes it (`<`, `>` and `&` escaped as `\u003c`, five
 * bytes more each) and a newline.
 */
export function lastAppliedSize(obj: object): number {
  const json = JSON.stringify(obj);
  return Buffer.byteLength(json) + 5 * (json.match(/[<>&]/g)?.length ?? 0) + 1;
}

/**
 * The bytes the object's annotations hold after a client-side `kubectl
 * apply`: its own annotations (but a last-applied one, which apply replaces),
 * plus the last-applied one.
 */
export function annotationsSizeAfterApply(obj: { readonly metadata?: { readonly annotations?: Record<string, unknown> } }): number {
  // Apply replaces a last-applied annotation already there.
  const own = Object.fromEntries(Object.entries(obj.metadata?.annotations ?? {}).filter(([k]) => k !== LAST_APPLIED_ANNOTATION));
  return annotationsSize(own) + Buffer.byteLength(LAST_APPLIED_ANNOTATION) + lastAppliedSize(obj);
}

/** The bytes an object's annotations hold, as ValidateAnnotationsSize counts them: every key and value. */
export function annotationsSize(annotations: Record<string, unknown>): number {
  return Object.entries(annotations).reduce((n, [k, v]) => n + Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0), 0);
}

/** The problem of an object that `kubectl apply` cannot apply because it is too large, if it is. */
export function checkApplySize(prop: string, obj: { readonly kind?: unknown; readonly metadata?: { readonly name?: unknown; readonly annotations?: Record<string, unknown> } }): Problem | undefined {
  const size = annotationsSizeAfterApply(obj);
  return size <= ANNOTATIONS_SIZE_LIMIT ? undefined
    : `'${prop}' makes the ${String(obj.kind)} "${String(obj.metadata?.name)}" too large for \`kubectl apply\`: its annotations would hold ${size} bytes with the last-applied configuration, but the API server allows ${ANNOTATIONS_SIZE_LIMIT} ("metadata.annotations: Too long"); make it smaller, or apply it with \`kubectl apply --server-side\`, which keeps no such annotation`;
}
