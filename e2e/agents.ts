/**
 * `npm run e2e:agents`: real agents on the node of the current kubeconfig
 * (the local one of e2e/cluster.sh). Driven by manifest files alone:
 *
 *   run         each --run file is applied with --validate=strict and rolls
 *               out; they run side by side, Ready (the node is labelled for
 *               their nodeSelectors, and restored after)
 *   metrics     node-exporter (--metrics): its metrics port answers on the
 *               host with node_uname_info for the node; inside the pod the
 *               host root is read-only and host PID is in effect; the same
 *               DaemonSet in a namespace that enforces "restricted" has its
 *               pods refused by the API server
 *   rbac        for every applied file (and --rbac files, applied without
 *               their workloads), `kubectl auth can-i --as=` the workloads'
 *               service accounts: yes for what the rules grant, no for a
 *               neighbour
 *   roll        --roll OLD,NEW: re-applying OLD makes no new controller
 *               revision; NEW (another config) makes one and replaces the pods
 *   lifecycle   `kubectl delete -f` of each applied file leaves none of its
 *               objects (Namespace, ClusterRole, binding, ServiceAccount, ...)
 *   prune       --prune OLD,NEW: kubectl ApplySet pruning removes what NEW
 *               drops, then `kubectl delete -f NEW` leaves nothing
 *   switch      --switch OWNED,SHARED: installed with the ApplySet recipe
 *               owning its Namespace (OWNED), another team's ConfigMap put
 *               into it, the README's switch-ownership recipe to SHARED (the
 *               same without the Namespace), an upgrade and the uninstall
 *               never delete the Namespace nor the other team's ConfigMap
 *
 * It prints each step with its evidence, stops at the first wrong answer with
 * the kubelet's or the API server's reason, and always deletes what it created.
 * It refuses to start when any object of the files already exists.
 *
 * Usage: npm run e2e:agents -- [--node NAME] [--timeout SECONDS] [--steps run,metrics,...]
 *          [--run FILE,...] [--metrics FILE] [--rbac FILE,...] [--roll OLD,NEW] [--prune OLD,NEW] [--switch OWNED,SHARED]
 * Without file options, the manifests of e2e/agent-manifests.ts; `--write DIR`
 * only writes those into DIR and prints which step uses which.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Plan } from './agent-manifests';
import { prune, switchOwnership } from './agents-apply-sets';
import { Options, parseOptions, StepName } from './agents-options';
import { rbac } from './agents-rbac';
import {
  apply, Created, daemonSetsOf, deleteAndCheck, describePods, exec, labelNodeFor, leftOver, liveDs, missingImages, namespaceOf, nodeImages,
  oneLine, pods, rolloutStatus, short, waitForReadyPod,
} from './agents-support';
import { evidence, Json, kubectl, kubectlJson, reachableCluster, sleep, step, StepFailed, waitFor } from './kubectl';
import { createdHostPaths, describe, images, K8sObject, podSpec, readManifest } from './manifests';

/** The namespace the restricted refusal uses; created and deleted by this run. */
const RESTRICTED_NAMESPACE = 'e2e-agents-restricted';

// ---------------------------------------------------------------- the steps

function runSideBySide(files: string[], node: Json, o: Options, created: Created): void {
  step(`run: ${files.map(short).join(', ')} applied with --validate=strict, rolled out, side by side`);
  const all = files.map((file) => ({ file, objects: readManifest(file) }));
  for (const { file, objects } of all) {
    labelNodeFor(objects, node, created);
    created.applied(file, objects);
    evidence(`kubectl apply --validate=strict -f ${short(file)}: ${oneLine(apply(file))}`);
  }
  const rows: string[] = [];
  for (const { objects } of all) {
    for (const ds of daemonSetsOf(objects)) {
      const pod = waitForReadyPod(ds, node.metadata.name, o);
      const status = rolloutStatus(ds, o);
      const s = liveDs(ds).status;
      rows.push(`${describe(ds)}: ${status}; DESIRED ${s.desiredNumberScheduled} CURRENT ${s.currentNumberScheduled} READY ${s.numberReady}; pod ${pod.metadata.name} Running and Ready on ${pod.spec.nodeName}`);
    }
  }
  // Side by side: every agent still Ready once the last one is.
  for (const { objects } of all) {
    for (const ds of daemonSetsOf(objects)) {
      const s = liveDs(ds).status;
      if (s.numberReady !== s.desiredNumberScheduled || s.desiredNumberScheduled < 1) {
        throw new StepFailed(`${describe(ds)} is no longer Ready beside the others: ${describePods(ds)}`);
      }
    }
  }
  evidence(`all ${rows.length} agents Ready on ${node.metadata.name} at once:\n      ${rows.join('\n      ')}`);
}

