/**
 * Kubernetes syntax rules, shared by the constructs, the manifest checks and
 * the eligibility CLI. A leaf: no cdk8s import, nothing thrown. Each function
 * returns a problem (a message naming the prop, quoting the value it got and
 * saying what is allowed) or undefined when the value is acceptable:
 *
 *   'version' must be a plain token matching /.../ but got "v1; rm -rf /"
 *
 * The rules follow Kubernetes' own validation (k8s.io/apimachinery
 * pkg/util/validation: IsDNS1123Label, IsDNS1123Subdomain, IsQualifiedName,
 * IsValidLabelValue; quantities in ./quantity) so that a value accepted
 * here is accepted by the API server, and they are strict enough that a value
 * accepted here is safe in a `sh -c` script or a printed kubectl command.
 */

import { parseQuantity, quantityToNumber } from './quantity';

/** A problem with one prop or field: one line for the user. */
export type Problem = string;

/** A DNS-1123 label: lowercase alphanumerics and '-', at most 63 characters. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MAX = 63;

/** A DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MAX = 253;

/** A DNS-1035 label: a DNS-1123 label that starts with a letter (Service names), at most 63 characters. */
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

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
/** A container image reference with a tag or a digest: `[host[:port]/]path[:tag][@digest]`. */
export const IMAGE_PATTERN = new RegExp(`^${IMAGE_DOMAIN}${IMAGE_PATH}(?:${IMAGE_TAG}${IMAGE_DIGEST}?|${IMAGE_DIGEST})$`);

/**
 * A Kubernetes resource quantity (k8s.io/apimachinery/pkg/api/resource),
 * non-negative: a decimal number with an optional binary-SI, decimal-SI or
 * exponent suffix. `32MB` and `1.5 Gi` are not quantities.
 */
export const QUANTITY_PATTERN = /^\+?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The text with control, invisible and bidirectional characters escaped as \uXXXX (which JSON reads back as the same). */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The text with unsafe characters escaped; quoted (as JSON) when `quote` is
 * set, or when it is empty or had anything to escape.
 */
