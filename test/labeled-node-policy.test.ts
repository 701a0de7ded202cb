import { Testing } from 'cdk8s';
import { LabeledNodePolicy, NodeToleration } from '../lib';
import { synth } from './util';

describe('LabeledNodePolicy', () => {
  const policy = (key = 'practice-tier', value = 'operations') => new LabeledNodePolicy(Testing.chart(), 'Policy', { key, value });

  test('exposes its key, value and nodeSelector', () => {
    const p = policy();
    expect(p.key).toBe('practice-tier');
    expect(p.value).toBe('operations');
    expect(p.nodeSelector).toEqual({ 'practice-tier': 'operations' });
  });

  test('hands out a copy of its nodeSelector, so callers cannot change the rule', () => {
    const p = policy();
    p.nodeSelector['practice-tier'] = 'batch';
    expect(p.nodeSelector).toEqual({ 'practice-tier': 'operations' });
  });

  test('adds no API object', () => {
    const chart = Testing.chart();
    new LabeledNodePolicy(chart, 'Policy', { key: 'practice-tier', value: 'operations' });
    expect(synth(chart)).toEqual([]);
  });

  test('matches a node with the label at exactly that value', () => {
    const p = policy();
    expect(p.matches({ 'practice-tier': 'operations', 'kubernetes.io/os': 'linux' })).toBe(true);
    expect(p.matches({ 'practice-tier': 'batch' })).toBe(false);
    expect(p.matches({ 'practice-tier': 'Operations' })).toBe(false);
    expect(p.matches({})).toBe(false);
  });

  test('matches an empty value only when the label is present', () => {
    const p = policy('edge', '');
    expect(p.matches({ edge: '' })).toBe(true);
    expect(p.matches({})).toBe(false);
  });

  test('does not take inherited properties for labels', () => {
    expect(policy('constructor', '').matches({})).toBe(false);
  });

  test('prints the kubectl commands that label and unlabel a node', () => {
    const p = policy();
    expect(p.labelCommand('labex-v135')).toBe('kubectl label node labex-v135 practice-tier=operations');
    expect(p.unlabelCommand('labex-v135')).toBe('kubectl label node labex-v135 practice-tier-');
  });

  test('refuses a node name that is not a DNS-1123 subdomain, since the command is meant for a shell', () => {
    const p = policy();
    expect(() => p.labelCommand('node-1; reboot')).toThrow(/'nodeName' must be a DNS-1123 subdomain .* but got "node-1; reboot"/);
    expect(() => p.unlabelCommand('$(id)')).toThrow(/'nodeName' .* but got "\$\(id\)"/);
  });

  test.each([
    ['two slashes', 'a/b/c', /'key' must be a qualified name.*, with at most one '\/' but got "a\/b\/c"/],
    ['an empty name', 'example.com/', /'key' must be a qualified name.* but got "example.com\/"/],
    ['an empty prefix', '/tier', /the prefix "" is not a DNS-1123 subdomain but got "\/tier"/],
    ['a prefix with capitals', 'Example.com/tier', /the prefix "Example.com" is not a DNS-1123 subdomain/],
    ['a name of 64 characters', 'a'.repeat(64), /'key' must be a qualified name/],
    ['a name ending in a dash', 'tier-', /'key' must be a qualified name.* but got "tier-"/],
    ['a space', 'practice tier', /'key' .* but got "practice tier"/],
    ['a prefix of 254 characters', `${'a'.repeat(254)}/tier`, /the prefix "a{254}" is not a DNS-1123 subdomain/],
  ])('throws when the label key has %s', (_, key, message) => {
    expect(() => policy(key)).toThrow(message);
    expect(() => policy(key)).toThrow(/^test\/Policy: /);
  });

  test('accepts a prefixed key of the maximal lengths', () => {
    const key = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}/${'n'.repeat(63)}`;
    expect(policy(key).key).toBe(key);
  });

  test.each([
    ['64 characters', 'v'.repeat(64)],
    ['a slash', 'a/b'],
    ['a leading dot', '.ops'],
    ['a shell character', 'ops;'],
  ])('throws when the label value has %s', (_, value) => {
    expect(() => policy('practice-tier', value)).toThrow(/'value' must be a label value \(empty, or at most 63 characters/);
  });

  test('has no tolerations unless given, and keeps those given', () => {
    expect(policy().tolerations).toEqual([]);
    const p = new LabeledNodePolicy(Testing.chart(), 'Policy', { key: 'a', value: 'b', tolerations: [NodeToleration.controlPlane()] });
    expect(p.tolerations.map((t) => t.toKube())).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('throws when a toleration is not a NodeToleration', () => {
    const tolerations = [{ key: 'x', operator: 'Exists' }] as unknown as NodeToleration[];
    expect(() => new LabeledNodePolicy(Testing.chart(), 'Policy', { key: 'a', value: 'b', tolerations }))
      .toThrow(/^test\/Policy: 'tolerations\[0\]' must be a NodeToleration .* but got \{"key":"x","operator":"Exists"\}$/);
  });
});
