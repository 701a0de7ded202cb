/**
 * Adoption on a real API server: kubeadm's kube-proxy objects, created as
 * kubeadm creates them, then examples/dist/kube-proxy.k8s.yaml applied over
 * them. The server must answer `configured` for every object (none created
 * beside kubeadm's, no `field is immutable`), keep the DaemonSet's selector
 * and take the new template as the next generation, which the DaemonSet
 * controller rolls by the update strategy. Cleans up what it created.
 *
 * The first apply leaves kubeadm's own fields the library does not write
 * (client-side apply removes only what its last-applied annotation names,
 * and kubeadm's objects have none): one `kubectl replace --save-config`
 * makes the objects the library's alone, and re-applies are then unchanged.
 *
 * Not yet covered: kube-proxy running for real (the node has no kube-proxy
 * image; its pods stay pending on the pull) and pruning afterwards.
 *
 *   npm run e2e:adoption
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evidence, Json, kubectl, kubectlJson, reachableCluster, step, StepFailed } from './kubectl';

/** The objects kubeadm v1.35 creates for kube-proxy (cmd/kubeadm/app/phases/addons/proxy), as the live cluster shows them. */
const KUBEADM_OBJECTS = `
apiVersion: v1
kind: ServiceAccount
metadata: { name: kube-proxy, namespace: kube-system }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: "kubeadm:node-proxier" }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:node-proxier" }
subjects: [{ kind: ServiceAccount, name: kube-proxy, namespace: kube-system }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: kube-proxy, namespace: kube-system }
rules: [{ apiGroups: [""], resources: [configmaps], resourceNames: [kube-proxy], verbs: [get] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: kube-proxy, namespace: kube-system }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: kube-proxy }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:bootstrappers:kubeadm:default-node-token" }]
---
apiVersion: v1
kind: ConfigMap
metadata: { name: kube-proxy, namespace: kube-system, labels: { app: kube-proxy } }
data:
  config.conf: |
    apiVersion: kubeproxy.config.k8s.io/v1alpha1
    kind: KubeProxyConfiguration
    mode: ""
  kubeconfig.conf: |
    apiVersion: v1
    kind: Config
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: kube-proxy, namespace: kube-system, labels: { k8s-app: kube-proxy } }
spec:
  selector: { matchLabels: { k8s-app: kube-proxy } }
  updateStrategy: { type: RollingUpdate }
  template:
    metadata: { labels: { k8s-app: kube-proxy } }
    spec:
      priorityClassName: system-node-critical
      hostNetwork: true
      serviceAccountName: kube-proxy
      nodeSelector: { kubernetes.io/os: linux }
      tolerations: [{ operator: Exists }]
      containers:
        - name: kube-proxy
          image: registry.k8s.io/kube-proxy:v1.35.6
          command: [/usr/local/bin/kube-proxy, --config=/var/lib/kube-proxy/config.conf, --hostname-override=$(NODE_NAME)]
          env: [{ name: NODE_NAME, valueFrom: { fieldRef: { fieldPath: spec.nodeName } } }]
          securityContext: { privileged: true }
          volumeMounts:
            - { mountPath: /var/lib/kube-proxy, name: kube-proxy }
            - { mountPath: /run/xtables.lock, name: xtables-lock }
            - { mountPath: /lib/modules, name: lib-modules, readOnly: true }
      volumes:
        - { name: kube-proxy, configMap: { name: kube-proxy } }
        - { name: xtables-lock, hostPath: { path: /run/xtables.lock, type: FileOrCreate } }
        - { name: lib-modules, hostPath: { path: /lib/modules } }
`;

const EXAMPLE = path.join(__dirname, '..', 'examples', 'dist', 'kube-proxy.k8s.yaml');

function daemonSet(): Json {
  return kubectlJson(['-n', 'kube-system', 'get', 'daemonset', 'kube-proxy']);
}

