/**
 * `npm run e2e:fleet`: the seed walkthrough on a cluster of three real nodes
 * (e2e/cluster.sh start 1.35 --nodes 3), with `node-reporter eligible`
 * compared with the real DaemonSet controller at every step.
 *
 *  1. label two of the three nodes: DESIRED 2, a pod on exactly those two, each logging its own node;
 *  2. unlabel one: DESIRED 1, its pod goes, the other pod is untouched; relabel it, then label the third: 3;
 *  3. `diff --nodes` predicts the v2 rollout; apply v2 and sample it: the lowest number of labelled nodes
 *     with a Ready pod, the pods replaced, the most nodes down at once;
 *  4. a NoExecute taint the agent does not tolerate evicts exactly that node's pod; a cordoned node keeps its pod;
 *     a node whose kubelet stops (NotReady, then the node lifecycle controller's unreachable taints) keeps its pod
 *     and leaves DESIRED;
 *  5. node-exporter (examples/dist) answers on each node's own address with that node's name.
 *
 * At each step `kubectl get nodes -o json | node-reporter eligible --manifest ...` must name exactly the nodes
 * the controller counts (DESIRED) and where it runs pods. Cleans up what it made (namespaces, labels, taints,
 * cordons, a stopped kubelet). Needs root for kubelet-stop (the local cluster's nodes are this host's processes).
 *
 * Usage: npm run e2e:fleet -- [--dist DIR] [--timeout SECONDS]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { clusterScript, evidence, isReady, Json, kubectl, kubectlJson, nodeReporter as cli, podProblem, reachableCluster, runE2e, sleep, step, StepFailed, waitFor } from './kubectl';

const NAMESPACE = 'practice-daemon';
const DAEMONSET = 'node-reporter';
const LABEL_KEY = 'practice-tier';
const LABEL_VALUE = 'operations';
const EVICT_TAINT = 'e2e.node-reporter.dev/evict';
const ROOT = path.join(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-fleet-'));

interface Options {
  dist: string;
  timeout: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({ options: { dist: { type: 'string', default: path.join(ROOT, 'dist') }, timeout: { type: 'string', default: '90' } }, strict: true });
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new StepFailed(`--timeout must be a whole number of seconds but got ${JSON.stringify(values.timeout)}`);
  }
  return { dist: values.dist, timeout };
}

function liveNodes(): Json[] {
  return kubectlJson(['get', 'nodes']).items;
}

/** The reporter's pods that are not being deleted, by node. */
function podsByNode(): Map<string, Json[]> {
  const byNode = new Map<string, Json[]>();
  for (const pod of kubectlJson(['get', 'pods', '-n', NAMESPACE, '-l', `app=${DAEMONSET}`]).items) {
    if (pod.metadata.deletionTimestamp) continue;
    const problem = podProblem(pod);
    if (problem) throw new StepFailed(`the agent cannot run: ${problem}`);
    const node = pod.spec.nodeName ?? '(unscheduled)';
    byNode.set(node, [...byNode.get(node) ?? [], pod]);
  }
  return byNode;
}

function dsStatus(): Json {
  const ds = kubectlJson(['get', 'daemonset', DAEMONSET, '-n', NAMESPACE]);
  return { ...ds.status, generation: ds.metadata.generation };
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}

/** `node-reporter eligible --manifest FILE -o json` over the live node list: the names of the eligible nodes. */
function eligibleNodes(file: string): string[] {
  const nodes = kubectl(['get', 'nodes', '-o', 'json']).out;
  const r = cli(['eligible', '--nodes', '-', '--manifest', file, '-o', 'json'], nodes);
  if (r.status !== 0) throw new StepFailed(`node-reporter eligible exited ${r.status}: ${r.err.trim()}`);
  const reports = JSON.parse(r.out).daemonSets.filter((d: Json) => d.name === DAEMONSET);
  if (reports.length !== 1) throw new StepFailed(`node-reporter eligible reported ${reports.length} DaemonSets named ${DAEMONSET}`);
  return reports[0].nodes.filter((n: Json) => n.eligible).map((n: Json) => n.name);
}

