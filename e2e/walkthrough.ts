/**
 * `npm run e2e`: the README walkthrough against the cluster of the current
 * kubeconfig (the local one of e2e/cluster.sh, kind, minikube, a real one).
 * It prints each step with its evidence, stops at the first wrong answer with
 * the reason the kubelet or the API server gave, and always cleans up what it
 * created (the namespace, the node label).
 *
 * Usage: npm run e2e -- [--node NAME] [--dist DIR] [--timeout SECONDS]
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { eventProblem, evidence, Json, kubectl, kubectlJson, podProblem, reachableCluster, runE2e, step, StepFailed, waitFor } from './kubectl';

const NAMESPACE = 'practice-daemon';
const DAEMONSET = 'node-reporter';
const LABEL_KEY = 'practice-tier';
const LABEL_VALUE = 'operations';
const UID = '65534';

/** A privileged pod: Pod Security "restricted" must refuse it in the namespace. */
const PRIVILEGED_POD = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'privileged-probe', namespace: NAMESPACE },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '1'], securityContext: { privileged: true } }] },
});

interface Options {
  node?: string;
  dist: string;
  timeout: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      node: { type: 'string' },
      dist: { type: 'string', default: path.join(__dirname, '..', 'dist') },
      timeout: { type: 'string', default: '60' },
    },
    strict: true,
  });
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new StepFailed(`--timeout must be a whole number of seconds but got ${JSON.stringify(values.timeout)}`);
  }
  return { node: values.node, dist: values.dist, timeout };
}

function daemonPods(nodeName: string): Json[] {
  return kubectlJson(['get', 'pods', '-n', NAMESPACE, '-l', `app=${DAEMONSET}`]).items.filter((p: Json) => p.spec.nodeName === nodeName || !p.spec.nodeName);
}

function dsStatus(): Json {
  return kubectlJson(['get', 'daemonset', DAEMONSET, '-n', NAMESPACE]).status ?? {};
}

function describePods(nodeName: string): string {
  return JSON.stringify(daemonPods(nodeName).map((p) => ({ name: p.metadata.name, node: p.spec.nodeName, phase: p.status?.phase, deleting: Boolean(p.metadata.deletionTimestamp) })));
}

/** Fails at once, with the kubelet's reason, when a live reporter pod on the node cannot run. */
function failIfStuck(nodeName: string): void {
  // A pod being replaced is killed on purpose (exit 137: the shell ignores SIGTERM).
  for (const pod of daemonPods(nodeName).filter((p) => !p.metadata.deletionTimestamp)) {
    const problem = podProblem(pod) ?? eventProblem(pod);
    if (problem) {
      throw new StepFailed(`the agent cannot run: ${problem}`);
    }
  }
}

/** The one live reporter pod on the node that the check accepts, Running and Ready. */
function waitForReadyPod(nodeName: string, o: Options, accept: (pod: Json) => boolean = () => true): Json {
  return waitFor('one Running and Ready reporter pod on the node', o.timeout, () => {
    failIfStuck(nodeName);
    const live = daemonPods(nodeName).filter((p) => !p.metadata.deletionTimestamp);
    const pod = live.length === 1 && live[0].spec.nodeName === nodeName && accept(live[0]) ? live[0] : undefined;
    const ready = pod?.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
    return ready ? pod : undefined;
  }, () => describePods(nodeName));
}

function rolloutStatus(o: Options): void {
  const { ok, out, err } = kubectl(['rollout', 'status', `daemonset/${DAEMONSET}`, '-n', NAMESPACE, `--timeout=${o.timeout}s`], { allowFail: true });
  if (!ok) {
    throw new StepFailed(`kubectl rollout status did not complete: ${(err || out).trim()}`);
  }
  evidence(`kubectl rollout status: ${out.trim().split('\n').pop()}`);
}

function checkOwner(pod: Json): void {
  const owner = (pod.metadata.ownerReferences ?? []).find((r: Json) => r.controller);
  if (owner?.kind !== 'DaemonSet' || owner?.name !== DAEMONSET) {
    throw new StepFailed(`pod ${pod.metadata.name} is owned by ${JSON.stringify(owner)}, not DaemonSet/${DAEMONSET}`);
  }
}

function expectLog(pod: Json, nodeName: string, version: string, o: Options): void {
  const want = `node=${nodeName} version=${version}`;
  const line = waitFor(`the log line "${want}"`, o.timeout, () => {
    const { ok, out } = kubectl(['logs', pod.metadata.name, '-n', NAMESPACE], { allowFail: true });
    return ok ? out.split('\n').find((l) => l.trim() === want) : undefined;
  }, () => kubectl(['logs', pod.metadata.name, '-n', NAMESPACE], { allowFail: true }).out.trim().slice(-200) || '(no log yet)');
  evidence(`kubectl logs: "${line}"`);
}

