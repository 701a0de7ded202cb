/**
 * Object metadata (staging/src/k8s.io/apimachinery/pkg/api/validation:
 * ValidateObjectMeta), for every kind.
 */
import { KubeObject } from '../finding';
import { RULES } from '../rules';
import { Add, isObject } from './common';

/** ValidateObjectMeta: a name (or generateName) for every object. */
export function checkMeta(add: Add, obj: KubeObject): void {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  if ((typeof meta.name !== 'string' || meta.name === '') && (typeof meta.generateName !== 'string' || meta.generateName === '')) {
    add(RULES.apiObjectMeta, 'metadata.name', 'Required value: name or generateName is required');
  }
  if (isObject(meta.annotations)) {
    const size = Object.entries(meta.annotations).reduce((n, [k, v]) => n + k.length + (typeof v === 'string' ? v.length : 0), 0);
    if (size > 256 * 1024) add(RULES.apiObjectMeta, 'metadata.annotations', `Too long: must have at most ${256 * 1024} bytes`);
  }
}