/** The DaemonSet and container of the file that run node-exporter. */
function exporterOf(objects: K8sObject[], file: string): { ds: K8sObject; container: Json } {
  for (const ds of daemonSetsOf(objects)) {
    const container = (podSpec(ds).containers ?? []).find((c: Json) => /node-exporter/.test(String(c.image)));
    if (container) {
      return { ds, container };
    }
  }
  throw new StepFailed(`${short(file)} has no DaemonSet with a node-exporter container`);
}

async function metrics(file: string, node: Json, o: Options, created: Created): Promise<void> {
  const objects = readManifest(file);
  const { ds, container } = exporterOf(objects, file);
  const spec = podSpec(ds);
  const nodeName: string = node.metadata.name;
  step(`metrics: ${describe(ds)} serves node_uname_info for ${nodeName}; host root read-only and host PID inside`);
  const pod = waitForReadyPod(ds, nodeName, o);

  const port = (container.ports ?? []).find((p: Json) => p.name === 'metrics') ?? (container.ports ?? [])[0];
  if (!port) {
    throw new StepFailed(`${describe(ds)}: container ${container.name} declares no port`);
  }
  const address = spec.hostNetwork ? (node.status.addresses ?? []).find((a: Json) => a.type === 'InternalIP')?.address : pod.status.podIP;
  const url = `http://${address}:${port.containerPort}/metrics`;
  let body: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    body = await response.text();
    if (!response.ok) {
      throw new StepFailed(`GET ${url} from the host answered ${response.status}: ${body.slice(0, 200)}`);
    }
  } catch (e) {
    throw e instanceof StepFailed ? e : new StepFailed(`GET ${url} from the host failed: ${(e as Error).message}`);
  }
  const uname = body.split('\n').find((l) => l.startsWith('node_uname_info{'));
  if (!uname || !uname.includes(`nodename="${nodeName}"`)) {
    throw new StepFailed(`GET ${url}: wanted a node_uname_info line with nodename="${nodeName}", got ${JSON.stringify(uname ?? '(none)')}`);
  }
  evidence(`GET ${url} from the host (${spec.hostNetwork ? 'host network' : 'pod IP'}), ${body.split('\n').filter((l) => /^[a-z_]+[{ ]/.test(l)).length} samples:\n      ${uname}`);

  // The host root: a write into its world-writable /tmp fails only because the mount is read-only.
  const rootVolume = (spec.volumes ?? []).find((v: Json) => v.hostPath?.path === '/');
  const rootMount = rootVolume && (container.volumeMounts ?? []).find((m: Json) => m.name === rootVolume.name);
  if (!rootMount) {
    throw new StepFailed(`${describe(ds)}: container ${container.name} mounts no hostPath volume of /`);
  }
  const probe = `${rootMount.mountPath}/tmp/node-reporter-e2e-probe-${process.pid}`;
  const write = exec(pod, container.name, `touch ${probe} && rm -f ${probe}`);
  if (write.ok || !/read-only file system/i.test(write.err + write.out)) {
    throw new StepFailed(`kubectl exec touch ${probe}: wanted "Read-only file system", got exit ${write.ok ? 0 : 'non-zero'} ${JSON.stringify((write.err || write.out).trim())}`);
  }
  evidence(`kubectl exec: the host root is read-only at ${rootMount.mountPath}: ${(write.err + write.out).trim().split('\n')[0]}`);

  if (spec.hostPID) {
    const ps = exec(pod, container.name, 'echo "$(cat /proc/1/comm)"; for p in /proc/[0-9]*; do cat "$p/comm"; done 2>/dev/null | sort | uniq -c');
    const [first, ...rest] = ps.out.trim().split('\n');
    const comms = rest.map((l) => l.trim().split(/\s+/)[1]);
    if (!ps.ok || !comms.includes('kubelet') || first === 'node_exporter') {
      throw new StepFailed(`kubectl exec: wanted the host's processes (PID 1 not node_exporter, the kubelet visible), got PID 1 ${JSON.stringify(first)} and ${JSON.stringify(comms.slice(0, 20))}: ${ps.err.trim()}`);
    }
    evidence(`kubectl exec: host PID: PID 1 is "${first}" (not node_exporter), and the node's kubelet is one of ${rest.length} process names seen`);
  }

  restrictedRefusal(ds, objects, o, created);
}

