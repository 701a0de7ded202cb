/**
 * duplicate: NEW holds one object more than once. kubectl apply applies each
 * copy in turn (the last wins), so the diff against OLD is the last copy's,
 * and the copies before it are applied on the way: a workload whose copies
 * differ rolls out once per copy (checks/duplicates, rule object-twice, says
 * the same of `check`'s input).
 */
import { sameValue } from '../checks/immutable';
import { Impact } from './types';
import { changedPaths } from './workloads';

/** One copy: the object and its file. */
interface Copy {
  readonly object: unknown;
  readonly file: string;
}

/** The duplicate impact of an object's copies in NEW (two or more); a warning when they differ. */
export function duplicateImpact(copies: readonly Copy[]): Impact {
  const last = copies[copies.length - 1];
  const differing = copies.slice(0, -1).filter((c) => !sameValue(c.object, last.object));
  const files = [...new Set(copies.map((c) => c.file))].join(', ');
  const fields = [...new Set(differing.flatMap((c) => changedPaths(c.object, last.object, '').map((p) => p.replace(/^\./, ''))))];
  return {
    kind: 'duplicate', warning: differing.length > 0, ...(fields.length > 0 ? { fields } : {}),
    source: 'k8s.io/kubectl/pkg/cmd/apply: each object applied in turn',
    message: `NEW holds this object ${copies.length} times (${files}): kubectl apply applies each in turn and the last wins; ${differing.length > 0 ? `the copies differ (${fields.join(', ')}), so the object changes ${copies.length} times on the way` : 'the copies are the same'}`,
  };
}
