/**
 * Whether pod specs can land on one node (lib/checks/overlaps.ts): an exact
 * witness, checked with the scheduling matchers, or undefined when no node
 * labels can bring the selections together.
 */
import fc from 'fast-check';
import { NodeSelectionLike, selectionAccepts, sharedNode } from '../../lib/checks';
import { NodeSelectorRequirement, NodeSelectorTerm } from '../../lib/k8s/scheduling';
import { ROLLOUT_WAVE_NODE_LABEL } from '../../lib/k8s/waves';

function required(...terms: NodeSelectorTerm[]): NodeSelectionLike {
  return { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } };
}

function wave(operator: string, ...values: string[]): NodeSelectionLike {
  return required({ matchExpressions: [{ key: ROLLOUT_WAVE_NODE_LABEL, operator, values }] });
}

/** The witness, after checking that every selection accepts it. */
function accepted(...selections: NodeSelectionLike[]) {
  const node = sharedNode(...selections);
  expect(node).toBeDefined();
  for (const s of selections) expect(selectionAccepts(s, node!.name ?? '', node!.labels)).toBe(true);
  return node!;
}

describe('sharedNode', () => {
  test('finds the canary node that a last wave forgetting to exclude the canary also takes', () => {
    // GIVEN a canary wave and a last wave that only excludes "early"
    const canary = wave('In', 'canary');
    const last = wave('NotIn', 'early');

    // WHEN / THEN
    expect(accepted(canary, last)).toEqual({ labels: { [ROLLOUT_WAVE_NODE_LABEL]: 'canary' } });
  });

  test('finds no node for a canary wave and a last wave that excludes it', () => {
    expect(sharedNode(wave('In', 'canary'), wave('NotIn', 'canary', 'early'))).toBeUndefined();
    expect(sharedNode(wave('In', 'canary'), wave('In', 'early'))).toBeUndefined();
  });

  test('takes an unlabelled node as the witness for two selections that only exclude', () => {
    expect(accepted(wave('NotIn', 'canary'), wave('NotIn', 'early'))).toEqual({ labels: {} });
  });

  test('finds no node for nodeSelectors that want two values of one label', () => {
    expect(sharedNode({ nodeSelector: { zone: 'a' } }, { nodeSelector: { zone: 'b' } })).toBeUndefined();
    expect(accepted({ nodeSelector: { zone: 'a' } }, { nodeSelector: { pool: 'gpu' } })).toEqual({ labels: { zone: 'a', pool: 'gpu' } });
  });

  test('ANDs a nodeSelector with the affinity of the same pod spec', () => {
    // GIVEN a pod spec whose nodeSelector and affinity disagree
    const selection = { nodeSelector: { zone: 'a' }, affinity: required({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }).affinity };

    // WHEN / THEN it selects no node, alone or with another
    expect(sharedNode(selection)).toBeUndefined();
    expect(sharedNode(selection, {})).toBeUndefined();
  });

  test('ORs the terms: any term of each selection may meet any of the other', () => {
    // GIVEN two selections whose first terms are disjoint but whose second terms meet
    const a = required({ matchExpressions: [{ key: 'k', operator: 'In', values: ['1'] }] }, { matchExpressions: [{ key: 'j', operator: 'Exists' }] });
    const b = required({ matchExpressions: [{ key: 'k', operator: 'In', values: ['2'] }] }, { matchExpressions: [{ key: 'j', operator: 'DoesNotExist' }, { key: 'k', operator: 'In', values: ['1'] }] });

    // WHEN / THEN the witness meets a's first term and b's second
    expect(accepted(a, b)).toEqual({ labels: { k: '1' } });
  });

  test('an empty term list, an empty term and an unparsable term match no node', () => {
    expect(sharedNode(required())).toBeUndefined();
    expect(sharedNode(required({}))).toBeUndefined();
    expect(sharedNode(required({ matchExpressions: [], matchFields: [] }))).toBeUndefined();
    expect(sharedNode(required({ matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['not a label value'] }] }))).toBeUndefined();
    expect(sharedNode(required({ matchFields: [{ key: 'spec.unschedulable', operator: 'In', values: ['true'] }] }))).toBeUndefined();
  });

  test('no selection, or one without constraints, accepts a node without labels', () => {
    expect(accepted()).toEqual({ labels: {} });
    expect(accepted({}, { affinity: {} }, { nodeName: '' })).toEqual({ labels: {} });
  });

  test.each<[string, NodeSelectorRequirement[], Record<string, string> | undefined]>([
    ['Gt and Lt leave a gap', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'Lt', values: ['6'] }], { cpus: '5' }],
    ['Gt and Lt leave none', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'Lt', values: ['5'] }], undefined],
    ['NotIn fills the gap', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'Lt', values: ['7'] }, { key: 'cpus', operator: 'NotIn', values: ['5', '6'] }], undefined],
    ['NotIn leaves one', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'Lt', values: ['8'] }, { key: 'cpus', operator: 'NotIn', values: ['5', '6'] }], { cpus: '7' }],
    ['Lt 0 needs a negative value, which no label value is', [{ key: 'cpus', operator: 'Lt', values: ['0'] }], undefined],
    ['Lt 1 takes 0', [{ key: 'cpus', operator: 'Lt', values: ['1'] }], { cpus: '0' }],
    ['Gt of the largest int64 overflows', [{ key: 'cpus', operator: 'Gt', values: ['9223372036854775807'] }], undefined],
    ['Gt with a bound that is no integer matches nothing', [{ key: 'cpus', operator: 'Gt', values: ['four'] }], undefined],
    ['Gt with In takes an In value above the bound', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'In', values: ['2', '16'] }], { cpus: '16' }],
    ['Gt and DoesNotExist contradict', [{ key: 'cpus', operator: 'Gt', values: ['4'] }, { key: 'cpus', operator: 'DoesNotExist' }], undefined],
    ['Exists and NotIn take a fresh value', [{ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'NotIn', values: ['x', 'x1'] }], { k: 'x2' }],
    ['Exists and DoesNotExist contradict', [{ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'DoesNotExist' }], undefined],
    ['In with no values matches nothing', [{ key: 'k', operator: 'In', values: [] }], undefined],
    ['an unknown operator matches nothing', [{ key: 'k', operator: 'Equals', values: ['1'] }], undefined],
  ])('requirements on one key across two selections: %s', (_, requirements, labels) => {
    // GIVEN each requirement in a selection of its own
    const selections = requirements.map((r) => required({ matchExpressions: [r] }));

    // WHEN
    const node = sharedNode(...selections);

    // THEN
    if (labels === undefined) {
      expect(node).toBeUndefined();
    } else {
      expect(accepted(...selections)).toEqual({ labels });
    }
  });

  test('a nodeName pins the shared node; matchFields on metadata.name must agree with it', () => {
    expect(accepted({ nodeName: 'node-1' }, wave('In', 'canary'))).toEqual({ name: 'node-1', labels: { [ROLLOUT_WAVE_NODE_LABEL]: 'canary' } });
    expect(sharedNode({ nodeName: 'node-1' }, { nodeName: 'node-2' })).toBeUndefined();
    expect(sharedNode({ nodeName: 'node-1' }, required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] }))).toBeUndefined();
    expect(accepted(required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] }))).toEqual({ name: 'x', labels: {} });
    expect(sharedNode({ nodeName: 'Not_A_Node' })).toBeUndefined();
  });

  test('ignores tolerations: an untainted node admits every pod', () => {
    const a = { ...wave('In', 'canary'), tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'canary', effect: 'NoSchedule' }] } as NodeSelectionLike;
    expect(accepted(a, wave('Exists'))).toEqual({ labels: { [ROLLOUT_WAVE_NODE_LABEL]: 'canary' } });
  });

  test('finds the node of the one term among many that meets (no combination is skipped)', () => {
    // GIVEN 9 terms each, only a's last and b's last meet
    const a = required(...[...Array(8).keys()].map((i) => ({ matchExpressions: [{ key: 'k', operator: 'In', values: [`a${i}`] }] })), { matchExpressions: [{ key: 'm', operator: 'In', values: ['1'] }, { key: 'k', operator: 'DoesNotExist' }] });
    const b = required(...[...Array(8).keys()].map((i) => ({ matchExpressions: [{ key: 'k', operator: 'In', values: [`b${i}`] }] })),
      { matchExpressions: [{ key: 'm', operator: 'Gt', values: ['0'] }, { key: 'k', operator: 'DoesNotExist' }] });

    // WHEN / THEN
    expect(accepted(a, b)).toEqual({ labels: { m: '1' } });
  });
});

