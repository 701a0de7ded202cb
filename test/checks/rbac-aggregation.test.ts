/**
 * RBAC aggregation as the clusterrole-aggregation controller does it, with
 * the built-in aggregated roles of bootstrappolicy/policy.go (issue 33).
 */
import { carriers, gathered, rbacSide } from '../../lib/checks/rbac-aggregation';

const RBAC = 'rbac.authorization.k8s.io/v1';
const none = rbacSide([]);

describe('RBAC aggregation', () => {
  test('a label aggregate-to-view is carried by view, then edit (view is labelled aggregate-to-edit), then admin', () => {
    expect(carriers('mine', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, none)).toEqual(['view', 'edit', 'admin']);
  });

  test('a label no aggregationRule selects is carried by none', () => {
    expect(carriers('mine', { team: 'a' }, none)).toEqual([]);
  });

  test('an aggregationRule of the input carries what it selects', () => {
    const side = rbacSide([{ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'gatherer' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team: 'a' } }] } }]);
    expect(carriers('mine', { team: 'a' }, side)).toEqual(['gatherer']);
  });

  test('a selector of aggregate-to-admin gathers edit and what edit gathers', () => {
    expect(gathered('mine', [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }], none)).toEqual(['edit', 'system:aggregate-to-admin', 'view', 'system:aggregate-to-edit', 'system:aggregate-to-view']);
  });

  test('an empty selector gathers every ClusterRole, cluster-admin included', () => {
    expect(gathered('mine', [{}], none)).toEqual(expect.arrayContaining(['cluster-admin', 'admin', 'edit', 'view']));
  });

  test('a role of the input replaces a built-in one of its name', () => {
    const side = rbacSide([{ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'view' }, rules: [] }]);
    expect(carriers('mine', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, side)).toEqual([]);
  });
});
