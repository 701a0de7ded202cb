/**
 * Corpus cases for Lists (issue 17, item 2): kubectl expands `kind: List`,
 * the `*List` kinds and any object with `items`, and applies each item.
 */
import { configMap, CorpusCase, daemonSet, no, Obj, ok, text } from './bases';

const list = (kind: string, items: unknown[], apiVersion = 'v1'): Obj => ({ apiVersion, kind, items });
const named = (name: string) => ({ ...configMap(), metadata: { name } });
const hostPid = () => {
  const ds = daemonSet();
  ds.spec.template.spec.hostPID = true;
  return ds;
};
const of = (id: string, server: CorpusCase['server'], ...objects: Obj[]): CorpusCase => ({ id, server, objects });

export const LISTS: readonly CorpusCase[] = [
  of('list-two-configmaps', ok, list('List', [named('a'), named('b')])),
  of('list-bad-item', no, list('List', [named('a'), named('B')])),
  of('list-item-without-api-version', no, list('List', [{ kind: 'ConfigMap', metadata: { name: 'a' } }])),
  of('list-item-not-an-object', no, list('List', [5])),
  of('list-configmaplist', ok, list('ConfigMapList', [named('a')])),
  // kubectl does not expand a List inside a List.
  of('list-nested', no, list('List', [list('List', [named('a')]), named('b')])),
  of('list-daemonset-refused-by-pod-security', no, list('List', [daemonSet(), hostPid()])),
  of('list-mixed-kinds', ok, list('List', [named('a'), daemonSet()])),
  of('list-items-not-an-array', no, { ...list('List', []), items: 5 }),
  of('list-with-metadata', ok, { ...list('List', [named('a')]), metadata: { resourceVersion: '' } }),
  // kubectl applies nothing: "no objects passed to apply".
  of('list-empty', no, list('List', [])),
  of('list-items-null', no, { ...list('List', []), items: null }),
  of('object-with-items-is-a-list', no, { ...named('a'), items: [] }),
  text('list-beside-objects', `${'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n'}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n`, ok),
];
