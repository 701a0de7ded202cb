/**
 * The impacts of a change on what the cluster allows: refused updates
 * (immutable), RBAC grants and subjects, Pod Security, and what is pruned.
 * The rules are asked of lib/checks.
 */
import { KubeObject } from '../checks/finding';
import { immutableChanges } from '../checks/immutable';
import { isAtLeastAsStrict, PodSecurityLevel, podSecurityNeeds } from '../checks/pod-security';
import { podTemplateOf } from '../checks/pod-templates';
import { broadSubject, dangerousGrant, formatGrant, formatSubject, grantsAdded, grantsOf } from '../checks/rbac';
import { RbacSide } from '../checks/rbac-aggregation';
import { WAIVER_PREFIX } from '../checks/rules';
import { printable } from '../eligibility/printable';
import { isRecord } from '../k8s/syntax';
import { aggregationImpacts, boundRoleDanger } from './rbac-effective';
import { Impact } from './types';

/** immutable: each field the server refuses to change on update, with the recipe. */
export function immutableImpacts(old: KubeObject, next: KubeObject): Impact[] {
  return immutableChanges(old, next).map((c) => ({
    kind: 'immutable', warning: true, fields: [c.path], source: c.citation, recipe: c.recipe,
    message: `${c.path} cannot change: the API server refuses the update (${c.citation}); ${c.recipe}`,
  }));
}

const RBAC_ROLES = new Set(['Role', 'ClusterRole']);
const RBAC_BINDINGS = new Set(['RoleBinding', 'ClusterRoleBinding']);

const isRbac = (obj: KubeObject | undefined) => obj !== undefined && typeof obj.apiVersion === 'string' && obj.apiVersion.startsWith('rbac.authorization.k8s.io/');

/**
 * rbac-widened and rbac-narrowed: the grants of a Role or ClusterRole, or the
 * subjects of a binding, added and removed (either side may be absent); with
 * both sides' roles, what aggregation carries and what a bound role of the
 * input grants (./rbac-effective).
 */
export function rbacImpacts(old: KubeObject | undefined, next: KubeObject | undefined, sides?: { readonly before: RbacSide; readonly after: RbacSide }): Impact[] {
  const obj = next ?? old!;
  if (!isRbac(obj)) return [];
  const impacts: Impact[] = [];
  if (RBAC_ROLES.has(obj.kind)) {
    const [a, b] = [grantsOf(old?.rules), grantsOf(next?.rules)];
    const added = grantsAdded(a, b);
    const removed = grantsAdded(b, a);
    if (added.length > 0) {
      const dangerous = added.map((g) => [g, dangerousGrant(g, obj.kind === 'ClusterRole')] as const).filter(([, why]) => why !== undefined).map(([g, why]) => `${formatGrant(g)} (${why})`);
      const aggregated = isRecord(next?.aggregationRule) ? ' (and whatever its aggregationRule gathers)' : '';
      impacts.push({
        kind: 'rbac-widened', warning: dangerous.length > 0, added: added.map(formatGrant), ...(dangerous.length > 0 ? { dangerous } : {}),
        message: `grants ${added.map(formatGrant).join(', ')}${aggregated}${dangerous.length > 0 ? `; dangerous: ${dangerous.join(', ')}` : ''}`,
        source: 'plugin/pkg/auth/authorizer/rbac: RuleAllows; dangerous as the rule rbac-dangerous says (https://kubernetes.io/docs/concepts/security/rbac-good-practices/)',
      });
    }
    if (removed.length > 0) {
      impacts.push({ kind: 'rbac-narrowed', warning: false, removed: removed.map(formatGrant), message: `no longer grants ${removed.map(formatGrant).join(', ')} (a running agent that needs them gets 403 Forbidden)` });
    }
    if (next !== undefined && sides !== undefined) impacts.push(...aggregationImpacts(old, next, sides.before, sides.after));
  } else if (RBAC_BINDINGS.has(obj.kind)) {
    const subjects = (o: KubeObject | undefined) => (Array.isArray(o?.subjects) ? o.subjects : []);
    const [a, b] = [subjects(old), subjects(next)];
    const role = isRecord(obj.roleRef) ? `${String(obj.roleRef.kind)} ${String(obj.roleRef.name)}` : 'its role';
    const added = b.filter((s) => !a.some((x) => formatSubject(x) === formatSubject(s)));
    const removed = a.filter((s) => !b.some((x) => formatSubject(x) === formatSubject(s)));
    if (added.length > 0) {
      const roleDanger = boundRoleDanger(obj, sides?.after);
      const dangerous = [
        ...(roleDanger !== undefined ? [`${role} (${roleDanger})`] : []),
        ...added.map((s) => [s, broadSubject(s)] as const).filter(([, why]) => why !== undefined).map(([s, why]) => `${formatSubject(s)} (${why})`),
      ];
      impacts.push({ kind: 'rbac-widened', warning: dangerous.length > 0, added: added.map(formatSubject), ...(dangerous.length > 0 ? { dangerous } : {}), message: `binds ${role} to ${added.map(formatSubject).join(', ')}${dangerous.length > 0 ? `; dangerous: ${dangerous.join(', ')}` : ''}` });
    }
    if (removed.length > 0) {
      impacts.push({ kind: 'rbac-narrowed', warning: false, removed: removed.map(formatSubject), message: `no longer binds ${role} to ${removed.map(formatSubject).join(', ')}` });
    }
  }
  return impacts;
}

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const ENFORCE_VERSION = 'pod-security.kubernetes.io/enforce-version';
const LEVELS = Object.values(PodSecurityLevel) as string[];

