/**
 * What the agents e2e (agents.ts) reads from a manifest file: its objects,
 * DaemonSets and images, and the `kubectl auth can-i` questions its RBAC
 * rules raise. Pure functions of the YAML: the e2e is driven by the files, so
 * another agent's manifest drops in unchanged.
 */
import * as fs from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as a manifest holds it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

/** Every object of a multi-document YAML file (empty documents skipped, `kind: List` flattened). */
export function readManifest(file: string): K8sObject[] {
  return parseManifest(fs.readFileSync(file, 'utf-8'), file);
}

/** Every object of multi-document YAML text; `source` names it in errors. */
export function parseManifest(text: string, source: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      throw new Error(`${source}: not YAML: ${doc.errors[0].message}`);
    }
    const value = doc.toJSON();
    if (value === null || value === undefined) {
      continue;
    }
    for (const o of value.kind === 'List' ? value.items ?? [] : [value]) {
      if (typeof o?.kind !== 'string' || typeof o?.apiVersion !== 'string' || typeof o?.metadata?.name !== 'string') {
        throw new Error(`${source}: a document without apiVersion, kind and metadata.name: ${JSON.stringify(o).slice(0, 120)}`);
      }
      objects.push(o);
    }
  }
  return objects;
}

/** Kinds the library emits that live outside any namespace. */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'CustomResourceDefinition',
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'RuntimeClass', 'Node']);

/** Whether the kind lives outside any namespace. */
export function isClusterScoped(o: K8sObject): boolean {
  return CLUSTER_SCOPED.has(o.kind);
}

/** `Kind/name` or `namespace/Kind/name`, for messages. */
export function describe(o: K8sObject): string {
  return isClusterScoped(o) ? `${o.kind}/${o.metadata.name}` : `${o.metadata.namespace ?? '(no namespace)'}/${o.kind}/${o.metadata.name}`;
}

/** The `kubectl get` arguments that name exactly this object: `kind.group name [-n ns]`. */
export function getArgs(o: K8sObject): string[] {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  const kind = group ? `${o.kind}.${o.apiVersion.split('/')[1]}.${group}` : o.kind;
  return isClusterScoped(o) ? [kind, o.metadata.name] : [kind, o.metadata.name, '-n', o.metadata.namespace ?? 'default'];
}

/** Workloads: the objects whose pods need their images on the node. */
export const WORKLOAD_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

/** The pod spec of a workload object. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function podSpec(o: K8sObject): any {
  if (o.kind === 'Pod') {
    return o.spec ?? {};
  }
  if (o.kind === 'CronJob') {
    return o.spec?.jobTemplate?.spec?.template?.spec ?? {};
  }
  return o.spec?.template?.spec ?? {};
}

/** Every image the workloads of the file run, init containers included. */
export function images(objects: K8sObject[]): string[] {
  const all = objects.filter((o) => WORKLOAD_KINDS.has(o.kind)).flatMap((o) => {
    const spec = podSpec(o);
    return [...spec.initContainers ?? [], ...spec.containers ?? []].map((c) => String(c.image));
  });
  return [...new Set(all)];
}

/** Host paths the kubelet creates when they are missing (hostPath type DirectoryOrCreate or FileOrCreate). */
export function createdHostPaths(objects: K8sObject[]): string[] {
  const all = objects.filter((o) => WORKLOAD_KINDS.has(o.kind)).flatMap((o) => (podSpec(o).volumes ?? [])
    .filter((v: { hostPath?: { type?: string } }) => v.hostPath?.type === 'DirectoryOrCreate' || v.hostPath?.type === 'FileOrCreate')
    .map((v: { hostPath: { path: string } }) => v.hostPath.path));
  return [...new Set<string>(all)];
}

/**
 * The name containerd's CRI gives an image reference (what the node reports
 * in status.images): docker.io/ and library/ when the first part is not a
 * registry host, `:latest` when there is no tag or digest.
 */
