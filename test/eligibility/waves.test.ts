/**
 * An agent's waves over a node list (lib/eligibility/waves.ts): grouped by
 * agent and namespace, each wave's node count, and every node eligible for
 * two waves as an overlap naming the node and the waves.
 */
import { daemonSetsIn, KubeNode } from '../../lib/eligibility';
import { agentWaves, formatAgentWavesText } from '../../lib/eligibility/waves';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../../lib/k8s/waves';

const node = (name: string, wave?: string): KubeNode => ({ metadata: { name, labels: wave ? { [ROLLOUT_WAVE_NODE_LABEL]: wave } : {} } });

function waveDaemonSet(name: string, labels: Record<string, string>, operator: string, values: string[], namespace = 'agents') {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace, labels },
    spec: { template: { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: ROLLOUT_WAVE_NODE_LABEL, operator, values }] }] } } } } } },
  };
}
const labels = (agent: string, wave: string) => ({ [AGENT_LABEL]: agent, [WAVE_LABEL]: wave });

describe('agentWaves', () => {
  const nodes = [node('n1', 'canary'), node('n2'), node('n3', 'early'), node('n4')];

  test('names each DaemonSet\'s agent and wave from its labels, and leaves them out when unlabelled', () => {
    // GIVEN a wave and a DaemonSet with only the agent label
    const reports = daemonSetsIn([waveDaemonSet('a-canary', labels('a', 'canary'), 'In', ['canary']), waveDaemonSet('b', { [AGENT_LABEL]: 'b' }, 'NotIn', [])], nodes);

    // THEN
    expect(reports.map((r) => [r.name, r.agent, r.wave])).toEqual([['a-canary', 'a', 'canary'], ['b', undefined, undefined]]);
    expect(agentWaves(reports).map((a) => a.agent)).toEqual(['a']);
  });

  test('groups an agent\'s waves with their node counts; disjoint waves have no overlap', () => {
    // GIVEN canary, early and a last wave that excludes both, and another agent's wave
    const reports = daemonSetsIn([
      waveDaemonSet('a-canary', labels('a', 'canary'), 'In', ['canary']),
      waveDaemonSet('other', labels('b', 'main'), 'NotIn', []),
      waveDaemonSet('a-early', labels('a', 'early'), 'In', ['early']),
      waveDaemonSet('a', labels('a', 'main'), 'NotIn', ['canary', 'early']),
    ], nodes);

    // WHEN
    const agents = agentWaves(reports);

    // THEN
    expect(agents).toEqual([
      { agent: 'a', namespace: 'agents', nodes: 4, of: 4, waves: [{ wave: 'canary', daemonSet: 'a-canary', desired: 1 }, { wave: 'early', daemonSet: 'a-early', desired: 1 }, { wave: 'main', daemonSet: 'a', desired: 2 }], overlaps: [] },
      { agent: 'b', namespace: 'agents', nodes: 4, of: 4, waves: [{ wave: 'main', daemonSet: 'other', desired: 4 }], overlaps: [] },
    ]);
    expect(formatAgentWavesText(agents.slice(0, 1))).toBe([
      'agent a (namespace agents): 4 of 4 nodes in 3 waves',
      '  wave canary  1 node (DaemonSet a-canary)',
      '  wave early   1 node (DaemonSet a-early)',
      '  wave main    2 nodes (DaemonSet a)',
      '',
    ].join('\n'));
  });

  test('a node eligible for two waves is an overlap naming the node and both waves', () => {
    // GIVEN a last wave that forgets the canary
    const reports = daemonSetsIn([waveDaemonSet('a-canary', labels('a', 'canary'), 'In', ['canary']), waveDaemonSet('a', labels('a', 'main'), 'NotIn', ['early'])], nodes);

    // WHEN
    const [agent] = agentWaves(reports);

    // THEN
    expect(agent.overlaps).toEqual([{ node: 'n1', waves: ['canary', 'main'], daemonSets: ['a-canary', 'a'] }]);
    expect(agent.nodes).toBe(3);
    expect(formatAgentWavesText([agent])).toContain('  overlap: node n1 is eligible for 2 waves of agent a (namespace agents): canary (DaemonSet a-canary) and main (DaemonSet a); it would run the agent twice\n');
  });

  test('the same agent name in two namespaces is two agents', () => {
    const reports = daemonSetsIn([waveDaemonSet('x', labels('a', 'canary'), 'NotIn', [], 'one'), waveDaemonSet('x', labels('a', 'main'), 'NotIn', [], 'two')], nodes);
    expect(agentWaves(reports).map((a) => [a.namespace, a.overlaps.length])).toEqual([['one', 0], ['two', 0]]);
  });
});
