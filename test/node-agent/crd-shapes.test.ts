/**
 * `customResourceDefinitions` takes cdk8s-plus' L1 types, whose conversion to
 * the manifest drops any key it does not know and throws on a null record:
 * a CRD copied from YAML (`openAPIV3Schema`, `x-kubernetes-*`) lost its
 * schema without a word. Every key and shape is checked first (issue 34).
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { Manifest, only, synth } from '../util';

function objectsOf(crds: unknown): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'monitoring' });
  new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'P'), name: 'alloy',
    containers: [{ name: 'alloy', image: 'grafana/alloy:v1.5.0' }],
    customResourceDefinitions: crds,
  } as unknown as NodeAgentProps);
  return synth(chart);
}

function errorOf(crds: unknown): string[] {
  try {
    objectsOf(crds);
  } catch (e) {
    return (e as Error).message.split('\n');
  }
  return [];
}

/** A CRD spec with the given version schema (L1 names). */
function withSchema(openApiv3Schema: unknown, extra: Record<string, unknown> = {}): unknown {
  return [{
    group: 'monitoring.grafana.com', scope: 'Namespaced',
    names: { kind: 'PodLogs', plural: 'podlogs' },
    versions: [{ name: 'v1alpha2', served: true, storage: true, schema: { openApiv3Schema }, ...extra }],
  }];
}

const at = 'test/Agent: \'customResourceDefinitions[0]';

describe('customResourceDefinitions, from JavaScript', () => {
  test("refuse the manifest's openAPIV3Schema, naming the L1 prop openApiv3Schema", () => {
    // GIVEN a version schema as the YAML spells it
    const crds = [{ group: 'monitoring.grafana.com', scope: 'Namespaced', names: { kind: 'PodLogs', plural: 'podlogs' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] }];

    // WHEN / THEN
    expect(errorOf(crds)).toEqual([
      `${at}.versions[0].schema' key "openAPIV3Schema" is the manifest's name, which the L1 type CustomResourceValidation does not read (the key would be dropped): the prop is "openApiv3Schema"`,
    ]);
  });

  test('refuse x-kubernetes-preserve-unknown-fields deep in the properties, with its full path and the L1 name', () => {
    // GIVEN
    const crds = withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { selector: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } });

    // WHEN / THEN
    expect(errorOf(crds)).toEqual([
      `${at}.versions[0].schema.openApiv3Schema.properties.spec.properties.selector' key "x-kubernetes-preserve-unknown-fields" is the manifest's name, which the L1 type JsonSchemaProps does not read (the key would be dropped): the prop is "xKubernetesPreserveUnknownFields"`,
    ]);
  });

  test('refuse versions that are no array, a null version, null names and a null property', () => {
    expect(errorOf([{ group: 'a.b', scope: 'Namespaced', names: { kind: 'A', plural: 'as' }, versions: 'v1' }])).toEqual([
      `${at}.versions' must be an array of CustomResourceDefinitionVersion but got "v1"`,
    ]);
    expect(errorOf([{ group: 'a.b', scope: 'Namespaced', names: { kind: 'A', plural: 'as' }, versions: [null] }])).toEqual([
      `${at}.versions[0]' must be a CustomResourceDefinitionVersion (a record) but got null`,
    ]);
    expect(errorOf([{ group: 'a.b', scope: 'Namespaced', names: null, versions: [] }])).toEqual([
      `${at}' must be a CustomResourceDefinitionSpec { group, names: { kind, plural, ... }, scope, versions } but got {"group":"a.b","scope":"Namespaced","names":null,"versions":[]}`,
    ]);
    expect(errorOf(withSchema({ type: 'object', properties: { a: null } }))).toEqual([
      `${at}.versions[0].schema.openApiv3Schema.properties.a' must be a JsonSchemaProps (a record) but got null`,
    ]);
  });

  test('refuse an enum, required or dependencies of the wrong shape, which the conversion would throw on', () => {
    expect(errorOf(withSchema({ type: 'string', enum: 'a', required: 'b', dependencies: null }))).toEqual([
      `${at}.versions[0].schema.openApiv3Schema.required' must be an array but got "b"`,
      `${at}.versions[0].schema.openApiv3Schema.enum' must be an array but got "a"`,
      `${at}.versions[0].schema.openApiv3Schema.dependencies' must be a record but got null`,
    ]);
  });

  test('refuse a misspelt key with the closest one', () => {
    expect(errorOf(withSchema({ type: 'object', descripton: 'logs' }))).toEqual([
      expect.stringMatching(/^test\/Agent: 'customResourceDefinitions\[0\]\.versions\[0\]\.schema\.openApiv3Schema' key must be a prop of JsonSchemaProps but got "descripton"; did you mean "description"\?$/),
    ]);
  });

  test('refuse a schema that holds itself, and end', () => {
    // GIVEN a cyclic schema (only JavaScript can build one)
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { self: schema };

    // WHEN / THEN
    expect(errorOf(withSchema(schema))).toEqual([
      `${at}.versions[0].schema.openApiv3Schema.properties.self' must be a JsonSchemaProps that does not hold itself but got "(a cycle)"`,
    ]);
  });

  test('render a valid CRD with nested properties, items, additionalProperties, validations and printer columns in the manifest spelling', () => {
    // GIVEN
    const spec: kplus.k8s.CustomResourceDefinitionSpec = {
      group: 'monitoring.grafana.com', scope: 'Namespaced', names: { kind: 'PodLogs', plural: 'podlogs', shortNames: ['pl'] },
      versions: [{
        name: 'v1alpha2', served: true, storage: true,
        additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
        subresources: { status: {} },
        schema: {
          openApiv3Schema: {
            type: 'object', required: ['spec'],
            properties: {
              spec: {
                type: 'object',
                xKubernetesValidations: [{ rule: 'has(self.selector)', message: 'a selector is required' }],
                properties: {
                  selector: { type: 'object', xKubernetesPreserveUnknownFields: true },
                  relabelings: { type: 'array', items: { type: 'object', properties: { action: { type: 'string' } } } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
      }],
    };

    // WHEN
    const crd = only(objectsOf([spec]), 'CustomResourceDefinition');

    // THEN
    expect(crd.spec).toEqual({
      group: 'monitoring.grafana.com', scope: 'Namespaced', names: { kind: 'PodLogs', plural: 'podlogs', shortNames: ['pl'] },
      versions: [{
        name: 'v1alpha2', served: true, storage: true,
        additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object', required: ['spec'],
            properties: {
              spec: {
                'type': 'object',
                'x-kubernetes-validations': [{ rule: 'has(self.selector)', message: 'a selector is required' }],
                'properties': {
                  selector: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  relabelings: { type: 'array', items: { type: 'object', properties: { action: { type: 'string' } } } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
      }],
    });
  });
});
