/**
 * The corpus' building blocks: the case type, the namespace it is applied in,
 * one clean object of every kind, and `make`, which derives a case from one of
 * them by a change.
 */
import { cleanDaemonSet, podOf } from '../checks/baseline';

/**
 * The namespace the corpus is applied in: it enforces and warns Pod Security
 * "restricted" v1.28. CORPUS_NAMESPACE sets another (to share a cluster).
 */
export const CORPUS_NAMESPACE = process.env.CORPUS_NAMESPACE || 'corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/**
 * The Kubernetes minors whose API servers CI asks every case (the local
 * cluster's bundles, e2e/cluster.sh): each case records each one's verdict.
 */
export const SERVER_VERSIONS = ['1.32', '1.35'] as const;
/** A version of {@link SERVER_VERSIONS}. */
export type ServerVersion = (typeof SERVER_VERSIONS)[number];
/**
 * The versions the checks are held to the corpus at, offline: their default,
 * 1.28 (no server of it runs in CI), and each server's.
 */
export const CHECKED_VERSIONS = ['1.28', ...SERVER_VERSIONS] as const;
/** A version of {@link CHECKED_VERSIONS}. */
export type CheckedVersion = (typeof CHECKED_VERSIONS)[number];
/** A server's answer to a file. */
export type Verdict = 'accepted' | 'refused';

/** What depends on the Kubernetes version in a case: one server's verdict, 1.28's, the warnings. */
export interface VersionFacts {
  /** The verdict of this version's server, where it is not {@link CorpusCase.server} (measured by e2e/agreement.ts). */
  readonly servers?: { readonly [V in ServerVersion]?: Verdict };
  /**
   * The verdict of a 1.28 server, where it is not the 1.32 one's. Not
   * measured (CI runs no 1.28 server): read from the 1.28 sources and schema,
   * and said in `why`.
   */
  readonly at128?: Verdict;
  /**
   * The warnings this version's server gives (not Pod Security's "would
   * violate", which is a verdict): a text each warning line holds, starting
   * with the field path the server names. A server version not listed gives
   * none. The 1.28 entry, when given, is read from the 1.28 sources, not
   * measured; without it the checks' warnings are not held at 1.28.
   */
  readonly warnings?: { readonly [V in CheckedVersion]?: readonly string[] };
  /** Why the answer depends on the version: the release, the feature gate, the Kubernetes function. */
  readonly why?: string;
}

/** One manifest and the verdict the API server gives it. */
export interface CorpusCase extends VersionFacts {
  /** A file name stem: `daemonset-maxsurge-and-maxunavailable`. */
  readonly id: string;
  /** The objects of the file. */
  readonly objects: Obj[];
  /** The file's text, when it is not the objects' YAML (a YAML-level case); the objects are then empty. */
  readonly text?: string;
  /** Whether the server accepts the file (and Pod Security admits its pods): every server version's verdict, but where `servers` gives another. */
  readonly server: Verdict;
  /** `kubectl apply --server-side` (no last-applied annotation), for objects larger than client-side apply takes. */
  readonly apply?: 'server-side';
}

export const labels = { app: 'agent' };

/** The clean pod spec of the checks' own tests: restricted, small, pinned. */
export function pod(): Obj {
  return podOf(cleanDaemonSet());
}

export function daemonSet(): Obj {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', labels },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pod() } },
  };
}

export function deployment(): Obj {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pod() } },
  };
}

export function statefulSet(): Obj {
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
    spec: { serviceName: 'db', replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pod() } },
  };
}

export function replicaSet(): Obj {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pod() } },
  };
}

export function job(): Obj {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job' }, spec: { template: { spec: { ...pod(), restartPolicy: 'Never' } } } };
}

export function cronJob(): Obj {
  return {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cron' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...pod(), restartPolicy: 'OnFailure' } } } } },
  };
}

export function service(): Obj {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } };
}

export const configMap = (): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'agent.conf': 'level=info' } });
export const secret = (): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' }, type: 'Opaque', stringData: { token: 'x' } });
export const serviceAccount = (): Obj => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent' } });
export const role = (): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] });
export const clusterRole = (): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'corpus-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
export const roleBinding = (): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'reader' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'agent' }],
});
export const clusterRoleBinding = (): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'corpus-reader' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'corpus-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: CORPUS_NAMESPACE }],
});
export const priorityClass = (): Obj => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'corpus-agents' }, value: 1000000 });
export const pdb = (): Obj => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
export const namespace = (): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'corpus-extra' } });
export const barePod = (): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod' }, spec: pod() });
export const crd = (): Obj => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'agents.corpus.example.com' },
  spec: {
    group: 'corpus.example.com', scope: 'Namespaced', names: { plural: 'agents', singular: 'agent', kind: 'Agent', listKind: 'AgentList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', properties: { phase: { type: 'string' } } } } } },
    }],
  },
});

/** A case from a base object and a change to it (and what in it depends on the version). */
export function make(id: string, base: () => Obj, server: CorpusCase['server'], change: (o: Obj, p: Obj, c: Obj) => void = () => undefined, versions: VersionFacts = {}): CorpusCase {
  const o = base();
  const p = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec ?? o.spec ?? {};
  change(o, p, p.containers?.[0] ?? {});
  return { id, objects: [o], server, ...versions };
}

/** The verdict of this version's server on a case (recorded). */
export function serverVerdict(c: CorpusCase, version: ServerVersion): Verdict {
  return c.servers?.[version] ?? c.server;
}

/** The verdict the checks must give at this version: that server's, and for 1.28 a 1.28 server's. */
export function expectedVerdict(c: CorpusCase, version: CheckedVersion): Verdict {
  return version === '1.28' ? c.at128 ?? serverVerdict(c, '1.32') : serverVerdict(c, version);
}

/** The verdicts, short, for the case lists. */
export const ok = 'accepted' as const;
export const no = 'refused' as const;

/**
 * A Namespace of the corpus with Pod Security labels (`enforce`, and `warn`
 * when given, and `enforce-version` when given); cases that use one hold it,
 * and agreement.ts creates it first.
 */
export function podSecurityNamespace(enforce: string | undefined, warn?: string, enforceVersion?: string): Obj {
  const labels: Record<string, string> = {};
  if (enforce) labels['pod-security.kubernetes.io/enforce'] = enforce;
  if (enforceVersion) labels['pod-security.kubernetes.io/enforce-version'] = enforceVersion;
  if (warn) labels['pod-security.kubernetes.io/warn'] = warn;
  const version = enforceVersion ? `-${enforceVersion.replace(/\./g, '-')}` : '';
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${CORPUS_NAMESPACE}-${enforce ?? 'unlabelled'}${version}${warn ? `-warn-${warn}` : ''}`, labels } };
}

/** A case of objects in a namespace of the input with these Pod Security labels. */
export function inNamespace(id: string, ns: Obj, server: CorpusCase['server'], ...objects: Obj[]): CorpusCase {
  return { id, server, objects: [ns, ...objects.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns.metadata.name } }))] };
}

/** A case from a base object and a change, in a namespace of the input with these Pod Security labels. */
export function makeIn(id: string, ns: Obj, base: () => Obj, server: CorpusCase['server'], change: (o: Obj, p: Obj, c: Obj) => void = () => undefined, versions: VersionFacts = {}): CorpusCase {
  return { ...inNamespace(id, ns, server, ...make(id, base, server, change).objects), ...versions };
}

/** A case whose file is this YAML text (for what the objects' YAML cannot show). */
export function text(id: string, yaml: string, server: CorpusCase['server']): CorpusCase {
  return { id, objects: [], text: yaml, server };
}
