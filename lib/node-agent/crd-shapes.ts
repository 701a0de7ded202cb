/**
 * The shapes of `customResourceDefinitions` as cdk8s-plus-28's L1 types have
 * them (`kplus.k8s.CustomResourceDefinitionSpec`, TypeScript names:
 * `openApiv3Schema`, `xKubernetesPreserveUnknownFields`, `ref`), walked before
 * the spec is converted to the manifest's JSON.
 *
 * The L1 conversion (`toJson_CustomResourceDefinitionSpec`) reads exactly the
 * keys below and drops any other without a word: a schema copied from YAML
 * (`openAPIV3Schema`, `x-kubernetes-preserve-unknown-fields`, `$ref`) would
 * vanish from the rendered CRD. It also throws on `null` where a record is due
 * and on an array that is not one. So every key is known here, and each
 * record and array is one, before it runs. The values of scalars are the
 * API server's to judge, on the rendered CRD (checks/crds.ts).
 */
import { isRecord, Problem, problem, show, subject } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';

/** How the L1 conversion reads a field. */
type Field =
  /** Taken as it is: a scalar (judged on the rendered CRD), or JSON the conversion copies untouched. */
  | 'as-is'
  /** An array, its items taken as they are (`required`, `enum`). */
  | 'array'
  /** A record, its values taken as they are (`dependencies`). */
  | 'values'
  /** A record of the named type. */
  | { readonly record: string }
  /** An array of records of the named type. */
  | { readonly records: string }
  /** A record whose every value is a record of the named type. */
  | { readonly map: string };

/** An L1 type: its fields, and the manifest's names of those the L1 renames. */
interface Shape {
  readonly fields: Readonly<Record<string, Field>>;
  /** The manifest's name of a field, where it is not the L1's (`openApiv3Schema`: `openAPIV3Schema`). */
  readonly manifest?: Readonly<Record<string, string>>;
}

/** The type the walk starts at. */
const ROOT = 'CustomResourceDefinitionSpec';

/** Schema keys the conversion copies as they are, inside as well: the rendered CRD has them exactly as given. */
const SCHEMA_AS_IS = ['additionalItems', 'additionalProperties', 'default', 'example', 'items'] as const;

const SCHEMA_SCALARS = ['description', 'exclusiveMaximum', 'exclusiveMinimum', 'format', 'id', 'maxItems', 'maxLength', 'maxProperties', 'maximum',
  'minItems', 'minLength', 'minProperties', 'minimum', 'multipleOf', 'nullable', 'pattern', 'title', 'type', 'uniqueItems', 'ref', 'schema',
  'xKubernetesEmbeddedResource', 'xKubernetesIntOrString', 'xKubernetesListType', 'xKubernetesMapType', 'xKubernetesPreserveUnknownFields'] as const;

/** The L1 types of a CustomResourceDefinitionSpec, as cdk8s-plus-28's `toJson_*` functions read them. */
const SHAPES: Readonly<Record<string, Shape>> = {
  CustomResourceDefinitionSpec: {
    fields: { conversion: { record: 'CustomResourceConversion' }, group: 'as-is', names: { record: 'CustomResourceDefinitionNames' }, preserveUnknownFields: 'as-is', scope: 'as-is', versions: { records: 'CustomResourceDefinitionVersion' } },
  },
  CustomResourceDefinitionNames: {
    fields: { categories: 'array', kind: 'as-is', listKind: 'as-is', plural: 'as-is', shortNames: 'array', singular: 'as-is' },
  },
  CustomResourceDefinitionVersion: {
    fields: {
      additionalPrinterColumns: { records: 'CustomResourceColumnDefinition' }, deprecated: 'as-is', deprecationWarning: 'as-is', name: 'as-is',
      schema: { record: 'CustomResourceValidation' }, served: 'as-is', storage: 'as-is', subresources: { record: 'CustomResourceSubresources' },
    },
  },
  CustomResourceValidation: { fields: { openApiv3Schema: { record: 'JsonSchemaProps' } }, manifest: { openApiv3Schema: 'openAPIV3Schema' } },
  JsonSchemaProps: {
    fields: {
      ...Object.fromEntries(SCHEMA_AS_IS.map((k) => [k, 'as-is'])),
      ...Object.fromEntries(SCHEMA_SCALARS.map((k) => [k, 'as-is'])),
      allOf: { records: 'JsonSchemaProps' }, anyOf: { records: 'JsonSchemaProps' }, oneOf: { records: 'JsonSchemaProps' }, not: { record: 'JsonSchemaProps' },
      definitions: { map: 'JsonSchemaProps' }, patternProperties: { map: 'JsonSchemaProps' }, properties: { map: 'JsonSchemaProps' },
      externalDocs: { record: 'ExternalDocumentation' }, required: 'array', enum: 'array', dependencies: 'values', xKubernetesListMapKeys: 'array',
      xKubernetesValidations: { records: 'ValidationRule' },
    },
    manifest: {
      ref: '$ref', schema: '$schema', xKubernetesEmbeddedResource: 'x-kubernetes-embedded-resource', xKubernetesIntOrString: 'x-kubernetes-int-or-string',
      xKubernetesListMapKeys: 'x-kubernetes-list-map-keys', xKubernetesListType: 'x-kubernetes-list-type', xKubernetesMapType: 'x-kubernetes-map-type',
      xKubernetesPreserveUnknownFields: 'x-kubernetes-preserve-unknown-fields', xKubernetesValidations: 'x-kubernetes-validations',
    },
  },
  ExternalDocumentation: { fields: { description: 'as-is', url: 'as-is' } },
  ValidationRule: { fields: { fieldPath: 'as-is', message: 'as-is', messageExpression: 'as-is', reason: 'as-is', rule: 'as-is' } },
  CustomResourceColumnDefinition: { fields: { description: 'as-is', format: 'as-is', jsonPath: 'as-is', name: 'as-is', priority: 'as-is', type: 'as-is' } },
  CustomResourceSubresources: { fields: { scale: { record: 'CustomResourceSubresourceScale' }, status: 'as-is' } },
  CustomResourceSubresourceScale: { fields: { labelSelectorPath: 'as-is', specReplicasPath: 'as-is', statusReplicasPath: 'as-is' } },
  CustomResourceConversion: { fields: { strategy: 'as-is', webhook: { record: 'WebhookConversion' } } },
  WebhookConversion: { fields: { clientConfig: { record: 'WebhookClientConfig' }, conversionReviewVersions: 'array' } },
  WebhookClientConfig: { fields: { caBundle: 'as-is', service: { record: 'ServiceReference' }, url: 'as-is' } },
  ServiceReference: { fields: { name: 'as-is', namespace: 'as-is', path: 'as-is', port: 'as-is' } },
};