/**
 * Waits until the controller has settled on `counted` (DESIRED, each with a Running and Ready pod) and pods run
 * on exactly `placed`, then asks `eligible` and requires it to name exactly `counted`.
 */
function agree(file: string, counted: string[], o: Options, placed: string[] = counted): Map<string, Json[]> {
  const pods = waitFor(`DESIRED ${counted.length} and one Ready pod on each of ${placed.join(', ') || 'no node'}`, o.timeout, () => {
    const s = dsStatus();
    const byNode = podsByNode();
    const settled = s.observedGeneration === s.generation && s.desiredNumberScheduled === counted.length && s.numberReady === counted.length &&
      (s.updatedNumberScheduled ?? 0) === counted.length && same([...byNode.keys()], placed) &&
      placed.every((n) => byNode.get(n)!.length === 1 && (!counted.includes(n) || byNode.get(n)![0].status?.phase === 'Running' && isReady(byNode.get(n)![0])));
    return settled ? byNode : undefined;
  }, () => `${JSON.stringify(dsStatus())} pods on ${JSON.stringify([...podsByNode()].map(([n, p]) => `${n}:${p.map((x: Json) => x.status?.phase).join('/')}`))}`);
  const s = dsStatus();
  evidence(`DESIRED ${s.desiredNumberScheduled}, READY ${s.numberReady}; pods on ${[...pods.keys()].sort().join(', ') || 'no node'}`);
  const eligible = eligibleNodes(file);
  if (!same(eligible, counted)) {
    throw new StepFailed(`node-reporter eligible names ${JSON.stringify(eligible.sort())}, but the DaemonSet controller counts ${JSON.stringify(counted.sort())} (pods on ${JSON.stringify(placed.sort())})`);
  }
  evidence(`node-reporter eligible names the same ${eligible.length} node(s): ${eligible.sort().join(', ') || 'none'}`);
  return pods;
}

function expectOwnLogs(pods: Map<string, Json[]>, version: string, o: Options): void {
  for (const [node, [pod]] of [...pods].sort()) {
    const want = `node=${node} version=${version}`;
    waitFor(`"${want}" in ${pod.metadata.name}'s log`, o.timeout, () => {
      const { ok, out } = kubectl(['logs', pod.metadata.name, '-n', NAMESPACE], { allowFail: true });
      return ok && out.split('\n').some((l) => l.trim() === want) ? true : undefined;
    }, () => kubectl(['logs', pod.metadata.name, '-n', NAMESPACE], { allowFail: true }).out.trim().slice(-200) || '(no log yet)');
    evidence(`${pod.metadata.name} on ${node} logs "${want}"`);
  }
}

function label(node: string, on: boolean): void {
  kubectl(['label', 'node', node, on ? `${LABEL_KEY}=${LABEL_VALUE}` : `${LABEL_KEY}-`, ...on ? ['--overwrite'] : []]);
}

function uids(pods: Map<string, Json[]>): Map<string, string> {
  return new Map([...pods].map(([n, p]) => [n, p[0].metadata.uid]));
}

function untouched(before: Map<string, string>, after: Map<string, Json[]>, nodes: string[]): void {
  for (const n of nodes) {
    if (after.get(n)?.[0].metadata.uid !== before.get(n)) throw new StepFailed(`the pod on ${n} was replaced (uid ${before.get(n)} -> ${after.get(n)?.[0].metadata.uid})`);
  }
  evidence(`the pod${nodes.length > 1 ? 's' : ''} on ${nodes.join(', ')} untouched (same uid)`);
}

