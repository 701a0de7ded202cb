/**
 * The one quantity parser (lib/k8s/quantity.ts). The texts read and refused
 * below were asked of a real API server first (a LimitRange's `max.cpu`,
 * `kubectl apply --dry-run=server`): it stores the same value, or refuses.
 */
import { canonicalQuantity, canonicalResourceQuantity, compareQuantities, parseQuantity, quantityToNumber } from '../lib/k8s/quantity';

describe('k8s/quantity', () => {
  test.each<[string | number, number]>([
    ['1', 1], ['100m', 0.1], ['0.5', 0.5], ['.5', 0.5], ['1.', 1], ['64Mi', 64 * 2 ** 20], ['1.5Ki', 1536], ['1G', 1e9],
    ['1E', 1e18], ['2e3', 2000], ['1E-2', 0.01], ['-10m', -0.01], ['+5', 5], [0.01, 0.01], [3, 3],
    // parseQuantityString reads a bare sign, a bare dot and a bare suffix as zero: the server stores "0".
    ['+', 0], ['.', 0], ['e3', 0], ['-0', 0],
  ])('reads %j as %d, as the API server does', (text, units) => {
    expect(quantityToNumber(parseQuantity(text)!)).toBeCloseTo(units, 9);
  });

  test.each(['', '1e', '1kK', '0x10', '1_000', '32MB', '1.5 Gi', ' 1', '1.5.5', 'Infinity', NaN, Infinity, true, null, {}])(
    'refuses %j, as the API server does ("unable to parse quantity" or "quantities must match")', (text) => {
      expect(parseQuantity(text)).toBeUndefined();
    });

  test('rounds a value below a nano up to one nano, away from zero (inf.RoundUp)', () => {
    expect(parseQuantity('1e-12')!.nanos).toBe(1n);
    expect(parseQuantity('-1e-12')!.nanos).toBe(-1n);
    expect(parseQuantity('0.0000000015')!.nanos).toBe(2n);
  });

  test('compares exactly where floating point would not: 1Ei+1 and 2^60', () => {
    // GIVEN two quantities one apart at 2^60
    const big = parseQuantity('1152921504606846977')!;
    const ei = parseQuantity('1Ei')!;

    // THEN they differ, and in the right direction
    expect(compareQuantities(big, ei)).toBe(1);
    expect(compareQuantities(ei, big)).toBe(-1);
    expect(compareQuantities(parseQuantity('1Ki')!, parseQuantity('1024')!)).toBe(0);
  });

  test('keeps an exponent as the server does: int64 text, cast to int32 (1e4294967296 is 1)', () => {
    expect(quantityToNumber(parseQuantity('1e4294967296')!)).toBe(1);
    expect(parseQuantity('1e99999999999999999999')).toBeUndefined();
  });

  test('caps binary-SI values at 2^63-1, as ParseQuantity does', () => {
    expect(parseQuantity('99999999Ei')!.nanos).toBe((2n ** 63n - 1n) * 1_000_000_000n);
  });

  test('stays fast on an absurd exponent: the value is clamped, not computed', () => {
    expect(compareQuantities(parseQuantity('1e2000000000')!, parseQuantity('1e300')!)).toBe(1);
  });
});

describe('the form the API server stores a quantity in', () => {
  // Each pair as a v1.32 API server stored it: `kubectl apply --dry-run=server -o jsonpath` of a Pod's
  // emptyDir sizeLimit (a plain Quantity) and of its resources (a ResourceList, rounded up to milli).
  test.each([
    ['2048Mi', '2Gi'], ['1536Mi', '1536Mi'], ['1024Ki', '1Mi'], ['1024Gi', '1Ti'], ['32Mi', '32Mi'], ['1000Ki', '1000Ki'],
    ['1000m', '1'], ['0.5', '500m'], ['1.25', '1250m'], ['2000', '2k'], ['1.5k', '1500'], ['2', '2'], ['100m', '100m'], ['0', '0'],
    // Binary SI below 1024, or not whole, is written as decimal SI.
    ['0Mi', '0'], ['0.5Ki', '512'], ['1.5Mi', '1536Ki'], ['1.5Gi', '1536Mi'], ['1.0001Ki', '1024102400u'],
    ['1.5m', '1500u'], ['100u', '100u'], ['0.000000001', '1n'], ['2.5E', '2500P'], ['1E', '1E'],
    // A decimal exponent stays one; binary SI is capped at 2^63-1.
    ['1e3', '1e3'], ['1500e-3', '1500e-3'], ['1e21', '1e21'], ['1e-10', '1e-9'], ['9Ei', '9223372036854775807'],
  ])('%s is stored as %s', (written, stored) => {
    expect(canonicalQuantity(written)).toBe(stored);
  });

  test.each([
    ['1.5m', '2m'], ['100u', '1m'], ['100n', '1m'], ['0.1m', '1m'], ['1.0001Ki', '1024103m'], ['1500e-3', '1500e-3'],
    ['64Mi', '64Mi'], ['10m', '10m'], ['0.5', '500m'],
  ])('%s in a resource list is rounded up to a milli and stored as %s', (written, stored) => {
    expect(canonicalResourceQuantity(written)).toBe(stored);
  });

  test('leaves a text the server refuses, and a decimal SI value beyond E, as it is', () => {
    expect(canonicalQuantity('1 Gi')).toBe('1 Gi');
    expect(canonicalQuantity('1000E')).toBe('1000E');
  });
});