export function fullImageName(ref: string): string {
  let name = ref;
  const first = name.split('/')[0];
  if (!name.includes('/')) {
    name = `docker.io/library/${name}`;
  } else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') {
    name = `docker.io/${name}`;
  }
  const last = name.split('/').pop() ?? '';
  return last.includes(':') || last.includes('@') ? name : `${name}:latest`;
}

/** What a question asks, as a SubjectAccessReview's spec has it. */
export interface AccessAttributes {
  /** The service account's user name, `system:serviceaccount:NS:NAME`. */
  user: string;
  verb: string;
  /** A resource question: its API group ('' for the core group), resource, subresource, name, namespace (none: every namespace). */
  resource?: { group: string; resource: string; subresource?: string; name?: string; namespace?: string };
  /** A non-resource question: the URL path. */
  path?: string;
}

/** One question to the authorizer and the answer the manifest implies. */
export interface AccessCheck {
  /** `kubectl auth can-i` arguments after `auth can-i`. */
  args: string[];
  /** The same question as a SubjectAccessReview asks it. */
  attributes: AccessAttributes;
  /** The answer the manifest's RBAC implies. */
  want: 'yes' | 'no';
  /** Which rule or neighbour the question comes from. */
  why: string;
}

/** An RBAC rule as a (Cluster)Role holds it. */
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

/** Rules of roles the file binds but does not contain (e.g. `view`), as the server has them. */
export type RoleLookup = (kind: 'ClusterRole' | 'Role', name: string, namespace?: string) => PolicyRule[] | undefined;

/** The verbs a neighbour question picks from: the first one a rule does not grant. */
const RESOURCE_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const NON_RESOURCE_VERBS = ['get', 'post', 'put', 'delete'];

/**
 * A grant: one subject may use these rules in this scope (undefined
 * namespace: every namespace). `fromServer`: the role is the server's (e.g.
 * `view`), only its binding is the manifest's.
 */
interface Grant { rules: PolicyRule[]; namespace?: string; role: string; roleId: string; fromServer: boolean }

function matches(list: string[] | undefined, value: string): boolean {
  return (list ?? []).some((v) => v === '*' || v === value);
}

/** Whether any grant covers verb on group/resource(/name) in namespace (RBAC's rule matching, without wildcards in paths). */
function granted(grants: Grant[], verb: string, group: string, resource: string, name: string | undefined, namespace: string | undefined): boolean {
  return grants.some((g) => (g.namespace === undefined || g.namespace === namespace) && g.rules.some((r) =>
    matches(r.verbs, verb) && matches(r.apiGroups, group) && matches(r.resources, resource) &&
    (name === undefined ? (r.resourceNames ?? []).length === 0 : (r.resourceNames ?? []).length === 0 || r.resourceNames!.includes(name))));
}

function grantedUrl(grants: Grant[], verb: string, url: string): boolean {
  return grants.some((g) => g.namespace === undefined && g.rules.some((r) =>
    matches(r.verbs, verb) && (r.nonResourceURLs ?? []).some((u) => u === url || u === '*' || (u.endsWith('*') && url.startsWith(u.slice(0, -1))))));
}

/** `pods`, `deployments.apps`, `pods/NAME`, with `--subresource=log` for `pods/log`. */
function resourceArgs(group: string, resource: string, name?: string): string[] {
  const [base, sub] = resource.split('/');
  const typed = group === '' ? base : `${base}.${group}`;
  return [name === undefined ? typed : `${typed}/${name}`, ...sub ? [`--subresource=${sub}`] : []];
}

function resourceAttributes(user: string, verb: string, group: string, resource: string, name: string | undefined, namespace: string | undefined): AccessAttributes {
  const [base, subresource] = resource.split('/');
  return { user, verb, resource: { group, resource: base, ...subresource ? { subresource } : {}, ...name !== undefined ? { name } : {}, ...namespace !== undefined ? { namespace } : {} } };
}

/**
 * The name `kubectl auth can-i` resolves a resource question by (`pods`,
 * `daemonsets.apps`): a group the server does not serve (e.g. `extensions`,
 * gone since 1.22) it cannot name, and asks about resource `daemonsets.extensions`
 * of the core group instead.
 */