/** Applies v2 and samples the labelled nodes with a Ready pod until the rollout is done. */
function sampledRollout(o: Options, labelled: string[]): { lowest: number; replaced: number; samples: number } {
  const before = new Set([...podsByNode().values()].flat().map((p) => p.metadata.uid));
  const { ok, out, err } = kubectl(['apply', '--validate=strict', '-f', path.join(o.dist, 'node-reporter-v2.k8s.yaml')], { allowFail: true });
  if (!ok) throw new StepFailed(`kubectl apply of v2 was refused: ${err.trim()}`);
  evidence(`kubectl apply --validate=strict: ${out.trim().split('\n').join('; ')}`);
  const deadline = Date.now() + o.timeout * 1000;
  let lowest = labelled.length;
  let samples = 0;
  const seen = new Set<string>();
  for (;;) {
    const pods = kubectlJson(['get', 'pods', '-n', NAMESPACE, '-l', `app=${DAEMONSET}`]).items;
    pods.forEach((p: Json) => seen.add(p.metadata.uid));
    const readyOn = new Set(pods.filter((p: Json) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && isReady(p)).map((p: Json) => p.spec.nodeName));
    lowest = Math.min(lowest, labelled.filter((n) => readyOn.has(n)).length);
    samples++;
    const s = dsStatus();
    if (s.observedGeneration === s.generation && s.updatedNumberScheduled === labelled.length && s.numberReady === labelled.length && pods.every((p: Json) => !before.has(p.metadata.uid))) break;
    if (Date.now() > deadline) throw new StepFailed(`the v2 rollout did not complete in ${o.timeout}s: ${JSON.stringify(s)}`);
    sleep(200);
  }
  return { lowest, replaced: [...seen].filter((u) => before.has(u)).length, samples };
}

