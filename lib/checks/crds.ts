/**
 * Custom resources, judged by the CustomResourceDefinitions of the input as
 * the API server judges them (k8s.io/apiextensions-apiserver): the kind and
 * version served, the structural schema's types, required fields, enums,
 * bounds, list types and unknown fields (refused under strict field
 * validation unless `x-kubernetes-preserve-unknown-fields`), after nulls are
 * pruned and defaults applied. CEL rules (`x-kubernetes-validations`) are not
 * evaluated. A custom resource whose CRD the input lacks is not judged: a
 * warning says so. The CRDs themselves get the basic checks of
 * ValidateCustomResourceDefinition.
 */
import { checkDns1123Subdomain, DNS1035_LABEL, isRecord } from '../k8s/syntax';
import { invalid } from './api/common';
import { FieldProblem, join, KubeObject, show } from './finding';
import { RULES } from './rules';

/** A CRD's schema node (JSONSchemaProps), loosely typed: it comes from the input. */
type SchemaProps = KubeObject;

/** One version of a CRD. */
interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly schema?: SchemaProps;
}

/** What the input's CRDs define, by `group/Kind`. */
export interface CrdIndex {
  /** The CRD of a group and kind. */
  get(group: string, kind: string): CrdDefinition | undefined;
}

/** One CRD, as far as its resources' checks need it. */
export interface CrdDefinition {
  /** The CRD's name (`plural.group`). */
  readonly name: string;
  /** Namespaced or Cluster. */
  readonly scope: string;
  /** Whether the status subresource is on (status is then not taken on create). */
  readonly statusSubresource: boolean;
  readonly versions: readonly CrdVersion[];
}

/** The group of an apiVersion (`''` for the core group). */
export function groupOf(apiVersion: unknown): string {
  return typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** Whether a group could be a CRD's: a DNS-1123 subdomain with a dot (ValidateCustomResourceDefinitionSpec). */
export function isCustomGroup(group: string): boolean {
  return group.includes('.') && group.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(group);
}

/** The CRDs among the objects (apiextensions.k8s.io/v1). */
export function crdIndex(objects: readonly KubeObject[]): CrdIndex {
  const byKey = new Map<string, CrdDefinition>();
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition' || o.apiVersion !== 'apiextensions.k8s.io/v1' || !isRecord(o.spec)) continue;
    const spec = o.spec;
    if (typeof spec.group !== 'string' || !isRecord(spec.names) || typeof spec.names.kind !== 'string') continue;
    const versions: CrdVersion[] = (Array.isArray(spec.versions) ? spec.versions : []).filter(isRecord).map((v: KubeObject) => ({
      name: String(v.name), served: v.served === true,
      schema: isRecord(v.schema) && isRecord(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined,
    }));
    const statusSubresource = (Array.isArray(spec.versions) ? spec.versions : []).some((v: KubeObject) => isRecord(v?.subresources) && v.subresources.status !== undefined);
    byKey.set(`${spec.group}/${spec.names.kind}`, { name: String(o.metadata?.name), scope: String(spec.scope), statusSubresource, versions });
  }
  return { get: (group, kind) => byKey.get(`${group}/${kind}`) };
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameJson((a as KubeObject)[k], (b as KubeObject)[k]));
}

/** Validates a value against a structural schema node, as kube-openapi's validator and strict pruning do. */
class CrValidator {
  readonly problems: FieldProblem[] = [];

  private add(path: string, message: string): void {
    this.problems.push({ rule: RULES.crdSchema, path: path || '(object)', message });
  }

