/**
 * How constructs report bad props: every problem at once, prefixed with the
 * construct path, before anything is rendered. The rules themselves are in
 * ./k8s (Kubernetes syntax, returning problems); the few here need cdk8s or
 * cdk8s-plus types.
 */
import type { Size, SizeRoundingBehavior } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-28';
import type { IConstruct } from 'constructs';
import { checkDaemonSet } from './checks/api/apps';
import { checkResources as checkResourceRequirements } from './checks/api/core-pod';
import { defined, Problem, problem, quantityValue } from './k8s/syntax';
import { askChecks, PropPath } from './prop-checks';

/**
 * Throws one Error listing every problem, each line prefixed with the
 * construct's path, so that a user with several agents sees which one is
 * wrong and fixes all its props in one go. Does nothing when there are none.
 */
export function reportProblems(scope: IConstruct, problems: readonly (Problem | undefined)[]): void {
  const found = defined(...problems);
  if (found.length > 0) {
    throw new Error(found.map((p) => `${scope.node.path}: ${p}`).join('\n'));
  }
}

/** Throws the problem, if any: for functions outside constructs (commands, factories). */
export function throwIfProblem(...problems: (Problem | undefined)[]): void {
  const found = defined(...problems);
  if (found.length > 0) {
    throw new Error(found.join('\n'));
  }
}

type Amount = { text: string; amount: number };

function amountOf(prop: string, text: string | undefined, problems: Problem[]): Amount | undefined {
  if (text === undefined) {
    return undefined;
  }
  const value = quantityValue(prop, text);
  if (typeof value === 'string') {
    problems.push(value);
    return undefined;
  }
  return { text, amount: value };
}

/** A cdk8s-plus Cpu (which cdk8s-plus renders from `amount`; anything else it drops without a word). */
function cpuOf(prop: string, cpu: unknown, problems: Problem[]): Amount | undefined {
  if (cpu === undefined) {
    return undefined;
  }
  if (typeof (cpu as { amount?: unknown })?.amount !== 'string') {
    problems.push(problem(prop, 'a cdk8s-plus Cpu, such as Cpu.millis(100) or Cpu.units(1) (cdk8s-plus drops anything else)', cpu));
    return undefined;
  }
  return amountOf(prop, (cpu as kplus.Cpu).amount, problems);
}

/** Where a rendered resource field comes from in cdk8s-plus' ContainerResources. */
const RESOURCE_PROP_PATHS: readonly PropPath[] = [
  [/^resources\.requests\["ephemeral-storage"\]/, 'ephemeralStorage.request'],
  [/^resources\.limits\["ephemeral-storage"\]/, 'ephemeralStorage.limit'],
  [/^resources\.requests\.(\w+)/, '$1.request'],
  [/^resources\.limits\.(\w+)/, '$1.limit'],
];

/** Requests and limits that are positive quantities (cdk8s-plus' forms), each request within its limit (the checks' rule: ValidateContainerResourceRequirements). */
export function checkResources(prop: string, resources: kplus.ContainerResources): Problem[] {
  const problems: Problem[] = [];
  if (typeof resources !== 'object' || resources === null) {
    return [problem(prop, 'a cdk8s-plus ContainerResources object ({ cpu?, memory?, ephemeralStorage? })', resources)];
  }
  const amounts = {
    cpu: [cpuOf(`${prop}.cpu.request`, resources.cpu?.request, problems), cpuOf(`${prop}.cpu.limit`, resources.cpu?.limit, problems)],
    // cdk8s-plus renders memory in whole MiB and ephemeral storage in whole GiB.
    memory: [wholeUnits(`${prop}.memory.request`, resources.memory?.request, 'Mi', problems), wholeUnits(`${prop}.memory.limit`, resources.memory?.limit, 'Mi', problems)],
    'ephemeral-storage': [wholeUnits(`${prop}.ephemeralStorage.request`, resources.ephemeralStorage?.request, 'Gi', problems), wholeUnits(`${prop}.ephemeralStorage.limit`, resources.ephemeralStorage?.limit, 'Gi', problems)],
  };
  const rendered = (i: 0 | 1) => Object.fromEntries(Object.entries(amounts).filter(([, a]) => a[i] !== undefined).map(([name, a]) => [name, a[i]!.text]));
  const fragment = { resources: { requests: rendered(0), limits: rendered(1) } };
  problems.push(...askChecks(prop, fragment, RESOURCE_PROP_PATHS, (add) => checkResourceRequirements(add, '', fragment)));
  return problems;
}

