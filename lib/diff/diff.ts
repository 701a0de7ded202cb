/**
 * Two manifest sets -> the objects added, removed and changed, each with
 * what it does to a cluster. Objects are matched by API group, kind,
 * namespace and name; one pass over each side (linear in the input).
 */
import { KubeObject } from '../checks/finding';
import { groupKind, sameValue } from '../checks/immutable';
import { describeVersionSource, judgedVersion } from '../checks/judged-version';
import { CLUSTER_SCOPED_KINDS } from '../checks/metadata';
import { RbacSide, rbacSide } from '../checks/rbac-aggregation';
import { minorOf } from '../checks/versions';
import { waveOf } from '../checks/wave-overlaps';
import { KubeNode } from '../eligibility';
import { isRecord } from '../k8s/syntax';
import { configInPlaceImpact } from './config-in-place';
import { duplicateImpact } from './duplicates';
import { nodesLostImpact } from './nodes-lost';
import { immutableImpacts, podSecurityImpacts, pruneImpact, rbacImpacts } from './policy';
import { DiffReport, Impact, IMPACT_KINDS, ImpactKind, ObjectDiff } from './types';
import { markWaves } from './waves';
import { eligibilityImpact, imageImpact, landsOn, resourcesImpact, rolloutImpact } from './workloads';

/** A manifest object and the file it came from. */
export interface SourcedObject {
  /** The object as parsed. */
  readonly object: unknown;
  /** Its file, for messages. */
  readonly file: string;
}

/** What a diff takes beside the two sides. */
export interface DiffOptions {
  /** The node list (kubectl get nodes -o json), for eligibility, rollout rounds and totals. @default none */
  readonly nodes?: readonly KubeNode[];
  /** The Kubernetes version judged by. @default the version NEW's objects are annotated for, else DEFAULT_KUBERNETES_VERSION */
  readonly kubernetesVersion?: string;
}

interface Entry {
  readonly object: KubeObject;
  readonly file: string;
}

const nameOf = (o: KubeObject) => (isRecord(o.metadata) && typeof o.metadata.name === 'string' ? o.metadata.name : '');
const namespaceOf = (o: KubeObject) => (CLUSTER_SCOPED_KINDS.has(o.kind) ? undefined : isRecord(o.metadata) && typeof o.metadata.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : undefined);

/** The identity kubectl applies by: group, kind, namespace, name. */
const keyOf = (o: KubeObject) => `${groupKind(o)}\u0000${namespaceOf(o) ?? ''}\u0000${nameOf(o)}`;

/** The Kubernetes objects of one side by identity; the last of a repeated identity wins, as a second apply would; `copies` holds every copy of each. */
function index(side: readonly SourcedObject[], copies?: Map<string, Entry[]>): Map<string, Entry> {
  const map = new Map<string, Entry>();
  for (const { object, file } of side) {
    if (!isRecord(object) || typeof object.kind !== 'string' || typeof object.apiVersion !== 'string') continue;
    map.set(keyOf(object), { object, file });
    copies?.set(keyOf(object), [...(copies.get(keyOf(object)) ?? []), { object, file }]);
  }
  return map;
}

/** Ignored when comparing: what the server writes, not the manifest. */
const withoutStatus = (o: KubeObject): KubeObject => {
  const rest = { ...o };
  delete rest.status;
  return rest;
};

/** The impacts of a changed object, most serious first. */
function changedImpacts(old: Entry, next: Entry, options: DiffOptions, minor: number, sides: { before: RbacSide; after: RbacSide }, objects: readonly KubeObject[]): Impact[] {
  const [a, b] = [old.object, next.object];
  const source = next.file;
  const found = [
    ...immutableImpacts(a, b),
    ...rbacImpacts(a, b, sides),
    ...podSecurityImpacts(a, b, minor),
    nodesLostImpact(a, b, options.nodes, source),
    configInPlaceImpact(a, b, objects, options.nodes, source),
    eligibilityImpact(a, b, options.nodes, source),
    rolloutImpact(a, b, options.nodes, source),
    imageImpact(a, b),
    resourcesImpact(a, b, options.nodes, source),
  ].filter((i): i is Impact => i !== undefined);
  return found.sort((x, y) => IMPACT_KINDS.indexOf(x.kind) - IMPACT_KINDS.indexOf(y.kind));
}

