/**
 * Custom resources judged by the CustomResourceDefinition of the input
 * (lib/checks/crds.ts); without it, a warning that they are not judged.
 */
import { checkObjects, checkYaml, Finding, isBlocking, KubeObject } from '../../lib/checks';

const crd = (schema: KubeObject, extra: KubeObject = {}): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }], ...extra },
});
const spec = (properties: KubeObject, required: string[] = []) => ({ type: 'object', properties: { spec: { type: 'object', properties, required } } });
const widget = (body: KubeObject, apiVersion = 'example.com/v1'): KubeObject => ({ apiVersion, kind: 'Widget', metadata: { name: 'w' }, spec: body });
/** The findings but the warning that a CRD and its resource are applied together (tested at the end). */
const found = (findings: Finding[]) => findings.filter((f) => f.rule.id !== 'crd-applied-with-resource').map((f) => `${f.rule.id} ${f.path}: ${f.message}`);

describe('custom resources and their CRDs', () => {
  test('without its CRD in the input, a custom resource is a warning, not checked', () => {
    // WHEN
    const findings = checkObjects([{ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'm' }, spec: { anything: 1 } }]);

    // THEN
    expect(found(findings)).toEqual(['crd-not-in-input apiVersion: not checked: its CustomResourceDefinition (kind "ServiceMonitor" of "monitoring.coreos.com") is not in the input']);
    expect(findings.some(isBlocking)).toBe(false);
  });

  test('an unknown version of a built-in group stays an error', () => {
    expect(found(checkObjects([{ apiVersion: 'apps/v2', kind: 'Deployment', metadata: { name: 'd' } }])).map((f) => f.split(':')[0])).toEqual(['unknown-kind apiVersion']);
  });

  test.each<[string, KubeObject, KubeObject, string[]]>([
    ['a valid resource', { size: { type: 'integer' } }, { size: 3 }, []],
    ['a wrong type', { size: { type: 'integer' } }, { size: '3' }, ['crd-schema spec.size: Invalid value: "3": spec.size in body must be of type integer: "string"']],
    ['an unknown field', { size: { type: 'integer' } }, { sise: 3 }, ['crd-schema spec.sise: unknown field "spec.sise"']],
    ['an enum', { mode: { type: 'string', enum: ['a', 'b'] } }, { mode: 'c' }, ['crd-schema spec.mode: Unsupported value: "c": supported values: "a", "b"']],
    ['a bound', { size: { type: 'integer', maximum: 5 } }, { size: 6 }, ['crd-schema spec.size: Invalid value: 6: spec.size in body should be less than or equal to 5']],
    ['a preserved subtree', { extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, { extra: { a: { b: 1 } } }, []],
    ['a null, pruned', { mode: { type: 'string' } }, { mode: null }, []],
    ['a set with a duplicate', { tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } }, { tags: ['a', 'a'] }, ['crd-schema spec.tags[1]: Duplicate value: "a"']],
  ])('judges %s by the schema', (_, properties, body, expected) => {
    expect(found(checkObjects([crd(spec(properties)), widget(body)]))).toEqual(expected);
  });

  test('a required field is required, unless the schema defaults it', () => {
    expect(found(checkObjects([crd(spec({ size: { type: 'integer' } }, ['size'])), widget({})]))).toEqual(['crd-schema spec.size: Required value']);
    expect(found(checkObjects([crd(spec({ size: { type: 'integer', default: 1 } }, ['size'])), widget({})]))).toEqual([]);
  });

  test('a version the CRD does not serve is refused, naming the ones it does', () => {
    expect(found(checkObjects([crd(spec({})), widget({}, 'example.com/v2')]))).toEqual(['crd-schema apiVersion: no matches for kind "Widget" in version "example.com/v2": CustomResourceDefinition widgets.example.com serves v1']);
  });

  test("the resource's name follows ValidateObjectMeta (a DNS-1123 subdomain)", () => {
    const upper = { ...widget({}), metadata: { name: 'Widget1' } };
    expect(found(checkObjects([crd(spec({})), upper])).map((f) => f.split(':')[0])).toEqual(['api-object-meta metadata.name']);
  });

  test('the CRD itself: its name is plural.group, one version is the storage one, each has a schema of type object', () => {
    const bad = crd({ type: 'string' });
    bad.metadata.name = 'widget.example.com';
    expect(found(checkObjects([bad])).map((f) => f.split(':')[0])).toEqual(['api-crd metadata.name', 'api-crd spec.versions[0].schema.openAPIV3Schema.type']);
  });

  test('the CRD itself: its group is a DNS-1123 subdomain with a dot, its plural a DNS-1035 label (what NodeAgent asks of its customResourceDefinitions)', () => {
    // GIVEN a group without a dot, and a plural that starts with a digit
    const noDot = crd({ type: 'object' }, { group: 'example' });
    noDot.metadata.name = 'widgets.example';
    const digit = crd({ type: 'object' }, { names: { plural: '3widgets', kind: 'Widget' } });
    digit.metadata.name = '3widgets.example.com';

    // THEN both are refused, as ValidateCustomResourceDefinition does
    expect(found(checkObjects([noDot]))).toEqual(['api-crd spec.group: Invalid value: "example": should be a domain with at least one dot']);
    expect(found(checkObjects([digit])).map((f) => f.split(':')[0])).toEqual(['api-crd spec.names.plural']);
  });
});

describe('a CustomResourceDefinition and its custom resource in one input (issue 25, defect 10)', () => {
  // A v1.32 server, on `kubectl apply -f` of such a file: the CRD was created, then
  // 'resource mapping not found for name: "w" ... no matches for kind "Widget" in version "h5.example.com/v1"
  // ensure CRDs are installed first', exit 1; the second apply succeeded.
  const crdYaml = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.h5.example.com\nspec:\n  group: h5.example.com\n  scope: Namespaced\n  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}\n';
  const crYaml = 'apiVersion: h5.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n';

  test('warns on the resource, with the recipe: apply the CRD first and wait until it is established', () => {
    // WHEN
    const findings = checkYaml(`${crdYaml}---\n${crYaml}`);

    // THEN
    expect(findings.map((f) => [f.rule.id, f.severity, f.object, f.message])).toEqual([[
      'crd-applied-with-resource', 'warning', 'Widget/w',
      'its CustomResourceDefinition widgets.h5.example.com is in the same input: one kubectl apply -f of both fails ("no matches for kind "Widget" ... ensure CRDs are installed first"), as kubectl maps this object before the CRD exists; apply the CRD first and kubectl wait --for condition=established crd/widgets.h5.example.com',
    ]]);
  });

  test('says nothing about the CRD alone', () => {
    expect(checkYaml(crdYaml)).toEqual([]);
  });
});
