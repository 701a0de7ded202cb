/**
 * The command line of `npm run e2e:agents`: its steps, the files each uses
 * (or the default manifests of agent-manifests.ts) and the timeout.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Plan, writePlan } from './agent-manifests';
import { StepFailed } from './kubectl';

/** The steps, in the order they run. */
export const STEPS = ['run', 'metrics', 'rbac', 'roll', 'lifecycle', 'prune', 'switch'] as const;
/** One step of the run. */
export type StepName = typeof STEPS[number];

/** What the command line asks of the run. */
export interface Options {
  /** Only write the default manifests into this folder, and print the plan. */
  write?: string;
  node?: string;
  timeout: number;
  steps: Set<StepName>;
  plan: Plan;
}

/** The files of a comma-separated option, each of which must exist; `count` of them when given. */
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

/** The run's options from the command line; without file options, the manifests of agent-manifests.ts written into `scratch`. */
export function parseOptions(scratch: string): Options {
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
