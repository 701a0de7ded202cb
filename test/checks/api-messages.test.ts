/**
 * API-validation messages as a v1.32 API server prints them
 * (`kubectl apply --dry-run=server`): the verdict alone is held to the
 * server by the corpus; these hold the words and the count of errors.
 */
import { checkObject } from '../../lib/checks';

const apiFindings = (obj: object) => checkObject(obj).filter((f) => f.rule.id.startsWith('api-')).map((f) => `${f.path}: ${f.message}`);

describe('messages of the API server', () => {
  test('a user PriorityClass named system-* gets the prefix error alone, naming the "system-" prefix', () => {
    // GIVEN a name under the reserved prefix and a value above the user limit
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-foo' }, value: 2000000000 };

    // THEN ValidatePriorityClass checks the value only for names outside the prefix
    expect(apiFindings(pc)).toEqual([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class",
    ]);
  });

  test('a NetworkPolicy endPort without a port, or with a named one, is an invalid value saying which', () => {
    const np = {
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' },
      spec: { podSelector: {}, ingress: [{ ports: [{ endPort: 90 }] }, { ports: [{ port: 'http', endPort: 90 }] }] },
    };
    expect(apiFindings(np)).toEqual([
      'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified',
      'spec.ingress[1].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
    ]);
  });
});
