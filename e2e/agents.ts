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
import { parseArgs } from 'node:util';
import { Plan, writePlan } from './agent-manifests';
import { eventProblem, evidence, Json, kubectl, kubectlAsync, kubectlJson, podProblem, reachableCluster, sleep, step, StepFailed, waitFor } from './kubectl';
import { AccessAttributes, AccessCheck, accessChecks, createdHostPaths, describe, fullImageName, getArgs, images, isClusterScoped, K8sObject, podSpec, PolicyRule, readManifest, servedName, subjectAccessReview, WORKLOAD_KINDS } from './manifests';

const STEPS = ['run', 'metrics', 'rbac', 'roll', 'lifecycle', 'prune', 'switch'] as const;
type StepName = typeof STEPS[number];

/** The namespace the restricted refusal uses; created and deleted by this run. */
const RESTRICTED_NAMESPACE = 'e2e-agents-restricted';

interface Options {
  /** Only write the default manifests into this folder, and print the plan. */
  write?: string;
  node?: string;
  timeout: number;
  steps: Set<StepName>;
  plan: Plan;
}

function list(value: string | undefined, flag: string, count?: number): string[] {
  if (value === undefined) {
    return [];
  }
  const files = value.split(',').filter((f) => f !== '');
  if (count !== undefined && files.length !== count) {
    throw new StepFailed(`--${flag} takes ${count} files separated by a comma but got ${JSON.stringify(value)}`);
  }
  for (const f of files) {
    if (!fs.existsSync(f)) {
      throw new StepFailed(`--${flag}: no file ${JSON.stringify(f)}`);
    }
  }
  return files.map((f) => path.resolve(f));
}

function parseOptions(scratch: string): Options {
  const { values } = parseArgs({
    options: {
      node: { type: 'string' },
      timeout: { type: 'string', default: '60' },
      steps: { type: 'string', default: STEPS.join(',') },
      run: { type: 'string' },
      metrics: { type: 'string' },
      rbac: { type: 'string' },
      roll: { type: 'string' },
      prune: { type: 'string' },
      switch: { type: 'string' },
      write: { type: 'string' },
    },
    strict: true,
  });
  if (values.write !== undefined) {
    fs.mkdirSync(values.write, { recursive: true });
    return { write: values.write, timeout: 0, steps: new Set(), plan: writePlan(values.write) };
  }
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new StepFailed(`--timeout must be a whole number of seconds but got ${JSON.stringify(values.timeout)}`);
  }
  const steps = values.steps.split(',');
  const unknown = steps.filter((s) => !(STEPS as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new StepFailed(`--steps must be a comma-separated list of ${STEPS.join(', ')} but got ${JSON.stringify(unknown.join(','))}`);
  }
  const given = [values.run, values.metrics, values.rbac, values.roll, values.prune, values.switch].some((v) => v !== undefined);
  let plan: Plan;
  if (given) {
    const metrics = list(values.metrics, 'metrics', 1)[0];
    const run = list(values.run, 'run');
    plan = {
      run: metrics !== undefined && !run.includes(metrics) ? [...run, metrics] : run,
      metrics,
      rbac: list(values.rbac, 'rbac'),
      roll: values.roll === undefined ? undefined : list(values.roll, 'roll', 2) as [string, string],
      prune: values.prune === undefined ? undefined : list(values.prune, 'prune', 2) as [string, string],
      switch: values.switch === undefined ? undefined : list(values.switch, 'switch', 2) as [string, string],
    };
  } else {
    plan = writePlan(scratch);
  }
  return { node: values.node, timeout, steps: new Set(steps as StepName[]), plan };
}

/** Namespaces the cluster owns: this run never deletes one, even when a file it applies names it. */
const CLUSTER_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** One agent as this run installed it: every version of its file applied, the latest last. */
interface Install {
  files: string[];
  /** The objects of those files, but Namespaces (two agents may share one). */
  objects: Set<string>;
}