const describe = (o: KubeObject, change: ObjectDiff['change'], impacts: Impact[]): ObjectDiff => ({
  kind: String(o.kind), apiVersion: String(o.apiVersion), ...(namespaceOf(o) !== undefined ? { namespace: namespaceOf(o) } : {}), name: nameOf(o),
  ...(o.kind === 'DaemonSet' ? waveOf(o) : undefined), change,
  // kind, message and warning first, in every impact: the JSON reads the same way each time.
  impacts: impacts.map(({ kind, message, warning, ...rest }) => ({ kind, message, warning, ...rest })),
});

/**
 * What changes when NEW replaces OLD: each object added, removed or changed,
 * with its impacts (rollout, immutable, rbac-widened, rbac-narrowed,
 * pod-security, duplicate, nodes-lost, config-in-place, eligibility, resources, prune, image, all-waves).
 * A wave's DaemonSet names its agent and wave.
 * @throws NodeListError when a DaemonSet's scheduling fields are malformed (with --nodes)
 */
export function diffManifests(old: readonly SourcedObject[], next: readonly SourcedObject[], options: DiffOptions = {}): DiffReport {
  const copies = new Map<string, Entry[]>();
  const [before, after] = [index(old), index(next, copies)];
  const { judged } = judgedVersion([...after.values()].map((e) => e.object), options.kubernetesVersion);
  const minor = minorOf(judged.version);
  const newObjects = [...after.values()].map((e) => e.object);
  const sides = { before: rbacSide([...before.values()].map((e) => e.object)), after: rbacSide([...after.values()].map((e) => e.object)) };
  let objects: ObjectDiff[] = [];
  let unchanged = 0;
  for (const [key, entry] of after) {
    const was = before.get(key);
    const held = copies.get(key) ?? [];
    // NEW holding an object twice is a finding, even when its last copy is OLD's.
    const twice = held.length > 1 ? [duplicateImpact(held)] : [];
    if (was === undefined) {
      const impacts = [...twice, ...rbacImpacts(undefined, entry.object, sides), ...(options.nodes ? [landsOn(entry.object, options.nodes, entry.file)].filter((i): i is Impact => i !== undefined) : [])];
      objects.push(describe(entry.object, 'added', impacts));
    } else if (sameValue(withoutStatus(was.object), withoutStatus(entry.object))) {
      if (twice.length > 0) objects.push(describe(entry.object, 'changed', twice));
      else unchanged++;
    } else {
      const impacts = [...twice, ...changedImpacts(was, entry, options, minor, sides, newObjects)];
      objects.push(describe(entry.object, 'changed', impacts.sort((x, y) => IMPACT_KINDS.indexOf(x.kind) - IMPACT_KINDS.indexOf(y.kind))));
    }
  }
  // What a removed Namespace holds, from OLD: one pass.
  const held = new Map<string, KubeObject[]>();
  for (const { object } of before.values()) {
    const ns = namespaceOf(object);
    if (ns === undefined) continue;
    const list = held.get(ns);
    if (list) list.push(object);
    else held.set(ns, [object]);
  }
  for (const [key, entry] of before) {
    if (after.has(key)) continue;
    const contents = entry.object.kind === 'Namespace' ? held.get(nameOf(entry.object)) ?? [] : [];
    objects.push(describe(entry.object, 'removed', [pruneImpact(entry.object, contents), ...rbacImpacts(entry.object, undefined)]));
  }
  objects = markWaves(objects, [...after.values()], options.nodes, namespaceOf);
  const impacts = Object.fromEntries(IMPACT_KINDS.map((k) => [k, 0])) as Record<ImpactKind, number>;
  let warnings = 0;
  for (const o of objects) {
    for (const i of o.impacts) {
      impacts[i.kind]++;
      if (i.warning) warnings++;
    }
  }
  const count = (change: ObjectDiff['change']) => objects.filter((o) => o.change === change).length;
  return {
    objects,
    summary: {
      added: count('added'), removed: count('removed'), changed: count('changed'), unchanged, impacts, warnings,
      kubernetesVersion: judged.version,
      kubernetesVersionSource: describeVersionSource(judged.source, '--kubernetes-version'),
      ...(options.nodes ? { nodes: options.nodes.length } : {}),
    },
  };
}
