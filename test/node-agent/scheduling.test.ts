/**
 * Where the agent's pods run: the policy's terms (OR'd alternatives
 * included) merged with what cdk8s-plus' scheduling adds, pod anti-affinity,
 * and tolerations once each.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NodeAgent, NodePolicy, NodeRequirement, NodeToleration, TaintEffect } from '../../lib';
import { Manifest, only, synth } from '../util';

function podOf(policyProps: ConstructorParameters<typeof NodePolicy>[2], change: (agent: NodeAgent) => void = () => undefined, props: object = {}): Manifest {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'gpu' });
  const agent = new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P', policyProps), name: 'plugin', containers: [{ name: 'plugin', image: 'example.com/plugin:1' }], ...props });
  change(agent);
  return only(synth(chart), 'DaemonSet').spec.template.spec;
}

describe('node affinity', () => {
  test("the policy's alternatives become OR'd terms, each with the policy's common requirements", () => {
    const pod = podOf({
      matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate')],
      anyOf: [[NodeRequirement.in('feature.node.kubernetes.io/pci-10de.present', 'true')], [NodeRequirement.in('nvidia.com/gpu.present', 'true')]],
    });
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] }, { key: 'feature.node.kubernetes.io/pci-10de.present', operator: 'In', values: ['true'] }] },
      { matchExpressions: [{ key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] }, { key: 'nvidia.com/gpu.present', operator: 'In', values: ['true'] }] },
    ]);
  });

  test('terms added through daemonSet.scheduling are combined with each of the policy\'s: every alternative keeps both', () => {
    const pod = podOf(
      { anyOf: [[NodeRequirement.exists('a')], [NodeRequirement.exists('b')]] },
      (agent) => agent.daemonSet.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.exists('zone'))),
    );
    const terms = pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    expect(terms.map((t: Manifest) => t.matchExpressions.map((r: Manifest) => r.key))).toEqual([['a', 'zone'], ['b', 'zone']]);
  });

  test('refuses an empty alternative: a term without requirements matches no node', () => {
    expect(() => podOf({ anyOf: [[]] })).toThrow(/'anyOf\[0\]' must be a non-empty array of \{ key, operator, values\? \}/);
  });
});

describe('pod anti-affinity and tolerations', () => {
  test('pod anti-affinity on the node by default, or another topology key', () => {
    const pod = podOf({}, () => undefined, { podAntiAffinity: [{ labels: { app: 'plugin' } }, { labels: { tier: 'gpu' }, topologyKey: 'topology.kubernetes.io/zone' }] });
    expect(pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      { labelSelector: { matchLabels: { app: 'plugin' } }, topologyKey: 'kubernetes.io/hostname' },
      { labelSelector: { matchLabels: { tier: 'gpu' } }, topologyKey: 'topology.kubernetes.io/zone' },
    ]);
  });

  test('a toleration the policy has and scheduling.tolerate adds again is rendered once, whatever the order of its keys', () => {
    const pod = podOf(
      { tolerations: [NodeToleration.exists('nvidia.com/gpu', TaintEffect.NO_SCHEDULE)] },
      (agent) => agent.daemonSet.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('nvidia.com/gpu', { effect: kplus.TaintEffect.NO_SCHEDULE }))),
    );
    expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });
});

describe('pod settings', () => {
  test('renders hostIPC, fsGroup, supplementalGroups, imagePullSecrets, runtimeClassName, shareProcessNamespace and dns', () => {
    const pod = podOf({}, () => undefined, {
      fsGroup: 2000, supplementalGroups: [44], imagePullSecrets: ['registry'], runtimeClassName: 'nvidia', shareProcessNamespace: true,
      dns: { policy: kplus.DnsPolicy.NONE, nameservers: ['10.0.0.10'] },
    });
    expect(pod).toMatchObject({
      securityContext: { fsGroup: 2000, supplementalGroups: [44] }, imagePullSecrets: [{ name: 'registry' }], runtimeClassName: 'nvidia',
      shareProcessNamespace: true, dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0.10'] },
    });
  });
});
