/**
 * Pruning after adoption, on a real API server: an adopting example applied
 * again as the README's ApplySet recipe says ("Deploying, upgrading and
 * uninstalling"), over the upstream objects it took over. The first prune
 * must prune nothing: every object the example holds becomes a member of
 * the ApplySet, and every upstream object it does not hold (calico's
 * kube-controllers and CRDs, kubeadm's other ConfigMaps and RBAC) is left
 * alone, unlabelled. A second apply of the file with one adopted object
 * dropped prunes exactly that object.
 *
 * Used by adoption.ts (kube-proxy) and adoption-calico.ts (calico-node).
 */
import { evidence, kubectl, step, StepFailed } from './kubectl';
import { describe, getArgs, isClusterScoped, K8sObject, parseManifest } from './manifests';

/** What one prune run needs. */
export interface PruneCase {
  /** The ApplySet's name (its parent Secret's), e.g. the DaemonSet's. */
  readonly name: string;
  /** The file's namespace, where the parent lives. */
  readonly namespace: string;
  /** The example's file name, for the log. */
  readonly file: string;
  /** The example's text, as committed in examples/dist/. */
  readonly example: string;
  /** Upstream objects the example does not hold: each must still exist, and be no member, after every prune. */
  readonly kept: K8sObject[];
  /** `describe()` of the adopted object the second apply drops, e.g. `ClusterRoleBinding/calico-tier-getter`. */
  readonly drop: string;
}

/** How kubectl names an object in its output: `daemonset.apps/calico-node`, `serviceaccount/kube-proxy`. */
export function kubectlRef(o: K8sObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return `${o.kind.toLowerCase()}${group ? `.${group}` : ''}/${o.metadata.name}`;
}

/** The text without the one document whose object is `key` (by `describe()`); fails when it is not there once. */
export function withoutDocument(text: string, key: string): string {
  const documents = text.split(/^---$/m);
  const kept = documents.filter((d) => !parseManifest(d, key).some((o) => describe(o) === key));
  if (kept.length !== documents.length - 1) {
    throw new StepFailed(`wanted one document of ${key} to drop, found ${documents.length - kept.length}`);
  }
  return kept.join('---');
}

/** The ApplySet label of each object, `(none)` when it has none. */
function memberships(objects: K8sObject[]): string[] {
  return objects.map((o) => kubectl(['get', ...getArgs(o), '-o', 'jsonpath={.metadata.labels.applyset\\.kubernetes\\.io/part-of}']).out.trim() || '(none)');
}

/** Fails unless every kept upstream object exists and is no member of any ApplySet. */
function checkKept(kept: K8sObject[], after: string): void {
  const missing = kept.filter((o) => kubectl(['get', ...getArgs(o), '--ignore-not-found', '-o', 'name']).out.trim() === '');
  if (missing.length > 0) {
    throw new StepFailed(`${after} removed upstream objects the example does not hold: ${missing.map(describe).join(', ')}`);
  }
  const labels = memberships(kept);
  const members = kept.filter((_, i) => labels[i] !== '(none)');
  if (members.length > 0) {
    throw new StepFailed(`${after} made upstream objects the example does not hold ApplySet members (a later prune would delete them): ${members.map(describe).join(', ')}`);
  }
  evidence(`all ${kept.length} upstream objects the example does not hold still exist, none an ApplySet member: ${kept.map(describe).join(', ')}`);
}

/** Deletes the ApplySet's parent Secret (README: a file in kube-system leaves it at `kubectl delete -f`). */
export function deleteApplySetParent(name: string, namespace: string): void {
  kubectl(['delete', 'secret', name, '-n', namespace, '--ignore-not-found', '--wait=false'], { allowFail: true });
}

/**
 * Applies the example with ApplySet pruning, as adopted, then a variant
 * without one adopted object; fails on any pruned upstream object. Leaves the
 * objects (and the parent Secret) for the caller's cleanup.
 */
