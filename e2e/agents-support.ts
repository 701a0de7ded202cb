/**
 * What the steps of `npm run e2e:agents` share: what the run created (so
 * that cleanup deletes exactly that), and the kubectl questions the steps ask
 * of the cluster (apply, pods, rollouts, node images, what is left of a
 * file).
 */
import * as path from 'node:path';
import { Options } from './agents-options';
import { eventProblem, evidence, Json, kubectl, kubectlAsync, kubectlJson, podProblem, StepFailed, waitFor } from './kubectl';
import { describe, fullImageName, images, K8sObject, podSpec, readManifest } from './manifests';

/** Namespaces the cluster owns: this run never deletes one, even when a file it applies names it. */
const CLUSTER_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** One agent as this run installed it: every version of its file applied, the latest last. */
interface Install {
  files: string[];
  /** The objects of those files, but Namespaces (two agents may share one). */
  objects: Set<string>;
}

/** What this run created, so that cleanup deletes exactly that. */
export class Created {
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

/** The file's name, for the printed steps. */
export function short(file: string): string {
  return path.basename(file);
}

/** kubectl's output on one line, for the printed evidence. */
export function oneLine(text: string): string {
  return text.trim().split('\n').join('; ');
}

/** kubectl apply --validate=strict of a file (or of objects on stdin); a refusal fails the step with the server's words. */
export function apply(file: string, objects?: K8sObject[], extra: string[] = [], env?: Record<string, string>): string {
  const input = objects === undefined ? undefined : JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
  const args = ['apply', '--validate=strict', ...extra, '-f', objects === undefined ? file : '-'];
  const { ok, out, err } = kubectl(args, { allowFail: true, input, env });
  if (!ok) {
    throw new StepFailed(`kubectl ${args.join(' ').replace(/ -$/, ` - (${short(file)})`)} was refused: ${err.trim()}`);
  }
  return out + err;
}

/** The object's namespace, `default` when it names none. */
export function namespaceOf(o: K8sObject): string {
  return o.metadata.namespace ?? 'default';
}

/** The DaemonSets among the objects. */
export function daemonSetsOf(objects: K8sObject[]): K8sObject[] {
  return objects.filter((o) => o.kind === 'DaemonSet');
}

/** The DaemonSet's selector as a kubectl `-l` argument. */
function selector(ds: K8sObject): string {
  return Object.entries(ds.spec?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
}

/** The live pods the DaemonSet selects. */
export function pods(ds: K8sObject): Json[] {
  return kubectlJson(['get', 'pods', '-n', namespaceOf(ds), '-l', selector(ds)]).items;
}

/** The DaemonSet as the API server holds it. */
export function liveDs(ds: K8sObject): Json {
  return kubectlJson(['get', 'daemonset', ds.metadata.name, '-n', namespaceOf(ds)]);
}

/** The pod's last two Warning events, for a failure's reason. */
function podWarnings(pod: Json): string {
  const events = kubectlJson(['get', 'events', '-n', pod.metadata.namespace, '--field-selector', `involvedObject.uid=${pod.metadata.uid},type=Warning`]).items;
  return events.map((e: Json) => `${e.reason}: ${e.message}`).slice(-2).join(' | ');
}

/** The DaemonSet's pods and their warnings (or its own, when it has none), for a timeout's reason. */
export function describePods(ds: K8sObject): string {
  const all = pods(ds);
  if (all.length === 0) {
    const events = kubectlJson(['get', 'events', '-n', namespaceOf(ds), '--field-selector', `involvedObject.name=${ds.metadata.name},involvedObject.kind=DaemonSet,type=Warning`]).items;
    return `no pods; DaemonSet status ${JSON.stringify(liveDs(ds).status ?? {})}${events.length ? `; ${events.at(-1).reason}: ${events.at(-1).message}` : ''}`;
  }
  return all.map((p) => `${p.metadata.name} ${p.status?.phase}${p.metadata.deletionTimestamp ? ' (deleting)' : ''} ${podWarnings(p)}`).join('; ');
}

/** The one live, Running and Ready pod of the DaemonSet on the node; the kubelet's reason at once when it cannot run. */
export function waitForReadyPod(ds: K8sObject, nodeName: string, o: Options, accept: (pod: Json) => boolean = () => true): Json {
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

/** `kubectl rollout status` of the DaemonSet: its last line, or the step fails. */
export function rolloutStatus(ds: K8sObject, o: Options): string {
  const { ok, out, err } = kubectl(['rollout', 'status', `daemonset/${ds.metadata.name}`, '-n', namespaceOf(ds), `--timeout=${o.timeout}s`], { allowFail: true });
  if (!ok) {
    throw new StepFailed(`kubectl rollout status ${describe(ds)} did not complete: ${(err || out).trim()}`);
  }
  return out.trim().split('\n').pop() ?? '';
}

/** `kubectl exec` of a shell script in a container of the pod. */
export function exec(pod: Json, container: string, script: string) {
  return kubectl(['exec', pod.metadata.name, '-n', pod.metadata.namespace, '-c', container, '--', 'sh', '-c', script], { allowFail: true });
}

/** The node's images, by every name it reports. */
export function nodeImages(node: Json): Set<string> {
  return new Set((node.status?.images ?? []).flatMap((i: Json) => i.names ?? []));
}

/** The images of the objects that the node does not have. */
export function missingImages(objects: K8sObject[], node: Json): string[] {
  const present = nodeImages(node);
  return images(objects).filter((i) => !present.has(fullImageName(i)));
}

/** Labels the node for every nodeSelector entry of the DaemonSets it lacks; cleanup restores them. */
export function labelNodeFor(objects: K8sObject[], node: Json, created: Created): void {
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

/** Objects of the files that still exist (Namespaces being deleted count). */
export function leftOver(files: string[]): string[] {
  const args = files.flatMap((f) => ['-f', f]);
  const got = kubectl(['get', ...args, '--ignore-not-found', '-o', 'name'], { allowFail: true });
  if (!got.ok && !/not found|NotFound|the server doesn't have a resource type/.test(got.err)) {
    throw new StepFailed(`kubectl get ${args.join(' ')}: ${got.err.trim()}`);
  }
  return got.out.trim().split('\n').filter((l) => l !== '');
}

/** kubectl delete -f of the install's latest file; then none of the objects of any of its versions may be left. */
export async function deleteAndCheck(files: string[], o: Options): Promise<string> {
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
