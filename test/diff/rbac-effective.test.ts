/**
 * `diff` on RBAC as the authorizer sees it (issue 33): resourceNames taken
 * literally, aggregation followed both ways, bindings judged by the role they
 * bind wherever it is, and the subjects that stand for everyone.
 */
import { diffManifests, Impact } from '../../lib/diff';

type Obj = Record<string, unknown>;
const sourced = (objects: readonly Obj[]) => objects.map((object) => ({ object, file: 'rbac.yaml' }));
const RBAC = 'rbac.authorization.k8s.io/v1';
const clusterRole = (name: string, rules: Obj[], extra: Obj = {}, labels?: Record<string, string>): Obj => ({ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules, ...extra });
const binding = (kind: string, role: Obj, subjects: Obj[]): Obj => ({ apiVersion: RBAC, kind, metadata: { name: 'b', ...(kind === 'RoleBinding' ? { namespace: 'x' } : {}) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...role }, subjects });
const readSecrets = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }];
const agent = { kind: 'ServiceAccount', name: 'agent', namespace: 'x' };

/** The impacts of the one object named `name` (changed or added). */
function impactsOf(old: Obj[], next: Obj[], name: string): readonly Impact[] {
  return diffManifests(sourced(old), sourced(next)).objects.find((o) => o.name === name)?.impacts ?? [];
}

describe('diff reads resourceNames literally (ResourceNameMatches, pkg/apis/rbac/v1/evaluation_helpers.go)', () => {
  test('dropping resourceNames ["*"] widens a grant on the object named "*" to every Secret, a warning', () => {
    // GIVEN a ClusterRole that reads the one Secret named "*"
    const named = clusterRole('r', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['*'] }]);

    // WHEN its resourceNames go
    const impacts = impactsOf([named], [clusterRole('r', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])], 'r');

    // THEN it reads every Secret
    expect(impacts).toEqual([expect.objectContaining({ kind: 'rbac-widened', warning: true, added: ['get secrets'] })]);
  });

  test('adding resourceNames ["*"] narrows a grant to one name', () => {
    // GIVEN / WHEN
    const impacts = impactsOf([clusterRole('r', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }])], [clusterRole('r', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['*'] }])], 'r');

    // THEN
    expect(impacts).toEqual([expect.objectContaining({ kind: 'rbac-narrowed', removed: ['get configmaps'] })]);
  });
});

describe('diff follows aggregation', () => {
  test('a label aggregate-to-view on a ClusterRole that reads Secrets widens view, edit and admin, a warning', () => {
    // GIVEN a ClusterRole reading Secrets, unlabelled
    const before = clusterRole('secret-reader', readSecrets);

    // WHEN it gains the label the built-in view role aggregates
    const impacts = impactsOf([before], [clusterRole('secret-reader', readSecrets, {}, { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' })], 'secret-reader');

    // THEN view carries its rules, and through view's own label edit, and through edit's admin
    expect(impacts).toHaveLength(1);
    expect(impacts[0]).toMatchObject({ kind: 'rbac-widened', warning: true, added: ['get secrets', 'list secrets'] });
    expect(impacts[0].message).toMatch(/^aggregated into ClusterRole view, edit, admin \(by its labels\)/);
    expect(impacts[0].source).toContain('clusterroleaggregation');
  });

  test('a label an aggregationRule of the input selects widens that role; a harmless grant is no warning', () => {
    // GIVEN an aggregating ClusterRole in the input, and a role it does not select yet
    const monitoring = clusterRole('monitoring', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] } });
    const pods = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];

    // WHEN the role gains the label
    const impacts = impactsOf([monitoring, clusterRole('pods', pods)], [monitoring, clusterRole('pods', pods, {}, { 'example.com/aggregate-to-monitoring': 'true' })], 'pods');

    // THEN
    expect(impacts).toEqual([expect.objectContaining({ kind: 'rbac-widened', warning: false, added: ['get pods'], message: expect.stringMatching(/^aggregated into ClusterRole monitoring /) })]);
  });

  test('an unchanged ClusterRole already aggregated is no impact', () => {
    const labelled = clusterRole('pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], {}, { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(diffManifests(sourced([labelled]), sourced([labelled])).objects).toEqual([]);
  });

  test('an aggregationRule changed to select the admin roles widens by edit\'s rules, a warning', () => {
    // GIVEN an aggregating ClusterRole that gathers a harmless label
    const rule = (label: string) => clusterRole('gatherer', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: 'true' } }] } });

    // WHEN it selects what admin gathers
    const impacts = impactsOf([rule('example.com/harmless')], [rule('rbac.authorization.k8s.io/aggregate-to-admin')], 'gatherer');

    // THEN it gathers edit (and what edit gathers) and system:aggregate-to-admin
    expect(impacts).toHaveLength(1);
    expect(impacts[0]).toMatchObject({ kind: 'rbac-widened', warning: true });
    expect(impacts[0].message).toMatch(/^its aggregationRule now gathers ClusterRole edit, system:aggregate-to-admin, view, system:aggregate-to-edit, system:aggregate-to-view:/);
    expect(impacts[0].dangerous).toEqual(expect.arrayContaining([expect.stringMatching(/^the rules of built-in ClusterRole edit \(read and write/)]));
  });

  test('an aggregationRule that now gathers a ClusterRole of the input grants its rules', () => {
    // GIVEN
    const reader = clusterRole('secret-reader', readSecrets, {}, { team: 'a' });
    const rule = (team: string) => clusterRole('gatherer', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team } }] } });

    // WHEN
    const impacts = impactsOf([reader, rule('b')], [reader, rule('a')], 'gatherer');

    // THEN
    expect(impacts).toEqual([expect.objectContaining({ kind: 'rbac-widened', warning: true, added: ['get secrets', 'list secrets'] })]);
  });
});