function run(): void {
  const o = parseOptions();
  step('preflight: a cluster of three nodes with kubelets, no practice-daemon namespace');
  const { context, server } = reachableCluster();
  const all = liveNodes();
  if (all.length < 3 || !all.every((n) => n.status?.nodeInfo?.kubeletVersion && isReady(n))) {
    throw new StepFailed(`needs 3 Ready nodes with kubelets (e2e/cluster.sh start 1.35 --nodes 3), but the cluster has: ${all.map((n) => `${n.metadata.name} ${isReady(n) ? 'Ready' : 'NotReady'}`).join(', ')}`);
  }
  const [a, b, c] = all.slice(0, 3).map((n) => n.metadata.name as string);
  evidence(`context ${context}, Kubernetes ${server.gitVersion}; nodes ${all.map((n) => `${n.metadata.name} (${n.status.addresses.find((x: Json) => x.type === 'InternalIP')?.address})`).join(', ')}`);
  if (kubectl(['get', 'namespace', NAMESPACE], { allowFail: true }).ok) {
    throw new StepFailed(`namespace ${NAMESPACE} already exists; the e2e creates and deletes it, so it will not touch one it did not create`);
  }
  const v1 = path.join(o.dist, 'node-reporter-v1.k8s.yaml');
  const v2 = path.join(o.dist, 'node-reporter-v2.k8s.yaml');
  let stoppedKubelet = false;
  try {
    step(`1. label ${a} and ${b} of ${a}, ${b}, ${c}, apply v1: DESIRED 2, a pod on exactly those two, each logging its own node`);
    label(a, true);
    label(b, true);
    kubectl(['apply', '--validate=strict', '-f', v1]);
    let pods = agree(v1, [a, b], o);
    expectOwnLogs(pods, 'v1', o);

    step(`2. remove ${b}'s label: DESIRED 1, its pod goes, ${a}'s is untouched; relabel ${b}: a new pod; label ${c}: DESIRED 3`);
    let before = uids(pods);
    label(b, false);
    pods = agree(v1, [a], o);
    untouched(before, pods, [a]);
    label(b, true);
    pods = agree(v1, [a, b], o);
    if (pods.get(b)![0].metadata.uid === before.get(b)) throw new StepFailed(`the pod on ${b} after relabelling has the old uid`);
    evidence(`a new pod on ${b} (uid ${pods.get(b)![0].metadata.uid}, was ${before.get(b)})`);
    label(c, true);
    pods = agree(v1, [a, b, c], o);
    expectOwnLogs(pods, 'v1', o);

    step('3. v2 across the three nodes: diff --nodes predicts it, the rollout is sampled');
    const nodesFile = path.join(work, 'nodes.json');
    fs.writeFileSync(nodesFile, kubectl(['get', 'nodes', '-o', 'json']).out);
    const diff = cli(['diff', v1, v2, '--nodes', nodesFile, '-o', 'json']);
    const rollout = JSON.parse(diff.out).objects.find((x: Json) => x.kind === 'DaemonSet')?.impacts.find((i: Json) => i.kind === 'rollout');
    const predicted = /(\d+) pod\(s\) on \d+ node\(s\), (\d+) at a time, (\d+) round\(s\)/.exec(rollout?.message ?? '');
    if (!predicted) throw new StepFailed(`node-reporter diff --nodes gave no rollout with rounds for the DaemonSet: ${diff.out.slice(0, 400)}`);
    const [, podsPredicted, step1, rounds] = predicted.map(Number);
    evidence(`node-reporter diff --nodes: "${rollout.message.split('; ').pop()}"`);
    const maxUnavailable = Number(kubectlJson(['get', 'daemonset', DAEMONSET, '-n', NAMESPACE]).spec.updateStrategy.rollingUpdate.maxUnavailable);
    const seen = sampledRollout(o, [a, b, c]);
    pods = agree(v2, [a, b, c], o);
    expectOwnLogs(pods, 'v2', o);
    console.log(`   rollout: lowest Ready count ${seen.lowest} of 3 over ${seen.samples} samples (maxUnavailable ${maxUnavailable}: at least ${3 - maxUnavailable}); ` +
      `pods replaced ${seen.replaced} (predicted ${podsPredicted}); most nodes down at once ${3 - seen.lowest} (predicted ${step1} at a time, ${rounds} rounds)`);
    if (seen.lowest < 3 - maxUnavailable) throw new StepFailed(`the rollout left only ${seen.lowest} labelled nodes with a Ready pod (maxUnavailable ${maxUnavailable})`);
    if (seen.replaced !== podsPredicted || 3 - seen.lowest > step1) throw new StepFailed(`diff predicted ${podsPredicted} pods, ${step1} at a time; the rollout replaced ${seen.replaced}, ${3 - seen.lowest} down at once`);
    evidence(`the lowest Ready count ${seen.lowest} >= 3 - maxUnavailable; diff's prediction held`);

    step(`4. taint ${c} ${EVICT_TAINT}=yes:NoExecute: exactly its pod is evicted; cordon ${b}: it keeps its pod`);
    before = uids(pods);
    kubectl(['taint', 'node', c, `${EVICT_TAINT}=yes:NoExecute`]);
    pods = agree(v2, [a, b], o);
    untouched(before, pods, [a, b]);
    kubectl(['taint', 'node', c, `${EVICT_TAINT}-`]);
    pods = agree(v2, [a, b, c], o);
    before = uids(pods);
    kubectl(['cordon', b]);
    pods = agree(v2, [a, b, c], o);
    untouched(before, pods, [a, b, c]);
    kubectl(['uncordon', b]);

    step(`5. stop ${c}'s kubelet: NotReady, then unreachable taints; its pod stays, DESIRED leaves it`);
    const index = all.findIndex((n) => n.metadata.name === c) + 1;
    clusterScript(['kubelet-stop', String(index)]);
    stoppedKubelet = true;
    const taints = waitFor(`the node lifecycle controller's unreachable taints on ${c}`, o.timeout, () => {
      const t = kubectlJson(['get', 'node', c]).spec.taints ?? [];
      return t.some((x: Json) => x.key === 'node.kubernetes.io/unreachable' && x.effect === 'NoExecute') ? t : undefined;
    }, () => JSON.stringify(kubectlJson(['get', 'node', c]).spec.taints ?? []));
    evidence(`${c}: ${taints.map((t: Json) => `${t.key}:${t.effect}`).join(', ')}`);
    pods = waitFor(`${c}'s pod kept, DESIRED 2`, o.timeout, () => {
      const s = dsStatus();
      const byNode = podsByNode();
      return s.desiredNumberScheduled === 2 && byNode.get(c)?.[0].metadata.uid === before.get(c) ? byNode : undefined;
    }, () => JSON.stringify(dsStatus()));
    const s = dsStatus();
    evidence(`DESIRED ${s.desiredNumberScheduled}, misscheduled ${s.numberMisscheduled ?? 0}: ${c}'s pod (uid ${before.get(c)}) is kept (the DaemonSet tolerates unreachable:NoExecute) but not counted (unreachable:NoSchedule)`);
    const eligible = eligibleNodes(v2);
    if (!same(eligible, [a, b])) throw new StepFailed(`node-reporter eligible names ${JSON.stringify(eligible)}, the controller counts ${a} and ${b}`);
    evidence(`node-reporter eligible names the same 2 nodes: ${eligible.sort().join(', ')}`);
    clusterScript(['kubelet-start', String(index)]);
    stoppedKubelet = false;
    waitFor(`${c} Ready without taints`, o.timeout, () => {
      const n = kubectlJson(['get', 'node', c]);
      return isReady(n) && !(n.spec.taints ?? []).length ? true : undefined;
    }, () => JSON.stringify(kubectlJson(['get', 'node', c]).spec.taints ?? []));
    pods = agree(v2, [a, b, c], o);
    evidence(`${c} Ready again, its pod counted`);
  } finally {
    step('cleanup: the namespace, labels, taints, cordons, the kubelet');
    if (stoppedKubelet) clusterScript(['kubelet-start', String(all.findIndex((n) => n.metadata.name === c) + 1)]);
    kubectl(['delete', 'namespace', NAMESPACE, '--wait=true', `--timeout=${o.timeout}s`], { allowFail: true });
    for (const n of [a, b, c]) {
      kubectl(['label', 'node', n, `${LABEL_KEY}-`], { allowFail: true });
      kubectl(['taint', 'node', n, `${EVICT_TAINT}-`], { allowFail: true });
      kubectl(['uncordon', n], { allowFail: true });
    }
  }
  nodeExporterOnEachNode(o, [a, b, c]);
  console.log('\nfleet walkthrough passed');
}