describe('sharedNode (property)', () => {
  const KEYS = ['a', 'b'];
  const VALUES = ['', '0', '1', '2', '5', 'x', 'x1', 'canary'];
  const NAMES = ['n1', 'n2', '5'];
  /** Every node of the small universe the selections speak of: each key absent or any value, each name. */
  const UNIVERSE = (() => {
    const values: (string | undefined)[] = [undefined, ...VALUES, '3', '6', '7', '8', 'x2'];
    return values.flatMap((a) => values.flatMap((b) => [...NAMES, 'x'].map((name) => ({
      name,
      labels: Object.fromEntries([['a', a], ['b', b]].filter(([, v]) => v !== undefined)) as Record<string, string>,
    }))));
  })();
  const requirement = (keys: string[], values: string[]): fc.Arbitrary<NodeSelectorRequirement> => fc.record({
    key: fc.constantFrom(...keys),
    operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'),
    values: fc.array(fc.constantFrom(...values, '-1', 'not valid'), { maxLength: 3 }),
  });
  const term: fc.Arbitrary<NodeSelectorTerm> = fc.record({
    matchExpressions: fc.array(requirement(KEYS, VALUES), { maxLength: 3 }),
    matchFields: fc.array(requirement(['metadata.name'], NAMES), { maxLength: 1 }),
  }, { requiredKeys: [] });
  const selection: fc.Arbitrary<NodeSelectionLike> = fc.record({
    nodeSelector: fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 1 }),
    affinity: fc.array(term, { maxLength: 3 }).map((terms) => required(...terms).affinity!),
    nodeName: fc.constantFrom(...NAMES),
  }, { requiredKeys: [] });
  const node = fc.record({
    name: fc.constantFrom(...NAMES, 'x'),
    labels: fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES, '3', '6', 'x2')),
  });

  test('a returned witness matches every selection; when none is returned, no node matches them all', () => {
    let found = 0;
    fc.assert(fc.property(fc.array(selection, { minLength: 1, maxLength: 3 }), fc.array(node, { maxLength: 30 }), (selections, nodes) => {
      const witness = sharedNode(...selections);
      if (witness) {
        found++;
        return selections.every((s) => selectionAccepts(s, witness.name ?? 'x', witness.labels));
      }
      // Random nodes, and every node of the small universe the selections speak of.
      return [...nodes, ...UNIVERSE].every((n) => !selections.every((s) => selectionAccepts(s, n.name, n.labels)));
    }), { numRuns: 1000, seed: 20261204 });
    // Both outcomes are exercised, so neither half of the property is vacuous.
    expect(found).toBeGreaterThan(100);
    expect(found).toBeLessThan(900);
  });

  test('on one integer label, a node exists exactly when some value 0..12 or absence satisfies every requirement', () => {
    // GIVEN requirements on one key, mostly Gt, Lt and NotIn of small integers, each in a selection of its own
    const ints = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];
    const one: fc.Arbitrary<NodeSelectorRequirement> = fc.record({
      key: fc.constant('n'),
      operator: fc.constantFrom('Gt', 'Lt', 'NotIn', 'NotIn', 'In', 'Exists', 'DoesNotExist'),
      values: fc.array(fc.constantFrom(...ints), { minLength: 1, maxLength: 4 }),
    }).map((r) => (r.operator === 'Gt' || r.operator === 'Lt' ? { ...r, values: r.values.slice(0, 1) } : r.operator.endsWith('xist') ? { key: r.key, operator: r.operator } : r));
    fc.assert(fc.property(fc.array(one, { minLength: 1, maxLength: 5 }), (requirements) => {
      const selections = requirements.map((r) => required({ matchExpressions: [r] }));
      // WHEN / THEN the answer agrees with trying every value a bound of at most 10 leaves room for
      const candidates: Record<string, string>[] = [{}, ...[...Array(13).keys()].map((v) => ({ n: String(v) })), { n: 'x' }];
      const exists = candidates.some((labels) => selections.every((s) => selectionAccepts(s, 'x', labels)));
      return (sharedNode(...selections) !== undefined) === exists;
    }), { numRuns: 1000, seed: 20261204 });
  });
});
