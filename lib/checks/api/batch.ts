/**
 * batch/v1 (pkg/apis/batch/validation): Job and CronJob.
 */
import { join, KubeObject, show } from '../finding';
import { PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, checkLabelSelector, checkNonNegative, isInt, isRecord, unsupported } from './common';

/** validateScheduleFormat: a standard five-field cron spec or a descriptor, without a TZ prefix. */
function cronProblem(schedule: string): string | undefined {
  if (/^\s*(CRON_)?TZ=/.test(schedule)) {
    return 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
  }
  const descriptors = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
  if (schedule.startsWith('@')) {
    if (descriptors.includes(schedule)) return undefined;
    return /^@every \d+(ns|us|µs|ms|s|m|h)(\d+(ns|us|µs|ms|s|m|h))*$/.test(schedule) ? undefined : `unrecognized descriptor: ${schedule}`;
  }
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: ${schedule}`;
  const ranges: Array<[number, number, string[]?]> = [[0, 59], [0, 23], [1, 31], [1, 12, ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']], [0, 6, ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']]];
  for (let i = 0; i < 5; i++) {
    const [min, max, names] = ranges[i];
    for (const part of fields[i].split(',')) {
      const [range, step] = part.split('/');
      if (step !== undefined && !/^\d+$/.test(step)) return `failed to parse int from ${step}`;
      if (range === '*' || range === '?') continue;
      for (const bound of range.split('-')) {
        const n = names?.indexOf(bound.toUpperCase()) ?? -1;
        const value = n >= 0 ? n + min : /^\d+$/.test(bound) ? Number(bound) : NaN;
        if (Number.isNaN(value)) return `failed to parse int from ${bound}`;
        if (value < min || value > max) return `end of range (${value}) above maximum (${max}): ${range}`;
      }
      if (range.split('-').length > 2) return `too many hyphens: ${range}`;
    }
  }
  return undefined;
}

let timeZones: Set<string> | undefined;

function isTimeZone(zone: string): boolean {
  timeZones ??= new Set([...(Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC', 'GMT', 'Local']);
  return timeZones.has(zone);
}

function checkJobSpec(add: Add, path: string, spec: KubeObject, pod: PodTemplate | undefined): void {
  checkLabelSelector(add, join(path, 'selector'), spec.selector);
  for (const field of ['parallelism', 'completions', 'backoffLimit']) {
    checkNonNegative(add, RULES.apiJob, join(path, field), spec[field]);
  }
  if (isInt(spec.activeDeadlineSeconds) && spec.activeDeadlineSeconds <= 0) add(RULES.apiJob, join(path, 'activeDeadlineSeconds'), `Invalid value: ${spec.activeDeadlineSeconds}: must be greater than 0`);
  if (spec.completionMode !== undefined && !['NonIndexed', 'Indexed'].includes(spec.completionMode)) add(RULES.apiJob, join(path, 'completionMode'), unsupported(spec.completionMode, ['NonIndexed', 'Indexed']));
  if (pod) {
    const policy = pod.spec.restartPolicy;
    if (policy === undefined || policy === 'Always') {
      add(RULES.apiJob, join(pod.specPath, 'restartPolicy'), policy === undefined ? 'Required value: valid values: "OnFailure", "Never"' : unsupported(policy, ['OnFailure', 'Never']));
    }
  }
}

/** ValidateJob and ValidateCronJob. */
export function checkJob(add: Add, obj: KubeObject, pod: PodTemplate | undefined): void {
  if (obj.kind === 'Job') {
    checkJobSpec(add, 'spec', isRecord(obj.spec) ? obj.spec : {}, pod);
    return;
  }
  const spec = isRecord(obj.spec) ? obj.spec : {};
  if (typeof spec.schedule !== 'string' || spec.schedule === '') {
    add(RULES.apiJob, 'spec.schedule', 'Required value');
  } else {
    const problem = cronProblem(spec.schedule);
    if (problem) add(RULES.apiJob, 'spec.schedule', `Invalid value: ${show(spec.schedule)}: ${problem}`);
  }
  if (typeof spec.timeZone === 'string' && !isTimeZone(spec.timeZone)) {
    add(RULES.apiJob, 'spec.timeZone', `Invalid value: ${show(spec.timeZone)}: unknown time zone ${spec.timeZone}`);
  }
  if (spec.concurrencyPolicy !== undefined && !['Allow', 'Forbid', 'Replace'].includes(spec.concurrencyPolicy)) {
    add(RULES.apiJob, 'spec.concurrencyPolicy', unsupported(spec.concurrencyPolicy, ['Allow', 'Forbid', 'Replace']));
  }
  for (const field of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    checkNonNegative(add, RULES.apiJob, join('spec', field), spec[field]);
  }
  if (typeof obj.metadata?.name === 'string' && obj.metadata.name.length > 52) {
    add(RULES.apiJob, 'metadata.name', `Invalid value: ${show(obj.metadata.name)}: must be no more than 52 characters`);
  }
  const jobSpec = isRecord(spec.jobTemplate) && isRecord(spec.jobTemplate.spec) ? spec.jobTemplate.spec : {};
  checkJobSpec(add, 'spec.jobTemplate.spec', jobSpec, pod);
}
