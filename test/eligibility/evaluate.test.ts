import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { LabeledNodePolicy, NodeReporterChart, NodeToleration } from '../../lib';
import { DAEMONSET_TOLERATIONS, daemonSetsIn, evaluateNodes, KubeNode, NodeListError, PodScheduling, readNodeList, schedulingOfPolicy, schedulingOfWorkload, tolerates } from '../../lib/eligibility';
import { only, synth } from '../util';

const fixture = (name: string) => readNodeList(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nodes', `${name}.json`), 'utf-8'), name);
const operations: PodScheduling = { nodeSelector: { 'practice-tier': 'operations' } };
const verdicts = (nodes: KubeNode[], pod: PodScheduling) => evaluateNodes(nodes, pod).nodes.map((n) => [n.name, n.eligible, n.reasons]);

describe('evaluateNodes on node lists as kubectl prints them', () => {
  test('a single control-plane node, unlabelled: not eligible, the label is the only obstacle', () => {
    const report = evaluateNodes(fixture('single-unlabelled'), operations);
    expect(report.desired).toBe(0);
    expect(report.nodes).toEqual([{ name: 'labex-v135', eligible: false, reasons: ['missing label practice-tier'], missingLabels: { 'practice-tier': 'operations' } }]);
  });

  test('the same node labelled: eligible, DESIRED 1', () => {
    const report = evaluateNodes(fixture('single-labelled'), operations);
    expect(report).toEqual({ desired: 1, nodes: [{ name: 'labex-v135', eligible: true, reasons: [], missingLabels: undefined }] });
  });

  test('a kubeadm cluster of three: the tainted control plane is skipped unless tolerated', () => {
    const nodes = fixture('kubeadm-three');
    expect(verdicts(nodes, operations)).toEqual([
      ['cp-1', false, ['taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated']],
      ['worker-1', true, []],
      ['worker-2', false, ['missing label practice-tier']],
    ]);
    const tolerant = schedulingOfPolicy(new LabeledNodePolicy(Testing.chart(), 'P', { key: 'practice-tier', value: 'operations', tolerations: [NodeToleration.controlPlane()] }));
    expect(evaluateNodes(nodes, tolerant).desired).toBe(2);
  });

  test('cordoned and memory-pressure nodes still get a pod; not-ready ones, another label value and an untolerated taint do not', () => {
    // GIVEN nodes as the node lifecycle controller taints them
    const nodes = fixture('troubled');

    // THEN
    expect(verdicts(nodes, operations)).toEqual([
      ['cordoned', true, []],
      // not-ready:NoSchedule is not among the controller's tolerations: no new pod
      // (one already running stays, as it tolerates not-ready:NoExecute).
      ['not-ready', false, ['taint node.kubernetes.io/not-ready:NoSchedule not tolerated']],
      ['memory-pressure', true, []],
      ['batch-1', false, ['label practice-tier=batch, want operations']],
      ['gpu-1', false, ['taint nvidia.com/gpu=present:NoSchedule not tolerated']],
    ]);
    expect(evaluateNodes(nodes, operations).nodes[3].missingLabels).toEqual({ 'practice-tier': 'operations' });
  });

  test('a node with a label obstacle and a taint is not fixed by a label alone', () => {
    const node: KubeNode = { metadata: { name: 'n', labels: {} }, spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } };
    const [verdict] = evaluateNodes([node], operations).nodes;
    expect(verdict.reasons).toEqual(['missing label practice-tier', 'taint dedicated=db:NoExecute not tolerated']);
    expect(verdict.missingLabels).toBeUndefined();
  });

  test('PreferNoSchedule never blocks', () => {
    const node: KubeNode = { metadata: { name: 'n', labels: { 'practice-tier': 'operations' } }, spec: { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] } };
    expect(evaluateNodes([node], operations).desired).toBe(1);
  });

  test('network-unavailable is tolerated only by host-network pods', () => {
    const node: KubeNode = { metadata: { name: 'n', labels: {} }, spec: { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] } };
    expect(evaluateNodes([node], {}).desired).toBe(0);
    expect(evaluateNodes([node], { hostNetwork: true }).desired).toBe(1);
  });

  test('a required node affinity must match too', () => {
    const nodes: KubeNode[] = [
      { metadata: { name: 'a', labels: { zone: 'z1', cores: '8' } } },
      { metadata: { name: 'b', labels: { zone: 'z2', cores: '2' } } },
    ];
    const pod = (terms: object[]): PodScheduling => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } as PodScheduling);
    const eligibleNames = (p: PodScheduling) => evaluateNodes(nodes, p).nodes.filter((n) => n.eligible).map((n) => n.name);
    expect(eligibleNames(pod([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }]))).toEqual(['a']);
    expect(eligibleNames(pod([{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['4'] }] }]))).toEqual(['a']);
    expect(eligibleNames(pod([{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }]))).toEqual(['a', 'b']);
    expect(eligibleNames(pod([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['a'] }] }]))).toEqual(['b']);
    // Terms are ORed; an empty term matches nothing.
    expect(eligibleNames(pod([{}, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z2'] }] }]))).toEqual(['b']);
    expect(evaluateNodes(nodes, pod([{}])).nodes[0].reasons).toEqual(['required node affinity does not match']);
  });
});

