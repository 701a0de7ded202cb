/**
 * Every prop rule of this library in one place.
 *
 * Each function returns nothing when the value is acceptable and throws an
 * Error whose message names the prop, quotes the value it got and says what
 * is allowed, for example:
 *
 *   'version' must match /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/ but got "v1; rm -rf /"
 *
 * The rules follow Kubernetes' own validation (k8s.io/apimachinery
 * pkg/util/validation) so that a value accepted here is accepted by the API
 * server, and they are strict enough that a value accepted here is safe to
 * place in a `sh -c` script or a printed kubectl command without quoting.
 */
import type { Size, SizeRoundingBehavior } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-28';
import type { IConstruct } from 'constructs';

/**
 * Runs a construct's prop checks and prefixes an error with the construct's
 * path, so that a user with several agents sees which one is wrong.
 */
export function validateProps(scope: IConstruct, checks: () => void): void {
  try {
    checks();
  } catch (e) {
    throw new Error(`${scope.node.path}: ${(e as Error).message}`);
  }
}

/** A DNS-1123 label: lowercase alphanumerics and '-', at most 63 characters. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MAX = 63;

/** A DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MAX = 253;

/** The name part of a qualified name, and the syntax of a label value. */
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_MAX = 63;

/**
 * The version token. It is pasted into the container's `sh -c` script, so it
 * admits no character the shell treats specially.
 */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * A container image reference with a tag or a digest, after the grammar of
 * github.com/distribution/reference: `[host[:port]/]path[:tag][@digest]`.
 */
const IMAGE_DOMAIN = '(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?/)?';
const IMAGE_PATH = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*';
const IMAGE_TAG = '(?::[\\w][\\w.-]{0,127})';
const IMAGE_DIGEST = '(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})';
export const IMAGE_PATTERN = new RegExp(`^${IMAGE_DOMAIN}${IMAGE_PATH}(?:${IMAGE_TAG}${IMAGE_DIGEST}?|${IMAGE_DIGEST})$`);

/**
 * A Kubernetes resource quantity (k8s.io/apimachinery/pkg/api/resource),
 * non-negative: a decimal number with an optional binary-SI, decimal-SI or
 * exponent suffix. `32MB` and `1.5 Gi` are not quantities.
 */
export const QUANTITY_PATTERN = /^\+?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

const QUANTITY_MULTIPLIERS: Record<string, number> = {
  '': 1, 'n': 1e-9, 'u': 1e-6, 'm': 1e-3, 'k': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12, 'P': 1e15, 'E': 1e18,
  'Ki': 2 ** 10, 'Mi': 2 ** 20, 'Gi': 2 ** 30, 'Ti': 2 ** 40, 'Pi': 2 ** 50, 'Ei': 2 ** 60,
};

/** Quotes a received value for an error message; JSON escapes control characters. */
function show(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  return JSON.stringify(value) ?? String(value);
}

function fail(prop: string, allowed: string, value: unknown): never {
  // 'labels[key]' reads as: the prop is 'labels', the offending part a key of it.
  const subject = prop.endsWith('[key]') ? `'${prop.slice(0, -5)}' key` : `'${prop}'`;
  throw new Error(`${subject} must be ${allowed} but got ${show(value)}`);
}

function requireString(prop: string, value: unknown, allowed: string): asserts value is string {
  if (typeof value !== 'string') {
    fail(prop, allowed, value);
  }
}

/** A DNS-1123 label, the syntax of most object names (`metadata.name` of a DaemonSet, a namespace). */
export function validateDns1123Label(prop: string, value: unknown): void {
  const allowed = `a DNS-1123 label (at most ${DNS1123_LABEL_MAX} characters of a-z, 0-9 and '-', starting and ending with a letter or digit)`;
  requireString(prop, value, allowed);
  if (value.length > DNS1123_LABEL_MAX || !DNS1123_LABEL.test(value)) {
    fail(prop, allowed, value);
  }
}