export function servedName(attributes: AccessAttributes): string | undefined {
  const r = attributes.resource;
  return r === undefined ? undefined : r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

/** The SubjectAccessReview that asks the authorizer the question directly, with the groups a service account has. */
export function subjectAccessReview(a: AccessAttributes): K8sObject {
  const namespace = a.user.split(':')[2];
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    // The API server refuses any metadata on a review.
    metadata: {} as K8sObject['metadata'],
    spec: {
      user: a.user,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
      ...a.resource ? { resourceAttributes: { verb: a.verb, ...a.resource } } : { nonResourceAttributes: { verb: a.verb, path: a.path } },
    },
  };
}

function scopeArgs(namespace: string | undefined): string[] {
  return namespace === undefined ? ['--all-namespaces'] : ['-n', namespace];
}

/**
 * The `kubectl auth can-i` questions the RBAC of the objects raises, for the
 * service accounts they hold and their workloads run as: yes for every verb, resource and
 * resource name a bound rule grants (non-resource URLs through cluster role
 * bindings), no for a neighbour none of the subject's rules grants: another
 * verb, another name, another namespace for a namespaced binding. A role the
 * manifest binds but the server holds (e.g. `view`) is asked the first
 * resource and verb of each rule, with its neighbours: its rules are the
 * server's, the binding is the manifest's. Throws when a role of the file
 * reaches none of those accounts.
 */
