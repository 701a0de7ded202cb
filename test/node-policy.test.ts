import { Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { LabeledNodePolicy, NodeAgent, NodePolicy, NodeRequirement, NodeToleration, TaintEffect } from '../lib';
import { checkObject, isBlocking } from '../lib/checks';
import { evaluateNodes, KubeNode, schedulingOfPolicy, schedulingOfWorkload } from '../lib/eligibility';
import { only, synth } from './util';

const node = (name: string, labels: Record<string, string>, taints: KubeNode['spec'] = {}): KubeNode => ({ metadata: { name, labels }, spec: taints });

const NODES: KubeNode[] = [
  node('linux-amd64', { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'gpu': 'true', 'cores': '16' }),
  node('linux-arm64', { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64', 'cores': '4' }),
  node('windows', { 'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64' }),
  node('fargate', { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'eks.amazonaws.com/compute-type': 'fargate' }),
  node('tainted', { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' }, { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }),
];

describe('NodePolicy', () => {
  test('renders matchLabels and the operating system as the nodeSelector, expressions and architectures as one affinity term', () => {
    // GIVEN
    const policy = new NodePolicy(Testing.chart(), 'Policy', {
      matchLabels: { tier: 'edge' },
      operatingSystem: 'linux',
      architectures: ['amd64', 'arm64'],
      matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate'), NodeRequirement.gt('cores', 2)],
    });

    // THEN
    expect(policy.podScheduling()).toEqual({
      nodeSelector: { 'tier': 'edge', 'kubernetes.io/os': 'linux' },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [
        { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] },
        { key: 'cores', operator: 'Gt', values: ['2'] },
        { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
      ] }] } } },
    });
  });

  test('renders no field it has nothing for', () => {
    expect(new NodePolicy(Testing.chart(), 'Everywhere').podScheduling()).toEqual({});
  });

  test('renders every NodeRequirement operator as the API spells it', () => {
    expect([
      NodeRequirement.in('a', 'x', 'y'), NodeRequirement.notIn('a', 'x'), NodeRequirement.exists('a'),
      NodeRequirement.doesNotExist('a'), NodeRequirement.gt('a', 1), NodeRequirement.lt('a', -1),
    ]).toEqual([
      { key: 'a', operator: 'In', values: ['x', 'y'] }, { key: 'a', operator: 'NotIn', values: ['x'] }, { key: 'a', operator: 'Exists' },
      { key: 'a', operator: 'DoesNotExist' }, { key: 'a', operator: 'Gt', values: ['1'] }, { key: 'a', operator: 'Lt', values: ['-1'] },
    ]);
  });

  test('tolerates every taint, and a NoExecute taint for a while', () => {
    const policy = new NodePolicy(Testing.chart(), 'Policy', {
      tolerations: [NodeToleration.everything(), NodeToleration.exists('node.kubernetes.io/unreachable', TaintEffect.NO_EXECUTE, { tolerationSeconds: 30 })],
    });
    expect(policy.podScheduling().tolerations).toEqual([
      { operator: 'Exists' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    ]);
  });

  test('throws when tolerationSeconds is set for another effect than NoExecute', () => {
    expect(() => NodeToleration.exists('dedicated', TaintEffect.NO_SCHEDULE, { tolerationSeconds: 30 }))
      .toThrow("'toleration effect' must be valid (effect must be 'NoExecute' when `tolerationSeconds` is set) but got \"NoSchedule\"");
  });

  test('a fractional tolerationSeconds is one error, not two', () => {
    expect(() => NodeToleration.exists('node.kubernetes.io/unreachable', TaintEffect.NO_EXECUTE, { tolerationSeconds: 1.5 }))
      .toThrow(new Error("'tolerationSeconds' must be an integer from 0 to 31536000 but got 1.5"));
  });

  test('reports every bad prop at once, with the API server rule of each operator', () => {
    // WHEN
    const create = () => new NodePolicy(Testing.chart(), 'Policy', {
      matchLabels: { 'a b': 'x' },
      matchExpressions: [
        { key: 'zone', operator: 'In' },
        { key: 'zone', operator: 'Exists', values: ['a'] },
        { key: 'cores', operator: 'Gt', values: ['many'] },
        { key: 'cores', operator: 'Lt', values: ['1', '2'] },
        { key: 'zone', operator: 'Near', values: ['a'] },
        { key: 'zone', operator: 'NotIn', values: ['a;b'] },
      ],
      architectures: [],
    });

    // THEN
    let message = '';
    try {
      create();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'test/Policy: \'matchLabels\' key must be a qualified name ([prefix/]name: an optional DNS-1123 subdomain prefix of at most 253 characters, then a name of at most 63 characters of A-Z, a-z, 0-9, \'-\', \'_\' and \'.\', starting and ending with a letter or digit) but got "a b"',
      'test/Policy: \'matchExpressions[0].values\' must be specified when `operator` is \'In\' or \'NotIn\'',
      'test/Policy: \'matchExpressions[1].values\' must be unset (may not be specified when `operator` is \'Exists\' or \'DoesNotExist\') but got ["a"]',
      'test/Policy: \'matchExpressions[2].values[0]\' must be an integer when operator is Gt (the scheduler parses no other, so the term would match no node) but got "many"',
      'test/Policy: \'matchExpressions[3].values\' must be specified single value when `operator` is \'Lt\' or \'Gt\'',
      'test/Policy: \'matchExpressions[4].operator\' must be one of "DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn" but got "Near"',
      expect.stringMatching(/^test\/Policy: 'matchExpressions\[5\]\.values\[0\]' must be a label value .* but got "a;b"$/),
      'test/Policy: \'architectures\' must be a non-empty array of architectures such as [\'amd64\', \'arm64\'] but got []',
    ]);
  });

  test('throws when the operating system contradicts matchLabels', () => {
    expect(() => new NodePolicy(Testing.chart(), 'Policy', { operatingSystem: 'linux', matchLabels: { 'kubernetes.io/os': 'windows' } }))
      .toThrow(/'operatingSystem' and 'matchLabels.kubernetes.io\/os' must agree but got "linux" and "windows"/);
  });

  test('is recognised by its brand, also across copies of the package', () => {
    const policy = new LabeledNodePolicy(Testing.chart(), 'Policy', { key: 'a', value: 'b' });
    expect(NodePolicy.isNodePolicy(policy)).toBe(true);
    expect(NodePolicy.isNodePolicy({ matchLabels: {} })).toBe(false);
  });
});