/** What this run created, so that cleanup deletes exactly that. */
class Created {
  /** Files that share an object other than a Namespace are versions of one agent: one install. */
  readonly installs: Install[] = [];
  readonly namespaces = new Set<string>();
  readonly nodeLabels = new Map<string, string | undefined>();
  /** Host paths the kubelet may create (…OrCreate) that this machine did not have before the run. */
  readonly hostPaths: string[] = [];

  applied(file: string, objects: K8sObject[]): void {
    const ids = new Set(objects.filter((x) => x.kind !== 'Namespace').map(describe));
    const same = this.installs.filter((i) => i.files.includes(file) || [...ids].some((id) => i.objects.has(id)));
    const merged: Install = {
      files: [...same.flatMap((i) => i.files).filter((f) => f !== file), file],
      objects: new Set([...same.flatMap((i) => [...i.objects]), ...ids]),
    };
    this.installs.splice(0, this.installs.length, ...this.installs.filter((i) => !same.includes(i)), merged);
    objects.filter((x) => x.kind === 'Namespace').map((x) => x.metadata.name).forEach((ns) => this.createdNamespace(ns));
  }

  /** A namespace this run made, to be deleted at cleanup; never one the cluster owns. */
  createdNamespace(name: string): void {
    if (!CLUSTER_NAMESPACES.has(name)) {
      this.namespaces.add(name);
    }
  }

  /** Every file applied, each once. */
  files(): string[] {
    return [...new Set(this.installs.flatMap((i) => i.files))];
  }
}

function short(file: string): string {
  return path.basename(file);
}

function oneLine(text: string): string {
  return text.trim().split('\n').join('; ');
}

/** kubectl apply --validate=strict of a file (or of objects on stdin); a refusal fails the step with the server's words. */
function apply(file: string, objects?: K8sObject[], extra: string[] = [], env?: Record<string, string>): string {
  const input = objects === undefined ? undefined : JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
  const args = ['apply', '--validate=strict', ...extra, '-f', objects === undefined ? file : '-'];
  const { ok, out, err } = kubectl(args, { allowFail: true, input, env });
  if (!ok) {
    throw new StepFailed(`kubectl ${args.join(' ').replace(/ -$/, ` - (${short(file)})`)} was refused: ${err.trim()}`);
  }
  return out + err;
}

function namespaceOf(o: K8sObject): string {
  return o.metadata.namespace ?? 'default';
}

function daemonSetsOf(objects: K8sObject[]): K8sObject[] {
  return objects.filter((o) => o.kind === 'DaemonSet');
}

