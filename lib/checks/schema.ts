/**
 * Strict schema validation: each object against the Kubernetes OpenAPI schema
 * of its apiVersion/kind, with unknown fields as errors (as `kubeconform
 * -strict` does).
 *
 * The schemas are kubernetes-models' ajv validators, compiled from the
 * Kubernetes OpenAPI definitions (kubernetes-models 4.5.1: Kubernetes 1.33).
 * Those validators accept unknown fields, so strictness is added here: a
 * validator compiled with allErrors looks up every property its schema
 * declares, and reads every key of a free-form map. Validating through a
 * Proxy that records those reads tells, for every object in the manifest,
 * which of its keys the schema knows; any other key is unknown.
 */
import { join, KubeObject, Problem, show } from './finding';
import { RULES } from './rules';

interface Model {
  prototype: { validate(this: unknown): void };
}

interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

/** Where kubernetes-models keeps the model of a core (`v1`) or grouped (`apps/v1`) kind. */
const API_VERSION = /^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

const models = new Map<string, Model | undefined>();

/** The model of an apiVersion/kind, or undefined when kubernetes-models has none. */
function modelOf(apiVersion: unknown, kind: unknown): Model | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !API_VERSION.test(apiVersion) || !KIND.test(kind)) {
    return undefined;
  }
  const key = `${apiVersion}/${kind}`;
  if (!models.has(key)) {
    let model: Model | undefined;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      model = require(`kubernetes-models/${key}`)[kind];
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
        throw e;
      }
    }
    models.set(key, model);
  }
  return models.get(key);
}

interface Visit {
  readonly value: KubeObject;
  readonly read: Set<string>;
  enumerated: boolean;
}

/** Wraps a parsed manifest so that the validator's reads are recorded by path. */
function recording(value: unknown, path: string, visits: Map<string, Visit>): unknown {
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const visit = visits.get(path) ?? { value: value as KubeObject, read: new Set<string>(), enumerated: false };
  visits.set(path, visit);
  return new Proxy(value, {
    get(target, key, receiver) {
      const result = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || key in Object.prototype) {
        return result;
      }
      // Absent properties the schema looks up are recorded too: they are the
      // known fields that a misspelt one is compared with.
      visit.read.add(key);
      return Object.prototype.hasOwnProperty.call(target, key) ? recording(result, `${path}/${key}`, visits) : result;
    },
    has(target, key) {
      if (typeof key === 'string') {
        visit.read.add(key);
      }
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      visit.enumerated = true;
      return Reflect.ownKeys(target);
    },
  });
}

/** A JSON pointer (`/spec/containers/0`) in kubectl notation (`spec.containers[0]`). */
function pointerToPath(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return join('', ...parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
}

/** One message per field: ajv reports a oneOf failure with all its branches. */
function summarize(obj: KubeObject, errors: AjvError[]): Problem[] {
  const byPath = new Map<string, AjvError[]>();
  for (const error of errors) {
    byPath.set(error.instancePath, [...(byPath.get(error.instancePath) ?? []), error]);
  }
  return [...byPath.entries()].map(([pointer, list]) => {
    // Prefer the most telling keyword: a format ("quantity") over a type over "oneOf".
    const rank = (e: AjvError) => ['format', 'enum', 'required', 'type', 'pattern'].indexOf(e.keyword) >>> 0;
    const best = [...list].sort((a, b) => rank(a) - rank(b))[0];
    let message = best.message ?? best.keyword;
    if (best.keyword === 'required') {
      message = `must have required field "${String(best.params?.missingProperty)}"`;
    } else if (best.keyword === 'format') {
      message = `must be a ${String(best.params?.format)}`;
    } else if (best.keyword === 'enum') {
      message = `must be one of ${show(best.params?.allowedValues)}`;
    }
    const found = valueAt(obj, pointer);
    if (found !== undefined && typeof found !== 'object') {
      message = `${message} but is ${show(found)}`;
    }
    const path = best.keyword === 'required' ? join(pointerToPath(pointer), String(best.params?.missingProperty)) : pointerToPath(pointer);
    return { rule: RULES.schema, path: path || '(object)', message };
  });
}

function valueAt(obj: KubeObject, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((node, key) => (node as KubeObject | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], obj);
}

/** Strict schema problems of one object; an unknown apiVersion/kind is one problem. */
export function checkSchema(obj: KubeObject): Problem[] {
  const model = modelOf(obj.apiVersion, obj.kind);
  if (!model) {
    return [{ rule: RULES.unknownKind, path: 'apiVersion', message: `no Kubernetes schema for apiVersion ${show(obj.apiVersion)} kind ${show(obj.kind)}` }];
  }
  const visits = new Map<string, Visit>();
  const problems: Problem[] = [];
  try {
    model.prototype.validate.call(recording(obj, '', visits));
  } catch (e) {
    const errors = (e as { errors?: AjvError[] }).errors;
    if (!errors) {
      throw e;
    }
    problems.push(...summarize(obj, errors));
  }
  for (const [pointer, visit] of visits) {
    // Arrays, free-form maps (read as a whole) and untyped objects the validator
    // never looked into (e.g. RawExtension) have no fixed set of keys.
    if (Array.isArray(visit.value) || visit.enumerated || visit.read.size === 0) {
      continue;
    }
    for (const key of Object.keys(visit.value)) {
      if (!visit.read.has(key)) {
        const near = closest(key, visit.read);
        problems.push({ rule: RULES.schema, path: pointerToPath(`${pointer}/${key}`), message: `unknown field ${show(key)}${near ? `; did you mean ${show(near)}?` : ''}` });
      }
    }
  }
  return problems;
}

/** The known field nearest to a misspelt one (at most 2 edits), if any. */
function closest(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