/**
 * The same DaemonSet in a namespace that enforces "restricted": accepted, its
 * pods refused by Pod Security admission. Its ServiceAccount goes with it, or
 * the pods would be refused for the missing account first.
 */
function restrictedRefusal(ds: K8sObject, objects: K8sObject[], o: Options, created: Created): void {
  step(`metrics: ${ds.metadata.name} in namespace ${RESTRICTED_NAMESPACE}, which enforces Pod Security "restricted": its pods are refused`);
  created.createdNamespace(RESTRICTED_NAMESPACE);
  kubectl(['create', 'namespace', RESTRICTED_NAMESPACE]);
  kubectl(['label', 'namespace', RESTRICTED_NAMESPACE, 'pod-security.kubernetes.io/enforce=restricted']);
  const into = (x: K8sObject): K8sObject => ({ ...x, metadata: { ...x.metadata, namespace: RESTRICTED_NAMESPACE } });
  const accounts = objects.filter((x) => x.kind === 'ServiceAccount' && x.metadata.name === podSpec(ds).serviceAccountName && namespaceOf(x) === namespaceOf(ds));
  const moved = into(ds);
  const said = apply(`${ds.metadata.name} in ${RESTRICTED_NAMESPACE}`, [...accounts.map(into), moved]);
  const warning = said.split('\n').find((l) => l.includes('would violate PodSecurity'));
  if (!warning) {
    throw new StepFailed(`kubectl apply of ${ds.metadata.name} into ${RESTRICTED_NAMESPACE}: wanted a "would violate PodSecurity" warning, got ${JSON.stringify(oneLine(said))}`);
  }
  evidence(`kubectl apply accepts the DaemonSet and warns: ${warning.trim()}`);
  const refusal = waitFor('the DaemonSet controller\'s FailedCreate event', o.timeout, () => {
    const events = kubectlJson(['get', 'events', '-n', RESTRICTED_NAMESPACE, '--field-selector', `involvedObject.kind=DaemonSet,involvedObject.name=${ds.metadata.name},reason=FailedCreate`]).items;
    return events.map((e: Json) => String(e.message)).find((m: string) => m.includes('violates PodSecurity'));
  }, () => JSON.stringify(liveDs(moved).status ?? {}));
  const status = liveDs(moved).status ?? {};
  if ((status.currentNumberScheduled ?? 0) !== 0) {
    throw new StepFailed(`${ds.metadata.name} in ${RESTRICTED_NAMESPACE} has ${status.currentNumberScheduled} pods: Pod Security did not refuse them`);
  }
  evidence(`the API server refuses its pods (event FailedCreate, CURRENT 0 of DESIRED ${status.desiredNumberScheduled}):\n      ${refusal}`);
  kubectl(['delete', 'namespace', RESTRICTED_NAMESPACE, '--wait=false']);
}

interface Revision { name: string; revision: number; hash: string }

function revisions(ds: K8sObject): Revision[] {
  const uid = liveDs(ds).metadata.uid;
  return kubectlJson(['get', 'controllerrevisions', '-n', namespaceOf(ds)]).items
    .filter((r: Json) => (r.metadata.ownerReferences ?? []).some((ref: Json) => ref.uid === uid))
    .map((r: Json) => ({ name: r.metadata.name, revision: r.revision, hash: r.metadata.labels?.['controller-revision-hash'] ?? '' }))
    .sort((a: Revision, b: Revision) => a.revision - b.revision);
}

function settled(ds: K8sObject): Json | undefined {
  const live = liveDs(ds);
  return live.status?.observedGeneration === live.metadata.generation ? live : undefined;
}

function checksum(ds: K8sObject): string {
  const annotations = ds.spec?.template?.metadata?.annotations ?? {};
  const key = Object.keys(annotations).find((k) => /checksum|sha256|config-hash/i.test(k));
  return key ? `${key}: ${annotations[key]}` : '(no config checksum annotation)';
}

/** Pods of a DaemonSet whose image is not on the node must not pull: the roll is judged by revisions and pod hashes. */
function parked(objects: K8sObject[]): K8sObject[] {
  return objects.map((x) => x.kind !== 'DaemonSet' ? x : {
    ...x,
    spec: { ...x.spec, template: { ...x.spec.template, spec: { ...podSpec(x),
      initContainers: podSpec(x).initContainers?.map((c: Json) => ({ ...c, imagePullPolicy: 'Never' })),
      containers: podSpec(x).containers.map((c: Json) => ({ ...c, imagePullPolicy: 'Never' })) } } },
  });
}