function selector(ds: K8sObject): string {
  return Object.entries(ds.spec?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
}

function pods(ds: K8sObject): Json[] {
  return kubectlJson(['get', 'pods', '-n', namespaceOf(ds), '-l', selector(ds)]).items;
}

function liveDs(ds: K8sObject): Json {
  return kubectlJson(['get', 'daemonset', ds.metadata.name, '-n', namespaceOf(ds)]);
}

function podWarnings(pod: Json): string {
  const events = kubectlJson(['get', 'events', '-n', pod.metadata.namespace, '--field-selector', `involvedObject.uid=${pod.metadata.uid},type=Warning`]).items;
  return events.map((e: Json) => `${e.reason}: ${e.message}`).slice(-2).join(' | ');
}

function describePods(ds: K8sObject): string {
  const all = pods(ds);
  if (all.length === 0) {
    const events = kubectlJson(['get', 'events', '-n', namespaceOf(ds), '--field-selector', `involvedObject.name=${ds.metadata.name},involvedObject.kind=DaemonSet,type=Warning`]).items;
    return `no pods; DaemonSet status ${JSON.stringify(liveDs(ds).status ?? {})}${events.length ? `; ${events.at(-1).reason}: ${events.at(-1).message}` : ''}`;
  }
  return all.map((p) => `${p.metadata.name} ${p.status?.phase}${p.metadata.deletionTimestamp ? ' (deleting)' : ''} ${podWarnings(p)}`).join('; ');
}

/** The one live, Running and Ready pod of the DaemonSet on the node; the kubelet's reason at once when it cannot run. */
function waitForReadyPod(ds: K8sObject, nodeName: string, o: Options, accept: (pod: Json) => boolean = () => true): Json {
  return waitFor(`a Running and Ready pod of ${describe(ds)} on ${nodeName}`, o.timeout, () => {
    const live = pods(ds).filter((p) => !p.metadata.deletionTimestamp);
    for (const pod of live) {
      const problem = podProblem(pod) ?? eventProblem(pod);
      if (problem) {
        throw new StepFailed(`${describe(ds)} cannot run: ${problem}`);
      }
    }
    const pod = live.length === 1 && live[0].spec.nodeName === nodeName && accept(live[0]) ? live[0] : undefined;
    const ready = pod?.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
    return ready ? pod : undefined;
  }, () => describePods(ds));
}

function rolloutStatus(ds: K8sObject, o: Options): string {
  const { ok, out, err } = kubectl(['rollout', 'status', `daemonset/${ds.metadata.name}`, '-n', namespaceOf(ds), `--timeout=${o.timeout}s`], { allowFail: true });
  if (!ok) {
    throw new StepFailed(`kubectl rollout status ${describe(ds)} did not complete: ${(err || out).trim()}`);
  }
  return out.trim().split('\n').pop() ?? '';
}

function exec(pod: Json, container: string, script: string) {
  return kubectl(['exec', pod.metadata.name, '-n', pod.metadata.namespace, '-c', container, '--', 'sh', '-c', script], { allowFail: true });
}

/** The node's images, by every name it reports. */
function nodeImages(node: Json): Set<string> {
  return new Set((node.status?.images ?? []).flatMap((i: Json) => i.names ?? []));
}

function missingImages(objects: K8sObject[], node: Json): string[] {
  const present = nodeImages(node);
  return images(objects).filter((i) => !present.has(fullImageName(i)));
}

// ---------------------------------------------------------------- the steps

/** Labels the node for every nodeSelector entry of the DaemonSets it lacks; cleanup restores them. */
function labelNodeFor(objects: K8sObject[], node: Json, created: Created): void {
  for (const ds of daemonSetsOf(objects)) {
    for (const [key, value] of Object.entries<string>(podSpec(ds).nodeSelector ?? {})) {
      const now = node.metadata.labels?.[key];
      if (now !== value) {
        if (!created.nodeLabels.has(key)) {
          created.nodeLabels.set(key, now);
        }
        kubectl(['label', 'node', node.metadata.name, `${key}=${value}`, '--overwrite']);
        node.metadata.labels = { ...node.metadata.labels, [key]: value };
        evidence(`node ${node.metadata.name} labelled ${key}=${value} (the nodeSelector of ${describe(ds)})`);
      }
    }
  }
}

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

function serverRules(kind: 'ClusterRole' | 'Role', name: string, namespace?: string): PolicyRule[] | undefined {
  const got = kubectl(['get', kind.toLowerCase(), name, ...namespace ? ['-n', namespace] : [], '-o', 'json'], { allowFail: true });
  return got.ok ? JSON.parse(got.out).rules ?? [] : undefined;
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...await Promise.all(items.slice(i, i + size).map(run)));
  }
  return results;
}

/** `get apps/daemonsets/kured in kube-system as system:serviceaccount:...`, for the printed questions. */
function sarQuestion(a: AccessAttributes): string {
  const r = a.resource;
  if (r === undefined) {
    return `${a.verb} ${a.path} as ${a.user}`;
  }
  const what = [r.group || 'core', r.resource, r.subresource, r.name].filter((x) => x !== undefined).join('/');
  return `${a.verb} ${what} ${r.namespace ? `in ${r.namespace}` : 'in every namespace'} as ${a.user}`;
}