export function accessChecks(objects: K8sObject[], lookup: RoleLookup = () => undefined): AccessCheck[] {
  const accounts = new Set([
    ...objects.filter((o) => WORKLOAD_KINDS.has(o.kind)).map((o) => `${o.metadata.namespace ?? 'default'}:${podSpec(o).serviceAccountName ?? 'default'}`),
    ...objects.filter((o) => o.kind === 'ServiceAccount').map((o) => `${o.metadata.namespace ?? 'default'}:${o.metadata.name}`),
  ]);
  const roleRules = (kind: 'ClusterRole' | 'Role', name: string, namespace?: string): { rules: PolicyRule[]; fromServer: boolean } => {
    const own = objects.find((o) => o.kind === kind && o.metadata.name === name && (kind === 'ClusterRole' || o.metadata.namespace === namespace));
    // An aggregated ClusterRole's rules are filled in by the controller: ask the server.
    const fromServer = !own || own.aggregationRule !== undefined;
    const rules = fromServer ? lookup(kind, name, namespace) : own.rules ?? [];
    if (rules === undefined) {
      throw new Error(`${kind} ${namespace ? `${namespace}/` : ''}${name} is bound but is neither in the manifest nor on the server`);
    }
    return { rules, fromServer };
  };
  const grants = new Map<string, Grant[]>();
  for (const b of objects.filter((o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding')) {
    const namespace = b.kind === 'RoleBinding' ? b.metadata.namespace ?? 'default' : undefined;
    const { rules, fromServer } = roleRules(b.roleRef.kind, b.roleRef.name, namespace);
    for (const s of b.subjects ?? []) {
      const account = `${s.namespace ?? b.metadata.namespace ?? 'default'}:${s.name}`;
      if (s.kind === 'ServiceAccount' && accounts.has(account)) {
        const roleId = `${b.roleRef.kind} ${b.roleRef.kind === 'Role' ? `${namespace}/` : ''}${b.roleRef.name}`;
        grants.set(account, [...grants.get(account) ?? [], { rules, namespace, roleId, fromServer, role: `${b.roleRef.kind} ${b.roleRef.name} via ${b.kind} ${b.metadata.name}` }]);
      }
    }
  }
  // A role in the file that reaches none of those accounts grants the agent nothing: a wrong subject or roleRef.
  // One the file binds to a User or Group is for them (e.g. kubeadm's bootstrap tokens), not the agent.
  const reached = new Set([...grants.values()].flat().map((g) => g.roleId));
  for (const b of objects.filter((o) => (o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding') && (o.subjects ?? []).some((s: { kind?: string }) => s.kind === 'User' || s.kind === 'Group'))) {
    reached.add(`${b.roleRef.kind} ${b.roleRef.kind === 'Role' ? `${b.metadata.namespace ?? 'default'}/` : ''}${b.roleRef.name}`);
  }
  // ClusterRoles that aggregate into others (e.g. view) are for people, not the agent.
  const aggregated = (o: K8sObject) => Object.keys(o.metadata.labels ?? {}).some((k) => k.startsWith('rbac.authorization.k8s.io/aggregate-to-'));
  for (const r of objects.filter((o) => (o.kind === 'ClusterRole' || o.kind === 'Role') && !aggregated(o))) {
    if (accounts.size > 0 && !reached.has(`${r.kind} ${r.kind === 'Role' ? `${r.metadata.namespace ?? 'default'}/` : ''}${r.metadata.name}`)) {
      throw new Error(`${r.kind} ${r.metadata.name} is bound to none of the service accounts the manifest holds or runs as (${[...accounts].join(', ')}): no binding names them, or one names another account`);
    }
  }
  const checks: AccessCheck[] = [];
  const seen = new Set<string>();
  const add = (args: string[], attributes: AccessAttributes, want: 'yes' | 'no', why: string) => {
    const key = args.join(' ');
    if (!seen.has(key)) {
      seen.add(key);
      checks.push({ args, attributes, want, why });
    }
  };
  for (const [account, accountGrants] of grants) {
    const user = `system:serviceaccount:${account}`;
    const as = `--as=${user}`;
    const res = (verb: string, group: string, resource: string, name: string | undefined, namespace: string | undefined): [string[], AccessAttributes] =>
      [[verb, ...resourceArgs(group, resource, name), as, ...scopeArgs(namespace)], resourceAttributes(user, verb, group, resource, name, namespace)];
    for (const g of accountGrants) {
      // A role of the server's is asked one resource (or URL) and verb per rule: that the binding reaches it.
      const some = <T>(list: T[] | undefined): T[] => (g.fromServer ? (list ?? []).slice(0, 1) : list ?? []);
      for (const r of g.rules) {
        for (const url of some(r.nonResourceURLs)) {
          if (g.namespace !== undefined) {
            continue; // non-resource URLs are granted through cluster role bindings only
          }
          for (const verb of some(r.verbs)) {
            add([verb, url, as], { user, verb, path: url }, 'yes', g.role);
          }
          const other = NON_RESOURCE_VERBS.find((v) => !grantedUrl(accountGrants, v, url));
          if (other) {
            add([other, url, as], { user, verb: other, path: url }, 'no', `another verb than ${g.role} grants`);
          }
        }
        for (const group of some(r.apiGroups)) {
          for (const resource of some(r.resources)) {
            const names = (r.resourceNames ?? []).length > 0 ? r.resourceNames! : [undefined];
            for (const verb of some(r.verbs)) {
              for (const name of names) {
                add(...res(verb, group, resource, name, g.namespace), 'yes', g.role);
              }
            }
            const verb = r.verbs[0];
            const other = RESOURCE_VERBS.find((v) => !granted(accountGrants, v, group, resource, names[0], g.namespace));
            if (other) {
              add(...res(other, group, resource, names[0], g.namespace), 'no', `another verb than ${g.role} grants`);
            }
            if (names[0] !== undefined) {
              const name = `${names[0]}-not-granted`;
              if (!granted(accountGrants, verb, group, resource, name, g.namespace)) {
                add(...res(verb, group, resource, name, g.namespace), 'no', `another name than ${g.role} grants`);
              }
            }
            if (g.namespace !== undefined) {
              const elsewhere = g.namespace === 'kube-public' ? 'default' : 'kube-public';
              if (!granted(accountGrants, verb, group, resource, names[0], elsewhere)) {
                add(...res(verb, group, resource, names[0], elsewhere), 'no', `another namespace than ${g.role} grants`);
              }
            }
          }
        }
      }
    }
  }
  return checks;
}