describe('tolerates', () => {
  test.each([
    [{ key: 'k', operator: 'Exists' }, { key: 'k', value: 'v', effect: 'NoSchedule' }, true],
    [{ key: 'k', operator: 'Equal', value: 'v' }, { key: 'k', value: 'v', effect: 'NoSchedule' }, true],
    [{ key: 'k', value: 'v' }, { key: 'k', value: 'w', effect: 'NoSchedule' }, false],
    [{ key: 'k', operator: 'Exists', effect: 'NoExecute' }, { key: 'k', effect: 'NoSchedule' }, false],
    [{ operator: 'Exists' }, { key: 'anything', effect: 'NoExecute' }, true],
    [{ key: 'other', operator: 'Exists' }, { key: 'k', effect: 'NoSchedule' }, false],
  ])('%j against %j is %s', (toleration, taint, expected) => {
    expect(tolerates(toleration, taint)).toBe(expected);
  });

  test('the DaemonSet controller tolerations cover not-ready, unreachable, pressure and unschedulable', () => {
    expect(DAEMONSET_TOLERATIONS.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
  });
});

describe('the policy and the synthesized pod spec agree', () => {
  test('evaluating the synthesized DaemonSet gives what evaluating its policy gives', () => {
    // GIVEN the v1 variant, with the control plane tolerated
    const chart = new NodeReporterChart(Testing.app(), 'c', { version: 'v1', tolerations: [NodeToleration.controlPlane()] });
    const nodes = [...fixture('kubeadm-three'), ...fixture('troubled')];

    // WHEN
    const fromManifest = evaluateNodes(nodes, schedulingOfWorkload(only(synth(chart), 'DaemonSet')));
    const fromPolicy = evaluateNodes(nodes, schedulingOfPolicy(chart.policy));

    // THEN
    expect(fromManifest).toEqual(fromPolicy);
    expect(fromManifest.desired).toBe(4);
  });

  test('a manifest without a pod template is refused', () => {
    expect(() => schedulingOfWorkload({ spec: {} })).toThrow('the manifest has no pod template (spec.template.spec)');
  });

  test('daemonSetsIn evaluates every DaemonSet of a file, and refuses a malformed one naming the field, never a TypeError', () => {
    // GIVEN the synthesized manifest, and a DaemonSet whose tolerations are an object
    const chart = new NodeReporterChart(Testing.app(), 'c', { version: 'v1', tolerations: [NodeToleration.controlPlane()] });
    const nodes = [...fixture('kubeadm-three'), ...fixture('troubled')];
    const malformed = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a' }, spec: { template: { spec: { tolerations: {} } } } };

    // THEN
    const [report] = daemonSetsIn(synth(chart), nodes, 'dist/c.k8s.yaml');
    expect(report).toEqual({ name: 'node-reporter', namespace: 'practice-daemon', ...evaluateNodes(nodes, schedulingOfPolicy(chart.policy)) });
    expect(() => daemonSetsIn([malformed], nodes, 'agents.yaml')).toThrow(new NodeListError('agents.yaml: DaemonSet "a": spec.template.spec.tolerations must be an array of tolerations but got {}'));
  });
});

describe('as the DaemonSet controller decides (issue 18, wrong answers)', () => {
  const cores = (value: string): KubeNode => ({ metadata: { name: `n${value}`, labels: { cores: value } } });
  const affinity = (operator: string, value: string): PodScheduling => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator, values: [value] }] }] } } } });
  const eligible = (nodes: KubeNode[], pod: PodScheduling) => evaluateNodes(nodes, pod).nodes.filter((n) => n.eligible).map((n) => n.name);

  test('Gt and Lt compare int64 values exactly: 2^53+1 is greater than 2^53', () => {
    // GIVEN labels one apart above 2^53, where floating point rounds them together
    const nodes = [cores('9007199254740993'), cores('9007199254740992')];

    // THEN
    expect(eligible(nodes, affinity('Gt', '9007199254740992'))).toEqual(['n9007199254740993']);
    expect(eligible(nodes, affinity('Lt', '9007199254740993'))).toEqual(['n9007199254740992']);
  });

  test('a label that overflows int64 does not match (strconv.ParseInt fails), nor does one that is no integer', () => {
    const nodes = [cores('99999999999999999999'), cores('9223372036854775807'), cores('1e3'), cores('+5')];
    expect(eligible(nodes, affinity('Gt', '4'))).toEqual(['n9223372036854775807', 'n+5']);
    expect(eligible(nodes, affinity('Gt', '99999999999999999998'))).toEqual([]);
  });

  test('spec.nodeName pins the pod to that node: the controller runs it there only', () => {
    // GIVEN three nodes and a template with nodeName (as scheduling.assign sets it)
    const nodes: KubeNode[] = ['a', 'b', 'c'].map((name) => ({ metadata: { name, labels: {} } }));

    // WHEN
    const report = evaluateNodes(nodes, { nodeName: 'b' });

    // THEN
    expect(report.desired).toBe(1);
    expect(report.nodes.map((n) => [n.name, n.eligible, n.reasons])).toEqual([
      ['a', false, ['spec.nodeName is "b"']],
      ['b', true, []],
      ['c', false, ['spec.nodeName is "b"']],
    ]);
  });
});