const labelsOf = (obj: KubeObject): Record<string, unknown> => (isRecord(obj.metadata) && isRecord(obj.metadata.labels) ? obj.metadata.labels : {});
/** A namespace's enforced level; without the label PSA enforces privileged. */
const enforced = (obj: KubeObject): PodSecurityLevel => (LEVELS.includes(String(labelsOf(obj)[ENFORCE])) ? labelsOf(obj)[ENFORCE] as PodSecurityLevel : PodSecurityLevel.PRIVILEGED);

/** The object's waivers (annotations `checks.node-reporter.dev/waive-<rule>`), rule by reason. */
function waivers(obj: KubeObject): Map<string, string> {
  const annotations = isRecord(obj.metadata) && isRecord(obj.metadata.annotations) ? obj.metadata.annotations : {};
  return new Map(Object.entries(annotations).filter(([k]) => k.startsWith(WAIVER_PREFIX)).map(([k, v]) => [k.slice(WAIVER_PREFIX.length), String(v)]));
}

/** pod-security: a Namespace's enforce level or version changed, or a workload's needed level (by the controls of `policyMinor`) or waivers. */
export function podSecurityImpacts(old: KubeObject, next: KubeObject, policyMinor: number): Impact[] {
  const impacts: Impact[] = [];
  if (next.kind === 'Namespace' && next.apiVersion === 'v1') {
    const [a, b] = [enforced(old), enforced(next)];
    const [va, vb] = [labelsOf(old)[ENFORCE_VERSION] ?? 'latest', labelsOf(next)[ENFORCE_VERSION] ?? 'latest'];
    if (a !== b) {
      const laxer = isAtLeastAsStrict(a, b) && a !== b;
      impacts.push({ kind: 'pod-security', warning: laxer, fields: [`metadata.labels["${ENFORCE}"]`], source: 'pod-security-admission: the namespace\'s enforce label', message: `enforces ${b} instead of ${a}${laxer ? ': laxer, every pod of the namespace may now do more' : ': stricter, pods that need more are refused from now on (running ones stay)'}` });
    }
    if (va !== vb) {
      impacts.push({ kind: 'pod-security', warning: false, fields: [`metadata.labels["${ENFORCE_VERSION}"]`], message: `enforces the controls of ${printable(String(vb))} instead of ${printable(String(va))}` });
    }
    return impacts;
  }
  const [pa, pb] = [podTemplateOf(old), podTemplateOf(next)];
  if (pa === undefined || pb === undefined) return impacts;
  const [wa, wb] = [waivers(old), waivers(next)];
  const added = [...wb].filter(([rule]) => !wa.has(rule));
  const removed = [...wa].filter(([rule]) => !wb.has(rule));
  if (added.length > 0) {
    impacts.push({ kind: 'pod-security', warning: true, added: added.map(([r]) => r), message: `waives ${added.map(([rule, why]) => `${rule} ("${printable(why)}")`).join(', ')}: the checks no longer hold the pod to ${added.length > 1 ? 'these controls' : 'this control'}` });
  }
  if (removed.length > 0) {
    impacts.push({ kind: 'pod-security', warning: false, removed: removed.map(([r]) => r), message: `no longer waives ${removed.map(([rule]) => rule).join(', ')}` });
  }
  const [la, lb] = [podSecurityNeeds(pa, policyMinor).level, podSecurityNeeds(pb, policyMinor).level];
  if (la !== lb) {
    const laxer = isAtLeastAsStrict(la, lb);
    impacts.push({ kind: 'pod-security', warning: laxer, message: `the pod needs Pod Security ${lb} instead of ${la}${laxer ? ': it does more on the node, and a namespace enforcing ' + la + ' refuses it' : ''}`, source: 'pod-security-admission policy checks' });
  }
  return impacts;
}

/** Kinds whose deletion takes more with it. */
const CASCADES: Readonly<Record<string, string>> = {
  DaemonSet: 'its pods stop on every node',
  Deployment: 'its pods stop',
  StatefulSet: 'its pods stop (their volumes stay)',
  CustomResourceDefinition: 'every custom resource of it is deleted',
  PersistentVolumeClaim: 'its volume is released (and deleted, by a Delete reclaim policy)',
};

/** prune: an object removed; a removed Namespace with what it holds. */
export function pruneImpact(old: KubeObject, contents: readonly KubeObject[]): Impact {
  const how = 'kubectl apply --prune (an ApplySet) deletes it; a plain kubectl apply leaves it in the cluster';
  if (old.kind === 'Namespace') {
    const held = contents.map((o) => `${String(o.kind)}/${printable(String(o.metadata?.name ?? ''))}`);
    const list = held.length === 0 ? 'nothing of OLD, but everything else created in it' : `${held.slice(0, 10).join(', ')}${held.length > 10 ? ` and ${held.length - 10} more` : ''}, and everything else created in it`;
    return { kind: 'prune', warning: true, message: `the Namespace is removed: deleting it deletes ${list}; ${how}` };
  }
  const cascade = CASCADES[String(old.kind)];
  return { kind: 'prune', warning: old.kind === 'CustomResourceDefinition', message: `removed${cascade ? `: when deleted, ${cascade}` : ''}; ${how}` };
}
