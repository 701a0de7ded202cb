/**
 * Unknown props from plain JavaScript: every construct and every nested
 * record of props refuses a key it does not know, naming it, with the
 * closest valid key or where the key belongs.
 */
import { Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AgentUpdateStrategy,
  LabeledNodePolicy,
  NodeAgent,
  NodePolicy,
  NodeReporterChart,
  NodeReporterDaemonSet,
  NodeToleration,
  PodSecurityNamespace,
  RestrictedNamespace,
} from '../lib';
import { nearestKey, unknownKeys } from '../lib/prop-keys';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyConstruct = new (scope: any, id: string, props: any) => unknown;

const agent = (extra: Record<string, unknown>) => (scope: never) => {
  const policy = new NodePolicy(scope, 'Policy', { operatingSystem: 'linux' });
  return { policy, name: 'agent', containers: [{ image: 'example.com/agent:1.0' }], ...extra };
};

describe('unknownKeys', () => {
  test('suggests the closest valid key, ignoring case', () => {
    // GIVEN / WHEN / THEN
    expect(nearestKey('matchlabels', ['matchLabels', 'matchExpressions'])).toBe('matchLabels');
    expect(nearestKey('tolerration', ['tolerations'])).toBe('tolerations');
    expect(nearestKey('xyz', ['matchLabels'])).toBeUndefined();
  });

  test('says where a key belongs rather than guessing', () => {
    // GIVEN
    const rules = { known: ['policy', 'name'], elsewhere: { tolerations: 'goes on the policy (NodePolicyProps.tolerations)' } };
    // WHEN
    const problems = unknownKeys('props', { name: 'a', tolerations: [] }, rules);
    // THEN
    expect(problems).toEqual(['\'props\' key "tolerations" is not a prop here: it goes on the policy (NodePolicyProps.tolerations)']);
  });

  test('names the type instead of listing many keys', () => {
    // GIVEN
    const known = Array.from({ length: 20 }, (_, i) => `key${i}`);
    // WHEN
    const problems = unknownKeys('props', { other: 1 }, { known, what: 'BigProps' });
    // THEN
    expect(problems).toEqual(['\'props\' key must be a prop of BigProps but got "other"']);
  });
});

const CASES: Array<[string, AnyConstruct, unknown, RegExp]> = [
  ['NodePolicy with matchlabels', NodePolicy, { matchlabels: { a: 'b' } }, /^test\/P: 'props' key must be one of .* but got "matchlabels"; did you mean "matchLabels"\?$/],
  ['NodePolicy with toleration', NodePolicy, { toleration: [] }, /'props' key .* but got "toleration"; did you mean "tolerations"\?/],
  ['NodePolicy with tolerration', NodePolicy, { tolerration: [] }, /but got "tolerration"; did you mean "tolerations"\?/],
  ['NodePolicy with a capitalised operating system', NodePolicy, { operatingSystem: 'Linux' }, /^test\/P: 'operatingSystem' must be one of linux, windows .*but got "Linux"$/],
  ['LabeledNodePolicy with tolerration', LabeledNodePolicy, { key: 'a', value: 'b', tolerration: [] }, /^test\/P: 'props' key must be one of key, value, tolerations but got "tolerration"; did you mean "tolerations"\?$/],
  ['PodSecurityNamespace with enforced', PodSecurityNamespace, { name: 'a', enforced: 'privileged' }, /^test\/P: 'props' key must be one of name, enforce but got "enforced"; did you mean "enforce"\?$/],
  ['RestrictedNamespace with a level', RestrictedNamespace, { name: 'a', enforce: 'privileged' }, /^test\/P: 'props' key must be one of name but got "enforce"$/],
  ['NodeReporterDaemonSet with verison', NodeReporterDaemonSet, { version: 'v1', verison: 'v2' }, /'props' key .* but got "verison"; did you mean "version"\?/],
];

