/**
 * `npm run e2e:waves`: an agent rolled out in waves on three real nodes
 * (e2e/cluster.sh start 1.35 --nodes 3), as docs/rolling-out-in-waves.md says:
 *
 *  1. the seed reporter as one DaemonSet (dist/node-reporter-v1) on the three nodes;
 *  2. moved to waves (canary, rest) by the guide's recipe: the canary node labelled, the last wave kept as the
 *     DaemonSet it was, with OnDelete for the move: no pod outside the canary restarts (sampled throughout);
 *  3. the canary at v2 on exactly the canary node while the others log v1; `diff` names the wave and its nodes;
 *  4. promotion to every node; a change to both waves at once is `all-waves` (`--fail-on all-waves` exits 3);
 *  5. a node moved from the last wave to the canary by relabelling it, for the reporter and for a hostNetwork agent
 *     with a declared host port (node-exporter's 9100): the gap (no Ready agent pod) and overlap (two running) measured;
 *  6. a bad version stops at the canary: `kubectl rollout status` of the canary fails, no other pod restarts, a revert heals it;
 *  7. a node that joins unlabelled lands in the last wave, at that wave's version.
 * At each placement `node-reporter eligible --manifest` names each wave's nodes as the controller placed them.
 *
 * Usage: npm run e2e:waves -- [--timeout SECONDS]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Chart, Duration, Size, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NODE_EXPORTER_VERSION } from '../examples/node-exporter';
import { AgentUpdateStrategy, AgentWave, NodeAgent, NodePolicy, NodeReporterChart, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect } from '../lib';
import { clusterScript, evidence, isReady, Json, kubectl, kubectlJson, nodeReporter, podProblem, reachableCluster, runE2e, sleep, step, StepFailed, waitFor } from './kubectl';

const REPORTER_NS = 'practice-daemon';
const EXPORTER_NS = 'node-exporter-e2e-waves';
const POLICY_LABEL = 'practice-tier';
const WAVE_LABEL = 'node-reporter.dev/rollout-wave';
const ROOT = path.join(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-waves-'));

/** Synthesizes a chart into a file of the work folder, as `cdk8s synth` writes it. */
function synth(name: string, make: (app: ReturnType<typeof Testing.app>) => Chart): string {
  const app = Testing.app();
  const chart = make(app);
  const file = path.join(work, `${name}.k8s.yaml`);
  fs.writeFileSync(file, Yaml.stringify(...chart.toJson()));
  return file;
}

/** The seed reporter (as main.ts writes it) in two waves, canary and rest. */
function reporterInWaves(name: string, canary: Partial<AgentWave>, rest: Partial<AgentWave>): string {
  return synth(name, (app) => new NodeReporterChart(app, name, { version: 'v1', waves: [{ name: 'canary', ...canary }, { name: 'rest', ...rest }] }));
}

/** node-exporter in two waves, as examples/node-exporter-waves.ts, with the one image this cluster has. */
function exporterInWaves(): string {
  return synth('node-exporter-waves', (app) => {
    const chart = new Chart(app, 'NodeExporterWaves', { namespace: EXPORTER_NS });
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: EXPORTER_NS });
    const linux = new NodePolicy(chart, 'Linux', { operatingSystem: 'linux', tolerations: [NodeToleration.everything(TaintEffect.NO_SCHEDULE)] });
    const probe = () => kplus.Probe.fromHttpGet('/', { port: 9100, initialDelaySeconds: Duration.seconds(0), periodSeconds: Duration.seconds(2) });
    const agent = new NodeAgent(chart, 'NodeExporter', {
      policy: linux,
      name: 'node-exporter',
      containers: [{
        name: 'node-exporter',
        image: `quay.io/prometheus/node-exporter:v${NODE_EXPORTER_VERSION}`,
        args: ['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--web.listen-address=:9100'],
        ports: [{ number: 9100, name: 'metrics', protocol: kplus.Protocol.TCP }],
        readiness: probe(),
        resources: { cpu: { request: kplus.Cpu.millis(20) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(64) } },
      }],
      hostNetwork: true,
      hostPID: true,
      hostPaths: [
        { name: 'proc', hostPath: '/proc', mountPath: '/host/proc', type: kplus.HostPathVolumeType.DIRECTORY },
        { name: 'sys', hostPath: '/sys', mountPath: '/host/sys', type: kplus.HostPathVolumeType.DIRECTORY },
      ],
      serviceAccount: { automountToken: false },
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: "node-exporter reports the node's own metrics: it reads the host's processes and network interfaces" },
      waves: [{ name: 'canary', version: 'canary' }, { name: 'rest', version: 'rest' }],
    });
    ns.admit(agent);
    return chart;
  });
}

