/**
 * Adoption of calico.yaml's calico-node on a real API server and node:
 * calico.yaml v3.32.0 (e2e/upstream/calico-v3.32.0.yaml, its objects
 * verbatim) installed as calico's docs say (`kubectl apply -f calico.yaml`),
 * then examples/dist/calico-node.k8s.yaml applied over it. Every object the
 * example holds must answer `configured` (none created beside upstream's, no
 * `field is immutable`); the DaemonSet keeps its uid and selector, takes the
 * new template as the next generation, and the DaemonSet controller rolls
 * its pod by the update strategy. Then pruning (adoption-prune.ts) removes
 * nothing of upstream's. Cleans up everything it created, CRDs included.
 *
 * calico's binary does not run here: its images (quay.io/calico/*) are not
 * on this node and no registry is reachable, so its pods stay waiting on the
 * image pull (calico would also replace the node's CNI). What is real is the
 * API server's answers and the DaemonSet controller's roll: the
 * ControllerRevision history, the pod replaced by one of the new template
 * hash, never more pods than nodes (maxSurge 0) and never more nodes without
 * a pod than maxUnavailable, and the DaemonSet never deleted.
 *
 * Unlike kubeadm's objects (adoption.ts), calico.yaml's carry kubectl's
 * last-applied annotation from its install, so the first apply of the
 * example removes upstream's fields the library does not write, and no
 * `kubectl replace --save-config` is needed: a re-apply answers `unchanged`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { absentHostPaths, removeHostPaths } from './adoption-host';
import { deleteApplySetParent, kubectlRef,pruneAfterAdoption } from './adoption-prune';
import { evidence, Json, kubectl, kubectlJson, sleep, step, StepFailed, waitFor } from './kubectl';
import { describe, getArgs, parseManifest } from './manifests';

const UPSTREAM_FILE = path.join(__dirname, 'upstream', 'calico-v3.32.0.yaml');
const EXAMPLE_FILE = path.join(__dirname, '..', 'examples', 'dist', 'calico-node.k8s.yaml');
/** The flow's two manifests' text: calico.yaml's objects and the example. */
export const CALICO_MANIFESTS = [UPSTREAM_FILE, EXAMPLE_FILE].map((f) => fs.readFileSync(f, 'utf-8'));
const NS = 'kube-system';
const SELECTOR = 'k8s-app=calico-node';

function daemonSet(): Json {
  return kubectlJson(['-n', NS, 'get', 'daemonset', 'calico-node']);
}

/** The DaemonSet's ControllerRevisions (its template history), oldest first. */
function revisions(uid: string): Json[] {
  return kubectlJson(['-n', NS, 'get', 'controllerrevisions', '-l', SELECTOR]).items
    .filter((r: Json) => (r.metadata.ownerReferences ?? []).some((o: Json) => o.uid === uid))
    .sort((a: Json, b: Json) => a.revision - b.revision);
}

function pods(): Json[] {
  return kubectlJson(['-n', NS, 'get', 'pods', '-l', SELECTOR]).items;
}

/** Why the pod's first container is not running: the kubelet's waiting reason, or the pod's phase. */
function notRunning(pod: Json): string {
  const statuses = [...pod.status?.initContainerStatuses ?? [], ...pod.status?.containerStatuses ?? []];
  const waiting = statuses.map((s: Json) => s.state?.waiting).find((w: Json) => w?.reason);
  return waiting ? `${waiting.reason}${waiting.message ? `: ${String(waiting.message).split('\n')[0].slice(0, 160)}` : ''}` : `phase ${pod.status?.phase}`;
}

/**
 * A watch of the DaemonSet's pods written to a file, one line per event
 * (type, name, template hash, deleting, node), read after the roll: the
 * e2e's kubectl calls are synchronous and would miss a pod that lives between two polls.
 */