let roundingNone: SizeRoundingBehavior | undefined;

/**
 * cdk8s' SizeRoundingBehavior.NONE, loaded on first use rather than at the
 * top: the eligibility CLI uses this module and must start without cdk8s.
 */
function sizeRoundingNone(): SizeRoundingBehavior {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  roundingNone ??= (require('cdk8s') as typeof import('cdk8s')).SizeRoundingBehavior.NONE;
  return roundingNone;
}

function wholeUnits(prop: string, size: Size | undefined, unit: 'Mi' | 'Gi', problems: Problem[]): Amount | undefined {
  if (size === undefined) {
    return undefined;
  }
  if (typeof (size as Partial<Size>).toMebibytes !== 'function') {
    problems.push(problem(prop, 'a cdk8s Size, such as Size.mebibytes(32)', size));
    return undefined;
  }
  const rounding = sizeRoundingNone();
  const amount = unit === 'Mi' ? size.toMebibytes({ rounding }) : size.toGibibytes({ rounding });
  const text = `${amount}${unit}`;
  if (!Number.isInteger(amount) || amount <= 0) {
    problems.push(problem(prop, `a positive whole number of ${unit}B`, text));
    return undefined;
  }
  return amountOf(prop, text, problems);
}

/** A PercentOrAbsolute that renders: a whole number (the int32 the schema takes) or a percentage; its range is the API server's, asked of the checks. */
function checkIntOrPercent(prop: string, value: kplus.PercentOrAbsolute | undefined): Problem | undefined {
  const v = value?.value;
  const ok = typeof v === 'number' ? Number.isInteger(v) && v <= 2147483647 : typeof v === 'string';
  return ok ? undefined : problem(prop, 'a PercentOrAbsolute: a whole number of nodes or a percentage', v ?? value);
}

/**
 * A DaemonSet rolling update the API server accepts, which is one that can
 * make progress: asked of the checks (pkg/apis/apps/validation:
 * ValidateRollingUpdateDaemonSet: counts and percentages from 0 to 100%, one
 * of maxUnavailable and maxSurge zero, and not both).
 */
export function checkRollingUpdate(maxUnavailable: kplus.PercentOrAbsolute, maxSurge: kplus.PercentOrAbsolute, prefix = ''): Problem[] {
  const problems = defined(checkIntOrPercent(`${prefix}maxUnavailable`, maxUnavailable), checkIntOrPercent(`${prefix}maxSurge`, maxSurge));
  if (problems.length > 0) {
    return problems;
  }
  const fragment = { spec: { selector: { matchLabels: { app: 'agent' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: maxUnavailable.value, maxSurge: maxSurge.value } } } };
  const pod = { metadataPath: 'spec.template.metadata', metadata: {}, specPath: 'spec.template.spec', spec: {} };
  // What each refusal means for a rollout, after the server's words.
  const why = (p: Problem) => (p.includes('may not be 0 when') ? `${p}: the rollout could never replace a pod` : p.includes('may not be set when maxUnavailable is non-zero') ? `${p}; set maxUnavailable to 0 to surge` : p);
  return askChecks('', fragment, [[/^spec\.updateStrategy\.rollingUpdate\./, prefix]], (add) => checkDaemonSet(add, fragment, pod)).map(why);
}
