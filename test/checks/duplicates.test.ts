/**
 * `check` on an input that holds one object twice (issue 33): a warning on
 * each copy (kubectl apply applies each in turn; the server accepts both).
 */
import { checkObjects, isBlocking } from '../../lib/checks';

const configMap = (name: string, namespace?: string, level = 'info') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(namespace ? { namespace } : {}) }, data: { level } });

describe('object-twice', () => {
  test('one object held twice is a warning on each copy, naming which copy is overwritten', () => {
    // WHEN
    const findings = checkObjects([configMap('cfg', 'x'), configMap('cfg', 'x', 'debug')]).filter((f) => f.rule.id === 'object-twice');

    // THEN
    expect(findings.map((f) => f.message)).toEqual([
      'ConfigMap cfg is in the file 2 times (this is copy 1): kubectl apply applies each in turn and the last wins, so this copy is overwritten',
      'ConfigMap cfg is in the file 2 times (this is copy 2): kubectl apply applies each in turn and the last wins',
    ]);
    expect(findings.some(isBlocking)).toBe(false);
  });

  test.each([
    ['two namespaces', [configMap('cfg', 'a'), configMap('cfg', 'b')]],
    ['two names', [configMap('a', 'x'), configMap('b', 'x')]],
    ['two kinds of one name', [configMap('cfg', 'x'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cfg', namespace: 'x' } }]],
  ])('%s are two objects', (_, objects) => {
    expect(checkObjects(objects).filter((f) => f.rule.id === 'object-twice')).toEqual([]);
  });

  test('two files may hold alternatives of one object (the variants of an app)', () => {
    expect(checkObjects([configMap('cfg', 'x'), configMap('cfg', 'x', 'debug')], ['v1.yaml', 'v2.yaml']).filter((f) => f.rule.id === 'object-twice')).toEqual([]);
  });

  test('a cluster-scoped kind is one object whatever namespace it sets', () => {
    const role = (ns: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: ns }, rules: [] });
    expect(checkObjects([role('a'), role('b')]).filter((f) => f.rule.id === 'object-twice')).toHaveLength(2);
  });
});
