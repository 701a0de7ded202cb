/**
 * What an RBAC rule grants, one permission at a time, and which grants are
 * dangerous. A rule grants every combination of its API groups, resources,
 * verbs and resource names (or non-resource URLs and verbs), with `*`
 * matching anything in verbs, API groups and resources (pkg/apis/rbac/v1
 * evaluation_helpers.go: VerbMatches, APIGroupMatches, ResourceMatches;
 * plugin/pkg/auth/authorizer/rbac: RuleAllows), but not in resourceNames:
 * ResourceNameMatches compares names literally, so `resourceNames: ["*"]`
 * grants the one object named `*` (v1.28 to v1.36 alike). Which grants are
 * dangerous is ./rbac-policy.ts's to say.
 */
import { isRecord } from '../k8s/syntax';
import { KubeObject } from './finding';
import { checkRbacPolicy, DANGEROUS_BUILT_IN_ROLES } from './rbac-policy';
import { RULES } from './rules';

/** One permission: a verb on a resource of a group (with a name, or any), or on a non-resource URL. */
export interface Grant {
  /** The API group ('' for the core group), `*` for any. */
  readonly group: string;
  /** The resource, with its subresource (`nodes/proxy`), `*` for any; '' for a non-resource URL. */
  readonly resource: string;
  /** The verb, `*` for any. */
  readonly verb: string;
  /** A resource name, taken literally (`*` is an object named `*`), undefined for any name; or the non-resource URL. */
  readonly name?: string;
  /** Whether `name` is a non-resource URL. */
  readonly url: boolean;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Every permission a list of rules grants, expanded (a rule without `resourceNames` grants any name; a name is literal). */
export function grantsOf(rules: unknown): Grant[] {
  const grants: Grant[] = [];
  for (const rule of Array.isArray(rules) ? rules : []) {
    if (!isRecord(rule)) continue;
    const verbs = strings(rule.verbs);
    for (const url of strings(rule.nonResourceURLs)) {
      for (const verb of verbs) grants.push({ group: '', resource: '', verb, name: url, url: true });
    }
    const names = strings(rule.resourceNames);
    for (const group of strings(rule.apiGroups)) {
      for (const resource of strings(rule.resources)) {
        for (const verb of verbs) {
          if (names.length === 0) grants.push({ group, resource, verb, url: false });
          for (const name of names) grants.push({ group, resource, verb, name, url: false });
        }
      }
    }
  }
  return grants;
}

const matches = (have: string, want: string) => have === '*' || have === want;

/** Whether `have` allows everything `want` allows (a URL ending in `*` covers its prefix, as RBAC matches it). */
export function covers(have: Grant, want: Grant): boolean {
  if (have.url !== want.url) return false;
  if (have.url) {
    const [h, w] = [have.name ?? '', want.name ?? ''];
    return matches(have.verb, want.verb) && (h === w || h === '*' || (h.endsWith('*') && w.startsWith(h.slice(0, -1))));
  }
  // ResourceNameMatches: no names is any name; a name matches only itself.
  const name = have.name === undefined || have.name === want.name;
  const resource = have.resource === '*' || have.resource === want.resource || (have.resource.startsWith('*/') && want.resource.endsWith(have.resource.slice(1)));
  return matches(have.group, want.group) && resource && matches(have.verb, want.verb) && name;
}

/** The grants of `next` that no grant of `old` covers. */
export function grantsAdded(old: readonly Grant[], next: readonly Grant[]): Grant[] {
  return next.filter((g) => !old.some((o) => covers(o, g)));
}

/**
 * Why a grant is dangerous, or undefined: the policy of ./rbac-policy.ts
 * (rule rbac-dangerous) asked of a one-grant Role, or ClusterRole when
 * `clusterWide`.
 */
export function dangerousGrant(grant: Grant, clusterWide: boolean): string | undefined {
  const rule = grant.url
    ? { nonResourceURLs: [grant.name ?? ''], verbs: [grant.verb] }
    : { apiGroups: [grant.group], resources: [grant.resource], verbs: [grant.verb], ...(grant.name === undefined ? {} : { resourceNames: [grant.name] }) };
  const [problem] = checkRbacPolicy({ kind: clusterWide ? 'ClusterRole' : 'Role', rules: [rule] });
  return problem?.message;
}

/** Why binding this role is dangerous (cluster-admin, admin, edit, or a built-in role of DANGEROUS_BUILT_IN_ROLES), or undefined. */
export function dangerousRoleRef(binding: KubeObject): string | undefined {
  const problem = checkRbacPolicy(binding).find((p) => p.rule === RULES.rbacDangerous);
  const ref = isRecord(binding.roleRef) ? binding.roleRef : {};
  const builtIn = ref.kind === 'ClusterRole' && typeof ref.name === 'string' && Object.prototype.hasOwnProperty.call(DANGEROUS_BUILT_IN_ROLES, ref.name) ? `the built-in ClusterRole grants ${DANGEROUS_BUILT_IN_ROLES[ref.name]}` : undefined;
  return problem?.message ?? builtIn;
}

/** A grant as one line: `get secrets`, `list apps/deployments`, `get /metrics`, `* pods "a"`. */
export function formatGrant(grant: Grant): string {
  if (grant.url) return `${grant.verb} ${grant.name}`;
  const resource = grant.group === '' ? grant.resource : `${grant.group}/${grant.resource}`;
  return `${grant.verb} ${resource}${grant.name === undefined ? '' : ` "${grant.name}"`}`;
}

/** A binding's subject as one word: `ServiceAccount monitoring/agent`, `Group system:nodes`. */
export function formatSubject(subject: unknown): string {
  if (!isRecord(subject)) return JSON.stringify(subject);
  const namespace = typeof subject.namespace === 'string' && subject.namespace !== '' ? `${subject.namespace}/` : '';
  return `${String(subject.kind)} ${namespace}${String(subject.name)}`;
}

/**
 * Subjects that stand for many identities: every authenticated user, every
 * unauthenticated request (the user system:anonymous, the group
 * system:unauthenticated: k8s.io/apiserver/pkg/authentication/request/anonymous),
 * every service account.
 */
export function broadSubject(subject: unknown): string | undefined {
  if (isRecord(subject) && subject.kind === 'User' && subject.name === 'system:anonymous') return 'the user system:anonymous: every request without credentials, when anonymous auth is on (the default)';
  if (!isRecord(subject) || subject.kind !== 'Group') return undefined;
  return ['system:authenticated', 'system:unauthenticated', 'system:serviceaccounts'].includes(String(subject.name)) || String(subject.name).startsWith('system:serviceaccounts:') ? `the group ${String(subject.name)}: many identities` : undefined;
}