function run(): void {
  const { context, server } = reachableCluster();
  console.log(`cluster: ${context}, server ${server.gitVersion}`);
  const example = fs.readFileSync(EXAMPLE, 'utf-8');
  let failure: unknown;
  try {
    step("kubeadm's kube-proxy objects, created as kubeadm creates them (no kubectl apply)");
    const created = kubectl(['create', '-f', '-'], { input: KUBEADM_OBJECTS }).out.trim().split('\n');
    evidence(created.join('; '));
    const before = daemonSet();

    step('the library\'s kube-proxy (examples/dist/kube-proxy.k8s.yaml) applied over them');
    const applied = kubectl(['apply', '-f', '-'], { input: example, allowFail: true });
    console.log(applied.out.trim().split('\n').map((l) => `   ${l}`).join('\n'));
    if (!applied.ok || /immutable/.test(applied.err)) {
      throw new StepFailed(`kubectl apply over kubeadm's objects failed: ${applied.err.trim()}`);
    }
    const lines = applied.out.trim().split('\n');
    const notConfigured = lines.filter((l) => !/ configured$/.test(l));
    if (lines.length !== created.length || notConfigured.length > 0) {
      throw new StepFailed(`wanted ${created.length} objects "configured" (each of kubeadm's, adopted), got: ${notConfigured.join('; ') || lines.join('; ')}`);
    }
    evidence(`the server answered "configured" for all ${lines.length} of kubeadm's objects, none created beside them, no "field is immutable"`);

    const after = daemonSet();
    if (JSON.stringify(after.spec.selector) !== JSON.stringify(before.spec.selector)) {
      throw new StepFailed(`the selector changed: ${JSON.stringify(before.spec.selector)} -> ${JSON.stringify(after.spec.selector)}`);
    }
    if (after.metadata.generation !== before.metadata.generation + 1) {
      throw new StepFailed(`wanted generation ${before.metadata.generation + 1} (the new template), got ${after.metadata.generation}`);
    }
    evidence(`selector ${JSON.stringify(after.spec.selector.matchLabels)} kept; generation ${before.metadata.generation} -> ${after.metadata.generation}, rolled by ${JSON.stringify(after.spec.updateStrategy)}`);

    // kubectl apply removes only the fields of its last-applied annotation, which kubeadm's objects lack: kubeadm's own volume stays.
    const left = after.spec.template.spec.volumes.map((v: Json) => v.name).filter((n: string) => n === 'kube-proxy');
    evidence(`left of kubeadm's template by the first apply: ${left.length > 0 ? `volume ${left.join(', ')}` : 'nothing'}`);

    step("kubectl replace --save-config once: the template is the library's alone");
    const replaced = kubectl(['replace', '--save-config', '-f', '-'], { input: example }).out.trim().split('\n');
    evidence(replaced.join('; '));
    const volumes = daemonSet().spec.template.spec.volumes.map((v: Json) => v.name);
    if (volumes.includes('kube-proxy')) {
      throw new StepFailed(`kubeadm's volume kube-proxy is still in the template: ${volumes.join(', ')}`);
    }
    evidence(`volumes ${volumes.join(', ')}`);

    step('re-applying the same file changes nothing');
    const again = kubectl(['apply', '-f', '-'], { input: example }).out.trim().split('\n');
    const changed = again.filter((l) => !/ unchanged$/.test(l));
    if (changed.length > 0) {
      throw new StepFailed(`a re-apply changed: ${changed.join('; ')}`);
    }
    evidence(`all ${again.length} objects unchanged`);
  } catch (e) {
    failure = e;
  } finally {
    step('cleanup');
    kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: example, allowFail: true });
    kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], { input: KUBEADM_OBJECTS, allowFail: true });
    console.log('   deleted kubeadm\'s and the library\'s kube-proxy objects');
  }
  if (failure !== undefined) {
    throw failure;
  }
  console.log('\nadoption passed');
}

try {
  run();
} catch (e) {
  if (e instanceof StepFailed) {
    console.error(`\ne2e failed: ${e.message}`);
    process.exitCode = 1;
  } else {
    throw e;
  }
}
