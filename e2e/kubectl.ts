/**
 * What the e2e commands (walkthrough.ts, agents.ts) share: kubectl calls,
 * polling, the printed steps and evidence, and the kubelet's reasons when a
 * pod cannot run.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';

/** A wrong answer: the run stops and prints this message. */
export class StepFailed extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** What kubectl said: its exit status and both outputs. */
export interface KubectlResult { ok: boolean; out: string; err: string }

/** Options of one kubectl call. */
export interface KubectlOptions {
  /** Return a failure instead of failing the step. */
  allowFail?: boolean;
  /** Standard input, e.g. a manifest for `-f -`. */
  input?: string;
  /** Extra environment, e.g. KUBECTL_APPLYSET. */
  env?: Record<string, string>;
}

function failure(args: string[], result: { stderr: string; stdout: string }): StepFailed {
  return new StepFailed(`kubectl ${args.join(' ')} failed: ${(result.stderr || result.stdout).trim().split('\n')[0]}`);
}

/** Runs kubectl; fails the step on a non-zero exit unless allowFail. */
export function kubectl(args: string[], options: KubectlOptions = {}): KubectlResult {
  const env = options.env ? { ...process.env, ...options.env } : undefined;
  const result = spawnSync('kubectl', ['--request-timeout=20s', ...args], { encoding: 'utf-8', input: options.input, env });
  if (result.error) {
    throw new StepFailed(`kubectl could not run: ${result.error.message}`);
  }
  const ok = result.status === 0;
  if (!ok && !options.allowFail) {
    throw failure(args, result);
  }
  return { ok, out: result.stdout, err: result.stderr };
}

/** Runs kubectl without blocking, for many independent questions at once (auth can-i); `input` is its standard input. */
export function kubectlAsync(args: string[], input?: string): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--request-timeout=20s', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(input ?? '');
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', (e) => reject(new StepFailed(`kubectl could not run: ${e.message}`)));
    child.on('close', (code) => resolve({ ok: code === 0, out, err }));
  });
}

/** Runs kubectl with `-o json` and parses the answer. */
export function kubectlJson(args: string[]): Json {
  return JSON.parse(kubectl([...args, '-o', 'json']).out);
}

/** The cluster the current kubeconfig reaches: its context and `/version`; fails the step when none answers. */
export function reachableCluster(): { context: string; server: Json } {
  const context = kubectl(['config', 'current-context'], { allowFail: true }).out.trim() || '(none)';
  const version = kubectl(['get', '--raw', '/version'], { allowFail: true });
  if (!version.ok) {
    throw new StepFailed(`no cluster reachable with the current kubeconfig (context ${context}): ${version.err.trim().split('\n').pop()}`);
  }
  return { context, server: JSON.parse(version.out) };
}

/** Blocks for ms milliseconds (the steps are sequential on purpose). */
export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Polls until the check returns a value (not undefined), or fails the step with the last state. */
export function waitFor<T>(what: string, seconds: number, check: () => T | undefined, state: () => string): T {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new StepFailed(`timed out after ${seconds}s waiting for ${what}; last seen: ${state()}`);
    }
    sleep(500);
  }
}

/** Prints a step's title. */
export function step(title: string): void {
  console.log(`\n== ${title}`);
}

/** Prints one piece of evidence that the step holds. */
export function evidence(text: string): void {
  console.log(`   ok: ${text}`);
}

/** Container states that will not get better by waiting: the kubelet's reason ends the run. */
export const STUCK_REASONS = new Set([
  'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'CrashLoopBackOff', 'StartError',
  'ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull', 'InvalidImageName', 'OOMKilled', 'ContainerCannotRun',
]);

/** The kubelet's reason when a container of the pod cannot run, from its waiting or last terminated state. */
export function podProblem(pod: Json): string | undefined {
  for (const status of [...pod.status?.initContainerStatuses ?? [], ...pod.status?.containerStatuses ?? []]) {
    for (const state of [status.state?.waiting, status.state?.terminated, status.lastState?.terminated]) {
      if (state?.reason && STUCK_REASONS.has(state.reason) || (state?.exitCode ?? 0) !== 0) {
        return `pod ${pod.metadata.name}, container ${status.name}: ${state.reason ?? 'exit'}${state.exitCode !== undefined ? ` (exit code ${state.exitCode})` : ''}: ${(state.message ?? '').trim() || '(no message)'}`;
      }
    }
  }
  return undefined;
}

/**
 * Pod events that will not get better by waiting: the sandbox cannot be
 * created, or a host path is not of the volume's type (the kubelet retries
 * that mount for ever). Other FailedMount events can be a race, e.g. a
 * ConfigMap applied after its DaemonSet.
 */
function isStuckEvent(event: Json): boolean {
  return event.reason === 'FailedCreatePodSandBox' || event.reason === 'FailedMount' && /hostPath type check failed/.test(event.message ?? '');
}

/** The kubelet's reason when a pod that has no running container is stuck: it is only in the pod's events. */
export function eventProblem(pod: Json): string | undefined {
  if (pod.status?.containerStatuses?.some((c: Json) => c.state?.running)) {
    return undefined;
  }
  const events = kubectlJson(['get', 'events', '-n', pod.metadata.namespace, '--field-selector', `involvedObject.uid=${pod.metadata.uid},type=Warning`]).items;
  const failed = events.find(isStuckEvent);
  return failed ? `pod ${pod.metadata.name}: ${failed.reason}: ${failed.message}` : undefined;
}

/** Whether a pod or node has the condition Ready True. */
export function isReady(obj: Json): boolean {
  return (obj.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
}

/** Runs the node-reporter CLI of this checkout as a user would, with stdin. */
export function nodeReporter(args: string[], input?: string): { status: number; out: string; err: string } {
  const root = path.join(__dirname, '..');
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(root, 'lib', 'cli', 'bin.ts'), ...args], { cwd: root, encoding: 'utf-8', input, maxBuffer: 64 << 20 });
  return { status: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Runs `e2e/cluster.sh ARGS` (kubelet-stop, kubelet-start); a failure fails the step. */
export function clusterScript(args: string[]): void {
  const r = spawnSync('bash', [path.join(__dirname, 'cluster.sh'), ...args], { encoding: 'utf-8' });
  if (r.status !== 0) throw new StepFailed(`e2e/cluster.sh ${args.join(' ')}: ${r.stderr.trim()}`);
}

/**
 * Runs an e2e command: a wrong answer (StepFailed) or a bad flag prints "e2e failed: ..." and exits 1; anything else
 * is a bug of the e2e and is thrown as it is.
 */
export function runE2e(run: () => void): void {
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
}