interface Options { timeout: number }

function parseOptions(): Options {
  const { values } = parseArgs({ options: { timeout: { type: 'string', default: '90' } }, strict: true });
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout < 1) throw new StepFailed(`--timeout must be a whole number of seconds but got ${JSON.stringify(values.timeout)}`);
  return { timeout };
}

/** The pods of a namespace (one agent each here), not being deleted unless asked. */
function pods(namespace: string, withDeleting = false): Json[] {
  return kubectlJson(['get', 'pods', '-n', namespace]).items.filter((p: Json) => withDeleting || !p.metadata.deletionTimestamp);
}

function owner(pod: Json): string {
  return (pod.metadata.ownerReferences ?? []).find((r: Json) => r.controller)?.name ?? '(none)';
}

function readyPod(p: Json): boolean {
  return !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && isReady(p);
}

/** Waits until each node runs exactly one Ready pod of the DaemonSet given for it (and no other pod), then returns them. */
function placement(namespace: string, want: Record<string, string>, o: Options, version?: Record<string, string>): Map<string, Json> {
  const describe = () => JSON.stringify(pods(namespace, true).map((p) => `${p.spec.nodeName}:${owner(p)}:${p.status?.phase}${p.metadata.deletionTimestamp ? ':deleting' : ''}`));
  const placed = waitFor(`pods ${JSON.stringify(want)}`, o.timeout, () => {
    const live = pods(namespace);
    // A pod of what is wanted that cannot run ends the wait (a pod on its way out, e.g. a reverted bad version, may crash).
    for (const p of live.filter((x) => want[x.spec.nodeName] === owner(x) && (!version || x.metadata.labels['app.kubernetes.io/version'] === version[x.spec.nodeName]))) {
      const problem = podProblem(p);
      if (problem) throw new StepFailed(`the agent cannot run: ${problem}`);
    }
    const byNode = new Map(live.map((p) => [p.spec.nodeName, p]));
    const ok = live.length === Object.keys(want).length && Object.entries(want).every(([node, ds]) => {
      const p = byNode.get(node);
      return p && owner(p) === ds && readyPod(p) && (!version || p.metadata.labels['app.kubernetes.io/version'] === version[node]);
    });
    return ok ? byNode : undefined;
  }, describe);
  evidence(Object.entries(want).sort().map(([node, ds]) => `${node}: ${ds}${version ? ` ${version[node]}` : ''}`).join('; '));
  return placed;
}

/** `eligible --manifest` over the live nodes: each wave's nodes, keyed by DaemonSet name, and the overlaps. */
function eligibleWaves(file: string): { waves: Record<string, string[]>; json: Json } {
  const r = nodeReporter(['eligible', '--nodes', '-', '--manifest', file, '-o', 'json'], kubectl(['get', 'nodes', '-o', 'json']).out);
  if (r.status !== 0) throw new StepFailed(`node-reporter eligible exited ${r.status}: ${r.err.trim()}`);
  const json = JSON.parse(r.out);
  const waves: Record<string, string[]> = {};
  for (const ds of json.daemonSets) waves[ds.name] = ds.nodes.filter((n: Json) => n.eligible).map((n: Json) => n.name).sort();
  return { waves, json };
}

