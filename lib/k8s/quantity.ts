/**
 * Kubernetes resource quantities, parsed as the API server parses them
 * (k8s.io/apimachinery/pkg/api/resource: ParseQuantity, parseQuantityString,
 * suffixer.interpret), so that every part of this project accepts the same
 * texts and compares them exactly: the constructs' props, the schema check
 * and the API-validation rules (a request above its limit); and written back
 * in the form the server stores (Quantity.String), so a re-apply changes nothing.
 *
 * A quantity is a signed decimal number (`1`, `-0.5`, `.5`, `1.`) and a
 * suffix: binary SI (Ki, Mi, Gi, Ti, Pi, Ei), decimal SI (n, u, m, k, M, G, T,
 * P, E) or a decimal exponent (`e3`, `E-2`). The server rounds a non-zero value
 * up (away from zero) to a whole nano and caps binary-SI values at 2^63-1; the
 * value here is that result, exactly, as a count of nanos.
 */

/** How a quantity was written, which is how the API server writes it back (resource.Format). */
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** A parsed quantity. */
export interface Quantity {
  /** The value in billionths of the unit (1 is 1000000000n, 100m is 100000000n), as the API server rounds it. */
  readonly nanos: bigint;
  /** The suffix family it was written with: Ki..Ei, none or n..E, or an exponent (`e3`). */
  readonly format: QuantityFormat;
}

const NANOS_PER_UNIT = 1_000_000_000n;
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * NANOS_PER_UNIT;
/** Exponents beyond this are clamped: no resource compares beyond 10^400, and BigInt powers stay cheap. */
const EXPONENT_LIMIT = 400;

const DECIMAL_SUFFIXES: Record<string, number> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
/** parseQuantityString: sign, digits, '.', digits, then a suffix of these letters, an optional sign and digits. */
const QUANTITY_SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)$/;
const INT64 = /^[-+]?\d+$/;

/** 10^n as a BigInt, n clamped to the exponent limit. */
function pow10(n: number): bigint {
  return 10n ** BigInt(Math.min(n, EXPONENT_LIMIT));
}

/** a / b rounded away from zero (inf.RoundUp), b > 0. */
function divideUp(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : q + (a < 0n ? -1n : 1n);
}

/**
 * The quantity a text (or a JSON number) stands for, or undefined when the
 * API server would refuse it ("quantities must match the regular expression
 * '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", or an unknown suffix).
 */
export function parseQuantity(value: unknown): Quantity | undefined {
  // A JSON number reaches Quantity.UnmarshalJSON as its text.
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof text !== 'string' || text === '') {
    return undefined;
  }
  const match = QUANTITY_SYNTAX.exec(text);
  if (!match) {
    return undefined;
  }
  const [, sign, whole, fraction = '', suffix] = match;
  let exp10: number;
  let exp2 = 0;
  let format: QuantityFormat = 'DecimalSI';
  if (Object.prototype.hasOwnProperty.call(DECIMAL_SUFFIXES, suffix)) {
    exp10 = DECIMAL_SUFFIXES[suffix];
  } else if (Object.prototype.hasOwnProperty.call(BINARY_SUFFIXES, suffix)) {
    exp10 = 0;
    exp2 = BINARY_SUFFIXES[suffix];
    format = 'BinarySI';
  } else if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && INT64.test(suffix.slice(1))) {
    const parsed = BigInt(suffix.slice(1));
    if (parsed > 2n ** 63n - 1n || parsed < -(2n ** 63n)) {
      return undefined;
    }
    // The server keeps the exponent as an int32.
    exp10 = Number(BigInt.asIntN(32, parsed));
    format = 'DecimalExponent';
  } else {
    return undefined;
  }
  const digits = BigInt(`${whole}${fraction}` || '0') * (sign === '-' ? -1n : 1n) * 2n ** BigInt(exp2);
  // value = digits * 10^(exp10 - fraction.length); in nanos, 9 more.
  const shift = exp10 - fraction.length + 9;
  let nanos = shift >= 0 ? digits * pow10(shift) : divideUp(digits, pow10(-shift));
  if (format === 'BinarySI' && nanos > MAX_BINARY_NANOS) {
    nanos = MAX_BINARY_NANOS;
  } else if (format === 'BinarySI' && nanos < -MAX_BINARY_NANOS) {
    nanos = -MAX_BINARY_NANOS;
  }
  return { nanos, format };
}

/** -1, 0 or 1 as a is less than, equal to or greater than b (Quantity.Cmp). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** The quantity in units, as a JavaScript number (approximate beyond 2^53 nanos). */
export function quantityToNumber(q: Quantity): number {
  return Number(q.nanos) / 1e9;
}

const DECIMAL_SUFFIX_OF: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exp]) => [exp, suffix]));
const BINARY_SUFFIX_LIST = ['', ...Object.keys(BINARY_SUFFIXES)];

/**
 * The text the API server writes a quantity back as (Quantity.String,
 * CanonicalizeBytes): `2048Mi` is `2Gi`, `1000m` is `1`, `0.5` is `500m`,
 * `1.5Mi` is `1536Ki`, `1e3` stays `1e3`. A manifest that writes another
 * form is stored in this one, so every later `kubectl apply` reports a
 * change. A text the server refuses, and a decimal SI value whose suffix
 * would lie beyond E (which the server prints wrongly), are returned as they are.
 */
export function canonicalQuantity(value: string): string {
  const q = parseQuantity(value);
  return q === undefined ? value : formatQuantity(q) ?? value;
}

/**
 * The text the API server writes a quantity in a resource list (requests,
 * limits) back as: rounded up to a whole milli first (SetDefaults_ResourceList),
 * then as {@link canonicalQuantity}.
 */
export function canonicalResourceQuantity(value: string): string {
  const q = parseQuantity(value);
  return q === undefined ? value : formatQuantity({ ...q, nanos: divideUp(q.nanos, 1_000_000n) * 1_000_000n }) ?? value;
}

/** CanonicalizeBytes: binary SI when whole and at least 1024 in size, else the fewest digits with an exponent that is a multiple of 3. */
function formatQuantity(q: Quantity): string | undefined {
  const whole = q.nanos % NANOS_PER_UNIT === 0n ? q.nanos / NANOS_PER_UNIT : undefined;
  if (q.format === 'BinarySI' && whole !== undefined && (whole >= 1024n || whole <= -1024n)) {
    let n = whole;
    let i = 0;
    while (n % 1024n === 0n && i < BINARY_SUFFIX_LIST.length - 1) {
      n /= 1024n;
      i++;
    }
    return `${n}${BINARY_SUFFIX_LIST[i]}`;
  }
  if (q.nanos === 0n) {
    return '0';
  }
  let mantissa = q.nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const down = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(down);
  exponent -= down;
  if (q.format === 'DecimalExponent') {
    return `${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  }
  const suffix = DECIMAL_SUFFIX_OF[exponent];
  return suffix === undefined ? undefined : `${mantissa}${suffix}`;
}
