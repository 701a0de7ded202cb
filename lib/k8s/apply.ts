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
  const own = Object.entries(obj.metadata?.annotations ?? {}).filter(([k]) => k !== LAST_APPLIED_ANNOTATION)
    .reduce((n, [k, v]) => n + Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0), 0);
  return own + Buffer.byteLength(LAST_APPLIED_ANNOTATION) + lastAppliedSize(obj);
}

/** The problem of an object that `kubectl apply` cannot apply because it is too large, if it is. */
export function checkApplySize(prop: string, obj: { readonly kind?: unknown; readonly metadata?: { readonly name?: unknown; readonly annotations?: Record<string, unknown> } }): Problem | undefined {
  const size = annotationsSizeAfterApply(obj);
  return size <= ANNOTATIONS_SIZE_LIMIT ? undefined
    : `'${prop}' makes the ${String(obj.kind)} "${String(obj.metadata?.name)}" too large for \`kubectl apply\`: its annotations would hold ${size} bytes with the last-applied configuration, but the API server allows ${ANNOTATIONS_SIZE_LIMIT} ("metadata.annotations: Too long"); make it smaller, or apply it with \`kubectl apply --server-side\`, which keeps no such annotation`;
}

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES: Array<[number, string]> = [[18, 'E'], [15, 'P'], [12, 'T'], [9, 'G'], [6, 'M'], [3, 'k'], [0, ''], [-3, 'm']];

/**
 * A quantity in the form the API server stores it (k8s.io/apimachinery
 * pkg/api/resource: Quantity.String, CanonicalizeBytes): `2048Mi` is `2Gi`,
 * `1000m` is `1`, `0.5` is `500m`. A manifest that writes another form is
 * stored canonically, so every later `kubectl apply` reports a change.
 * Forms this does not know (exponents, nanos) are returned as they are.
 */
export function canonicalQuantity(value: string): string {
  const binary = /^(\d+)(Ki|Mi|Gi|Ti|Pi|Ei)$/.exec(value);
  if (binary) {
    let n = BigInt(binary[1]);
    let i = BINARY_SUFFIXES.indexOf(binary[2]);
    while (n !== 0n && n % 1024n === 0n && i < BINARY_SUFFIXES.length - 1) {
      n /= 1024n;
      i++;
    }
    return `${n}${BINARY_SUFFIXES[i]}`;
  }
  const decimal = /^(\d+)(?:\.(\d{1,3}))?(k|M|G|T|P|E|m)?$/.exec(value);
  if (!decimal || (decimal[2] !== undefined && decimal[3] === 'm')) {
    return value;
  }
  // The value in thousandths of a unit, exactly (at most three decimals, none with 'm').
  const exponent = DECIMAL_SUFFIXES.find(([, s]) => s === (decimal[3] ?? ''))![0];
  const thousandthsOfSuffix = BigInt(decimal[1]) * 1000n + BigInt((decimal[2] ?? '').padEnd(3, '0'));
  const milli = exponent >= 0 ? thousandthsOfSuffix * 10n ** BigInt(exponent) : thousandthsOfSuffix / 1000n;
  if (milli === 0n) {
    return '0';
  }
  for (const [e, suffix] of DECIMAL_SUFFIXES) {
    const divisor = 10n ** BigInt(e + 3);
    if (milli % divisor === 0n) {
      return `${milli / divisor}${suffix}`;
    }
  }
  return value;
}
