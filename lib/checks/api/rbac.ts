/**
 * rbac.authorization.k8s.io/v1 (pkg/apis/rbac/validation): roles and bindings.
 */
import { checkDns1123Subdomain } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, checkLabelSelector, invalid, isRecord, list, unsupported } from './common';

/** ValidateRole, ValidateClusterRole (ValidatePolicyRule), ValidateRoleBinding, ValidateClusterRoleBinding. */
export function checkRbac(add: Add, obj: KubeObject): void {
  if (obj.kind === 'Role' || obj.kind === 'ClusterRole') {
    list(obj.rules).forEach((r, i) => {
      const at = join('rules', i);
      if (!Array.isArray(r.verbs) || r.verbs.length === 0) add(RULES.apiRbac, join(at, 'verbs'), 'Required value: verbs must contain at least one value');
      const urls = Array.isArray(r.nonResourceURLs) ? r.nonResourceURLs : [];
      if (urls.length > 0) {
        if (obj.kind === 'Role') add(RULES.apiRbac, join(at, 'nonResourceURLs'), 'Invalid value: ' + show(urls) + ': namespaced rules cannot apply to non-resource URLs');
        if ((Array.isArray(r.apiGroups) && r.apiGroups.length > 0) || (Array.isArray(r.resources) && r.resources.length > 0)) {
          add(RULES.apiRbac, join(at, 'nonResourceURLs'), 'Invalid value: ' + show(urls) + ': rules cannot apply to both regular resources and non-resource URLs');
        }
        return;
      }
      if (!Array.isArray(r.resources) || r.resources.length === 0) add(RULES.apiRbac, join(at, 'resources'), 'Required value: resource rules must supply at least one resource');
      if (!Array.isArray(r.apiGroups) || r.apiGroups.length === 0) add(RULES.apiRbac, join(at, 'apiGroups'), 'Required value: resource rules must supply at least one api group');
    });
    // ValidateClusterRole: an aggregationRule has at least one selector, each a valid label selector.
    if (obj.kind === 'ClusterRole' && isRecord(obj.aggregationRule)) {
      const selectors: unknown[] = Array.isArray(obj.aggregationRule.clusterRoleSelectors) ? obj.aggregationRule.clusterRoleSelectors : [];
      if (selectors.length === 0) add(RULES.apiRbac, 'aggregationRule.clusterRoleSelectors', 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil');
      selectors.forEach((sel, i) => checkLabelSelector(add, join('aggregationRule', 'clusterRoleSelectors', i), sel));
    }
    return;
  }
  const roleRef = isRecord(obj.roleRef) ? obj.roleRef : {};
  const kinds = obj.kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(roleRef.kind)) add(RULES.apiRbac, 'roleRef.kind', unsupported(roleRef.kind ?? '', kinds));
  // SetDefaults_RoleBinding and SetDefaults_Subject fill an empty apiGroup in.
  if (roleRef.apiGroup !== undefined && roleRef.apiGroup !== '' && roleRef.apiGroup !== 'rbac.authorization.k8s.io') add(RULES.apiRbac, 'roleRef.apiGroup', unsupported(roleRef.apiGroup ?? '', ['rbac.authorization.k8s.io']));
  if (typeof roleRef.name !== 'string' || roleRef.name === '') add(RULES.apiRbac, 'roleRef.name', 'Required value');
  list(obj.subjects).forEach((s, i) => {
    const at = join('subjects', i);
    if (typeof s.name !== 'string' || s.name === '') add(RULES.apiRbac, join(at, 'name'), 'Required value');
    if (s.kind === 'ServiceAccount') {
      if (s.apiGroup !== undefined && s.apiGroup !== '') add(RULES.apiRbac, join(at, 'apiGroup'), unsupported(s.apiGroup, ['']));
      if (obj.kind === 'ClusterRoleBinding' && (typeof s.namespace !== 'string' || s.namespace === '')) add(RULES.apiRbac, join(at, 'namespace'), 'Required value');
      if (typeof s.name === 'string' && s.name !== '') {
        const problem = checkDns1123Subdomain('name', s.name);
        if (problem) add(RULES.apiRbac, join(at, 'name'), invalid(s.name, problem)!);
      }
    } else if (s.kind === 'User' || s.kind === 'Group') {
      if (s.apiGroup !== undefined && s.apiGroup !== '' && s.apiGroup !== 'rbac.authorization.k8s.io') add(RULES.apiRbac, join(at, 'apiGroup'), unsupported(s.apiGroup ?? '', ['rbac.authorization.k8s.io']));
    } else {
      add(RULES.apiRbac, join(at, 'kind'), unsupported(s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
}
