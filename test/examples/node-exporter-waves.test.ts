/**
 * examples/node-exporter-waves.ts: node-exporter in three waves, the canary
 * a release ahead, one Service over every wave, and the waves partitioning
 * the Linux nodes.
 */
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { selectorMatches } from '../../lib/k8s/scheduling';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../../lib/k8s/waves';
import { only } from '../util';
import { objectsOf } from './upstream';

const objects = objectsOf('node-exporter-waves');
const sets = objects.filter((o) => o.kind === 'DaemonSet');

describe('examples/node-exporter-waves.ts', () => {
  test('is three DaemonSets, one per wave, the canary on the new release and the others on the previous one', () => {
    expect(sets.map((d) => [d.metadata.name, d.metadata.labels[AGENT_LABEL], d.metadata.labels[WAVE_LABEL], d.spec.template.spec.containers[0].image])).toEqual([
      ['node-exporter', 'node-exporter', 'rest', 'quay.io/prometheus/node-exporter:v1.8.2'],
      ['node-exporter-canary', 'node-exporter', 'canary', 'quay.io/prometheus/node-exporter:v1.12.1'],
      ['node-exporter-early', 'node-exporter', 'early', 'quay.io/prometheus/node-exporter:v1.8.2'],
    ]);
  });

  test('has one ServiceAccount and one Service, which selects the pods of every wave', () => {
    const service = only(objects, 'Service');
    expect(only(objects, 'ServiceAccount').metadata.name).toBe('node-agent-node-exporter');
    expect(sets.map((d) => selectorMatches(service.spec.selector, d.spec.template.metadata.labels))).toEqual([true, true, true]);
  });

  test('puts every Linux node in exactly one wave, by its rollout-wave label', () => {
    // GIVEN Linux nodes labelled for each wave, for no wave and for an unknown one, and a Windows node
    const node = (name: string, labels: Record<string, string>): KubeNode => ({ metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } } });
    const nodes = [
      node('canary-1', { [ROLLOUT_WAVE_NODE_LABEL]: 'canary' }),
      node('early-1', { [ROLLOUT_WAVE_NODE_LABEL]: 'early' }),
      node('plain-1', {}),
      node('typo-1', { [ROLLOUT_WAVE_NODE_LABEL]: 'canery' }),
      { metadata: { name: 'windows-1', labels: { 'kubernetes.io/os': 'windows' } } },
    ];

    // WHEN each wave's DaemonSet is evaluated against them
    const eligible = sets.map((d) => [d.metadata.labels[WAVE_LABEL], evaluateNodes(nodes, schedulingOfWorkload(d)).nodes.filter((v) => v.eligible).map((v) => v.name)]);

    // THEN the canary and early nodes are in their waves, every other Linux node in the last
    expect(eligible).toEqual([['rest', ['plain-1', 'typo-1']], ['canary', ['canary-1']], ['early', ['early-1']]]);
  });
});
