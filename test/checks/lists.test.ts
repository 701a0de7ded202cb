/**
 * Lists as kubectl applies them (lib/checks/check.ts: expand): every object
 * with `items` is a List, each item judged with its index in the path.
 */
import { checkInputs, checkYaml } from '../../lib/checks';

const found = (yaml: string) => checkYaml(yaml, 'list.yaml').map((f) => `${f.rule.id} ${f.path}`);

describe('Lists', () => {
  test('each item is checked as an object of its own, its index in the path, its line in the file', () => {
    // GIVEN
    const yaml = 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: B}}\n';

    // WHEN
    const report = checkInputs([{ file: 'list.yaml', text: yaml }]);

    // THEN
    expect(report.objects).toBe(2);
    expect(report.findings.map((f) => [f.object, f.path, f.line])).toEqual([['ConfigMap/B', 'items[1].metadata.name', 5]]);
  });

  test.each([
    ['items that are no array', 'apiVersion: v1\nkind: List\nitems: 5\n', ['kubectl-apply items']],
    ['an item without apiVersion', 'apiVersion: v1\nkind: List\nitems:\n- {kind: ConfigMap, metadata: {name: a}}\n', ['kubectl-apply items[0]']],
    ['a List inside a List', 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List, items: []}\n', ['kubectl-apply items[0]']],
  ])('refuses %s, as kubectl does', (_, yaml, expected) => {
    expect(found(yaml)).toEqual(expected);
  });

  test('an empty List, or any object with empty items, holds no object: kubectl applies nothing', () => {
    expect(checkInputs([{ file: 'a.yaml', text: 'apiVersion: v1\nkind: List\nitems: []\n' }]).objects).toBe(0);
    expect(checkInputs([{ file: 'a.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nitems: null\n' }]).objects).toBe(0);
  });
});