function roll(oldFile: string, newFile: string, node: Json, o: Options, created: Created): void {
  const before = readManifest(oldFile);
  const after = readManifest(newFile);
  const [ds, ...more] = daemonSetsOf(before);
  if (!ds || more.length > 0) {
    throw new StepFailed(`--roll: ${short(oldFile)} must hold one DaemonSet but has ${daemonSetsOf(before).length}`);
  }
  const missing = missingImages(before, node);
  const run = missing.length === 0;
  step(`roll: ${describe(ds)}: ${short(oldFile)} re-applied makes no new revision; ${short(newFile)} (its config changed) makes one and replaces the pods`);
  const applyVersion = (file: string, objects: K8sObject[]) => (run ? apply(file) : apply(file, parked(objects)));
  if (!run) {
    evidence(`its images are not on the node (${missing.join(', ')}): applied with imagePullPolicy Never, so nothing is pulled; judged by revisions and pod hashes, not readiness`);
  }
  labelNodeFor(before, node, created);
  created.applied(oldFile, before);
  evidence(`kubectl apply -f ${short(oldFile)}: ${oneLine(applyVersion(oldFile, before))}`);
  const first = waitFor(`${describe(ds)} to record a revision and a pod`, o.timeout, () => {
    const revs = settled(ds) ? revisions(ds) : [];
    const live = pods(ds).filter((p) => !p.metadata.deletionTimestamp);
    return revs.length > 0 && live.length > 0 ? { revs, pods: live } : undefined;
  }, () => describePods(ds));
  if (run) {
    waitForReadyPod(ds, node.metadata.name, o);
  }
  evidence(`revisions ${first.revs.map((r) => `${r.revision} (${r.name})`).join(', ')}; pod ${first.pods.map((p: Json) => p.metadata.name).join(', ')}; ${checksum(ds)}`);

  // kubectl may say "configured" for a no-op patch (fields the server omits,
  // e.g. minReadySeconds: 0): the generation says whether the spec changed.
  const generation = liveDs(ds).metadata.generation;
  const again = applyVersion(oldFile, before);
  sleep(2000); // time for the controller to act, if it were to
  const same = revisions(ds);
  const samePods = pods(ds).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.uid);
  if (liveDs(ds).metadata.generation !== generation || JSON.stringify(same) !== JSON.stringify(first.revs) || JSON.stringify(samePods) !== JSON.stringify(first.pods.map((p: Json) => p.metadata.uid))) {
    throw new StepFailed(`re-applying the same config rolled: generation ${generation} -> ${liveDs(ds).metadata.generation}, revisions ${JSON.stringify(first.revs)} -> ${JSON.stringify(same)}`);
  }
  evidence(`re-applied the same config: ${oneLine(again)}\n      still generation ${generation}, revisions ${same.map((r) => r.revision).join(', ')}, the same pod`);

  const [changed] = daemonSetsOf(after);
  if (!changed || checksum(changed) === checksum(ds)) {
    throw new StepFailed(`${short(newFile)} does not change ${describe(ds)}'s config checksum (${checksum(ds)})`);
  }
  created.applied(newFile, after);
  evidence(`kubectl apply -f ${short(newFile)}: ${oneLine(applyVersion(newFile, after))}`);
  const top = first.revs.at(-1)!;
  const oldUids = new Set(first.pods.map((p: Json) => p.metadata.uid));
  const next = waitFor('a new revision and its pod in place of the old', o.timeout, () => {
    const revs = settled(ds) ? revisions(ds) : [];
    const latest = revs.at(-1);
    const live = pods(ds).filter((p) => !p.metadata.deletionTimestamp);
    const replaced = live.length > 0 && live.every((p) => !oldUids.has(p.metadata.uid) && p.metadata.labels?.['controller-revision-hash'] === latest?.hash);
    return latest && latest.revision === top.revision + 1 && replaced ? { revs, pods: live } : undefined;
  }, () => `revisions ${JSON.stringify(revisions(ds))}; pods ${describePods(ds)}`);
  if (run) {
    waitForReadyPod(ds, node.metadata.name, o, (p) => p.metadata.labels?.['controller-revision-hash'] === next.revs.at(-1)!.hash);
  }
  evidence(`new revision ${next.revs.at(-1)!.revision} (${next.revs.at(-1)!.name}), ${checksum(changed)}; pod ${next.pods.map((p: Json) => p.metadata.name).join(', ')} replaced ${first.pods.map((p: Json) => p.metadata.name).join(', ')}`);
  const history = kubectl(['rollout', 'history', `daemonset/${ds.metadata.name}`, '-n', namespaceOf(ds)]).out.trim();
  evidence(`kubectl rollout history:\n      ${history.split('\n').join('\n      ')}`);
}