/** eligible's nodes per wave must be the controller's placement. */
function agreeWaves(file: string, placed: Map<string, Json>): void {
  const { waves, json } = eligibleWaves(file);
  const actual: Record<string, string[]> = {};
  for (const [node, pod] of placed) (actual[owner(pod)] ??= []).push(node);
  for (const ds of Object.keys(actual)) actual[ds].sort();
  for (const ds of json.daemonSets) actual[ds.name] ??= [];
  if (JSON.stringify(Object.entries(actual).sort()) !== JSON.stringify(Object.entries(waves).sort())) {
    throw new StepFailed(`node-reporter eligible says ${JSON.stringify(waves)}, the controller placed ${JSON.stringify(actual)}`);
  }
  const named = json.daemonSets.map((d: Json) => `${d.name} (agent ${d.agent}, wave ${d.wave}): ${waves[d.name].join(', ') || 'none'}`);
  if (json.daemonSets.some((d: Json) => !d.agent || !d.wave)) throw new StepFailed(`eligible's JSON names no agent or wave: ${JSON.stringify(json.daemonSets.map((d: Json) => [d.name, d.agent, d.wave]))}`);
  evidence(`node-reporter eligible agrees: ${named.join('; ')}`);
}

function apply(file: string): void {
  const { ok, out, err } = kubectl(['apply', '--validate=strict', '-f', file], { allowFail: true });
  if (!ok) throw new StepFailed(`kubectl apply -f ${path.basename(file)} was refused: ${err.trim()}`);
  evidence(`kubectl apply -f ${path.basename(file)}: ${out.trim().split('\n').filter((l) => !l.endsWith('unchanged')).join('; ') || 'unchanged'}`);
}

/**
 * Samples each agent's pods on a node from before `change` until each agent's new wave runs a Ready pod there
 * (the DaemonSet `<agent>-canary`), and measures per agent the gap (no Ready pod) and the overlap (two pods with a
 * running container), in seconds.
 */
function sampleMove(namespaces: Record<string, string>, node: string, o: Options, change: () => void): Record<string, { gap: number; overlap: number }> {
  const deadline = Date.now() + o.timeout * 1000;
  const measured: Record<string, { gap: number; overlap: number }> = {};
  const settled = new Set<string>();
  let last = Date.now();
  for (let round = 0; ; round++) {
    const now = Date.now();
    for (const [agent, namespace] of Object.entries(namespaces)) {
      if (settled.has(agent)) continue;
      const onNode = pods(namespace, true).filter((p) => p.spec.nodeName === node);
      const ready = onNode.filter(readyPod);
      const running = onNode.filter((p) => (p.status?.containerStatuses ?? []).some((c: Json) => c.state?.running));
      const m = measured[agent] ??= { gap: 0, overlap: 0 };
      if (ready.length === 0) m.gap += (now - last) / 1000;
      if (running.length > 1) m.overlap += (now - last) / 1000;
      if (round > 0 && ready.length === 1 && owner(ready[0]) === `${agent}-canary` && onNode.length === 1) settled.add(agent);
      if (now > deadline) throw new StepFailed(`${agent} on ${node} did not settle in ${o.timeout}s: ${JSON.stringify(onNode.map((p) => `${owner(p)}:${p.status?.phase}`))}`);
    }
    if (settled.size === Object.keys(namespaces).length) return measured;
    if (round === 0) change();
    last = now;
    sleep(150);
  }
}

function uidsOf(placed: Map<string, Json>): Map<string, string> {
  return new Map([...placed].map(([n, p]) => [n, p.metadata.uid]));
}

function untouched(before: Map<string, string>, after: Map<string, Json>, nodes: string[]): void {
  for (const n of nodes) {
    if (after.get(n)?.metadata.uid !== before.get(n)) throw new StepFailed(`the pod on ${n} restarted (uid ${before.get(n)} -> ${after.get(n)?.metadata.uid})`);
  }
  evidence(`no pod restarted on ${nodes.join(', ')} (same uids)`);
}