  validate(value: unknown, schema: SchemaProps, path: string): void {
    // Nulls are pruned (unless nullable) before validation, as are absent values.
    if (value === null) return;
    if (schema['x-kubernetes-int-or-string'] === true) {
      if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) {
        this.add(path, `Invalid value: ${show(value)}: must be an integer or a string`);
      }
    } else if (typeof schema.type === 'string' && schema.type !== '') {
      const actual = typeOf(value);
      const fits = actual === schema.type || (schema.type === 'number' && actual === 'integer');
      if (!fits) {
        this.add(path, `Invalid value: ${show(value)}: ${path || 'body'} in body must be of type ${schema.type}: "${actual}"`);
        return;
      }
    }
    this.values(value, schema, path);
    if (Array.isArray(value)) this.array(value, schema, path);
    else if (isRecord(value)) this.object(value, schema, path);
    for (const sub of Array.isArray(schema.allOf) ? schema.allOf.filter(isRecord) : []) this.validate(value, sub, path);
    const passes = (sub: SchemaProps) => {
      const v = new CrValidator();
      v.values(value, sub, path);
      if (typeof sub.type === 'string' && sub.type !== '' && !(typeOf(value) === sub.type || (sub.type === 'number' && typeOf(value) === 'integer'))) return false;
      return v.problems.length === 0;
    };
    const anyOf: SchemaProps[] = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isRecord) : [];
    if (anyOf.length > 0 && !anyOf.some(passes)) this.add(path, `Invalid value: ${show(value)}: must validate at least one schema (anyOf)`);
    const oneOf: SchemaProps[] = Array.isArray(schema.oneOf) ? schema.oneOf.filter(isRecord) : [];
    if (oneOf.length > 0 && oneOf.filter(passes).length !== 1) this.add(path, `Invalid value: ${show(value)}: must validate one and only one schema (oneOf)`);
    if (isRecord(schema.not) && passes(schema.not)) this.add(path, `Invalid value: ${show(value)}: must not validate the schema (not)`);
  }

  /** Enum, bounds, lengths and patterns. */
  private values(value: unknown, schema: SchemaProps, path: string): void {
    if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => sameJson(e, value))) {
      this.add(path, `Unsupported value: ${show(value)}: supported values: ${schema.enum.map((e: unknown) => show(e)).join(', ')}`);
    }
    if (typeof value === 'number') {
      if (typeof schema.minimum === 'number' && (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum)) {
        this.add(path, `Invalid value: ${value}: ${path} in body should be greater than ${schema.exclusiveMinimum === true ? '' : 'or equal to '}${schema.minimum}`);
      }
      if (typeof schema.maximum === 'number' && (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum)) {
        this.add(path, `Invalid value: ${value}: ${path} in body should be less than ${schema.exclusiveMaximum === true ? '' : 'or equal to '}${schema.maximum}`);
      }
      if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0 && !Number.isInteger(value / schema.multipleOf)) {
        this.add(path, `Invalid value: ${value}: ${path} in body should be a multiple of ${schema.multipleOf}`);
      }
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      if (typeof schema.minLength === 'number' && length < schema.minLength) this.add(path, `Invalid value: ${show(value)}: ${path} in body should be at least ${schema.minLength} chars long`);
      if (typeof schema.maxLength === 'number' && length > schema.maxLength) this.add(path, `Too long: may not be more than ${schema.maxLength} bytes`);
      if (typeof schema.pattern === 'string') {
        let pattern: RegExp | undefined;
        try {
          pattern = new RegExp(schema.pattern, 'u');
        } catch {
          pattern = undefined; // a pattern JavaScript cannot read (RE2 syntax): not judged
        }
        if (pattern && !pattern.test(value)) this.add(path, `Invalid value: ${show(value)}: ${path} in body should match '${schema.pattern}'`);
      }
      if (schema.format === 'date-time' && !/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value)) {
        this.add(path, `Invalid value: ${show(value)}: ${path} in body must be of type date-time: ${show(value)}`);
      }
    }
  }

  private array(value: unknown[], schema: SchemaProps, path: string): void {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) this.add(path, `Invalid value: ${value.length}: ${path} in body should have at least ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) this.add(path, `Too many: ${value.length}: must have at most ${schema.maxItems} items`);
    if (isRecord(schema.items)) value.forEach((item, i) => this.validate(item, schema.items, join(path, i)));
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set') {
      value.forEach((item, i) => { if (value.slice(0, i).some((o) => sameJson(o, item))) this.add(join(path, i), `Duplicate value: ${show(item)}`); });
    } else if (listType === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys'])) {
      const keys: string[] = schema['x-kubernetes-list-map-keys'];
      const keyOf = (item: unknown) => JSON.stringify(keys.map((k) => (isRecord(item) ? item[k] : undefined)));
      value.forEach((item, i) => { if (value.slice(0, i).some((o) => keyOf(o) === keyOf(item))) this.add(join(path, i), `Duplicate value: ${keyOf(item)}`); });
    }
  }

  private object(value: KubeObject, schema: SchemaProps, path: string): void {
    const properties: Record<string, SchemaProps> = isRecord(schema.properties) ? schema.properties : {};
    const additional = schema.additionalProperties;
    if (schema['x-kubernetes-embedded-resource'] === true) {
      for (const field of ['apiVersion', 'kind']) {
        if (typeof value[field] !== 'string' || value[field] === '') this.add(join(path, field), 'Required value: must not be empty');
      }
    }
    for (const [key, child] of Object.entries(value)) {
      if (Object.prototype.hasOwnProperty.call(properties, key) && isRecord(properties[key])) {
        this.validate(child, properties[key], join(path, key));
      } else if (isRecord(additional)) {
        this.validate(child, additional, join(path, key));
      } else if (schema['x-kubernetes-preserve-unknown-fields'] !== true && additional !== true
        && !(schema['x-kubernetes-embedded-resource'] === true && ['apiVersion', 'kind', 'metadata'].includes(key))) {
        this.add(join(path, key), `unknown field ${show(join(path, key))}`);
      }
    }
    for (const required of Array.isArray(schema.required) ? schema.required : []) {
      const defaulted = isRecord(properties[required]) && properties[required].default !== undefined;
      if ((value[required] === undefined || (value[required] === null && properties[required]?.nullable !== true)) && !defaulted) {
        this.add(join(path, required), 'Required value');
      }
    }
    if (typeof schema.minProperties === 'number' && Object.keys(value).length < schema.minProperties) this.add(path, `Invalid value: ${Object.keys(value).length}: ${path} in body should have at least ${schema.minProperties} properties`);
    if (typeof schema.maxProperties === 'number' && Object.keys(value).length > schema.maxProperties) this.add(path, `Too many: ${Object.keys(value).length}: must have at most ${schema.maxProperties} items`);
  }
}

/**
 * The problems of a custom resource, by its CRD in the input; undefined when
 * the input has no CRD for its group and kind.
 */
export function checkCustomResource(obj: KubeObject, crds: CrdIndex): FieldProblem[] | undefined {
  const group = groupOf(obj.apiVersion);
  const crd = crds.get(group, obj.kind);
  if (!crd) return undefined;
  const versionName = String(obj.apiVersion).slice(group.length + 1);
  const version = crd.versions.find((v) => v.name === versionName);
  if (!version || !version.served) {
    const served = crd.versions.filter((v) => v.served).map((v) => v.name);
    return [{ rule: RULES.crdSchema, path: 'apiVersion', message: `no matches for kind ${show(obj.kind)} in version ${show(obj.apiVersion)}: CustomResourceDefinition ${crd.name} serves ${served.length > 0 ? served.join(', ') : 'no version'}` }];
  }
  const validator = new CrValidator();
  if (version.schema) {
    // apiVersion, kind and metadata are the API's; the schema may only narrow metadata's name.
    const skipped = new Set(['apiVersion', 'kind', 'metadata', ...(crd.statusSubresource ? ['status'] : [])]);
    const body = Object.fromEntries(Object.entries(obj).filter(([k]) => !skipped.has(k)));
    const properties: Record<string, SchemaProps> = isRecord(version.schema.properties) ? version.schema.properties : {};
    const rootSchema = { ...version.schema, properties: Object.fromEntries(Object.entries(properties).filter(([k]) => !['apiVersion', 'kind', 'metadata'].includes(k))) };
    validator.validate(body, rootSchema, '');
  }
  return validator.problems;
}

/** ValidateCustomResourceDefinition, the basics: the name, the versions, a schema for each. */
export function checkCustomResourceDefinition(obj: KubeObject): FieldProblem[] {
  if (obj.kind !== 'CustomResourceDefinition' || obj.apiVersion !== 'apiextensions.k8s.io/v1' || !isRecord(obj.spec)) return [];
  const problems: FieldProblem[] = [];
  const add = (path: string, message: string) => problems.push({ rule: RULES.apiCrd, path, message });
  const spec = obj.spec;
  const plural = isRecord(spec.names) ? spec.names.plural : undefined;
  if (typeof plural === 'string' && typeof spec.group === 'string' && obj.metadata?.name !== `${plural}.${spec.group}`) {
    add('metadata.name', `Invalid value: ${show(obj.metadata?.name)}: must be spec.names.plural+"."+spec.group`);
  }
  // ValidateCustomResourceDefinitionSpec: the group is a DNS-1123 subdomain with a dot.
  if (typeof spec.group !== 'string' || spec.group === '') add('spec.group', 'Required value');
  else if (checkDns1123Subdomain('group', spec.group)) add('spec.group', invalid(spec.group, checkDns1123Subdomain('group', spec.group))!);
  else if (!spec.group.includes('.')) add('spec.group', `Invalid value: ${show(spec.group)}: should be a domain with at least one dot`);
  // ValidateCustomResourceDefinitionNames: the plural is a DNS-1035 label.
  if (typeof plural === 'string' && plural !== '' && (plural.length > 63 || !DNS1035_LABEL.test(plural))) {
    add('spec.names.plural', `Invalid value: ${show(plural)}: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`);
  }
  if (!['Namespaced', 'Cluster'].includes(spec.scope)) add('spec.scope', `Unsupported value: ${show(spec.scope)}: supported values: "Cluster", "Namespaced"`);
  const versions: KubeObject[] = Array.isArray(spec.versions) ? spec.versions.filter(isRecord) : [];
  if (versions.length === 0) add('spec.versions', 'Invalid value: null: must have exactly one version marked as storage version');
  else if (versions.filter((v) => v.storage === true).length !== 1) add('spec.versions', `Invalid value: ${show(versions.map((v) => v.name))}: must have exactly one version marked as storage version`);
  versions.forEach((v, i) => {
    if (!isRecord(v.schema) || !isRecord(v.schema.openAPIV3Schema)) add(join('spec', 'versions', i, 'schema', 'openAPIV3Schema'), 'Required value: schemas are required');
    else if (v.schema.openAPIV3Schema.type !== 'object') add(join('spec', 'versions', i, 'schema', 'openAPIV3Schema', 'type'), `Unsupported value: ${show(v.schema.openAPIV3Schema.type ?? '')}: supported values: "object"`);
  });
  return problems;
}