async function lifecycle(created: Created, plan: Plan, node: Json, o: Options): Promise<void> {
  const installs = created.installs.map((i) => i.files);
  step(`lifecycle: kubectl delete -f of each applied file (${installs.map((files) => short(files.at(-1)!)).join(', ')}, at once) leaves nothing it created`);
  // At once: each waits for its namespace to go, and they do not depend on each other.
  for (const said of await Promise.all(installs.map((files) => deleteAndCheck(files, o)))) {
    evidence(said);
  }
  if (plan.metrics && installs.some((files) => files.includes(plan.metrics!))) {
    const { ds, container } = exporterOf(readManifest(plan.metrics), plan.metrics);
    const port = (container.ports ?? [])[0]?.containerPort;
    const address = (node.status.addresses ?? []).find((a: Json) => a.type === 'InternalIP')?.address;
    if (podSpec(ds).hostNetwork && port) {
      const answered = await fetch(`http://${address}:${port}/metrics`, { signal: AbortSignal.timeout(3000) }).then(() => true, () => false);
      if (answered) {
        throw new StepFailed(`${describe(ds)} deleted, but ${address}:${port} still answers on the host`);
      }
      evidence(`${address}:${port} on the host no longer answers`);
    }
  }
  created.installs.length = 0;
}

function cleanup(created: Created, nodeName: string, o: Options): string | undefined {
  step('cleanup: what this run created, and the node labels');
  const files = created.files();
  for (const file of [...files].reverse()) {
    kubectl(['delete', '-f', file, '--ignore-not-found', '--wait=false'], { allowFail: true });
  }
  for (const ns of created.namespaces) {
    kubectl(['delete', 'namespace', ns, '--ignore-not-found', '--wait=false'], { allowFail: true });
  }
  let problem: string | undefined;
  try {
    waitFor('every namespace and object this run created to be gone', o.timeout, () => {
      const namespaces = [...created.namespaces].filter((ns) => kubectl(['get', 'namespace', ns], { allowFail: true }).ok);
      return namespaces.length === 0 && (files.length === 0 || leftOver(files).length === 0) ? true : undefined;
    }, () => `${[...created.namespaces].join(', ')}; ${files.length ? leftOver(files).join(', ') : ''}`);
    console.log(`   deleted: ${files.length} files' objects, namespaces ${[...created.namespaces].join(', ') || 'none'}`);
  } catch (e) {
    problem = (e as Error).message;
    console.log(`   NOT deleted: ${problem}`);
  }
  for (const hostPath of created.hostPaths.filter((p) => fs.existsSync(p))) {
    fs.rmSync(hostPath, { recursive: true, force: true });
    console.log(`   removed ${hostPath}, which the kubelet created for a hostPath volume`);
  }
  for (const [key, previous] of created.nodeLabels) {
    kubectl(['label', 'node', nodeName, ...previous === undefined ? [`${key}-`] : [`${key}=${previous}`, '--overwrite']], { allowFail: true });
    console.log(`   node ${nodeName} label ${key} ${previous === undefined ? 'removed' : `restored to ${previous}`}`);
  }
  return problem;
}