/** The authorizer's yes or no to each question, from SubjectAccessReviews created in one kubectl call. */
async function reviewAll(questions: AccessAttributes[]): Promise<string[]> {
  if (questions.length === 0) {
    return [];
  }
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: questions.map(subjectAccessReview) });
  const r = await kubectlAsync(['create', '--validate=false', '-f', '-', '-o', 'jsonpath={.status.allowed}{"\\n"}'], list);
  const said = r.out.trim().split('\n');
  if (!r.ok || said.length !== questions.length) {
    throw new StepFailed(`kubectl create of ${questions.length} SubjectAccessReviews: ${(r.err || r.out).trim().split('\n')[0]}`);
  }
  return said.map((a) => (a === 'true' ? 'yes' : a === 'false' ? 'no' : a));
}

async function rbac(rbacOnly: string[], node: Json, created: Created): Promise<void> {
  for (const file of rbacOnly) {
    const objects = readManifest(file);
    const kept = objects.filter((x) => !WORKLOAD_KINDS.has(x.kind));
    const left = objects.filter((x) => WORKLOAD_KINDS.has(x.kind));
    step(`rbac: ${short(file)} applied without its workloads (${left.map(describe).join(', ') || 'none'}${left.length ? `; not on the node: ${missingImages(objects, node).join(', ') || 'none'}` : ''})`);
    created.applied(file, kept);
    evidence(`kubectl apply --validate=strict: ${oneLine(apply(file, kept))}`);
  }
  // What kubectl auth can-i can name: the resources the server serves, as `pods` or `daemonsets.apps`.
  const served = new Set(kubectl(['api-resources', '-o', 'name']).out.trim().split('\n'));
  for (const file of created.files()) {
    const objects = readManifest(file);
    let checks: AccessCheck[];
    try {
      checks = accessChecks(objects, serverRules);
    } catch (e) {
      throw new StepFailed(`${short(file)}: ${(e as Error).message}`);
    }
    if (checks.length === 0) {
      continue;
    }
    step(`rbac: ${short(file)}: the authorizer's answers for its service accounts (kubectl auth can-i)`);
    // kubectl cannot name a resource the server does not serve (a CRD's, a removed group's):
    // those go to the authorizer directly, as SubjectAccessReviews, all in one kubectl call.
    const direct = checks.filter((c) => { const n = servedName(c.attributes); return n !== undefined && !served.has(n); });
    const reviews = await reviewAll(direct.map((c) => c.attributes));
    const answers = await inBatches(checks, 8, async (c) => {
      const i = direct.indexOf(c);
      if (i >= 0) {
        return { check: c, said: reviews[i], asked: `SubjectAccessReview ${sarQuestion(c.attributes)} (${servedName(c.attributes)} is not served here: kubectl auth can-i cannot name it)` };
      }
      const r = await kubectlAsync(['auth', 'can-i', ...c.args]);
      return { check: c, said: r.out.trim() || r.err.trim(), asked: `kubectl auth can-i ${c.args.join(' ')}` };
    });
    const wrong = answers.filter((a) => a.said !== a.check.want);
    for (const a of answers) {
      console.log(`   ${a.said === a.check.want ? 'ok' : 'WRONG'}: ${a.said.padEnd(3)} ${a.asked}   (${a.check.want === 'yes' ? 'granted by' : 'not granted:'} ${a.check.why})`);
    }
    if (wrong.length > 0) {
      throw new StepFailed(`${short(file)}: the authorizer answered ${wrong.length} of ${answers.length} questions otherwise than the manifest's RBAC implies: ${wrong.map((a) => `"${a.said}" to ${a.asked} (wanted ${a.check.want})`).join('; ')}`);
    }
    evidence(`${answers.filter((a) => a.check.want === 'yes').length} yes and ${answers.filter((a) => a.check.want === 'no').length} no, as the rules say`);
  }
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

/** Objects of the files that still exist (Namespaces being deleted count). */
function leftOver(files: string[]): string[] {
  const args = files.flatMap((f) => ['-f', f]);
  const got = kubectl(['get', ...args, '--ignore-not-found', '-o', 'name'], { allowFail: true });
  if (!got.ok && !/not found|NotFound|the server doesn't have a resource type/.test(got.err)) {
    throw new StepFailed(`kubectl get ${args.join(' ')}: ${got.err.trim()}`);
  }
  return got.out.trim().split('\n').filter((l) => l !== '');
}

/** kubectl delete -f of the install's latest file; then none of the objects of any of its versions may be left. */
async function deleteAndCheck(files: string[], o: Options): Promise<string> {
  const latest = files.at(-1)!;
  const del = await kubectlAsync(['delete', '-f', latest, '--ignore-not-found', '--wait=true', `--timeout=${o.timeout}s`]);
  if (!del.ok) {
    throw new StepFailed(`kubectl delete -f ${short(latest)} failed: ${del.err.trim()}`);
  }
  const left = leftOver(files);
  if (left.length > 0) {
    throw new StepFailed(`kubectl delete -f ${short(latest)} left ${left.join(', ')}`);
  }
  const kinds = [...new Set(files.flatMap((f) => readManifest(f)).map((x) => x.kind))];
  return `kubectl delete -f ${short(latest)}: ${oneLine(del.out)}\n      nothing left of ${files.map(short).join(', ')} (${kinds.join(', ')})`;
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

function applySetName(objects: K8sObject[], namespace: string): string {
  return daemonSetsOf(objects)[0]?.metadata.name ?? namespace;
}

/** The namespace of every namespaced object of the file: an ApplySet parent lives in one. */
function singleNamespace(objects: K8sObject[], file: string): string {
  const namespaces = [...new Set(objects.filter((x) => !isClusterScoped(x)).map((x) => x.metadata.namespace ?? 'default'))];
  if (namespaces.length !== 1) {
    throw new StepFailed(`--prune: ${short(file)} must keep its namespaced objects in one namespace (kubectl refuses others with the ApplySet's -n), but has ${namespaces.join(', ') || 'none'}`);
  }
  return namespaces[0];
}

async function prune(oldFile: string, newFile: string, node: Json, o: Options, created: Created): Promise<void> {
  const before = readManifest(oldFile);
  const after = readManifest(newFile);
  const namespace = singleNamespace(before, oldFile);
  const name = applySetName(before, namespace);
  const dropped = before.filter((b) => !after.some((a) => describe(a) === describe(b)));
  if (dropped.length === 0) {
    throw new StepFailed(`--prune: ${short(newFile)} drops no object of ${short(oldFile)}`);
  }
  if (missingImages([...before, ...after], node).length > 0) {
    throw new StepFailed(`--prune: the images ${missingImages([...before, ...after], node).join(', ')} are not on the node`);
  }
  const env = { KUBECTL_APPLYSET: 'true' };
  const flags = ['--prune', `--applyset=${name}`, '-n', namespace];
  step(`prune: install ${short(oldFile)}, upgrade to ${short(newFile)} (drops ${dropped.map(describe).join(', ')}) with kubectl ApplySet pruning`);
  const present = leftOver([oldFile, newFile]);
  if (present.length > 0) {
    throw new StepFailed(`--prune: ${present.join(', ')} exist before the install (run the lifecycle step before prune)`);
  }
  labelNodeFor(before, node, created);
  // A namespace that exists already (kube-system, say) is not this run's to delete at cleanup.
  if (!kubectl(['get', 'namespace', namespace], { allowFail: true }).ok) {
    created.createdNamespace(namespace);
  }
  created.applied(oldFile, before);
  // The parent (a Secret) lives in the namespace, which must exist first.
  const ns = kubectl(['create', 'namespace', namespace, '--dry-run=client', '-o', 'yaml']).out;
  evidence(`kubectl create namespace ${namespace} --dry-run=client -o yaml | kubectl apply -f -: ${oneLine(kubectl(['apply', '-f', '-'], { input: ns }).out)}`);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(oldFile)}: ${oneLine(apply(oldFile, undefined, flags, env))}`);
  const members = kubectl(['get', '-f', oldFile, '-o', 'jsonpath={range .items[*]}{.metadata.labels.applyset\\.kubernetes\\.io/part-of}{"\\n"}{end}']).out.trim().split('\n');
  if (members.length !== before.length || members.some((m) => !m.startsWith('applyset-'))) {
    throw new StepFailed(`not every object of ${short(oldFile)} is labelled as a member of the ApplySet: ${JSON.stringify(members)}`);
  }
  evidence(`all ${before.length} objects labelled applyset.kubernetes.io/part-of=${members[0]}`);
  created.applied(newFile, after);
  const upgraded = apply(newFile, undefined, flags, env);
  const prunedLines = upgraded.split('\n').filter((l) => / pruned$/.test(l.trim()));
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(newFile)}:\n      ${upgraded.trim().split('\n').join('\n      ')}`);
  const stillThere = dropped.filter((d) => kubectl(['get', ...getArgs(d), '--ignore-not-found', '-o', 'name']).out.trim() !== '').map(describe);
  if (stillThere.length > 0 || prunedLines.length !== dropped.length) {
    throw new StepFailed(`the upgrade to ${short(newFile)} did not prune ${stillThere.join(', ') || `all it drops (${prunedLines.length} pruned of ${dropped.length})`}`);
  }
  const kept = leftOver([newFile]);
  if (kept.length !== after.length) {
    throw new StepFailed(`after the upgrade, ${after.length - kept.length} objects of ${short(newFile)} are missing: ${kept.join(', ')}`);
  }
  evidence(`pruned ${dropped.map(describe).join(', ')}; the ${after.length} objects of ${short(newFile)} remain`);
  step(`prune: uninstall: kubectl delete -f ${short(newFile)} leaves nothing, the ApplySet's parent Secret included`);
  evidence(await deleteAndCheck([oldFile, newFile], o));
  const parent = kubectl(['get', 'secret', name, '-n', namespace, '--ignore-not-found', '-o', 'name'], { allowFail: true }).out.trim();
  if (parent !== '') {
    throw new StepFailed(`the ApplySet parent ${parent} in ${namespace} is left`);
  }
  evidence(`no ApplySet parent secret/${name} left in ${namespace}`);
}

