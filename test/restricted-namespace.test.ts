import { Chart, Testing } from 'cdk8s';
import { RestrictedNamespace } from '../lib';
import { only, synth } from './util';

describe('RestrictedNamespace', () => {
  test('never carries a namespace, even in a chart that has one', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'team', { namespace: 'monitoring' });

    // WHEN
    new RestrictedNamespace(chart, 'Namespace', { name: 'monitoring' });

    // THEN
    const ns = only(synth(chart), 'Namespace');
    expect(ns.metadata.name).toBe('monitoring');
    expect(ns.metadata).not.toHaveProperty('namespace');
  });

  test('works in a chart without a namespace', () => {
    const chart = Testing.chart();
    new RestrictedNamespace(chart, 'Namespace', { name: 'agents' });
    expect(only(synth(chart), 'Namespace').metadata).toEqual({
      name: 'agents',
      labels: { 'app.kubernetes.io/managed-by': 'node-reporter', 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.28' },
    });
  });

  test('throws when the name is not a DNS-1123 label', () => {
    expect(() => new RestrictedNamespace(Testing.chart(), 'Namespace', { name: 'a.b' }))
      .toThrow(/^test\/Namespace: 'name' must be a DNS-1123 label .* but got "a.b"$/);
  });
});

describe('namespaces the cluster owns', () => {
  test.each(['default', 'kube-system', 'kube-public', 'kube-node-lease'])('refuses to own %s, saying why', (name) => {
    expect(() => new RestrictedNamespace(Testing.chart(), 'Namespace', { name }))
      .toThrow(`test/Namespace: 'name' must be a namespace this library may own, not one the cluster owns (default, kube-system, kube-public, kube-node-lease): labelling it for Pod Security stops its system pods and 'kubectl delete -f' would delete it; deploy into it without owning it instead but got "${name}"`);
  });
});