function preflight(o: Options): Json {
  step('preflight: cluster, node, images, and none of the objects exists yet');
  const { context, server } = reachableCluster();
  evidence(`context ${context}, Kubernetes ${server.gitVersion}`);
  const nodes: Json[] = kubectlJson(['get', 'nodes']).items;
  const node = o.node !== undefined ? nodes.find((n) => n.metadata.name === o.node) : nodes.length === 1 ? nodes[0] : undefined;
  if (!node) {
    throw new StepFailed(o.node !== undefined
      ? `node ${JSON.stringify(o.node)} does not exist; nodes: ${nodes.map((n) => n.metadata.name).join(', ') || '(none)'}`
      : `the cluster has ${nodes.length} nodes (${nodes.map((n) => n.metadata.name).join(', ')}); pass --node NAME`);
  }
  if (!node.status?.nodeInfo?.kubeletVersion) {
    throw new StepFailed(`node ${node.metadata.name} has no kubelet: the agents run for real`);
  }
  evidence(`node ${node.metadata.name}, kubelet ${node.status.nodeInfo.kubeletVersion}, ${node.status.nodeInfo.containerRuntimeVersion}`);
  for (const file of o.plan.run) {
    const missing = missingImages(readManifest(file), node);
    if (missing.length > 0) {
      throw new StepFailed(`${short(file)} runs ${missing.join(', ')}, not on node ${node.metadata.name} (it has ${[...nodeImages(node)].join(', ')}); pass it with --rbac to judge only its RBAC`);
    }
  }
  evidence(`every image the run files need is on the node: ${[...new Set(o.plan.run.flatMap((f) => images(readManifest(f))))].join(', ') || 'none'}`);
  const files = [...new Set([...o.plan.run, ...o.plan.rbac, ...o.plan.roll ?? [], ...o.plan.prune ?? [], ...o.plan.switch ?? []])];
  const existing = [...leftOver(files), ...kubectl(['get', 'namespace', RESTRICTED_NAMESPACE, '--ignore-not-found', '-o', 'name']).out.trim().split('\n').filter((l) => l)];
  if (existing.length > 0) {
    throw new StepFailed(`${existing.join(', ')} already exist: this run creates and deletes its objects, so it will not touch ones it did not create (delete them first, or use another cluster)`);
  }
  evidence(`none of the ${files.length} files' objects exists yet`);
  return node;
}

async function run(scratch: string): Promise<void> {
  const started = Date.now();
  const o = parseOptions(scratch);
  if (o.write !== undefined) {
    console.log(JSON.stringify(o.plan, null, 2));
    return;
  }
  const node = preflight(o);
  const created = new Created();
  // When the node is this machine, what the kubelet creates on it goes at cleanup, if it was not there before.
  // (`ip addr`, not os.networkInterfaces(): that skips a bridge without ports, which is not RUNNING.)
  const local = spawnSync('ip', ['-o', 'addr', 'show'], { encoding: 'utf-8' }).stdout ?? '';
  if ((node.status.addresses ?? []).some((a: Json) => a.type === 'InternalIP' && local.includes(` ${a.address}/`))) {
    const files = [...o.plan.run, ...o.plan.roll ?? [], ...o.plan.prune ?? [], ...o.plan.switch ?? []];
    created.hostPaths.push(...new Set(files.flatMap((f) => createdHostPaths(readManifest(f))).filter((p) => !fs.existsSync(p))));
  }
  const has = (s: StepName) => o.steps.has(s);
  let problem: string | undefined;
  const timings: string[] = [];
  const timed = async (name: string, body: () => void | Promise<void>) => {
    const t = Date.now();
    await body();
    timings.push(`${name} ${Math.round((Date.now() - t) / 100) / 10} s`);
  };
  try {
    if (has('run') && o.plan.run.length > 0) {
      await timed('run', () => runSideBySide(o.plan.run, node, o, created));
    }
    if (has('metrics') && o.plan.metrics) {
      await timed('metrics', async () => {
        if (!has('run')) {
          runSideBySide([o.plan.metrics!], node, o, created);
        }
        await metrics(o.plan.metrics!, node, o, created);
      });
    }
    if (has('rbac')) {
      await timed('rbac', () => rbac(o.plan.rbac, node, created));
    }
    if (has('roll') && o.plan.roll) {
      await timed('roll', () => roll(o.plan.roll![0], o.plan.roll![1], node, o, created));
    }
    if (has('lifecycle')) {
      await timed('lifecycle', () => lifecycle(created, o.plan, node, o));
    }
    if (has('prune') && o.plan.prune) {
      await timed('prune', () => prune(o.plan.prune![0], o.plan.prune![1], node, o, created));
    }
    if (has('switch') && o.plan.switch) {
      await timed('switch', () => switchOwnership(o.plan.switch![0], o.plan.switch![1], node, o, created));
    }
  } finally {
    await timed('cleanup', () => {
      problem = cleanup(created, node.metadata.name, o);
    });
  }
  if (problem !== undefined) {
    throw new StepFailed(`cleanup failed: ${problem}`);
  }
  console.log(`\nagents e2e passed (${Math.round((Date.now() - started) / 1000)} s: ${timings.join(', ')})`);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-agents-'));
run(scratch).catch((e) => {
  if (e instanceof StepFailed || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`\ne2e:agents failed: ${(e as Error).message}`);
    process.exitCode = 1;
  } else {
    throw e;
  }
}).finally(() => fs.rmSync(scratch, { recursive: true, force: true }));
