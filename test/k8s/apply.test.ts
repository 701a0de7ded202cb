/**
 * What client-side `kubectl apply` needs of a manifest: annotations within
 * the API server's limit once the last-applied one is added, and quantities
 * in the form the server stores them.
 */
import { ANNOTATIONS_SIZE_LIMIT, annotationsSizeAfterApply, canonicalQuantity, checkApplySize } from '../../lib/k8s';

describe('canonicalQuantity', () => {
  // Each pair as a v1.32 API server stored it (kubectl apply --dry-run=server -o jsonpath of a Pod's resources).
  test.each([
    ['2048Mi', '2Gi'], ['1536Mi', '1536Mi'], ['1024Ki', '1Mi'], ['1024Gi', '1Ti'], ['32Mi', '32Mi'],
    ['1000m', '1'], ['0.5', '500m'], ['1.25', '1250m'], ['2000', '2k'], ['2', '2'], ['100m', '100m'], ['0', '0'],
  ])('%s is stored as %s', (written, stored) => {
    expect(canonicalQuantity(written)).toBe(stored);
  });

  test('leaves forms it does not know as they are', () => {
    expect(canonicalQuantity('1e3')).toBe('1e3');
    expect(canonicalQuantity('1.5m')).toBe('1.5m');
  });
});

describe('the size of an object after client-side apply', () => {
  test('counts its annotations, the last-applied key and the object\'s JSON', () => {
    const obj = { kind: 'ConfigMap', metadata: { name: 'c', annotations: { a: 'bc' } }, data: { f: 'x' } };
    expect(annotationsSizeAfterApply(obj)).toBe(3 + 'kubectl.kubernetes.io/last-applied-configuration'.length + JSON.stringify(obj).length + 1);
  });

  test('refuses an object that would exceed the API server\'s 256 KiB of annotations, naming the prop', () => {
    const big = { kind: 'ConfigMap', metadata: { name: 'agent-config' }, data: { f: 'x'.repeat(ANNOTATIONS_SIZE_LIMIT) } };
    expect(checkApplySize('config.data', big)).toMatch(/^'config\.data' makes the ConfigMap "agent-config" too large for `kubectl apply`/);
    expect(checkApplySize('config.data', { kind: 'ConfigMap', metadata: { name: 'small' } })).toBeUndefined();
  });
});