/** A DNS-1123 subdomain, the syntax of node names and of a label key's prefix. */
export function validateDns1123Subdomain(prop: string, value: unknown): void {
  const allowed = `a DNS-1123 subdomain (at most ${DNS1123_SUBDOMAIN_MAX} characters of a-z, 0-9, '-' and '.', each dot-separated part starting and ending with a letter or digit)`;
  requireString(prop, value, allowed);
  if (value.length > DNS1123_SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(value)) {
    fail(prop, allowed, value);
  }
}

/**
 * A Kubernetes qualified name, the syntax of label and annotation keys: an
 * optional DNS-1123 subdomain prefix of at most 253 characters and '/', then a
 * name of at most 63 characters.
 */
export function validateQualifiedName(prop: string, value: unknown): void {
  const allowed = `a qualified name ([prefix/]name: an optional DNS-1123 subdomain prefix of at most ${DNS1123_SUBDOMAIN_MAX} characters, then a name of at most ${QUALIFIED_NAME_MAX} characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit)`;
  requireString(prop, value, allowed);
  const parts = value.split('/');
  if (parts.length > 2) {
    fail(prop, `${allowed}, with at most one '/'`, value);
  }
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0 || prefix.length > DNS1123_SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(prefix)) {
      fail(prop, `${allowed}; the prefix ${show(prefix)} is not a DNS-1123 subdomain`, value);
    }
  }
  if (name.length === 0 || name.length > QUALIFIED_NAME_MAX || !QUALIFIED_NAME_PART.test(name)) {
    fail(prop, allowed, value);
  }
}

/** A label value: empty, or at most 63 characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit. */
export function validateLabelValue(prop: string, value: unknown): void {
  const allowed = `a label value (empty, or at most ${LABEL_VALUE_MAX} characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit)`;
  requireString(prop, value, allowed);
  if (value.length > LABEL_VALUE_MAX || (value !== '' && !QUALIFIED_NAME_PART.test(value))) {
    fail(prop, allowed, value);
  }
}

/** Every key a qualified name and every value a label value. */
export function validateLabels(prop: string, labels: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(labels)) {
    validateQualifiedName(`${prop}[key]`, key);
    validateLabelValue(`${prop}.${key}`, value);
  }
}

/** Every key a qualified name and every value a string. */
export function validateAnnotations(prop: string, annotations: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(annotations)) {
    validateQualifiedName(`${prop}[key]`, key);
    if (typeof value !== 'string') {
      fail(`${prop}.${key}`, 'a string', value);
    }
  }
}

/** The version token that the reporter prints; safe inside `sh -c` without quoting. */
export function validateVersion(prop: string, value: unknown): void {
  const allowed = `a plain token matching ${VERSION_PATTERN} (letters, digits, '.', '_' and '-'; no spaces or shell characters)`;
  requireString(prop, value, allowed);
  if (!VERSION_PATTERN.test(value)) {
    fail(prop, allowed, value);
  }
}

/** A container image reference that pins a tag or a digest. */
export function validateImage(prop: string, value: unknown): void {
  const allowed = "an image reference with a tag or a digest, such as 'busybox:1.36' or 'registry.example.com/team/busybox@sha256:<64 hex>' (no whitespace, lowercase repository path)";
  requireString(prop, value, allowed);
  if (!IMAGE_PATTERN.test(value)) {
    fail(prop, allowed, value);
  }
}

/** An integer within [min, max]. */
export function validateInteger(prop: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(prop, `an integer from ${min} to ${max}`, value);
  }
}

/** A single line of text, not empty, at most `max` characters. */
export function validateSingleLine(prop: string, value: unknown, max: number): void {
  const allowed = `a non-empty single line of at most ${max} characters`;
  requireString(prop, value, allowed);
  if (value.trim() === '' || value.length > max || /[\r\n]/.test(value)) {
    fail(prop, allowed, value);
  }
}

/**
 * A positive Kubernetes quantity; returns its value as a number (in base
 * units) so that callers can compare a request with its limit.
 */
export function validateQuantity(prop: string, value: unknown): number {
  const allowed = "a positive Kubernetes quantity such as '100m', '0.5', '64Mi' or '1G'";
  requireString(prop, value, allowed);
  const match = QUANTITY_PATTERN.exec(value);
  if (!match) {
    fail(prop, allowed, value);
  }
  const suffix = match[3] ?? '';
  const number = Number(match[1]);
  const amount = /^[eE]/.test(suffix) ? number * 10 ** Number(suffix.slice(1)) : number * QUANTITY_MULTIPLIERS[suffix];
  if (!(amount > 0) || !Number.isFinite(amount)) {
    fail(prop, allowed, value);
  }
  return amount;
}

