/**
 * No two shipped examples own one object (issue 25, defect 2): fluent-bit
 * and promtail both held the Namespace `logging`, so the README's
 * `kubectl delete -f` of promtail deleted the namespace, and fluent-bit with
 * it (its ClusterRole and binding left orphaned). Each example's file is
 * applied and deleted on its own; every object it defines must be its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CLUSTER_SCOPED_KINDS } from '../../lib/checks/metadata';

const dist = path.join(__dirname, '..', '..', 'examples', 'dist');

interface Defined {
  readonly file: string;
  readonly key: string;
  readonly namespace?: string;
  readonly kind: string;
}

/** Every object of every example file, keyed as the API server keys it: group, kind, namespace (none when cluster-scoped), name. */
function definitions(): Defined[] {
  return fs.readdirSync(dist).filter((f) => f.endsWith('.k8s.yaml')).sort().flatMap((file) =>
    parseAllDocuments(fs.readFileSync(path.join(dist, file), 'utf-8')).map((d) => d.toJS()).filter((o) => o !== null).map((o) => {
      const group = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/')[0] : '';
      const namespace = CLUSTER_SCOPED_KINDS.has(o.kind) ? undefined : o.metadata.namespace ?? 'default';
      return { file, kind: o.kind, namespace, key: `${group}/${o.kind}/${namespace ?? ''}/${o.metadata.name}` };
    }));
}

describe('examples/dist: each example owns its objects alone', () => {
  test('no two files define the same kind, namespace and name', () => {
    // GIVEN
    const byKey = new Map<string, string[]>();
    for (const d of definitions()) {
      byKey.set(d.key, [...(byKey.get(d.key) ?? []), d.file]);
    }

    // THEN
    expect([...byKey].filter(([, files]) => new Set(files).size > 1).map(([key, files]) => `${key}: ${files.join(', ')}`)).toEqual([]);
  });

  test("a namespace an example owns holds only that example's objects, so that deleting it deletes nothing of another", () => {
    // GIVEN the namespaces each file owns (its Namespace objects)
    const all = definitions();
    const owner = new Map(all.filter((d) => d.kind === 'Namespace').map((d) => [d.key.split('/').at(-1)!, d.file]));

    // THEN no other file puts an object into one of them
    expect(all.filter((d) => d.namespace !== undefined && owner.has(d.namespace) && owner.get(d.namespace) !== d.file)
      .map((d) => `${d.key} (${d.file}) is in namespace ${d.namespace}, owned by ${owner.get(d.namespace!)}`)).toEqual([]);
  });
});
