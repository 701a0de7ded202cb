/**
 * `npm run e2e`: the README walkthrough against the cluster of the current
 * kubeconfig. It prints each step with its evidence, stops at the first wrong
 * answer, and always cleans up what it created (the namespace, the node label).
 *
 * On a cluster with kubelets it proves everything the README promises (pods
 * run, logs, rollout status). On a control plane without kubelets (see
 * e2e/control-plane.sh) it proves what the API server and the DaemonSet
 * controller decide, and force-deletes pods that stay Terminating for want of
 * a kubelet, saying so.
 *
 * Usage: npm run e2e -- [--node NAME] [--kubelet | --no-kubelet] [--timeout SECONDS]
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const NAMESPACE = 'practice-daemon';
const DAEMONSET = 'node-reporter';
const LABEL_KEY = 'practice-tier';
const LABEL_VALUE = 'operations';
const DIST = path.join(__dirname, '..', 'dist');

class StepFailed extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function kubectl(args: string[], options: { allowFail?: boolean } = {}): { ok: boolean; out: string; err: string } {
  const result = spawnSync('kubectl', ['--request-timeout=20s', ...args], { encoding: 'utf-8' });
  if (result.error) {
    throw new StepFailed(`kubectl could not run: ${result.error.message}`);
  }
  const ok = result.status === 0;
  if (!ok && !options.allowFail) {
    throw new StepFailed(`kubectl ${args.join(' ')} failed: ${(result.stderr || result.stdout).trim().split('\n')[0]}`);
  }
  return { ok, out: result.stdout, err: result.stderr };
}

function kubectlJson(args: string[]): Json {
  return JSON.parse(kubectl([...args, '-o', 'json']).out);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Polls until the check returns a value (not undefined), or fails the step with the last state. */
function waitFor<T>(what: string, seconds: number, check: () => T | undefined, state: () => string): T {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new StepFailed(`timed out after ${seconds}s waiting for ${what}; last seen: ${state()}`);
    }
    sleep(1000);
  }
}

function step(title: string): void {
  console.log(`\n== ${title}`);
}

function evidence(text: string): void {
  console.log(`   ok: ${text}`);
}

function note(text: string): void {
  console.log(`   note: ${text}`);
}

interface Options {
  node?: string;
  kubelet?: boolean;
  timeout: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      'node': { type: 'string' },
      'kubelet': { type: 'boolean' },
      'no-kubelet': { type: 'boolean' },
      'timeout': { type: 'string', default: '60' },
    },
    strict: true,
  });
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new StepFailed(`--timeout must be a whole number of seconds but got ${JSON.stringify(values.timeout)}`);
  }
  return { node: values.node, kubelet: values['no-kubelet'] ? false : values.kubelet, timeout };
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

/** Without a kubelet, a deleted pod stays Terminating: finish the deletion by force, and say so. */
function finishDeletions(nodeName: string, kubelet: boolean): void {
  if (kubelet) {
    return;
  }
  for (const pod of daemonPods(nodeName).filter((p) => p.metadata.deletionTimestamp)) {
    note(`no kubelet to finish deleting pod ${pod.metadata.name}: force-deleting it`);
    kubectl(['delete', 'pod', pod.metadata.name, '-n', NAMESPACE, '--grace-period=0', '--force', '--wait=false'], { allowFail: true });
  }
}

/** The one live reporter pod on the node, once the controller created and the scheduler bound it. */
function waitForPod(nodeName: string, o: Options, kubelet: boolean, accept: (pod: Json) => boolean = () => true): Json {
  return waitFor('one reporter pod on the node', o.timeout, () => {
    finishDeletions(nodeName, kubelet);
    const live = daemonPods(nodeName).filter((p) => !p.metadata.deletionTimestamp);
    return live.length === 1 && live[0].spec.nodeName === nodeName && accept(live[0]) ? live[0] : undefined;
  }, () => describePods(nodeName));
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
  evidence(`pod log says "${line}"`);
}