/** The problems of one key of a record of type `shape` that the conversion would drop. */
function unknownKeyProblems(prop: string, value: Record<string, unknown>, type: string, shape: Shape): Problem[] {
  const known = Object.keys(shape.fields);
  const manifestNames = Object.entries(shape.manifest ?? {});
  return Object.keys(value).filter((k) => !(k in shape.fields)).map((k) => {
    const l1 = manifestNames.find(([, m]) => m === k)?.[0] ?? manifestNames.find(([, m]) => m.toLowerCase() === k.toLowerCase())?.[0];
    if (l1 !== undefined) {
      return `${subject(`${prop}[key]`)} ${show(k)} is the manifest's name, which the L1 type ${type} does not read (the key would be dropped): the prop is ${show(l1)}`;
    }
    return unknownKeys(prop, { [k]: value[k] }, { known, what: type })[0];
  });
}

/**
 * The shape problems of one `customResourceDefinitions` entry, named by
 * their full prop path (`customResourceDefinitions[0].versions[1].schema.openApiv3Schema.properties.spec`):
 * a record or an array that is not one, a key the L1 conversion would drop
 * (a manifest spelling names the prop to use). Nothing means the conversion
 * reads every key given and cannot throw.
 */
export function crdSpecShapeProblems(prop: string, spec: unknown): Problem[] {
  const problems: Problem[] = [];
  const walking = new Set<object>();
  const walk = (at: string, value: unknown, type: string): void => {
    if (!isRecord(value)) {
      problems.push(problem(at, `a ${type} (a record)`, value));
      return;
    }
    if (walking.has(value)) {
      problems.push(problem(at, `a ${type} that does not hold itself`, '(a cycle)'));
      return;
    }
    walking.add(value);
    const shape = SHAPES[type];
    problems.push(...unknownKeyProblems(at, value, type, shape));
    for (const [key, field] of Object.entries(shape.fields)) {
      const v = value[key];
      if (v === undefined || field === 'as-is') continue;
      const here = `${at}.${key}`;
      if (field === 'array') {
        if (!Array.isArray(v)) problems.push(problem(here, 'an array', v));
      } else if (field === 'values') {
        if (!isRecord(v)) problems.push(problem(here, 'a record', v));
      } else if ('record' in field) {
        walk(here, v, field.record);
      } else if ('records' in field) {
        if (Array.isArray(v)) v.forEach((item, i) => walk(`${here}[${i}]`, item, field.records));
        else problems.push(problem(here, `an array of ${field.records}`, v));
      } else if (isRecord(v)) {
        Object.entries(v).forEach(([name, item]) => {
          if (item !== undefined) walk(/^[A-Za-z_$][\w$]*$/.test(name) ? `${here}.${name}` : `${here}[${JSON.stringify(name)}]`, item, field.map);
        });
      } else {
        problems.push(problem(here, `a record of ${field.map} by name`, v));
      }
    }
    walking.delete(value);
  };
  walk(prop, spec, ROOT);
  return problems;
}