describe('diff judges a binding by the role it binds', () => {
  test('a subject bound to a ClusterRole of the input that reads every Secret is a warning', () => {
    // GIVEN a ClusterRole in both sides, and its binding gaining a subject
    const reader = clusterRole('secret-reader', readSecrets);
    const crb = (subjects: Obj[]) => binding('ClusterRoleBinding', { kind: 'ClusterRole', name: 'secret-reader' }, subjects);

    // WHEN
    const [impact] = impactsOf([reader, crb([])], [reader, crb([agent])], 'b');

    // THEN
    expect(impact).toMatchObject({ kind: 'rbac-widened', warning: true, dangerous: [expect.stringMatching(/^ClusterRole secret-reader \(it grants get secrets \(grants secrets in a ClusterRole/)] });
  });

  test('the same ClusterRole bound in one namespace by a RoleBinding is no warning', () => {
    const reader = clusterRole('secret-reader', readSecrets);
    const rb = (subjects: Obj[]) => binding('RoleBinding', { kind: 'ClusterRole', name: 'secret-reader' }, subjects);
    const [impact] = impactsOf([reader, rb([])], [reader, rb([agent])], 'b');
    expect(impact).toMatchObject({ kind: 'rbac-widened', warning: false });
  });

  test('a binding to a Role of the input with escalate is a warning', () => {
    const role = { apiVersion: RBAC, kind: 'Role', metadata: { name: 'raiser', namespace: 'x' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }] };
    const [impact] = impactsOf([role], [role, binding('RoleBinding', { kind: 'Role', name: 'raiser' }, [agent])], 'b');
    expect(impact).toMatchObject({ kind: 'rbac-widened', warning: true });
  });

  test('a binding to the built-in system:node is a warning', () => {
    const [impact] = impactsOf([], [binding('ClusterRoleBinding', { kind: 'ClusterRole', name: 'system:node' }, [agent])], 'b');
    expect(impact).toMatchObject({ kind: 'rbac-widened', warning: true, dangerous: [expect.stringContaining('get secrets')] });
  });

  test.each([
    ['User', 'system:anonymous'],
    ['Group', 'system:unauthenticated'],
    ['Group', 'system:authenticated'],
  ])('a %s %s subject is a warning, even bound to a harmless role', (kind, name) => {
    // GIVEN / WHEN
    const [impact] = impactsOf([], [binding('ClusterRoleBinding', { kind: 'ClusterRole', name: 'harmless' }, [{ kind, apiGroup: 'rbac.authorization.k8s.io', name }])], 'b');

    // THEN
    expect(impact).toMatchObject({ kind: 'rbac-widened', warning: true, dangerous: [expect.stringContaining(name)] });
  });
});