function apply(file: string, validate: boolean): void {
  const out = kubectl(['apply', '-f', path.join(DIST, file), ...(validate ? [] : ['--validate=false'])]).out.trim();
  evidence(out.split('\n').join('; '));
}

function run(): void {
  const o = parseOptions();

  step('preflight: cluster, node, namespace');
  const context = kubectl(['config', 'current-context'], { allowFail: true }).out.trim() || '(none)';
  const version = kubectl(['get', '--raw', '/version'], { allowFail: true });
  if (!version.ok) {
    throw new StepFailed(`no cluster reachable with the current kubeconfig (context ${context}): ${version.err.trim().split('\n').pop()}`);
  }
  const server = JSON.parse(version.out);
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
  const kubelet = o.kubelet ?? (Boolean(node.status?.nodeInfo?.kubeletVersion) && (node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0) > 0);
  evidence(`node ${nodeName}; ${kubelet ? 'kubelets present: pods run, logs and readiness are checked' : 'no kubelet: scheduling decisions are checked, not running pods'}`);

  const existing = kubectl(['get', 'namespace', NAMESPACE, '-o', 'name'], { allowFail: true });
  if (existing.ok) {
    throw new StepFailed(`namespace ${NAMESPACE} already exists; the walkthrough creates and deletes it, so it will not touch one it did not create (delete it first, or run against another cluster)`);
  }
  const previousLabel: string | undefined = node.metadata.labels?.[LABEL_KEY];
  const [major, minor] = [Number(server.major), Number(String(server.minor).replace(/\D.*$/, ''))];
  // Fields newer than the server (updateStrategy.rollingUpdate.maxSurge is
  // 1.21+) fail kubectl's client-side validation; the server drops them.
  const validate = major > 1 || minor >= 21;
  if (!validate) {
    note(`Kubernetes ${server.major}.${server.minor} predates fields the manifests use (maxSurge, 1.21): applying with --validate=false, the server drops them`);
  }

  let created = false;
  let cleanupError: string | undefined;
  try {
    step(`1. label node ${nodeName} ${LABEL_KEY}=${LABEL_VALUE}`);
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}=${LABEL_VALUE}`, '--overwrite']);
    evidence(`node ${nodeName} labelled`);

    step('2. apply v1: DESIRED 1, CURRENT 1, the pod on the node, owned by the DaemonSet');
    created = true;
    apply('node-reporter-v1.k8s.yaml', validate);
    const first = waitForPod(nodeName, o, kubelet);
    const status = waitFor('DESIRED 1 and CURRENT 1', o.timeout, () => {
      const s = dsStatus();
      return s.desiredNumberScheduled === 1 && s.currentNumberScheduled === 1 ? s : undefined;
    }, () => JSON.stringify(dsStatus()));
    evidence(`DESIRED ${status.desiredNumberScheduled}, CURRENT ${status.currentNumberScheduled}`);
    checkOwner(first);
    evidence(`pod ${first.metadata.name} runs on ${first.spec.nodeName}, owned by DaemonSet/${DAEMONSET}`);
    const wide = kubectl(['get', 'daemonset', DAEMONSET, '-n', NAMESPACE, '-o', 'wide']).out;
    if (!wide.includes(`${LABEL_KEY}=${LABEL_VALUE}`)) {
      throw new StepFailed(`kubectl get ds -o wide shows no NODE SELECTOR ${LABEL_KEY}=${LABEL_VALUE}:\n${wide}`);
    }
    evidence(`kubectl get ds -o wide shows NODE SELECTOR ${LABEL_KEY}=${LABEL_VALUE}`);
    if (kubelet) {
      kubectl(['rollout', 'status', `daemonset/${DAEMONSET}`, '-n', NAMESPACE, `--timeout=${o.timeout}s`]);
      evidence(`rollout status complete, READY ${dsStatus().numberReady}`);
      expectLog(first, nodeName, 'v1', o);
    }

    step('3. remove the label: DESIRED 0 and the pod goes away; label again: a new pod');
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}-`]);
    waitFor('DESIRED 0 and no pod on the node', o.timeout, () => {
      finishDeletions(nodeName, kubelet);
      return dsStatus().desiredNumberScheduled === 0 && daemonPods(nodeName).length === 0 ? true : undefined;
    }, () => `${JSON.stringify(dsStatus())} pods ${describePods(nodeName)}`);
    evidence('DESIRED 0, pod gone');
    kubectl(['label', 'node', nodeName, `${LABEL_KEY}=${LABEL_VALUE}`]);
    const again = waitForPod(nodeName, o, kubelet);
    if (again.metadata.uid === first.metadata.uid) {
      throw new StepFailed(`the pod after relabelling has the old uid ${first.metadata.uid}`);
    }
    evidence(`new pod ${again.metadata.name} (uid ${again.metadata.uid}, was ${first.metadata.uid})`);

    step('4. apply v2: the pod is replaced by one running version=v2; rollout history shows revisions 1 and 2');
    apply('node-reporter-v2.k8s.yaml', validate);
    const isV2 = (p: Json) => String(p.spec.containers[0].command?.[2] ?? '').includes('version=v2;');
    const second = waitForPod(nodeName, o, kubelet, isV2);
    evidence(`pod ${second.metadata.name} replaced ${again.metadata.name}; its command prints version=v2`);
    if (kubelet) {
      kubectl(['rollout', 'status', `daemonset/${DAEMONSET}`, '-n', NAMESPACE, `--timeout=${o.timeout}s`]);
      expectLog(second, nodeName, 'v2', o);
    }
    const history = waitFor('revisions 1 and 2 with change-causes', o.timeout, () => {
      const out = kubectl(['rollout', 'history', `daemonset/${DAEMONSET}`, '-n', NAMESPACE]).out;
      return /^1\s+node-reporter v1\s*$/m.test(out) && /^2\s+node-reporter v2\s*$/m.test(out) ? out : undefined;
    }, () => kubectl(['rollout', 'history', `daemonset/${DAEMONSET}`, '-n', NAMESPACE]).out.trim());
    evidence(`kubectl rollout history:\n      ${history.trim().split('\n').join('\n      ')}`);
  } finally {
    step('cleanup: the namespace and the node label');
    if (created) {
      kubectl(['delete', 'namespace', NAMESPACE, '--wait=false'], { allowFail: true });
      // Without a kubelet the pods the namespace deletion removes stay
      // Terminating, and so would the namespace: finish them by force.
      const gone = (() => {
        try {
          return waitFor(`namespace ${NAMESPACE} to be deleted`, o.timeout, () => {
            if (!kubelet) {
              for (const pod of kubectlJson(['get', 'pods', '-n', NAMESPACE]).items) {
                note(`no kubelet to finish deleting pod ${pod.metadata.name}: force-deleting it`);
                kubectl(['delete', 'pod', pod.metadata.name, '-n', NAMESPACE, '--grace-period=0', '--force', '--wait=false'], { allowFail: true });
              }
            }
            return kubectl(['get', 'namespace', NAMESPACE], { allowFail: true }).ok ? undefined : true;
          }, () => kubectl(['get', 'all', '-n', NAMESPACE], { allowFail: true }).out.trim());
        } catch (e) {
          cleanupError = (e as Error).message;
          return false;
        }
      })();
      console.log(`   ${gone ? `namespace ${NAMESPACE} deleted` : `namespace ${NAMESPACE} NOT deleted: ${cleanupError}`}`);
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

try {
  run();
} catch (e) {
  if (e instanceof StepFailed || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`\ne2e failed: ${(e as Error).message}`);
    process.exitCode = 1;
  } else {
    throw e;
  }
}
