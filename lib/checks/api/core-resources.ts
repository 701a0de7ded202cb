/**
 * Core objects about storage and resources (pkg/apis/core/validation,
 * validation.go): PersistentVolumeClaim, ResourceQuota, LimitRange.
 */
import { compareQuantities, parseQuantity, Quantity } from '../../k8s/quantity';
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, isRecord, list, unsupported } from './common';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/**
 * ValidatePersistentVolumeClaimSpec: at least one supported access mode, and
 * a storage request (ValidatePositiveQuantityValue) unless the claim fills
 * from a data source that sizes it.
 */
export function checkPersistentVolumeClaim(add: Add, obj: KubeObject): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  const modes: unknown[] = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) add(RULES.apiVolumes, 'spec.accessModes', 'Required value: at least 1 access mode is required');
  modes.forEach((m, i) => {
    if (typeof m === 'string' && !ACCESS_MODES.includes(m)) add(RULES.apiVolumes, join('spec', 'accessModes', i), unsupported(m, ACCESS_MODES));
  });
  const requests = isRecord(spec.resources) && isRecord(spec.resources.requests) ? spec.resources.requests : {};
  const storage = parseQuantity(requests.storage);
  if (requests.storage === undefined) {
    add(RULES.apiVolumes, 'spec.resources[storage]', 'Required value');
  } else if (storage && storage.nanos <= 0n) {
    add(RULES.apiVolumes, 'spec.resources[storage]', `Invalid value: ${show(requests.storage)}: must be greater than zero`);
  }
}

/** The resources a quota counts in whole objects (IsIntegerResourceName: the standard object counts and count/*). */
const INTEGER_RESOURCES = ['configmaps', 'persistentvolumeclaims', 'pods', 'replicationcontrollers', 'resourcequotas', 'secrets', 'services', 'services.loadbalancers', 'services.nodeports'];

/** ValidateResourceQuotaSpec: each hard limit non-negative (ValidateResourceQuantityValue), whole for object counts. */
export function checkResourceQuota(add: Add, obj: KubeObject): void {
  const hard = isRecord(obj.spec) && isRecord(obj.spec.hard) ? obj.spec.hard : {};
  for (const [resource, value] of Object.entries(hard)) {
    const q = parseQuantity(value);
    if (!q) continue;
    const at = `spec.hard[${resource}]`;
    if (q.nanos < 0n) add(RULES.apiQuota, at, `Invalid value: ${show(String(value))}: must be greater than or equal to 0`);
    else if ((INTEGER_RESOURCES.includes(resource) || resource.startsWith('count/')) && q.nanos % 1_000_000_000n !== 0n) add(RULES.apiQuota, at, `Invalid value: ${show(String(value))}: must be an integer`);
  }
}

/** A LimitRange item's quantities of one kind (min, max, ...), parsed, by resource. */
function quantities(value: unknown): Map<string, { text: string; q: Quantity }> {
  const found = new Map<string, { text: string; q: Quantity }>();
  for (const [resource, text] of Object.entries(isRecord(value) ? value : {})) {
    const q = parseQuantity(text);
    if (q) found.set(resource, { text: String(text), q });
  }
  return found;
}

/**
 * ValidateLimitRange: per resource, min <= default request <= default limit
 * <= max, after SetDefaults_LimitRangeItem (for type Container a missing
 * default is the max, a missing default request the default, then the min).
 */
export function checkLimitRange(add: Add, obj: KubeObject): void {
  list(isRecord(obj.spec) ? obj.spec.limits : undefined).forEach((item, i) => {
    const at = join('spec', 'limits', i);
    const min = quantities(item.min);
    const max = quantities(item.max);
    const def = quantities(item.default);
    const defReq = quantities(item.defaultRequest);
    if (item.type === 'Container') {
      for (const [r, v] of max) if (!def.has(r)) def.set(r, v);
      for (const [r, v] of def) if (!defReq.has(r)) defReq.set(r, v);
      for (const [r, v] of min) if (!defReq.has(r)) defReq.set(r, v);
    }
    const order: Array<[string, Map<string, { text: string; q: Quantity }>, string, Map<string, { text: string; q: Quantity }>, string]> = [
      ['min', min, 'max', max, 'min value %a is greater than max value %b'],
      ['defaultRequest', defReq, 'min', min, 'min value %b is greater than default request value %a'],
      ['default', def, 'min', min, 'min value %b is greater than default value %a'],
      ['defaultRequest', defReq, 'max', max, 'default request value %a is greater than max value %b'],
      ['default', def, 'max', max, 'default value %a is greater than max value %b'],
      ['defaultRequest', defReq, 'default', def, 'default request value %a is greater than default limit value %b'],
    ];
    for (const [field, values, otherField, others, words] of order) {
      for (const [resource, value] of values) {
        const other = others.get(resource);
        if (!other) continue;
        // The first three say the smaller field is above the larger; the others, the field above its bound.
        const wrong = otherField === 'min' ? compareQuantities(other.q, value.q) > 0 : compareQuantities(value.q, other.q) > 0;
        if (wrong) add(RULES.apiQuota, `${join(at, field)}[${resource}]`, `Invalid value: ${show(value.text)}: ${words.replace('%a', value.text).replace('%b', other.text)}`);
      }
    }
  });
}