describe("one home for ValidateNodeSelectorRequirement: NodePolicy asks the checks' checkNodeSelectorRequirement", () => {
  /** The checks' server rules on the baseline DaemonSet with the requirement as its one required node affinity term. */
  function checksRefuse(requirement: Record<string, unknown>): string[] {
    const chart = Testing.chart();
    new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }] });
    const ds = only(synth(chart), 'DaemonSet');
    ds.spec.template.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [requirement] }] } } };
    return checkObject(ds, undefined, { kubernetesVersion: '1.28' }).filter((f) => isBlocking(f) && f.rule.waivable !== true).map((f) => f.path);
  }
  const policyRefuses = (requirement: Record<string, unknown>) => {
    try {
      new NodePolicy(Testing.chart(), 'P', { matchExpressions: [requirement as never] });
      return false;
    } catch {
      return true;
    }
  };
  const T = 'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]';

  test.each([
    ['In without values', { key: 'zone', operator: 'In' }, [`${T}.values`]],
    ['Exists with a value', { key: 'zone', operator: 'Exists', values: ['a'] }, [`${T}.values`]],
    ['Lt with two values', { key: 'cores', operator: 'Lt', values: ['1', '2'] }, [`${T}.values`]],
    ['an unknown operator', { key: 'zone', operator: 'Near', values: ['a'] }, [`${T}.operator`]],
    ['a key with a space', { key: 'a b', operator: 'Exists' }, [`${T}.key`]],
    ['In with one value', { key: 'zone', operator: 'In', values: ['a'] }, []],
    ['Gt with one integer', { key: 'cores', operator: 'Gt', values: ['8'] }, []],
    ['DoesNotExist without values', { key: 'gpu', operator: 'DoesNotExist' }, []],
  ])('%s: the policy and the checks give one verdict', (_, requirement, paths) => {
    expect(checksRefuse(requirement)).toEqual(paths);
    expect(policyRefuses(requirement)).toBe(paths.length > 0);
  });

  test.each([
    ['Gt with a value that is no integer', { key: 'cores', operator: 'Gt', values: ['many'] }],
    ['In with a value that is no label value (the server checks it only from 1.33)', { key: 'zone', operator: 'In', values: ['a;b'] }],
  ])("%s: the policy's own refusal, which the server rules at 1.28 accept", (_, requirement) => {
    expect(checksRefuse(requirement)).toEqual([]);
    expect(policyRefuses(requirement)).toBe(true);
  });
});

