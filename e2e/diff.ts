/**
 * `npm run e2e:diff`: node-reporter diff against a real API server. Each
 * held-out pair (test/diff/pairs.ts) is applied for real, OLD and then NEW:
 *
 * - every `immutable` impact the diff finds must be an update the server
 *   refuses, and every update it refuses must have one;
 * - for a DaemonSet, the diff's `rollout` must match the server: a new
 *   revision in `kubectl rollout history` exactly when the diff says so.
 *
 * Objects go into the namespace `diff-e2e` (cluster-scoped ones carry it in
 * their names); they select no node, so no pod runs. Everything is deleted
 * at the end. Exits 1 on any disagreement, printing each.
 *
 * Usage: KUBECONFIG=... npm run --silent e2e:diff
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { diffManifests } from '../lib/diff';
import { DiffPair, PAIRS, PAIRS_NAMESPACE } from '../test/diff/pairs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const kubectl = (...args: string[]) => spawnSync('kubectl', args, { encoding: 'utf-8' });
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-e2e-'));
const file = (name: string, objects: readonly Obj[]) => {
  const f = path.join(work, name);
  fs.writeFileSync(f, objects.map((o) => stringify(o)).join('---\n'));
  return f;
};

/** The DaemonSet's revisions, as `kubectl rollout history` lists them, once the controller has seen its latest spec. */
function revisions(name: string): number {
  for (let i = 0; i < 60; i++) {
    const ds = JSON.parse(kubectl('get', 'daemonset', name, '-n', PAIRS_NAMESPACE, '-o', 'json').stdout || '{}');
    if (ds.status?.observedGeneration !== undefined && ds.status.observedGeneration === ds.metadata?.generation) {
      const history = kubectl('rollout', 'history', `daemonset/${name}`, '-n', PAIRS_NAMESPACE);
      return history.stdout.split('\n').filter((l) => /^\d+\s/.test(l)).length;
    }
    sleep(500);
  }
  throw new Error(`daemonset ${name}: the controller did not observe generation in 30 s`);
}

interface Verdict { pair: string; problems: string[]; said: string }

function judge(pair: DiffPair, index: number): Verdict {
  const problems: string[] = [];
  const report = diffManifests(pair.old.map((object) => ({ object, file: 'old' })), pair.next.map((object) => ({ object, file: 'new' })), { kubernetesVersion: undefined });
  const impacts = report.objects.flatMap((o) => o.impacts);
  const immutable = impacts.filter((i) => i.kind === 'immutable');
  const created = kubectl('apply', '-f', file(`old-${index}.yaml`, pair.old));
  if (created.status !== 0) return { pair: pair.name, problems: [`OLD refused: ${created.stderr.trim()}`], said: '' };
  // A CRD's scope and kind are immutable once Established (validateCustomResourceDefinitionSpecUpdate): as in a cluster, wait for it.
  // A CRD that never becomes Established (its names conflict with another CRD's in the group) takes any change: fail
  // the pair instead of judging it.
  for (const crd of pair.old.filter((o) => o.kind === 'CustomResourceDefinition')) {
    const established = kubectl('wait', '--for=condition=Established', '--timeout=30s', `crd/${crd.metadata.name}`);
    if (established.status !== 0) return { pair: pair.name, problems: [`OLD's CRD ${crd.metadata.name} is not Established: ${established.stderr.trim()}`], said: '' };
  }
  const daemonSet = pair.next.find((o) => o.kind === 'DaemonSet') ?? pair.old.find((o) => o.kind === 'DaemonSet');
  const before = daemonSet ? revisions(daemonSet.metadata.name) : 0;
  if (pair.next.length === 0) {
    // Nothing to apply: the diff's prune is about deleting, which the server always allows.
    return { pair: pair.name, problems, said: 'OLD applied; NEW holds nothing to apply' };
  }
  const updated = kubectl('apply', '-f', file(`new-${index}.yaml`, pair.next));
  const refused = updated.status !== 0;
  const last = (refused ? updated.stderr : updated.stdout).trim().split('\n').pop() ?? '';
  const said = last.length > 240 ? `${last.slice(0, 200)} ... ${last.slice(-40)}` : last;
  if (refused !== (immutable.length > 0)) {
    problems.push(refused ? `the server refused NEW but the diff found nothing immutable: ${said}` : `the diff said immutable (${immutable.map((i) => i.fields?.join(', ')).join('; ')}) but the server accepted NEW`);
  }
  if (refused && !/immutable|Forbidden|cannot change|may not/i.test(updated.stderr)) {
    problems.push(`refused, but not as an update the server forbids: ${said}`);
  }
  for (const i of immutable) {
    const field = i.fields?.[0] ?? '';
    // The server names the field (spec.selector, spec.clusterIPs[0], roleRef) or, for a StatefulSet, the whole spec.
    const named = [field, field.replace(/^spec\.clusterIP$/, 'spec.clusterIPs'), 'spec: Forbidden', 'roleRef', field.split('.').pop()!];
    if (refused && !named.some((n) => n !== '' && updated.stderr.includes(n))) problems.push(`the server refused NEW but did not name ${field}: ${said}`);
  }
  if (refused !== (pair.server === 'refused')) problems.push(`test/diff/pairs.ts says ${pair.server}, the server ${refused ? 'refused' : 'accepted'}`);
  if (daemonSet && !refused) {
    const after = revisions(daemonSet.metadata.name);
    const rollout = impacts.some((i) => i.kind === 'rollout');
    if ((after > before) !== rollout) problems.push(`rollout history went from ${before} to ${after} revision(s), but the diff ${rollout ? 'said rollout' : 'said no rollout'}`);
    if (pair.revision !== undefined && (after > before) !== pair.revision) problems.push(`test/diff/pairs.ts says revision ${pair.revision}, the server made ${after - before}`);
  }
  return { pair: pair.name, problems, said };
}

function cleanup(): void {
  kubectl('delete', 'namespace', PAIRS_NAMESPACE, '--ignore-not-found', '--wait=false');
  for (const pair of PAIRS) {
    for (const o of [...pair.old, ...pair.next]) {
      if (o.metadata?.namespace === undefined) kubectl('delete', o.kind, o.metadata.name, '--ignore-not-found', '--wait=false');
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
}

function main(): number {
  const version = JSON.parse(kubectl('version', '-o', 'json').stdout || '{}').serverVersion?.gitVersion ?? 'unknown';
  if (kubectl('get', 'namespace', PAIRS_NAMESPACE).status === 0) {
    console.error(`namespace ${PAIRS_NAMESPACE} already exists; this test creates and deletes it, so it will not touch one it did not create`);
    return 2;
  }
  kubectl('create', 'namespace', PAIRS_NAMESPACE);
  let failed = 0;
  try {
    PAIRS.forEach((pair, i) => {
      const verdict = judge(pair, i);
      const ok = verdict.problems.length === 0;
      if (!ok) failed++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${pair.name}${verdict.said ? `\n       server: ${verdict.said}` : ''}${verdict.problems.map((p) => `\n       ${p}`).join('')}`);
    });
  } finally {
    cleanup();
  }
  const immutable = PAIRS.filter((p) => p.impacts.includes('immutable')).length;
  const rollouts = PAIRS.filter((p) => p.revision !== undefined).length;
  console.log(`diff agreement with ${version}: ${PAIRS.length - failed} of ${PAIRS.length} pairs (${immutable} refused updates, ${rollouts} DaemonSet revisions checked)`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