/** The namespace's phase, or undefined when it does not exist. */
function namespacePhase(namespace: string): string | undefined {
  const got = kubectl(['get', 'namespace', namespace, '-o', 'jsonpath={.status.phase}'], { allowFail: true });
  return got.ok ? got.out.trim() : undefined;
}

/** The other team's ConfigMap and the namespace around it must be there, Active. */
function othersSurvive(namespace: string, other: string, when: string): string {
  const phase = namespacePhase(namespace);
  const left = kubectl(['get', 'configmap', other, '-n', namespace, '--ignore-not-found', '-o', 'name'], { allowFail: true }).out.trim();
  if (phase !== 'Active' || left === '') {
    throw new StepFailed(`${when}: namespace ${namespace} is ${phase ?? 'gone'}${left === '' ? `, and configmap/${other} with it` : ''}: the recipe deleted what the library did not create`);
  }
  return `${when}: namespace/${namespace} Active, and configmap/${other} (another team's) still in it`;
}

/**
 * The switch of namespace ownership, as the README says it: an agent
 * installed with the ApplySet recipe owns its Namespace (the object is in its
 * file, so a member of the ApplySet); once another team uses the namespace,
 * the agent is switched to a file without it. Pruning would then delete the
 * Namespace, and everything in it; orphaning it from the ApplySet first (the
 * recipe's step) keeps it, through the switch, an upgrade and the uninstall.
 */
