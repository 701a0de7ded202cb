/**
 * Corpus cases for custom resources (issue 17, item 4): a resource judged by
 * the CustomResourceDefinition in the same input. agreement.ts creates the
 * CRD for real first (a dry run cannot serve a kind it has not created).
 */
import { CORPUS_NAMESPACE, CorpusCase, make, no, Obj, ok } from './bases';

const GROUP = `${CORPUS_NAMESPACE}.example.com`;

/** One CRD with most of what a structural schema can say. */
function agentCrd(): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `agents.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'agents', singular: 'agent', kind: 'Agent', listKind: 'AgentList' },
      versions: [
        {
          name: 'v1', served: true, storage: true, subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object', required: ['image'],
                  properties: {
                    image: { type: 'string', minLength: 1, pattern: '^[a-z0-9./:-]+$' },
                    replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
                    mode: { type: 'string', enum: ['fast', 'safe'] },
                    port: { 'x-kubernetes-int-or-string': true },
                    tags: { type: 'array', items: { type: 'string' }, maxItems: 3, 'x-kubernetes-list-type': 'set' },
                    env: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } } },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    ratio: { type: 'number', minimum: 0, maximum: 1 },
                    enabled: { type: 'boolean' },
                    note: { type: 'string', nullable: true },
                  },
                },
                status: { type: 'object', properties: { phase: { type: 'string' } } },
              },
            },
          },
        },
        { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      ],
    },
  };
}

function agent(): Obj {
  return { apiVersion: `${GROUP}/v1`, kind: 'Agent', metadata: { name: 'agent' }, spec: { image: 'registry.example.com/agent:1.0', replicas: 2, mode: 'safe', port: 8080, tags: ['a', 'b'], env: [{ name: 'A', value: '1' }], labels: { tier: 'x' }, extra: { any: { thing: 1 } }, ratio: 0.5, enabled: true } };
}

/** A case: the CRD and one resource of it, changed. */
function cr(id: string, server: CorpusCase['server'], change: (o: Obj, spec: Obj) => void = () => undefined): CorpusCase {
  const resource = agent();
  change(resource, resource.spec);
  return { id, server, objects: [agentCrd(), resource] };
}

export const CUSTOM_RESOURCES: readonly CorpusCase[] = [
  cr('cr-clean', ok),
  cr('cr-unknown-field', no, (_, s) => { s.imagee = 'x'; }),
  cr('cr-unknown-field-at-root', no, (o) => { o.specs = {}; }),
  cr('cr-unknown-field-preserved', ok, (_, s) => { s.extra = { whatever: [1, { deep: true }] }; }),
  cr('cr-wrong-type', no, (_, s) => { s.replicas = '2'; }),
  cr('cr-integer-for-number', ok, (_, s) => { s.ratio = 1; }),
  cr('cr-missing-required', no, (_, s) => { delete s.image; }),
  cr('cr-defaulted-field-missing', ok, (_, s) => { delete s.replicas; }),
  cr('cr-enum-bad', no, (_, s) => { s.mode = 'slow'; }),
  cr('cr-below-minimum', no, (_, s) => { s.replicas = -1; }),
  cr('cr-above-maximum', no, (_, s) => { s.replicas = 11; }),
  cr('cr-pattern-mismatch', no, (_, s) => { s.image = 'Registry/Agent'; }),
  cr('cr-min-length', no, (_, s) => { s.image = ''; }),
  cr('cr-int-or-string-name', ok, (_, s) => { s.port = 'http'; }),
  cr('cr-int-or-string-bool', no, (_, s) => { s.port = true; }),
  cr('cr-set-duplicate', no, (_, s) => { s.tags = ['a', 'a']; }),
  cr('cr-map-duplicate-key', no, (_, s) => { s.env = [{ name: 'A', value: '1' }, { name: 'A', value: '2' }]; }),
  cr('cr-too-many-items', no, (_, s) => { s.tags = ['a', 'b', 'c', 'd']; }),
  cr('cr-map-value-wrong-type', no, (_, s) => { s.labels = { tier: 1 }; }),
  cr('cr-nullable-null', ok, (_, s) => { s.note = null; }),
  cr('cr-null-pruned', ok, (_, s) => { s.mode = null; }),
  cr('cr-status-ignored-on-create', ok, (o) => { o.status = { phase: 5 }; }),
  cr('cr-version-not-served', no, (o) => { o.apiVersion = `${GROUP}/v1beta1`; }),
  cr('cr-version-unknown', no, (o) => { o.apiVersion = `${GROUP}/v2`; }),
  cr('cr-name-upper-case', no, (o) => { o.metadata.name = 'Agent1'; }),
  cr('cr-name-dotted', ok, (o) => { o.metadata.name = 'agent.one'; }),
  cr('cr-label-bad', no, (o) => { o.metadata.labels = { 'a b': 'c' }; }),
  cr('cr-item-missing-required', no, (_, s) => { s.env = [{ value: '1' }]; }),
  // The CRD alone: ValidateCustomResourceDefinition.
  make('crd-valid', agentCrd, ok, (o) => { o.metadata.name = `widgets.${GROUP}`; o.spec.names = { plural: 'widgets', kind: 'Widget' }; }),
  make('crd-name-not-plural-group', agentCrd, no, (o) => { o.metadata.name = `widget.${GROUP}`; o.spec.names = { plural: 'widgets', kind: 'Widget' }; }),
  make('crd-two-storage-versions', agentCrd, no, (o) => { o.metadata.name = `widgets.${GROUP}`; o.spec.names = { plural: 'widgets', kind: 'Widget' }; o.spec.versions[1].storage = true; }),
  make('crd-version-without-schema', agentCrd, no, (o) => { o.metadata.name = `widgets.${GROUP}`; o.spec.names = { plural: 'widgets', kind: 'Widget' }; delete o.spec.versions[1].schema; }),
];
