/**
 * What client-side `kubectl apply` needs of a manifest: annotations within
 * the API server's limit once the last-applied one is added (quantities in
 * the form the server stores them: test/k8s-quantity.test.ts).
 */
import { ANNOTATIONS_SIZE_LIMIT, annotationsSizeAfterApply, checkApplySize } from '../../lib/k8s';

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