describe('every construct refuses an unknown prop from JavaScript', () => {
  test.each(CASES)('%s: names the key and the one meant', (_, Construct, props, message) => {
    // GIVEN
    const chart = Testing.chart();
    // WHEN
    const build = () => new Construct(chart, 'P', NodePolicy === Construct || Construct === LabeledNodePolicy || Construct === PodSecurityNamespace || Construct === RestrictedNamespace
      ? props
      : { ...(props as object), policy: new NodePolicy(chart, 'Policy') });
    // THEN
    expect(build).toThrow(message);
  });

  test('NodeReporterChart with an unknown prop names it', () => {
    // GIVEN / WHEN
    const build = () => new NodeReporterChart(Testing.app(), 'variant', { version: 'v1', namepsace: 'x' } as never);
    // THEN
    expect(build).toThrow(/'props' key .* but got "namepsace"; did you mean "namespace"\?/);
  });

  test('NodeAgent says tolerations go on the policy, and suggests a misspelt prop without listing them all', () => {
    // GIVEN
    const chart = Testing.chart();
    const props = agent({ tolerations: [NodeToleration.everything()], hostpaths: [] })(chart as never);
    // WHEN
    const build = () => new NodeAgent(chart, 'Agent', props as never);
    // THEN
    expect(build).toThrow(/'props' key "tolerations" is not a prop here: it goes on the policy[^]*'props' key must be a prop of NodeAgentProps but got "hostpaths"; did you mean "hostPaths"\?/);
  });

  test('an entry of hostPaths refuses an unknown key', () => {
    // GIVEN
    const chart = Testing.chart();
    const props = agent({ hostPaths: [{ name: 'logs', hostPath: '/var/log', mountPath: '/var/log', readonly: true }] })(chart as never);
    // WHEN
    const build = () => new NodeAgent(chart, 'Agent', props as never);
    // THEN
    expect(build).toThrow(/'hostPaths\[0\]' key must be one of name, hostPath, mountPath, type, propagation but got "readonly"/);
  });

  test('a wave refuses a misspelt key with the one meant', () => {
    // GIVEN
    const chart = Testing.chart();
    const props = agent({ waves: [{ name: 'canary', nodes: ['n1'], imag: 'x' }, { name: 'rest' }] })(chart as never);
    // WHEN
    const build = () => new NodeAgent(chart, 'Agent', props as never);
    // THEN
    expect(build).toThrow(/'waves\[0\]' key must be one of .* but got "imag"; did you mean "image"\?/);
  });

  test('a container mount refuses a misspelt key with the one meant', () => {
    // GIVEN
    const chart = Testing.chart();
    const props = agent({
      volumes: [],
      hostPaths: [{ name: 'logs', hostPath: '/var/log', mountPath: '/var/log', type: kplus.HostPathVolumeType.DIRECTORY }],
      containers: [{ image: 'example.com/agent:1.0', mounts: [{ volume: 'logs', path: '/logs', readonly: true }] }],
    })(chart as never);
    // WHEN
    const build = () => new NodeAgent(chart, 'Agent', props as never);
    // THEN
    expect(build).toThrow(/'containers\[0\]\.mounts\[0\]' key must be one of volume, path, readOnly, propagation, subPath but got "readonly"; did you mean "readOnly"\?/);
  });
});

describe('options of the factories refuse an unknown key too', () => {
  test('a misspelt rolling update option is refused when the agent is built, with the one meant', () => {
    // GIVEN
    const chart = Testing.chart();
    const props = agent({ updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavaliable: kplus.PercentOrAbsolute.absolute(2) } as never) })(chart as never);
    // WHEN
    const build = () => new NodeAgent(chart, 'Agent', props as never);
    // THEN
    expect(build).toThrow(/'updateStrategy' key must be one of maxUnavailable, maxSurge but got "maxUnavaliable"; did you mean "maxUnavailable"\?/);
  });

  test('a misspelt toleration option is refused, with the one meant', () => {
    // GIVEN / WHEN / THEN
    expect(() => NodeToleration.exists('example.com/dedicated', 'NoExecute' as never, { tolerationSecond: 60 } as never))
      .toThrow(/'toleration options' key must be one of tolerationSeconds but got "tolerationSecond"; did you mean "tolerationSeconds"\?/);
  });
});
