/**
 * ValidateObjectMeta with each kind's name function (lib/checks/api/meta.ts);
 * the verdicts are the API server's, asked with names such as these.
 */
import { checkObject, Finding } from '../../lib/checks';

const object = (kind: string, apiVersion: string, name: string) => ({ apiVersion, kind, metadata: { name } });
const nameFindings = (findings: Finding[]) => findings.filter((f) => f.path === 'metadata.name' || f.path === 'metadata.generateName').map((f) => `${f.rule.id}: ${f.message}`);

describe('object names, by the name function of their kind', () => {
  test.each<[string, string, string, boolean]>([
    ['PodDisruptionBudget', 'policy/v1', 'Web:Budget_1', true],
    ['PodDisruptionBudget', 'policy/v1', 'web%budget', false],
    ['ClusterRole', 'rbac.authorization.k8s.io/v1', 'system:aggregate-to-edit', true],
    ['Role', 'rbac.authorization.k8s.io/v1', '..', false],
    ['RoleBinding', 'rbac.authorization.k8s.io/v1', 'a/b', false],
    ['Service', 'v1', '1svc', false],
    ['Service', 'v1', 'svc-1', true],
    ['Namespace', 'v1', 'team.a', false],
    ['Namespace', 'v1', '1team', true],
    ['StatefulSet', 'apps/v1', 'db.main', false],
    ['ConfigMap', 'v1', 'agent.config', true],
    ['ConfigMap', 'v1', 'agent:config', false],
    ['Lease', 'coordination.k8s.io/v1', 'Web', false],
  ])('%s %j: accepted %s', (kind, apiVersion, name, accepted) => {
    // WHEN
    const found = nameFindings(checkObject(object(kind, apiVersion, name)));

    // THEN
    expect(found).toEqual(accepted ? [] : [expect.stringMatching(/^api-object-meta: Invalid value: /)]);
  });

  test('the message names the function that refuses the name, and what it allows', () => {
    const [message] = nameFindings(checkObject(object('Service', 'v1', '1svc')));
    expect(message).toBe("api-object-meta: Invalid value: \"1svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?') (pkg/apis/core/validation: ValidateServiceName: a DNS-1035 label)");
  });

  test('kubectl apply refuses generateName without a name; a prefix may end in a dash', () => {
    const generated = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'agent-' } };
    expect(nameFindings(checkObject(generated))).toEqual(['kubectl-apply: from agent-: cannot use generate name with apply']);
    expect(nameFindings(checkObject({ ...generated, metadata: { name: 'agent', generateName: 'agent-' } }))).toEqual([]);
  });

  test('annotations are sized in bytes, not characters', () => {
    // GIVEN 90,000 three-byte characters: 270,000 bytes, over the 262,144 limit
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', annotations: { note: '€'.repeat(90_000) } } };

    // THEN
    expect(checkObject(obj, undefined, { apply: 'server-side' }).map((f) => `${f.rule.id} ${f.path}`)).toEqual(['api-object-meta metadata.annotations']);
  });
});

describe('the size of an object\'s annotations (ValidateAnnotationsSize)', () => {
  // Asked of a v1.32 server with `kubectl apply --server-side --dry-run=server`: a key "a" and 262143 bytes pass, 262144 do not.
  const withAnnotation = (bytes: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', annotations: { a: 'x'.repeat(bytes) } } });
  const sizeFindings = (bytes: number) => checkObject(withAnnotation(bytes), undefined, { apply: 'server-side' })
    .filter((f) => f.path === 'metadata.annotations').map((f) => `${f.rule.id}: ${f.message}`);

  test('counts every key and value against 256 KiB', () => {
    expect(sizeFindings(262143)).toEqual([]);
    expect(sizeFindings(262144)).toEqual(['api-object-meta: Too long: must have at most 262144 bytes']);
  });
});
