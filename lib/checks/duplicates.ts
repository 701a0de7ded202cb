/**
 * One object held more than once in an input: kubectl apply applies every
 * object in turn (k8s.io/kubectl/pkg/cmd/apply), so the first copy creates or
 * updates it and each later one updates it again. The last wins; a workload
 * whose copies differ rolls out once per copy. The API server accepts every
 * step, so this is a warning. Judged per file: one `kubectl apply -f` of
 * it; a folder may hold alternatives (the variants of an app, one per file).
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem, KubeObject } from './finding';
import { groupKind } from './immutable';
import { CLUSTER_SCOPED_KINDS } from './metadata';
import { RULES } from './rules';

/** The identity kubectl applies by: API group, kind, namespace (none for a cluster-scoped kind), name. */
export function objectIdentity(obj: KubeObject): string {
  const meta = isRecord(obj.metadata) ? obj.metadata : {};
  const namespace = CLUSTER_SCOPED_KINDS.has(obj.kind) || typeof meta.namespace !== 'string' ? '' : meta.namespace;
  return `${groupKind(obj)}\u0000${namespace}\u0000${typeof meta.name === 'string' ? meta.name : ''}`;
}

/** For each object held more than once in one file (by name), the problem on every copy: which copy it is and how many there are. */
export function checkObjectsTwice(objects: readonly KubeObject[], files: readonly (string | undefined)[] = []): Map<KubeObject, FieldProblem[]> {
  const byIdentity = new Map<string, KubeObject[]>();
  for (const [i, o] of objects.entries()) {
    if (!isRecord(o.metadata) || typeof o.metadata.name !== 'string' || o.metadata.name === '') continue;
    const key = `${files[i] ?? ''}\u0000${objectIdentity(o)}`;
    byIdentity.set(key, [...(byIdentity.get(key) ?? []), o]);
  }
  const problems = new Map<KubeObject, FieldProblem[]>();
  for (const copies of byIdentity.values()) {
    if (copies.length < 2) continue;
    copies.forEach((o, i) => problems.set(o, [{
      rule: RULES.objectTwice, path: 'metadata.name',
      message: `${String(o.kind)} ${String(o.metadata.name)} is in the file ${copies.length} times (this is copy ${i + 1}): kubectl apply applies each in turn and the last wins${i + 1 < copies.length ? ', so this copy is overwritten' : ''}`,
    }]));
  }
  return problems;
}