/** A request no larger than its limit, as the API server requires. */
export function validateRequestWithinLimit(prop: string, request: { text: string; amount: number }, limit: { text: string; amount: number }): void {
  if (request.amount > limit.amount) {
    throw new Error(`'${prop}.request' must be at most '${prop}.limit' (${show(limit.text)}) but got ${show(request.text)}`);
  }
}

/** Requests and limits that are positive quantities, each request within its limit. */
export function validateResources(resources: kplus.ContainerResources): void {
  const cpu = {
    request: resources.cpu?.request?.amount,
    limit: resources.cpu?.limit?.amount,
  };
  const cpuRequest = cpu.request === undefined ? undefined : { text: cpu.request, amount: validateQuantity('resources.cpu.request', cpu.request) };
  const cpuLimit = cpu.limit === undefined ? undefined : { text: cpu.limit, amount: validateQuantity('resources.cpu.limit', cpu.limit) };
  if (cpuRequest && cpuLimit) {
    validateRequestWithinLimit('resources.cpu', cpuRequest, cpuLimit);
  }
  // cdk8s-plus renders memory in whole MiB and ephemeral storage in whole GiB.
  const memoryRequest = wholeUnits('resources.memory.request', resources.memory?.request, 'Mi');
  const memoryLimit = wholeUnits('resources.memory.limit', resources.memory?.limit, 'Mi');
  if (memoryRequest && memoryLimit) {
    validateRequestWithinLimit('resources.memory', memoryRequest, memoryLimit);
  }
  const storageRequest = wholeUnits('resources.ephemeralStorage.request', resources.ephemeralStorage?.request, 'Gi');
  const storageLimit = wholeUnits('resources.ephemeralStorage.limit', resources.ephemeralStorage?.limit, 'Gi');
  if (storageRequest && storageLimit) {
    validateRequestWithinLimit('resources.ephemeralStorage', storageRequest, storageLimit);
  }
}

let roundingNone: SizeRoundingBehavior | undefined;

/**
 * cdk8s' SizeRoundingBehavior.NONE, loaded on first use rather than at the
 * top: the eligibility CLI uses this module and must start without cdk8s.
 */
function sizeRoundingNone(): SizeRoundingBehavior {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  roundingNone ??= (require('cdk8s') as typeof import('cdk8s')).SizeRoundingBehavior.NONE;
  return roundingNone;
}

function wholeUnits(prop: string, size: Size | undefined, unit: 'Mi' | 'Gi'): { text: string; amount: number } | undefined {
  if (size === undefined) {
    return undefined;
  }
  const rounding = sizeRoundingNone();
  const amount = unit === 'Mi' ? size.toMebibytes({ rounding }) : size.toGibibytes({ rounding });
  const text = `${amount}${unit}`;
  if (!Number.isInteger(amount) || amount <= 0) {
    fail(prop, `a positive whole number of ${unit}B`, text);
  }
  return { text, amount: validateQuantity(prop, text) };
}

/** A DaemonSet rolling update that can make progress. */
export function validateRollingUpdate(maxUnavailable: kplus.PercentOrAbsolute, maxSurge: kplus.PercentOrAbsolute): void {
  for (const [prop, value] of [['maxUnavailable', maxUnavailable], ['maxSurge', maxSurge]] as const) {
    const v = value.value;
    const ok = typeof v === 'number' ? Number.isInteger(v) && v >= 0 : /^\d+%$/.test(String(v)) && parseInt(String(v), 10) <= 100;
    if (!ok) {
      fail(prop, 'a whole number of nodes (0 or more) or a percentage from 0% to 100%', v);
    }
  }
  if (maxUnavailable.isZero() && maxSurge.isZero()) {
    throw new Error("'maxUnavailable' and 'maxSurge' must not both be zero: the rollout could never replace a pod");
  }
}