function watchPods(file: string): () => string[] {
  const out = fs.openSync(file, 'w');
  const template = '{.type} {.object.metadata.name} {.object.metadata.labels.controller-revision-hash} {.object.metadata.deletionTimestamp} {.object.spec.nodeName}{"\\n"}';
  const child = spawn('kubectl', ['-n', NS, 'get', 'pods', '-l', SELECTOR, '--watch', '--output-watch-events', '-o', `jsonpath=${template}`], { stdio: ['ignore', out, out] });
  return () => {
    sleep(1000);
    child.kill();
    fs.closeSync(out);
    return fs.readFileSync(file, 'utf-8').trim().split('\n').filter((l) => l !== '');
  };
}

/** One event line of watchPods. */
interface PodEvent { type: string; name: string; hash: string; deleting: boolean; node: string }

function parseEvent(line: string): PodEvent {
  const [type, name, hash, ...rest] = line.split(' ');
  // deletionTimestamp is empty when unset, so the node is the last field.
  const node = rest.pop() ?? '';
  return { type, name, hash, deleting: rest.some((r) => r !== ''), node };
}

/**
 * Replays the watch: after every event, the pods alive (not deleted) and the
 * nodes with no pod that is not being deleted. Fails when more pods lived
 * than nodes plus maxSurge, or more nodes were without a pod than maxUnavailable.
 */
export function checkRoll(lines: string[], nodes: number, maxSurge: number, maxUnavailable: number): string {
  const alive = new Map<string, PodEvent>();
  let mostPods = 0;
  let mostWithout = 0;
  const order: string[] = [];
  for (const line of lines) {
    const e = parseEvent(line);
    if (!['ADDED', 'MODIFIED', 'DELETED'].includes(e.type)) {
      throw new StepFailed(`the pod watch printed a line that is no event: ${line}`);
    }
    if (e.type === 'DELETED') {
      alive.delete(e.name);
    } else {
      alive.set(e.name, e);
    }
    if (e.type !== 'MODIFIED' || e.deleting) {
      order.push(`${e.type === 'MODIFIED' ? 'DELETING' : e.type} ${e.name} (hash ${e.hash})`);
    }
    mostPods = Math.max(mostPods, alive.size);
    const serving = new Set([...alive.values()].filter((p) => !p.deleting && p.node !== '').map((p) => p.node));
    mostWithout = Math.max(mostWithout, nodes - serving.size);
  }
  if (mostPods > nodes + maxSurge) {
    throw new StepFailed(`${mostPods} pods lived at once on ${nodes} node(s) with maxSurge ${maxSurge}`);
  }
  if (mostWithout > maxUnavailable) {
    throw new StepFailed(`${mostWithout} node(s) were without a pod at once, beyond maxUnavailable ${maxUnavailable}`);
  }
  return `${[...new Set(order)].join(' -> ')}; at most ${mostPods} pod(s) on ${nodes} node(s) (maxSurge ${maxSurge}), at most ${mostWithout} node(s) without one (maxUnavailable ${maxUnavailable})`;
}

/** Fails unless each line is `<ref> <verb>` for exactly the objects, in any order. */
function expectVerbs(lines: string[], objects: ReturnType<typeof parseManifest>, verb: string, what: string): void {
  const wanted = objects.map((o) => `${kubectlRef(o)} ${verb}`).sort();
  const got = [...lines].sort();
  if (JSON.stringify(wanted) !== JSON.stringify(got)) {
    const missing = wanted.filter((w) => !got.includes(w));
    const extra = got.filter((g) => !wanted.includes(g));
    throw new StepFailed(`${what}: wanted "${verb}" for each of the ${objects.length} objects; missing ${missing.join('; ') || 'none'}, instead ${extra.join('; ') || 'none'}`);
  }
}