/** node-exporter (a hostNetwork agent on port 9100) answers on each node's own address with that node's name. */
function nodeExporterOnEachNode(o: Options, names: string[]): void {
  step('6. node-exporter on every node: each answers on its own node address with its own node name');
  const file = path.join(ROOT, 'examples', 'dist', 'node-exporter.k8s.yaml');
  kubectl(['apply', '--validate=strict', '-f', file]);
  try {
    const ds = kubectlJson(['get', '-f', file]).items.find((x: Json) => x.kind === 'DaemonSet');
    waitFor(`node-exporter Ready on ${names.length} nodes`, o.timeout, () => {
      const s = kubectlJson(['get', 'daemonset', ds.metadata.name, '-n', ds.metadata.namespace]).status;
      return s.numberReady === names.length && s.desiredNumberScheduled === names.length ? true : undefined;
    }, () => JSON.stringify(kubectlJson(['get', 'daemonset', ds.metadata.name, '-n', ds.metadata.namespace]).status));
    for (const node of liveNodes().filter((n) => names.includes(n.metadata.name))) {
      const ip = node.status.addresses.find((x: Json) => x.type === 'InternalIP').address;
      const metrics = waitFor(`node-exporter at ${ip}:9100`, o.timeout, () => {
        const r = spawnSync('curl', ['-fsS', '-m', '5', `http://${ip}:9100/metrics`], { encoding: 'utf-8', maxBuffer: 16 << 20 });
        return r.status === 0 ? r.stdout : undefined;
      }, () => 'no answer');
      const uname = metrics.split('\n').find((l) => l.startsWith('node_uname_info')) ?? '';
      if (!uname.includes(`nodename="${node.metadata.name}"`)) throw new StepFailed(`${ip}:9100 answered for another node: ${uname}`);
      evidence(`http://${ip}:9100/metrics: ${uname.replace(/,release="[^"]*",sysname="[^"]*",version="[^"]*"/, ',...')}`);
    }
  } finally {
    kubectl(['delete', '-f', file, '--wait=true', `--timeout=${o.timeout}s`], { allowFail: true });
  }
}

try {
  runE2e(run);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
