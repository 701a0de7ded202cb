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

/** One manifest and the verdict the API server gives it. */
export interface CorpusCase {
  /** A file name stem: `daemonset-maxsurge-and-maxunavailable`. */
  readonly id: string;
  /** The objects of the file. */
  readonly objects: Obj[];
  /** The file's text, when it is not the objects' YAML (a YAML-level case); the objects are then empty. */
  readonly text?: string;
  /** Whether the server accepts the file (and Pod Security admits its pods). */
  readonly server: 'accepted' | 'refused';
  /** `kubectl apply --server-side` (no last-applied annotation), for objects larger than client-side apply takes. */
  readonly apply?: 'server-side';
  /**
   * Set when the checks' verdict differs from a 1.32 server's for a reason
   * that 1.28 and 1.32 differ in; the checks' verdict is then the opposite.
   */
  readonly differs?: string;
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

/** A case from a base object and a change to it. */
export function make(id: string, base: () => Obj, server: CorpusCase['server'], change: (o: Obj, p: Obj, c: Obj) => void = () => undefined, differs?: string): CorpusCase {
  const o = base();
  const p = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec ?? o.spec ?? {};
  change(o, p, p.containers?.[0] ?? {});
  return { id, objects: [o], server, differs };
}

/** The verdicts, short, for the case lists. */
export const ok = 'accepted' as const;
export const no = 'refused' as const;

/**
 * A Namespace of the corpus with Pod Security labels (`enforce`, and `warn`
 * when given); cases that use one hold it, and agreement.ts creates it first.
 */
export function podSecurityNamespace(enforce: string | undefined, warn?: string): Obj {
  const labels: Record<string, string> = {};
  if (enforce) labels['pod-security.kubernetes.io/enforce'] = enforce;
  if (warn) labels['pod-security.kubernetes.io/warn'] = warn;
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${CORPUS_NAMESPACE}-${enforce ?? 'unlabelled'}${warn ? `-warn-${warn}` : ''}`, labels } };
}

/** A case of objects in a namespace of the input with these Pod Security labels. */
export function inNamespace(id: string, ns: Obj, server: CorpusCase['server'], ...objects: Obj[]): CorpusCase {
  return { id, server, objects: [ns, ...objects.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns.metadata.name } }))] };
}

/** A case from a base object and a change, in a namespace of the input with these Pod Security labels. */
export function makeIn(id: string, ns: Obj, base: () => Obj, server: CorpusCase['server'], change: (o: Obj, p: Obj, c: Obj) => void = () => undefined): CorpusCase {
  return inNamespace(id, ns, server, ...make(id, base, server, change).objects);
}

/** A case whose file is this YAML text (for what the objects' YAML cannot show). */
export function text(id: string, yaml: string, server: CorpusCase['server']): CorpusCase {
  return { id, objects: [], text: yaml, server };
}
