/**
 * Plain JavaScript misuse of every public construct: the construct path, the
 * prop and what is allowed, never a TypeError.
 */
import { Testing } from 'cdk8s';
import {
  LabeledNodePolicy,
  NodeAgent,
  NodePolicy,
  NodeReporterChart,
  NodeReporterDaemonSet,
  PodSecurityNamespace,
  RestrictedNamespace,
} from '../lib';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyConstruct = new (scope: any, id: string, props: any) => unknown;

const CASES: Array<[string, AnyConstruct, unknown, RegExp]> = [
  ['LabeledNodePolicy with tolerations that are a string', LabeledNodePolicy, { key: 'a', value: 'b', tolerations: 'x' }, /^test\/P: 'tolerations' must be an array of NodeToleration but got "x"$/],
  ['LabeledNodePolicy with a toleration that is a plain object', LabeledNodePolicy, { key: 'a', value: 'b', tolerations: [{ key: 'x' }] }, /^test\/P: 'tolerations\[0\]' must be a NodeToleration .* but got \{"key":"x"\}$/],
  ['LabeledNodePolicy without props', LabeledNodePolicy, undefined, /^test\/P: 'props' must be an object \{ key, value, tolerations\? \} but got undefined$/],
  ['LabeledNodePolicy with a numeric key', LabeledNodePolicy, { key: 1, value: 'b' }, /^test\/P: 'key' must be a qualified name .* but got 1$/],
  ['NodePolicy with matchLabels that are an array', NodePolicy, { matchLabels: ['a'] }, /^test\/P: 'matchLabels' must be an object of label keys to label values but got \["a"\]$/],
  ['NodePolicy with props that are a string', NodePolicy, 'linux', /^test\/P: 'props' must be an object of NodePolicyProps but got "linux"$/],
  ['NodeAgent without props', NodeAgent, undefined, /^test\/P: 'props' must be an object of NodeAgentProps/],
  ['NodeReporterDaemonSet without props', NodeReporterDaemonSet, undefined, /^test\/P: 'props' must be an object of NodeReporterDaemonSetProps/],
  ['NodeReporterDaemonSet with a numeric version', NodeReporterDaemonSet, { version: 1 }, /^test\/P: 'version' must be a plain token .* but got 1$/],
  ['RestrictedNamespace without props', RestrictedNamespace, undefined, /^test\/P: 'props' must be an object \{ name, enforce\? \} but got undefined$/],
  ['PodSecurityNamespace with an unknown level', PodSecurityNamespace, { name: 'a', enforce: 'strict' }, /^test\/P: 'enforce' must be one of restricted, baseline, privileged but got "strict"$/],
];

describe('plain JavaScript misuse', () => {
  test.each(CASES)('%s: a clear error, never a TypeError', (_, Construct, props, message) => {
    const build = () => new Construct(Testing.chart(), 'P', props);
    expect(build).toThrow(message);
    expect(build).not.toThrow(TypeError);
  });

  test('NodeReporterChart without props: the chart path, the prop, what is allowed', () => {
    const build = () => new NodeReporterChart(Testing.app(), 'variant', undefined as never);
    expect(build).toThrow(/^variant: 'props' must be an object of NodeReporterChartProps/);
  });
});