export function printable(text: string, quote = false): string {
  const escaped = escapeUnprintable(text);
  if (quote || escaped !== text || text === '') {
    return `"${escaped.replace(/\\(?!u[0-9a-f]{4})/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return text;
}

/** Why a port name is not an IANA service name (apimachinery validation: IsValidPortName), if it is not: the API server's words. */
export function portNameProblem(name: string): string | undefined {
  if (name.length > 15) return 'must be no more than 15 characters';
  if (!/^[-a-z0-9]+$/.test(name)) return 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)';
  if (!/[a-z]/.test(name)) return 'must contain at least one letter (a-z)';
  if (name.includes('--')) return 'must not contain consecutive hyphens';
  if (name.startsWith('-') || name.endsWith('-')) return 'must not begin or end with a hyphen';
  return undefined;
}

/** The Levenshtein distance between two words: for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Quotes a received value for a message, whatever it is (a BigInt, a
 * function, a cyclic object): JSON, with control, invisible and bidirectional
 * characters escaped, so that a message never garbles a terminal.
 */
export function show(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' || typeof v === 'function' ? String(v) : v));
  } catch {
    text = undefined;
  }
  text ??= typeof value === 'symbol' || typeof value === 'function' || typeof value === 'bigint' ? String(value) : Object.prototype.toString.call(value);
  return escapeUnprintable(text);
}

/** @internal How a message names the prop: `'containers[0].name'`; `labels[key]` reads as `'labels' key` (the prop is 'labels', the offending part a key of it). */
export function subject(prop: string): string {
  return prop.endsWith('[key]') ? `'${prop.slice(0, -5)}' key` : `'${prop}'`;
}

/** The problem "'prop' must be <allowed> but got <value>". */
export function problem(prop: string, allowed: string, value: unknown): Problem {
  return `${subject(prop)} must be ${allowed} but got ${show(value)}`;
}

/** A DNS-1123 label, the syntax of most object names (`metadata.name` of a DaemonSet, a namespace). */
export function checkDns1123Label(prop: string, value: unknown): Problem | undefined {
  const allowed = `a DNS-1123 label (at most ${DNS1123_LABEL_MAX} characters of a-z, 0-9 and '-', starting and ending with a letter or digit)`;
  return typeof value === 'string' && value.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(value) ? undefined : problem(prop, allowed, value);
}

/** A DNS-1123 subdomain, the syntax of node names and of a label key's prefix. */
export function checkDns1123Subdomain(prop: string, value: unknown): Problem | undefined {
  const allowed = `a DNS-1123 subdomain (at most ${DNS1123_SUBDOMAIN_MAX} characters of a-z, 0-9, '-' and '.', each dot-separated part starting and ending with a letter or digit)`;
  return typeof value === 'string' && value.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(value) ? undefined : problem(prop, allowed, value);
}

/**
 * A Kubernetes qualified name, the syntax of label and annotation keys: an
 * optional DNS-1123 subdomain prefix of at most 253 characters and '/', then a
 * name of at most 63 characters.
 */
export function checkQualifiedName(prop: string, value: unknown): Problem | undefined {
  const allowed = `a qualified name ([prefix/]name: an optional DNS-1123 subdomain prefix of at most ${DNS1123_SUBDOMAIN_MAX} characters, then a name of at most ${QUALIFIED_NAME_MAX} characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit)`;
  if (typeof value !== 'string') {
    return problem(prop, allowed, value);
  }
  const parts = value.split('/');
  if (parts.length > 2) {
    return problem(prop, `${allowed}, with at most one '/'`, value);
  }
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0 || prefix.length > DNS1123_SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(prefix)) {
      return problem(prop, `${allowed}; the prefix ${show(prefix)} is not a DNS-1123 subdomain`, value);
    }
  }
  return name.length === 0 || name.length > QUALIFIED_NAME_MAX || !QUALIFIED_NAME_PART.test(name) ? problem(prop, allowed, value) : undefined;
}

/** A label value: empty, or at most 63 characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit. */
export function checkLabelValue(prop: string, value: unknown): Problem | undefined {
  const allowed = `a label value (empty, or at most ${LABEL_VALUE_MAX} characters of A-Z, a-z, 0-9, '-', '_' and '.', starting and ending with a letter or digit)`;
  return typeof value === 'string' && value.length <= LABEL_VALUE_MAX && (value === '' || QUALIFIED_NAME_PART.test(value)) ? undefined : problem(prop, allowed, value);
}

/**
 * A ConfigMap or Secret key, also a projected file's name
 * (k8s.io/apimachinery/pkg/util/validation: IsConfigMapKey): at most 253
 * characters of A-Z, a-z, 0-9, '-', '_' and '.', and not '.', '..' or
 * starting with '..' (the kubelet's atomic writer owns those names).
 */
export function checkConfigKey(prop: string, value: unknown): Problem | undefined {
  const allowed = "a key of at most 253 characters of A-Z, a-z, 0-9, '-', '_' and '.', other than '.' and '..' and not starting with '..'";
  return typeof value === 'string' && configKeyReason(value) === undefined ? undefined : problem(prop, allowed, value);
}

/**
 * @internal
 * Why a key is no ConfigMap or Secret key (k8s.io/apimachinery/pkg/util/validation:
 * IsConfigMapKey), in the API server's words; undefined when it is one. The
 * checks and the constructs both ask this.
 */
export function configKeyReason(key: string): string | undefined {
  if (key.length > DNS1123_SUBDOMAIN_MAX || !/^[-._a-zA-Z0-9]+$/.test(key)) {
    return "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  }
  // The kubelet writes a volume's files beside its own `..data` links.
  return key === '.' ? "must not be '.'" : key === '..' ? "must not be '..'" : key.startsWith('..') ? "must not start with '..'" : undefined;
}

/** A plain object (not an array, not null): labels, annotations, a parsed Kubernetes object. The one such test in lib/; narrowing keeps what the value was known to be (a loosely typed `any` stays loose, `unknown` becomes a record of unknowns). */
export function isRecord<T>(value: T): value is T & Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every key a qualified name and every value a label value. */
export function checkLabels(prop: string, labels: unknown): Problem[] {
  if (!isRecord(labels)) {
    return [problem(prop, 'an object of label keys to label values', labels)];
  }
  return Object.entries(labels).flatMap(([key, value]) => defined(checkQualifiedName(`${prop}[key]`, key), checkLabelValue(`${prop}.${key}`, value)));
}

/** Every key a qualified name and every value a string. */
export function checkAnnotations(prop: string, annotations: unknown): Problem[] {
  if (!isRecord(annotations)) {
    return [problem(prop, 'an object of annotation keys to strings', annotations)];
  }
  return Object.entries(annotations).flatMap(([key, value]) => defined(
    checkQualifiedName(`${prop}[key]`, key),
    typeof value === 'string' ? undefined : problem(`${prop}.${key}`, 'a string', value)));
}

/** The version token that the reporter prints; safe inside `sh -c` without quoting. */
export function checkVersion(prop: string, value: unknown): Problem | undefined {
  const allowed = `a plain token matching ${VERSION_PATTERN} (letters, digits, '.', '_' and '-'; no spaces or shell characters)`;
  return typeof value === 'string' && VERSION_PATTERN.test(value) ? undefined : problem(prop, allowed, value);
}

/** A container image reference that pins a tag or a digest. */
export function checkImage(prop: string, value: unknown): Problem | undefined {
  const allowed = "an image reference with a tag or a digest, such as 'busybox:1.36' or 'registry.example.com/team/busybox@sha256:<64 hex>' (no whitespace, lowercase repository path)";
  return typeof value === 'string' && IMAGE_PATTERN.test(value) ? undefined : problem(prop, allowed, value);
}

/** An integer within [min, max]. */
export function checkInteger(prop: string, value: unknown, min: number, max: number): Problem | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? undefined : problem(prop, `an integer from ${min} to ${max}`, value);
}

/** A single line of text, not empty, at most `max` characters, without control characters. */
export function checkSingleLine(prop: string, value: unknown, max: number): Problem | undefined {
  const allowed = `a non-empty single line of at most ${max} characters, without control characters`;

  return typeof value === 'string' && value.trim() !== '' && value.length <= max && !/[\u0000-\u001f\u007f]/.test(value) ? undefined : problem(prop, allowed, value);
}

/**
 * The value of a positive Kubernetes quantity in base units, so that callers
 * can compare a request with its limit; a problem when it is none.
 */
export function quantityValue(prop: string, value: unknown): number | Problem {
  const allowed = "a positive Kubernetes quantity such as '100m', '0.5', '64Mi' or '1G'";
  // Props take the plain forms only; the value is the API server's (./quantity).
  const parsed = typeof value === 'string' && QUANTITY_PATTERN.test(value) ? parseQuantity(value) : undefined;
  const amount = parsed === undefined ? NaN : quantityToNumber(parsed);
  return amount > 0 && Number.isFinite(amount) ? amount : problem(prop, allowed, value);
}

/** The problems among these results, in order. */
export function defined(...results: (Problem | undefined)[]): Problem[] {
  return results.filter((r): r is Problem => r !== undefined);
}