export function pruneAfterAdoption(c: PruneCase): void {
  const objects = parseManifest(c.example, c.file);
  const env = { KUBECTL_APPLYSET: 'true' };
  const flags = ['--prune', `--applyset=${c.name}`, '-n', c.namespace];
  const command = `KUBECTL_APPLYSET=true kubectl apply ${flags.join(' ')} -f ${c.file}`;
  if (kubectl(['get', 'secret', c.name, '-n', c.namespace, '--ignore-not-found', '-o', 'name']).out.trim() !== '') {
    throw new StepFailed(`a Secret ${c.name} exists in ${c.namespace} before the first ApplySet apply: it is not this run's parent`);
  }

  step(`prune after adoption: ${command} (README "Deploying, upgrading and uninstalling")`);
  const first = kubectl(['apply', ...flags, '-f', '-'], { input: c.example, env }).out.trim().split('\n');
  console.log(first.map((l) => `   ${l}`).join('\n'));
  const pruned = first.filter((l) => / pruned$/.test(l));
  if (pruned.length > 0) {
    throw new StepFailed(`the first ApplySet apply over the adopted objects pruned: ${pruned.join('; ')}`);
  }
  const created = first.filter((l) => / created$/.test(l));
  if (created.length > 0) {
    throw new StepFailed(`the first ApplySet apply created objects beside the adopted ones: ${created.join('; ')}`);
  }
  evidence(`pruned nothing; the ${objects.length} adopted objects answered ${[...new Set(first.map((l) => l.split(' ').pop()))].join(', ')}`);
  const labels = memberships(objects);
  if (labels.some((l) => !l.startsWith('applyset-')) || new Set(labels).size !== 1) {
    throw new StepFailed(`not every object of ${c.file} is a member of one ApplySet: ${objects.map((o, i) => `${describe(o)}=${labels[i]}`).join(', ')}`);
  }
  evidence(`all ${objects.length} objects of ${c.file} labelled applyset.kubernetes.io/part-of=${labels[0]} (parent secret/${c.name} in ${c.namespace})`);
  checkKept(c.kept, 'the first prune');

  const dropped = objects.find((o) => describe(o) === c.drop);
  if (dropped === undefined) {
    throw new StepFailed(`${c.file} holds no ${c.drop} to drop`);
  }
  step(`prune after adoption: the same command with ${c.drop} dropped from the file`);
  const second = kubectl(['apply', ...flags, '-f', '-'], { input: withoutDocument(c.example, c.drop), env }).out.trim().split('\n');
  console.log(second.map((l) => `   ${l}`).join('\n'));
  const prunedNow = second.filter((l) => / pruned$/.test(l));
  const wanted = `${kubectlRef(dropped)} pruned`;
  if (prunedNow.length !== 1 || prunedNow[0] !== wanted) {
    throw new StepFailed(`wanted exactly "${wanted}", got: ${prunedNow.join('; ') || 'nothing pruned'}`);
  }
  if (kubectl(['get', ...getArgs(dropped), '--ignore-not-found', '-o', 'name']).out.trim() !== '') {
    throw new StepFailed(`${c.drop} was reported pruned but still exists`);
  }
  const rest = objects.filter((o) => o !== dropped);
  const gone = rest.filter((o) => kubectl(['get', ...getArgs(o), '--ignore-not-found', '-o', 'name']).out.trim() === '');
  if (gone.length > 0) {
    throw new StepFailed(`the second prune removed objects still in the file: ${gone.map(describe).join(', ')}`);
  }
  evidence(`pruned exactly ${describe(dropped)}${isClusterScoped(dropped) ? ' (cluster-scoped)' : ''}; the other ${rest.length} objects of the file remain`);
  checkKept(c.kept, 'the second prune');
}

/**
 * Objects kubeadm v1.35 creates in kube-system and cluster-wide that the
 * kube-proxy example does not hold (its upload-config and bootstrap-token
 * phases), by kubeadm's names: sentinels a prune must leave alone.
 */
const KUBEADM_OTHERS = `
apiVersion: v1
kind: ConfigMap
metadata: { name: kubeadm-config, namespace: kube-system }
data:
  ClusterConfiguration: |
    apiVersion: kubeadm.k8s.io/v1beta4
    kind: ClusterConfiguration
    kubernetesVersion: v1.35.6
---
apiVersion: v1
kind: ConfigMap
metadata: { name: kubelet-config, namespace: kube-system }
data:
  kubelet: |
    apiVersion: kubelet.config.k8s.io/v1beta1
    kind: KubeletConfiguration
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: "kubeadm:nodes-kubeadm-config", namespace: kube-system }
rules: [{ apiGroups: [""], resources: [configmaps], resourceNames: [kubeadm-config], verbs: [get] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: "kubeadm:get-nodes" }
rules: [{ apiGroups: [""], resources: [nodes], verbs: [get] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: "kubeadm:get-nodes" }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "kubeadm:get-nodes" }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:bootstrappers:kubeadm:default-node-token" }]
`;

/** kube-root-ca.crt, which the controller manager publishes in every namespace; created here only when it is absent. */
const ROOT_CA = `
apiVersion: v1
kind: ConfigMap
metadata: { name: kube-root-ca.crt, namespace: kube-system }
data: { ca.crt: "sentinel" }
`;

/**
 * Pruning after kube-proxy's adoption (adoption.ts, after its flow, with the
 * adopted objects in place): kubeadm's other objects created beside them,
 * the example applied with ApplySet pruning, then without kubeadm's
 * RoleBinding kube-proxy. Deletes the sentinels and the parent Secret.
 */
export function pruneKubeProxy(example: string, file: string): void {
  const others = parseManifest(KUBEADM_OTHERS, 'kubeadm sentinels');
  const rootCa = parseManifest(ROOT_CA, 'kube-root-ca.crt')[0];
  step("kubeadm's objects the kube-proxy example does not hold, created beside it: the prune must leave them");
  const createdRootCa = kubectl(['get', ...getArgs(rootCa), '--ignore-not-found', '-o', 'name']).out.trim() === '';
  const created = kubectl(['create', '-f', '-'], { input: createdRootCa ? `${KUBEADM_OTHERS}---${ROOT_CA}` : KUBEADM_OTHERS }).out.trim().split('\n');
  evidence(`${created.join('; ')}${createdRootCa ? '' : `; ${describe(rootCa)} exists (the controller manager's)`}`);
  try {
    pruneAfterAdoption({
      name: 'kube-proxy', namespace: 'kube-system', file, example, kept: [...others, rootCa], drop: 'kube-system/RoleBinding/kube-proxy',
    });
  } finally {
    kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: KUBEADM_OTHERS, allowFail: true });
    if (createdRootCa) {
      kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: ROOT_CA, allowFail: true });
    }
    deleteApplySetParent('kube-proxy', 'kube-system');
  }
}