describe('a node-affinity term the DaemonSet controller cannot parse (issue 25, defect 6)', () => {
  // A v1.32 server accepted each of these DaemonSets; on its one node (labels kubernetes.io/os=linux, no pool label)
  // the controller answered DESIRED 0 for the In and NotIn terms with 'gpu nodes', and 1 with a second, parsable term.
  const node: KubeNode = { metadata: { name: 'labex', labels: { 'kubernetes.io/os': 'linux' } } };
  const terms = (...t: object[]): PodScheduling => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: t } } } } as PodScheduling);
  const bad = (operator: string) => ({ matchExpressions: [{ key: 'pool', operator, values: ['gpu nodes'] }] });

  test.each([
    ['In with a value that is no label value (DESIRED 0)', terms(bad('In')), 0],
    ['NotIn with a value that is no label value (DESIRED 0)', terms(bad('NotIn')), 0],
    ['that value beside a parsable expression in the same term (DESIRED 0)', terms({ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }, { key: 'pool', operator: 'NotIn', values: ['a/b'] }] }), 0],
    ['such a term beside a parsable term that matches (DESIRED 1)', terms(bad('NotIn'), { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }), 1],
    ['NotIn with a label value (DESIRED 1)', terms({ matchExpressions: [{ key: 'pool', operator: 'NotIn', values: ['gpu'] }] }), 1],
  ])('%s: eligible counts what the controller counted', (_, pod, desired) => {
    // WHEN
    const report = evaluateNodes([node], pod);

    // THEN
    expect(report.desired).toBe(desired);
  });

  test('says which term matches no node and why', () => {
    const [verdict] = evaluateNodes([node], terms(bad('NotIn'))).nodes;
    expect(verdict.reasons).toEqual([expect.stringMatching(/^required node affinity does not match \(term 0 matches no node: .*matchExpressions\[0\]\.values\[0\].* "gpu nodes"/)]);
  });
});