/** uid 65534 and a read-only root, seen from inside the running container. */
function expectRestrictedInside(pod: Json): void {
  const exec = (script: string) => kubectl(['exec', pod.metadata.name, '-n', NAMESPACE, '-c', 'reporter', '--', 'sh', '-c', script], { allowFail: true });
  const id = exec('id -u');
  if (!id.ok || id.out.trim() !== UID) {
    throw new StepFailed(`kubectl exec id -u: wanted ${UID}, got ${JSON.stringify((id.out || id.err).trim())}`);
  }
  evidence(`kubectl exec: id -u is ${UID}`);
  const write = exec('touch /e2e-probe');
  if (write.ok || !/read-only file system/i.test(write.err + write.out)) {
    throw new StepFailed(`kubectl exec touch /e2e-probe: wanted "Read-only file system", got exit ${write.ok ? 0 : 'non-zero'} ${JSON.stringify((write.err || write.out).trim())}`);
  }
  evidence(`kubectl exec: writing / fails with "${(write.err + write.out).trim().split('\n')[0]}"`);
}

function expectPodSecurityRefusal(): void {
  const { ok, err } = kubectl(['apply', '--validate=strict', '-f', '-'], { allowFail: true, input: PRIVILEGED_POD });
  if (ok || !err.includes('violates PodSecurity "restricted')) {
    kubectl(['delete', 'pod', 'privileged-probe', '-n', NAMESPACE, '--wait=false'], { allowFail: true });
    throw new StepFailed(`a privileged pod in ${NAMESPACE} was not refused by Pod Security admission: ${(err || 'created').trim()}`);
  }
  evidence(`a privileged pod is refused by the API server:\n      ${err.trim()}`);
}

function apply(dist: string, file: string): void {
  const { ok, out, err } = kubectl(['apply', '--validate=strict', '-f', path.join(dist, file)], { allowFail: true });
  if (!ok) {
    throw new StepFailed(`kubectl apply --validate=strict -f ${file} was refused: ${err.trim()}`);
  }
  evidence(`kubectl apply --validate=strict: ${out.trim().split('\n').join('; ')}`);
}

function expectCounts(desired: number, o: Options): void {
  const s = waitFor(`DESIRED/CURRENT/READY ${desired}/${desired}/${desired}`, o.timeout, () => {
    const st = dsStatus();
    return st.desiredNumberScheduled === desired && st.currentNumberScheduled === desired && (st.numberReady ?? 0) === desired ? st : undefined;
  }, () => JSON.stringify(dsStatus()));
  evidence(`DESIRED ${s.desiredNumberScheduled}, CURRENT ${s.currentNumberScheduled}, READY ${s.numberReady ?? 0}`);
}