/** The calico flow; cleans up in any case. */
export function calicoAdoption(): void {
  const [upstreamText, exampleText] = CALICO_MANIFESTS;
  const upstream = parseManifest(upstreamText, UPSTREAM_FILE);
  const example = parseManifest(exampleText, EXAMPLE_FILE);
  const held = new Set(example.map(describe));
  const notHeld = upstream.filter((o) => !held.has(describe(o)));
  const beside = example.filter((o) => !upstream.some((u) => describe(u) === describe(o)));
  if (beside.length > 0) {
    throw new StepFailed(`the example holds objects calico.yaml has not: ${beside.map(describe).join(', ')}`);
  }
  const hostPaths = absentHostPaths([upstreamText, exampleText]);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'adoption-calico-'));
  const started = Date.now();
  let failure: unknown;
  try {
    // A CRD of an earlier run can still be going: its finalizer retries with a growing backoff.
    kubectl(['wait', '--for=delete', '--timeout=120s', '-f', '-'], { input: upstreamText, allowFail: true });
    const present = upstream.filter((o) => kubectl(['get', ...getArgs(o), '--ignore-not-found', '-o', 'name']).out.trim() !== '');
    if (present.length > 0) {
      throw new StepFailed(`calico.yaml's objects exist before the install: ${present.map(describe).join(', ')}`);
    }

    step(`calico.yaml v3.32.0 (${path.relative(process.cwd(), UPSTREAM_FILE)}: its objects verbatim) installed as calico's docs say: kubectl apply -f calico.yaml`);
    const installed = kubectl(['apply', '-f', '-'], { input: upstreamText }).out.trim().split('\n');
    expectVerbs(installed, upstream, 'created', 'the upstream install');
    evidence(`${installed.length} objects created: ${upstream.filter((o) => o.kind !== 'CustomResourceDefinition').map(describe).join(', ')} and ${upstream.length - upstream.filter((o) => o.kind !== 'CustomResourceDefinition').length} CRDs`);
    const before = daemonSet();
    const nodes = kubectlJson(['get', 'nodes', '-l', 'kubernetes.io/os=linux']).items.length;
    const first = waitFor('the DaemonSet controller to give each node a pod of calico.yaml\'s template', 60, () => {
      const revs = revisions(before.metadata.uid);
      const ps = pods();
      return revs.length === 1 && ps.length === nodes && ps.every((p: Json) => p.metadata.labels['controller-revision-hash'] === revs[0].metadata.labels['controller-revision-hash'])
        ? { rev: revs[0], pod: ps[0] } : undefined;
    }, () => `revisions ${revisions(before.metadata.uid).map((r: Json) => r.metadata.name).join(', ')}; pods ${pods().map((p: Json) => p.metadata.name).join(', ')}`);
    evidence(`DaemonSet uid ${before.metadata.uid}, generation ${before.metadata.generation}, ControllerRevision ${first.rev.metadata.name} (revision ${first.rev.revision}); pod ${first.pod.metadata.name} of hash ${first.pod.metadata.labels['controller-revision-hash']} on ${nodes} node(s)`);
    // Best effort: the kubelet's reason shows once it has tried the pull.
    let waited = notRunning(first.pod);
    for (let i = 0; i < 60 && !/ImagePull|ErrImage/.test(waited); i++) {
      sleep(500);
      waited = pods()[0] ? notRunning(pods()[0]) : 'no pod';
    }
    console.log(`   note: calico's binary does not run here (its images are not on the node and no registry is reachable): ${waited}`);

    step('the library\'s calico-node (examples/dist/calico-node.k8s.yaml) applied over it: kubectl apply -f');
    const stopWatch = watchPods(path.join(scratch, 'pods.watch'));
    sleep(1000);
    const applied = kubectl(['apply', '-f', '-'], { input: exampleText, allowFail: true });
    console.log(applied.out.trim().split('\n').map((l) => `   ${l}`).join('\n'));
    if (!applied.ok || /immutable/.test(applied.err)) {
      stopWatch();
      throw new StepFailed(`kubectl apply over calico.yaml's objects failed: ${applied.err.trim()}`);
    }
    expectVerbs(applied.out.trim().split('\n'), example, 'configured', 'the example over calico.yaml');
    evidence(`the server answered "configured" for all ${example.length} objects the example holds, none created beside calico.yaml's, no "field is immutable"`);

    const rolled = waitFor('the DaemonSet controller to replace the pod by one of the new template', 60, () => {
      const ds = daemonSet();
      const revs = revisions(before.metadata.uid);
      const ps = pods();
      const newest = revs[revs.length - 1];
      const hash = newest?.metadata.labels['controller-revision-hash'];
      return ds.status.observedGeneration === ds.metadata.generation && revs.length === 2 && ps.length === nodes
        && ps.every((p: Json) => p.metadata.labels['controller-revision-hash'] === hash && !p.metadata.deletionTimestamp)
        && ds.status.updatedNumberScheduled === nodes ? { ds, revs, pod: ps[0] } : undefined;
    }, () => `pods ${pods().map((p: Json) => `${p.metadata.name}:${p.metadata.labels['controller-revision-hash']}`).join(', ')}`);
    const events = stopWatch();
    const { ds } = rolled;
    if (ds.metadata.uid !== before.metadata.uid || ds.metadata.creationTimestamp !== before.metadata.creationTimestamp) {
      throw new StepFailed(`the DaemonSet was replaced: uid ${before.metadata.uid} -> ${ds.metadata.uid}`);
    }
    if (JSON.stringify(ds.spec.selector) !== JSON.stringify(before.spec.selector)) {
      throw new StepFailed(`the selector changed: ${JSON.stringify(before.spec.selector)} -> ${JSON.stringify(ds.spec.selector)}`);
    }
    if (ds.metadata.generation !== before.metadata.generation + 1) {
      throw new StepFailed(`wanted generation ${before.metadata.generation + 1} (the new template), got ${ds.metadata.generation}`);
    }
    evidence(`DaemonSet kept its uid ${ds.metadata.uid} (never deleted) and selector ${JSON.stringify(ds.spec.selector.matchLabels)}; generation ${before.metadata.generation} -> ${ds.metadata.generation}, observed`);
    evidence(`ControllerRevisions: ${rolled.revs.map((r: Json) => `${r.metadata.name} (revision ${r.revision})`).join(', ')}; pod ${rolled.pod.metadata.name} of the new hash ${rolled.pod.metadata.labels['controller-revision-hash']}`);
    const strategy = ds.spec.updateStrategy;
    evidence(`rolled by ${JSON.stringify(strategy)}: ${checkRoll(events, nodes, Number(strategy.rollingUpdate?.maxSurge ?? 0), Number(strategy.rollingUpdate?.maxUnavailable ?? 1))}`);
    console.log(`   note: the new pod waits as the old one did (calico's binary does not run here): ${notRunning(rolled.pod)}`);

    step('re-applying the same file changes nothing (calico.yaml\'s install left kubectl\'s last-applied annotation: no replace needed)');
    const again = kubectl(['apply', '-f', '-'], { input: exampleText }).out.trim().split('\n');
    expectVerbs(again, example, 'unchanged', 'a re-apply');
    evidence(`all ${again.length} objects unchanged`);

    pruneAfterAdoption({
      name: 'calico-node', namespace: NS, file: 'examples/dist/calico-node.k8s.yaml', example: exampleText, kept: notHeld, drop: 'ClusterRoleBinding/calico-tier-getter',
    });
  } catch (e) {
    failure = e;
  } finally {
    step('cleanup');
    kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: exampleText, allowFail: true });
    kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: upstreamText, allowFail: true });
    deleteApplySetParent('calico-node', NS);
    // The pods go before the host paths they mount.
    removeHostPaths(hostPaths, NS, 'k8s-app in (calico-node,calico-kube-controllers)');
    // The next run wants them gone, not going (a CRD's finalizer can take a minute).
    const waitStarted = Date.now();
    kubectl(['wait', '--for=delete', '--timeout=120s', '-f', '-'], { input: upstreamText, allowFail: true });
    console.log(`   waited ${Math.round((Date.now() - waitStarted) / 1000)} s for calico.yaml's objects to be gone`);
    const left = upstream.filter((o) => kubectl(['get', ...getArgs(o), '--ignore-not-found', '-o', 'name'], { allowFail: true }).out.trim() !== '');
    fs.rmSync(scratch, { recursive: true, force: true });
    console.log(`   deleted calico.yaml's and the library's calico-node objects, CRDs included, and the ApplySet parent${left.length > 0 ? `; still going: ${left.map(describe).join(', ')}` : ''}`);
    console.log(`   calico flow: ${Math.round((Date.now() - started) / 1000)} s`);
  }
  if (failure !== undefined) {
    throw failure;
  }
}