async function switchOwnership(ownedFile: string, sharedFile: string, node: Json, o: Options, created: Created): Promise<void> {
  const owned = readManifest(ownedFile);
  const shared = readManifest(sharedFile);
  const namespace = singleNamespace(owned, ownedFile);
  if (!owned.some((x) => x.kind === 'Namespace' && x.metadata.name === namespace) || shared.some((x) => x.kind === 'Namespace')) {
    throw new StepFailed(`--switch: ${short(ownedFile)} must hold the Namespace ${namespace} and ${short(sharedFile)} no Namespace`);
  }
  if (missingImages(owned, node).length > 0) {
    throw new StepFailed(`--switch: the images ${missingImages(owned, node).join(', ')} are not on the node`);
  }
  const name = applySetName(owned, namespace);
  const env = { KUBECTL_APPLYSET: 'true' };
  const flags = ['--prune', `--applyset=${name}`, '-n', namespace];
  const other = 'another-team-settings';
  step(`switch: install ${short(ownedFile)} (it owns namespace ${namespace}) with the ApplySet recipe; another team puts configmap/${other} into the namespace`);
  const present = [...leftOver([ownedFile, sharedFile]), ...namespacePhase(namespace) !== undefined ? [`namespace/${namespace}`] : []];
  if (present.length > 0) {
    throw new StepFailed(`--switch: ${present.join(', ')} exist before the install (run the lifecycle step before switch)`);
  }
  labelNodeFor(owned, node, created);
  created.createdNamespace(namespace);
  created.applied(ownedFile, owned);
  const ns = kubectl(['create', 'namespace', namespace, '--dry-run=client', '-o', 'yaml']).out;
  evidence(`kubectl create namespace ${namespace} --dry-run=client -o yaml | kubectl apply -f -: ${oneLine(kubectl(['apply', '-f', '-'], { input: ns }).out)}`);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(ownedFile)}: ${oneLine(apply(ownedFile, undefined, flags, env))}`);
  evidence(`kubectl create configmap ${other} -n ${namespace}: ${oneLine(kubectl(['create', 'configmap', other, '-n', namespace, '--from-literal=owner=another-team']).out)}`);

  step(`switch: without the recipe's orphaning step, pruning to ${short(sharedFile)} would delete the namespace (server dry run)`);
  const dry = apply(sharedFile, undefined, [...flags, '--dry-run=server'], env);
  if (!dry.split('\n').some((l) => l.trim() === `namespace/${namespace} pruned (server dry run)`)) {
    throw new StepFailed(`the server dry run of the switch without orphaning did not prune namespace/${namespace}; the recipe's reason is gone: ${oneLine(dry)}`);
  }
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} --dry-run=server -f ${short(sharedFile)}: ${oneLine(dry)}`);

  step(`switch: the recipe: orphan namespace ${namespace} from the ApplySet, then apply ${short(sharedFile)} with pruning`);
  evidence(`kubectl label namespace ${namespace} applyset.kubernetes.io/part-of-: ${oneLine(kubectl(['label', 'namespace', namespace, 'applyset.kubernetes.io/part-of-']).out)}`);
  created.applied(sharedFile, shared);
  const switched = apply(sharedFile, undefined, flags, env);
  evidence(`KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${short(sharedFile)}: ${oneLine(switched)}`);
  if (/ pruned$/m.test(switched)) {
    throw new StepFailed(`the switch pruned: ${oneLine(switched)}`);
  }
  evidence(othersSurvive(namespace, other, 'after the switch'));
  const upgraded = apply(sharedFile, undefined, flags, env);
  evidence(`upgrade, the same recipe again: ${oneLine(upgraded)}`);
  evidence(othersSurvive(namespace, other, 'after the upgrade'));

  step(`switch: uninstall: kubectl delete -f ${short(sharedFile)} and the ApplySet's parent secret/${name}; the namespace and the other team's ConfigMap stay`);
  evidence(await deleteAndCheck([sharedFile], o));
  evidence(`kubectl delete secret ${name} -n ${namespace}: ${oneLine(kubectl(['delete', 'secret', name, '-n', namespace]).out)}`);
  evidence(othersSurvive(namespace, other, 'after the uninstall'));
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