function rolloutStatus(ds: string, seconds: number): { ok: boolean; said: string } {
  const r = kubectl(['rollout', 'status', `daemonset/${ds}`, '-n', REPORTER_NS, `--timeout=${seconds}s`], { allowFail: true });
  return { ok: r.ok, said: (r.ok ? r.out : r.err || r.out).trim().split('\n').pop() ?? '' };
}

function run(): void {
  const o = parseOptions();
  step('preflight: three nodes, no practice-daemon or node-exporter-e2e-waves namespace');
  const { server } = reachableCluster();
  const all = kubectlJson(['get', 'nodes']).items;
  if (all.length < 3 || !all.every(isReady)) throw new StepFailed(`needs 3 Ready nodes (e2e/cluster.sh start 1.35 --nodes 3), has ${all.length}`);
  const [a, b, c] = all.slice(0, 3).map((n: Json) => n.metadata.name as string);
  for (const ns of [REPORTER_NS, EXPORTER_NS]) {
    if (kubectl(['get', 'namespace', ns], { allowFail: true }).ok) throw new StepFailed(`namespace ${ns} exists; the e2e makes and deletes it`);
  }
  evidence(`Kubernetes ${server.gitVersion}, nodes ${a}, ${b}, ${c}`);
  const moved = reporterInWaves('reporter-waves-move', {}, { updateStrategy: AgentUpdateStrategy.onDelete() });
  const canaryV2 = reporterInWaves('reporter-waves-canary-v2', { version: 'v2' }, { updateStrategy: AgentUpdateStrategy.onDelete() });
  const promoted = reporterInWaves('reporter-waves-promoted', { version: 'v2' }, { version: 'v2' });
  const bad = reporterInWaves('reporter-waves-bad-canary', { version: 'v3', command: ['sh', '-c', 'echo v3 cannot start; exit 1'] }, { version: 'v2' });
  const exporter = exporterInWaves();
  let stopped: number | undefined;
  try {
    step(`1. the reporter as one DaemonSet (dist/node-reporter-v1) on ${a}, ${b}, ${c}`);
    for (const n of [a, b, c]) kubectl(['label', 'node', n, `${POLICY_LABEL}=operations`, '--overwrite']);
    apply(path.join(ROOT, 'dist', 'node-reporter-v1.k8s.yaml'));
    let placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter', [c]: 'node-reporter' }, o);
    let before = uidsOf(placed);

    step(`2. move to waves: label ${c} ${WAVE_LABEL}=canary, apply the waves with the last wave OnDelete`);
    kubectl(['label', 'node', c, `${WAVE_LABEL}=canary`]);
    const move = sampleMove({ 'node-reporter': REPORTER_NS }, c, o, () => apply(moved))['node-reporter'];
    placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter', [c]: 'node-reporter-canary' }, o);
    untouched(before, placed, [a, b]);
    console.log(`   moved to waves: pods restarted outside the canary: 0; on the canary node ${c}: gap ${move.gap.toFixed(1)} s, overlap ${move.overlap.toFixed(1)} s`);
    agreeWaves(moved, placed);

    step(`3. the canary at v2 on ${c} only; diff names the wave and its nodes`);
    const nodesFile = path.join(work, 'nodes.json');
    fs.writeFileSync(nodesFile, kubectl(['get', 'nodes', '-o', 'json']).out);
    const d = JSON.parse(nodeReporter(['diff', moved, canaryV2, '--nodes', nodesFile, '-o', 'json']).out);
    const changed = d.objects.filter((x: Json) => x.kind === 'DaemonSet').map((x: Json) => `${x.name} (agent ${x.agent}, wave ${x.wave})`);
    if (changed.length !== 1 || !changed[0].includes('wave canary')) throw new StepFailed(`diff should change the canary wave alone, but changed ${JSON.stringify(changed)}`);
    const text = nodeReporter(['diff', moved, canaryV2, '--nodes', nodesFile]).out;
    evidence(`node-reporter diff: ${changed[0]}; "${(text.split('\n').find((l) => /wave canary/.test(l)) ?? '').trim()}"`);
    before = uidsOf(placed);
    apply(canaryV2);
    placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter', [c]: 'node-reporter-canary' }, o, { [a]: 'v1', [b]: 'v1', [c]: 'v2' });
    untouched(before, placed, [a, b]);
    const canaryStatus = rolloutStatus('node-reporter-canary', 30);
    if (!canaryStatus.ok) throw new StepFailed(`kubectl rollout status of the canary: ${canaryStatus.said}`);
    evidence(`kubectl rollout status daemonset/node-reporter-canary: ${canaryStatus.said}`);
    for (const [node, pod] of [...placed].sort()) {
      const want = `node=${node} version=${node === c ? 'v2' : 'v1'}`;
      waitFor(`"${want}"`, o.timeout, () => kubectl(['logs', pod.metadata.name, '-n', REPORTER_NS], { allowFail: true }).out.includes(want) || undefined, () => 'no such line');
      evidence(`${node} logs "${want}"`);
    }

    step('4. promotion to every node; a change to both waves at once is all-waves');
    const both = nodeReporter(['diff', moved, promoted, '--nodes', nodesFile, '--fail-on', 'all-waves']);
    const one = nodeReporter(['diff', canaryV2, promoted, '--nodes', nodesFile, '--fail-on', 'all-waves']);
    // diff exits as kubectl diff: 1 for changes, 3 for an impact --fail-on names.
    if (both.status !== 3 || one.status !== 1) throw new StepFailed(`diff --fail-on all-waves: both waves at once exited ${both.status} (want 3), the last wave alone ${one.status} (want 1: changes, no all-waves)`);
    evidence(`diff --fail-on all-waves: both waves in one change exits 3 ("${(both.out.split('\n').find((l) => /all-waves/.test(l)) ?? '').trim()}"); the last wave alone exits 1 (changes)`);
    before = uidsOf(placed);
    apply(promoted);
    placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter', [c]: 'node-reporter-canary' }, o, { [a]: 'v2', [b]: 'v2', [c]: 'v2' });
    untouched(before, placed, [c]);
    agreeWaves(promoted, placed);

    step(`5. node-exporter (hostNetwork, host port 9100) in waves too; then ${b} moves from the last wave to the canary`);
    apply(exporter);
    let exported = placement(EXPORTER_NS, { [a]: 'node-exporter', [b]: 'node-exporter', [c]: 'node-exporter-canary' }, o);
    agreeWaves(exporter, exported);
    const beforeReporter = uidsOf(placed);
    const relabel = sampleMove({ 'node-reporter': REPORTER_NS, 'node-exporter': EXPORTER_NS }, b, o, () => kubectl(['label', 'node', b, `${WAVE_LABEL}=canary`]));
    const measured = Object.entries(relabel).map(([agent, m]) => `${agent}: gap ${m.gap.toFixed(1)} s, overlap ${m.overlap.toFixed(1)} s`);
    placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter-canary', [c]: 'node-reporter-canary' }, o);
    exported = placement(EXPORTER_NS, { [a]: 'node-exporter', [b]: 'node-exporter-canary', [c]: 'node-exporter-canary' }, o);
    untouched(beforeReporter, placed, [a, c]);
    console.log(`   relabel ${b} into the canary: ${measured.join('; ')}`);
    agreeWaves(promoted, placed);

    step('6. a bad version stops at the canary: rollout status fails, no other pod restarts; the revert heals it');
    before = uidsOf(placed);
    apply(bad);
    const failed = rolloutStatus('node-reporter-canary', 25);
    if (failed.ok) throw new StepFailed(`kubectl rollout status of the bad canary succeeded: ${failed.said}`);
    evidence(`kubectl rollout status daemonset/node-reporter-canary --timeout=25s fails: ${failed.said}`);
    // The bad version stays in the canary wave's nodes. Within the wave it may reach more than maxUnavailable nodes:
    // a container that exits at once is Ready for a moment between restarts (no readiness probe, minReadySeconds 0),
    // and the controller counts it available (measured: on 1 or on 2 of the 2 canary nodes).
    const crashing = pods(REPORTER_NS).filter((p) => p.metadata.labels['app.kubernetes.io/version'] === 'v3');
    const outside = crashing.filter((p) => owner(p) !== 'node-reporter-canary' || ![b, c].includes(p.spec.nodeName));
    if (crashing.length === 0 || outside.length > 0) throw new StepFailed(`the bad version should be on canary nodes only, but is on ${JSON.stringify(crashing.map((p) => `${p.spec.nodeName}:${owner(p)}`))}`);
    evidence(`the bad version on the canary's ${crashing.map((p) => p.spec.nodeName).sort().join(', ')}: ${crashing.map((p) => { const st = (p.status?.containerStatuses ?? [])[0] ?? {}; return `${st.restartCount ?? 0} restart(s), last exit ${st.lastState?.terminated?.exitCode ?? st.state?.terminated?.exitCode ?? '?'}`; }).join('; ')}`);
    const afterBad = new Map(pods(REPORTER_NS).map((p) => [p.spec.nodeName, p]));
    untouched(before, afterBad, [a]);
    apply(promoted);
    placed = placement(REPORTER_NS, { [a]: 'node-reporter', [b]: 'node-reporter-canary', [c]: 'node-reporter-canary' }, o, { [a]: 'v2', [b]: 'v2', [c]: 'v2' });
    untouched(before, placed, [a]);
    const healed = rolloutStatus('node-reporter-canary', 30);
    if (!healed.ok) throw new StepFailed(`after the revert, kubectl rollout status of the canary: ${healed.said}`);
    evidence(`reverted: kubectl rollout status daemonset/node-reporter-canary: ${healed.said}`);

    step(`7. ${c} joins again, unlabelled (kubelet stopped, Node deleted, kubelet started): node-exporter's last wave takes it`);
    const index = all.findIndex((n: Json) => n.metadata.name === c) + 1;
    clusterScript(['kubelet-stop', String(index)]);
    stopped = index;
    kubectl(['delete', 'node', c]);
    clusterScript(['kubelet-start', String(index)]);
    stopped = undefined;
    waitFor(`${c} registered again and Ready`, o.timeout, () => {
      const n = kubectl(['get', 'node', c, '-o', 'json'], { allowFail: true });
      return n.ok && isReady(JSON.parse(n.out)) ? true : undefined;
    }, () => 'not yet');
    const labels = kubectlJson(['get', 'node', c]).metadata.labels;
    evidence(`${c} is back with no ${WAVE_LABEL} or ${POLICY_LABEL} label: ${Object.keys(labels).sort().join(', ')}`);
    exported = placement(EXPORTER_NS, { [a]: 'node-exporter', [b]: 'node-exporter-canary', [c]: 'node-exporter' }, o, { [a]: 'rest', [b]: 'canary', [c]: 'rest' });
    agreeWaves(exporter, exported);
    console.log(`   the joined node ${c} runs node-exporter's last wave (rest) at its version`);
  } finally {
    step('cleanup: namespaces and node labels');
    if (stopped !== undefined) clusterScript(['kubelet-start', String(stopped)]);
    for (const ns of [REPORTER_NS, EXPORTER_NS]) kubectl(['delete', 'namespace', ns, '--wait=true', `--timeout=${o.timeout}s`], { allowFail: true });
    for (const n of [a, b, c]) kubectl(['label', 'node', n, `${POLICY_LABEL}-`, `${WAVE_LABEL}-`], { allowFail: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log('\nwaves e2e passed');
}

runE2e(run);