function run(): void {
  const o = parseOptions();

  step('preflight: cluster, node, namespace');
  const { context, server } = reachableCluster();
  evidence(`context ${context}, Kubernetes ${server.gitVersion} (API ${server.major}.${server.minor})`);
  const nodes: Json[] = kubectlJson(['get', 'nodes']).items;
  let node: Json;
  if (o.node !== undefined) {
    node = nodes.find((n) => n.metadata.name === o.node);
    if (!node) {
      throw new StepFailed(`node ${JSON.stringify(o.node)} does not exist; nodes: ${nodes.map((n) => n.metadata.name).join(', ') || '(none)'}`);
    }
  } else if (nodes.length === 1) {
    node = nodes[0];
  } else {
    throw new StepFailed(`the cluster has ${nodes.length} nodes (${nodes.map((n) => n.metadata.name).join(', ')}); pass --node NAME`);
  }
  const nodeName: string = node.metadata.name;
  if (!node.status?.nodeInfo?.kubeletVersion) {
    throw new StepFailed(`node ${nodeName} has no kubelet (no status.nodeInfo.kubeletVersion): the walkthrough runs the agent for real`);
  }
  evidence(`node ${nodeName}, kubelet ${node.status.nodeInfo.kubeletVersion}, ${node.status.nodeInfo.containerRuntimeVersion}`);

  const existing = kubectl(['get', 'namespace', NAMESPACE, '-o', 'name'], { allowFail: true });
  if (existing.ok) {
    throw new StepFailed(`namespace ${NAMESPACE} already exists; the walkthrough creates and deletes it, so it will not touch one it did not create (delete it first, or run against another cluster)`);
  }
  const previousLabel: string | undefined = node.metadata.labels?.[LABEL_KEY];

  let created = false;
  let cleanupError: string | undefined;
  try {
    step(`1. label node ${nodeName} ${LABEL_KEY}=${LABEL_VALUE}`);
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}=${LABEL_VALUE}`, '--overwrite']);
    evidence(`node ${nodeName} labelled`);

    step('2. apply v1: rollout completes, 1/1/1, the pod runs on the node as uid 65534 and logs');
    created = true;
    apply(o.dist, 'node-reporter-v1.k8s.yaml');
    const first = waitForReadyPod(nodeName, o);
    rolloutStatus(o);
    expectCounts(1, o);
    checkOwner(first);
    evidence(`pod ${first.metadata.name} is Running on ${first.spec.nodeName}, owned by DaemonSet/${DAEMONSET}`);
    const wide = kubectl(['get', 'daemonset', DAEMONSET, '-n', NAMESPACE, '-o', 'wide']).out;
    if (!wide.includes(`${LABEL_KEY}=${LABEL_VALUE}`)) {
      throw new StepFailed(`kubectl get ds -o wide shows no NODE SELECTOR ${LABEL_KEY}=${LABEL_VALUE}:\n${wide}`);
    }
    evidence(`kubectl get ds -o wide shows NODE SELECTOR ${LABEL_KEY}=${LABEL_VALUE}`);
    expectLog(first, nodeName, 'v1', o);
    expectRestrictedInside(first);

    step('3. Pod Security: the namespace enforces "restricted"');
    expectPodSecurityRefusal();

    step('4. remove the label: DESIRED 0 and the pod goes away; label again: a new pod');
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}-`]);
    waitFor('DESIRED 0 and no pod on the node', o.timeout, () => {
      return dsStatus().desiredNumberScheduled === 0 && daemonPods(nodeName).length === 0 ? true : undefined;
    }, () => `${JSON.stringify(dsStatus())} pods ${describePods(nodeName)}`);
    evidence('DESIRED 0, pod gone');
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}=${LABEL_VALUE}`]);
    const again = waitForReadyPod(nodeName, o);
    if (again.metadata.uid === first.metadata.uid) {
      throw new StepFailed(`the pod after relabelling has the old uid ${first.metadata.uid}`);
    }
    evidence(`new pod ${again.metadata.name} Running (uid ${again.metadata.uid}, was ${first.metadata.uid})`);

    step('5. apply v2: rollout completes, the new pod logs version=v2; rollout history shows revisions 1 and 2');
    apply(o.dist, 'node-reporter-v2.k8s.yaml');
    const isV2 = (p: Json) => String(p.spec.containers[0].command?.[2] ?? '').includes('version=v2;');
    const second = waitForReadyPod(nodeName, o, isV2);
    rolloutStatus(o);
    expectCounts(1, o);
    evidence(`pod ${second.metadata.name} replaced ${again.metadata.name}`);
    expectLog(second, nodeName, 'v2', o);
    const history = waitFor('revisions 1 and 2 with change-causes', o.timeout, () => {
      const out = kubectl(['rollout', 'history', `daemonset/${DAEMONSET}`, '-n', NAMESPACE]).out;
      return /^1\s+node-reporter v1\s*$/m.test(out) && /^2\s+node-reporter v2\s*$/m.test(out) ? out : undefined;
    }, () => kubectl(['rollout', 'history', `daemonset/${DAEMONSET}`, '-n', NAMESPACE]).out.trim());
    evidence(`kubectl rollout history:\n      ${history.trim().split('\n').join('\n      ')}`);
  } finally {
    step('cleanup: the namespace and the node label');
    if (created) {
      kubectl(['delete', 'namespace', NAMESPACE, '--wait=false'], { allowFail: true });
      try {
        waitFor(`namespace ${NAMESPACE} to be deleted`, o.timeout, () => {
          return kubectl(['get', 'namespace', NAMESPACE], { allowFail: true }).ok ? undefined : true;
        }, () => kubectl(['get', 'all', '-n', NAMESPACE], { allowFail: true }).out.trim());
        console.log(`   namespace ${NAMESPACE} deleted`);
      } catch (e) {
        cleanupError = (e as Error).message;
        console.log(`   namespace ${NAMESPACE} NOT deleted: ${cleanupError}`);
      }
    }
    const restore = previousLabel === undefined ? [`${LABEL_KEY}-`] : [`${LABEL_KEY}=${previousLabel}`, '--overwrite'];
    kubectl(['label', 'node', nodeName, ...restore], { allowFail: true });
    console.log(`   node ${nodeName} label ${previousLabel === undefined ? 'removed' : `restored to ${LABEL_KEY}=${previousLabel}`}`);
  }
  if (cleanupError !== undefined) {
    throw new StepFailed(`cleanup failed: ${cleanupError}`);
  }
  console.log('\nwalkthrough passed');
}

runE2e(run);