describe('one scheduling path: the DaemonSet, eligibility and matches() agree', () => {
  const policies: Array<[string, (c: import('cdk8s').Chart) => NodePolicy]> = [
    ['a label', (c) => new LabeledNodePolicy(c, 'P', { key: 'gpu', value: 'true' })],
    ['linux and arm64 only', (c) => new NodePolicy(c, 'P', { operatingSystem: 'linux', architectures: ['arm64'] })],
    ['no Fargate', (c) => new NodePolicy(c, 'P', { matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate')] })],
    ['more than 8 cores', (c) => new NodePolicy(c, 'P', { matchExpressions: [NodeRequirement.gt('cores', 8)] })],
    ['no gpu label', (c) => new NodePolicy(c, 'P', { matchExpressions: [NodeRequirement.doesNotExist('gpu')] })],
    ['linux, every taint tolerated', (c) => new NodePolicy(c, 'P', { operatingSystem: 'linux', tolerations: [NodeToleration.everything()] })],
  ];

  test.each(policies)('%s', (_, make) => {
    // GIVEN
    const chart = Testing.chart();
    const policy = make(chart);
    new NodeAgent(chart, 'Agent', { policy, name: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }] });

    // WHEN
    const fromManifest = evaluateNodes(NODES, schedulingOfWorkload(only(synth(chart), 'DaemonSet')));
    const fromPolicy = evaluateNodes(NODES, schedulingOfPolicy(policy));

    // THEN
    expect(fromManifest).toEqual(fromPolicy);
    for (const verdict of fromPolicy.nodes) {
      const n = NODES.find((x) => x.metadata!.name === verdict.name)!;
      const byLabels = policy.matches(n.metadata!.labels!);
      // matches() judges labels; a node it accepts is eligible unless a taint keeps the agent off.
      expect(verdict.eligible).toBe(byLabels && (n.spec?.taints === undefined || policy.tolerations.length > 0));
    }
  });
});

describe('escape hatch: what a user adds through daemonSet.scheduling is merged, never dropped', () => {
  test('keeps a toleration added with scheduling.tolerate beside the policy tolerations', () => {
    // GIVEN a policy with a toleration (the case that used to lose the user's)
    const chart = Testing.chart();
    const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'tier', value: 'edge', tolerations: [NodeToleration.controlPlane()] });
    const agent = new NodeAgent(chart, 'Agent', { policy, name: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }] });

    // WHEN
    agent.daemonSet.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.is('dedicated', 'agents', { effect: kplus.TaintEffect.NO_SCHEDULE })));

    // THEN
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'agents', effect: 'NoSchedule' },
    ]);
  });

  test('adds the policy expressions to every node affinity term added with scheduling.attract', () => {
    // GIVEN
    const chart = Testing.chart();
    const policy = new NodePolicy(chart, 'Policy', { architectures: ['amd64'] });
    const agent = new NodeAgent(chart, 'Agent', { policy, name: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }] });

    // WHEN
    agent.daemonSet.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('zone', 'a')));
    agent.daemonSet.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('zone', 'b')));

    // THEN the policy still holds in each ORed term
    const arch = { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] };
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [arch, { key: 'zone', operator: 'In', values: ['a'] }] },
      { matchExpressions: [arch, { key: 'zone', operator: 'In', values: ['b'] }] },
    ]);
  });
});
