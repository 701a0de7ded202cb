/**
 * Adoption on a real node: kube-proxy as kubeadm v1.35 installs it, running,
 * then the library's kube-proxy example applied over it.
 *
 * kubeadm's objects are created as kubeadm creates them, with kubeadm's
 * kubeconfig for this cluster (the API server at its own address, verified
 * with the cluster CA every ServiceAccount carries), and kubeadm's
 * kube-proxy pod runs: a ClusterIP Service in front of a busybox httpd pod
 * answers from the host. The library's example, synthesized here with the
 * same `server` and `clusterCIDR` (KubeProxyChart; examples/dist/ keeps
 * its defaults), is applied over them: the server must answer `configured`
 * for every object (none created beside kubeadm's, no `field is immutable`),
 * keep the DaemonSet (its uid) and its selector, and the DaemonSet controller
 * replaces the pod by the update strategy (maxSurge 0, maxUnavailable 1): the
 * gap between the old pod gone and the new one Ready is measured, and the
 * ClusterIP is asked throughout (the kernel's rules stay while no kube-proxy
 * runs). A Service created afterwards answers too: only the library's
 * kube-proxy can have programmed it.
 *
 * The first apply leaves kubeadm's own fields the library does not write
 * (client-side apply removes only what its last-applied annotation names,
 * and kubeadm's objects have none): one `kubectl replace --save-config`
 * makes the objects the library's alone (another roll, measured too), and
 * re-applies are then unchanged.
 *
 * Cleanup deletes every object, runs upstream's `kube-proxy --cleanup` on
 * the node (it removes kube-proxy's KUBE-* chains and rules) and removes
 * the host paths the pods' volumes created; `e2e/cluster.sh stop` restores
 * the rest (the rules and sysctls as before start). Needs the node of
 * `e2e/cluster.sh start 1.35`, which builds kube-proxy's image from the
 * bundle's static binary (nothing pulled), and root (it asks the ClusterIP
 * from the host and removes host paths).
 *
 * Then pruning (adoption-prune.ts): the example applied with ApplySet
 * pruning prunes none of kubeadm's objects, and without one adopted object
 * prunes exactly that one. Then the same adoption and pruning for
 * calico.yaml's calico-node (adoption-calico.ts).
 *
 *   npm run e2e:adoption
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { Testing, Yaml } from 'cdk8s';
import { KubeProxyChart, kubeProxyConfig, kubeProxyKubeconfig } from '../examples/kube-proxy';
import { calicoAdoption } from './adoption-calico';
import { pruneKubeProxy } from './adoption-prune';
import { eventProblem, evidence, Json, kubectl, kubectlJson, podProblem, reachableCluster, sleep, step, StepFailed, waitFor } from './kubectl';

/** The pods' address range of the node (e2e/cluster.sh's POD_SUBNET): kube-proxy's clusterCIDR. */
const POD_SUBNET = '10.245.0.0/24';

/** kube-proxy's pods, as kubeadm and the library select them. */
const PROXY_SELECTOR = 'k8s-app=kube-proxy';

/** The namespace of the web pod and its Services, which the ClusterIP checks ask. */
const WEB_NAMESPACE = 'kube-proxy-e2e';

/** The host paths kube-proxy's volumes name (the xtables lock is FileOrCreate; containerd makes a missing /lib/modules). */
const PROXY_HOST_PATHS = ['/run/xtables.lock', '/lib/modules'];

/** Indents every line of a text block by n spaces (a YAML block scalar). */
function indent(text: string, n: number): string {
  return text.trimEnd().split('\n').map((l) => `${' '.repeat(n)}${l}`).join('\n');
}

/**
 * The objects kubeadm v1.35 creates for kube-proxy
 * (cmd/kubeadm/app/phases/addons/proxy), as the live cluster shows them,
 * with the ConfigMap kubeadm writes for this cluster: its
 * controlPlaneEndpoint (`server`) and podSubnet.
 */
function kubeadmObjects(server: string): string {
  return `
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
${indent(kubeProxyConfig(POD_SUBNET), 4)}
  kubeconfig.conf: |
${indent(kubeProxyKubeconfig(server), 4)}
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
}

/** The library's kube-proxy example for this cluster: the chart of examples/dist/kube-proxy.k8s.yaml with this server and pod range. */
function libraryObjects(server: string): string {
  return Yaml.stringify(...Testing.synth(new KubeProxyChart(Testing.app(), 'kube-proxy', { server, clusterCIDR: POD_SUBNET })));
}

/** A busybox httpd pod that answers with its name, and the namespace it lives in. */
const WEB = `
apiVersion: v1
kind: Namespace
metadata: { name: ${WEB_NAMESPACE} }
---
apiVersion: v1
kind: Pod
metadata: { name: web, namespace: ${WEB_NAMESPACE}, labels: { app: web } }
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: httpd
      image: docker.io/library/busybox:1.36
      command: [sh, -c, 'mkdir -p /tmp/www && echo "hello from $(hostname)" >/tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www']
      ports: [{ containerPort: 8080 }]
      securityContext: { runAsUser: 65534, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }
`;

/** A ClusterIP Service of port 80 in front of the web pod. */
function webService(name: string): string {
  return `
apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: ${WEB_NAMESPACE} }
spec:
  type: ClusterIP
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
`;
}

/** The API server's address in the current kubeconfig: the cluster's own controlPlaneEndpoint. */
function localServer(): string {
  return kubectl(['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}']).out.trim();
}

function daemonSet(): Json {
  return kubectlJson(['-n', 'kube-system', 'get', 'daemonset', 'kube-proxy']);
}

function proxyPods(): Json[] {
  return kubectlJson(['-n', 'kube-system', 'get', 'pods', '-l', PROXY_SELECTOR]).items;
}

function isReady(pod: Json): boolean {
  return !pod.metadata.deletionTimestamp && (pod.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
}

function describePods(pods: Json[]): string {
  return pods.map((p) => `${p.metadata.name} ${p.status?.phase}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}${isReady(p) ? ' Ready' : ''}`).join(', ') || 'no pods';
}

/** Waits for the one kube-proxy pod that is not `exceptUid` to be Ready; a pod that cannot run ends the wait with the kubelet's reason. */
function waitForProxyPod(what: string, exceptUid?: string): Json {
  return waitFor(what, 120, () => {
    const pods = proxyPods().filter((p) => p.metadata.uid !== exceptUid);
    for (const pod of pods) {
      const problem = podProblem(pod) ?? eventProblem(pod);
      if (problem) {
        throw new StepFailed(`${what}: ${problem}`);
      }
    }
    return pods.find(isReady);
  }, () => describePods(proxyPods()));
}

/** What the host gets from http://IP:PORT/ (curl, one second at most), or undefined when nothing answers. */
function ask(ip: string, port: number): string | undefined {
  const result = spawnSync('curl', ['-fsS', '--max-time', '1', `http://${ip}:${port}/`], { encoding: 'utf-8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Creates a web Service and waits until its ClusterIP answers from the host; returns its address and the answer. */
function serviceAnswers(name: string): { ip: string; answer: string; seconds: number } {
  kubectl(['create', '-f', '-'], { input: webService(name) });
  const ip = kubectlJson(['-n', WEB_NAMESPACE, 'get', 'service', name]).spec.clusterIP;
  const started = Date.now();
  const answer = waitFor(`the ClusterIP ${ip}:80 of Service ${name} to answer from the host`, 60, () => ask(ip, 80), () => 'no answer (curl)');
  return { ip, answer, seconds: (Date.now() - started) / 1000 };
}

/**
 * One roll of kube-proxy's pod, polled (ms since the change): when the
 * controller deleted the old pod (terminating, no longer Ready), when it was
 * gone, when the new one was Ready, the most live (not terminating) pods and
 * the most nodes without a Ready pod at once, and how the ClusterIP fared.
 */
interface Roll { newPod: Json; deleted: number; gone: number; ready: number; maxLive: number; maxUnavailable: number; probes: number; answered: number }

/** Follows the DaemonSet controller replacing oldPod, asking the ClusterIP at every poll. Times are ms since `since`. */
function followRoll(oldPod: Json, since: number, clusterIP: string): Roll {
  const deadline = Date.now() + 120_000;
  let deleted: number | undefined;
  let gone: number | undefined;
  let maxLive = 0;
  let maxUnavailable = 0;
  let probes = 0;
  let answered = 0;
  let newReady: number | undefined;
  for (;;) {
    const pods = proxyPods();
    const now = Date.now() - since;
    // The controller creates the new pod once the old one is terminating: it is not live.
    maxLive = Math.max(maxLive, pods.filter((p) => !p.metadata.deletionTimestamp).length);
    // One node: a pod is unavailable while none of the DaemonSet's pods on it is Ready.
    maxUnavailable = Math.max(maxUnavailable, pods.some(isReady) ? 0 : 1);
    const old = pods.find((p) => p.metadata.uid === oldPod.metadata.uid);
    if (deleted === undefined && (!old || old.metadata.deletionTimestamp)) {
      deleted = now;
    }
    if (gone === undefined && !old) {
      gone = now;
    }
    const newPod = pods.find((p) => p.metadata.uid !== oldPod.metadata.uid && isReady(p));
    newReady ??= newPod ? now : undefined;
    probes++;
    if (ask(clusterIP, 80) !== undefined) {
      answered++;
    }
    if (newPod && gone !== undefined && deleted !== undefined) {
      return { newPod, deleted, gone, ready: newReady ?? now, maxLive, maxUnavailable, probes, answered };
    }
    for (const pod of pods.filter((p) => p.metadata.uid !== oldPod.metadata.uid)) {
      const problem = podProblem(pod) ?? eventProblem(pod);
      if (problem) {
        throw new StepFailed(`the new kube-proxy pod cannot run: ${problem}`);
      }
    }
    if (Date.now() > deadline) {
      throw new StepFailed(`timed out after 120s waiting for the DaemonSet controller to replace ${oldPod.metadata.name}; last seen: ${describePods(pods)}`);
    }
    sleep(200);
  }
}

/** Prints what a roll measured and fails when it broke the update strategy or the DaemonSet. */
function reportRoll(roll: Roll, oldPod: Json, dsUid: string): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const readySince = roll.newPod.status.conditions.find((c: Json) => c.type === 'Ready').lastTransitionTime;
  evidence(`old pod ${oldPod.metadata.name} deleted by the controller at T0 = +${s(roll.deleted)}, gone at T1 = +${s(roll.gone)}; new pod ${roll.newPod.metadata.name} Ready at T2 = +${s(roll.ready)} (server: created ${roll.newPod.metadata.creationTimestamp}, Ready ${readySince})`);
  evidence(`gap T2 - T1 = ${s(roll.ready - roll.gone)} (old pod gone to new pod Ready); no Ready kube-proxy pod for T2 - T0 = ${s(roll.ready - roll.deleted)}`);
  if (roll.maxLive > 1 || roll.maxUnavailable > 1) {
    throw new StepFailed(`the roll broke maxSurge 0 / maxUnavailable 1: ${roll.maxLive} live pods at once, ${roll.maxUnavailable} node without a Ready pod`);
  }
  evidence(`at most ${roll.maxLive} live kube-proxy pod at once and ${roll.maxUnavailable} of 1 node without a Ready one at any poll (maxSurge 0, maxUnavailable 1: one pod down at a time)`);
  const uid = daemonSet().metadata.uid;
  if (uid !== dsUid) {
    throw new StepFailed(`the DaemonSet was replaced: uid ${dsUid} -> ${uid}`);
  }
  evidence(`DaemonSet uid ${uid} unchanged: the same DaemonSet rolled its pod`);
  evidence(`the ClusterIP answered ${roll.answered} of ${roll.probes} asks during the roll (the kernel's rules outlive the pod)`);
}

/** The library's pods carry its labels and its config checksum; kubeadm's have neither. */
function isLibraryPod(pod: Json): boolean {
  return pod.metadata.labels?.['app.kubernetes.io/managed-by'] === 'node-reporter' && Boolean(pod.metadata.annotations?.['node-reporter.dev/config-sha256']);
}

/**
 * Upstream's `kube-proxy --cleanup` on the node, in a privileged
 * host-network pod of kube-proxy's image: it removes kube-proxy's chains
 * and rules; the pod then prints every KUBE-* chain and rule left.
 */
const CLEANUP_POD = `
apiVersion: v1
kind: Pod
metadata: { name: kube-proxy-cleanup, namespace: kube-system }
spec:
  hostNetwork: true
  restartPolicy: Never
  priorityClassName: system-node-critical
  tolerations: [{ operator: Exists }]
  containers:
    - name: cleanup
      image: registry.k8s.io/kube-proxy:v1.35.6
      command: [sh, -c, 'kube-proxy --cleanup >/tmp/log 2>&1; echo "kube-proxy --cleanup: exit $?"; for t in iptables ip6tables; do $t-save | grep -E "^(:|-A)" | grep KUBE- | sed "s/ \\[[0-9]*:[0-9]*\\]$//; s/^/left: $t /"; done; grep -E "^[EW]" /tmp/log | cut -c1-200']
      securityContext: { privileged: true }
      volumeMounts: [{ mountPath: /run/xtables.lock, name: xtables-lock }]
  volumes: [{ name: xtables-lock, hostPath: { path: /run/xtables.lock, type: FileOrCreate } }]
`;

function cleanupRules(): void {
  kubectl(['create', '-f', '-'], { input: CLEANUP_POD });
  try {
    const pod = waitFor('kube-proxy --cleanup to finish', 60, () => {
      const p = kubectlJson(['-n', 'kube-system', 'get', 'pod', 'kube-proxy-cleanup']);
      return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' ? p : undefined;
    }, () => kubectlJson(['-n', 'kube-system', 'get', 'pod', 'kube-proxy-cleanup']).status?.phase);
    const log = kubectl(['-n', 'kube-system', 'logs', 'kube-proxy-cleanup']).out.trim();
    console.log(log.split('\n').map((l) => `   ${l}`).join('\n'));
    // --cleanup leaves KUBE-FIREWALL, the martian-packet block the kubelet
    // and kube-proxy both create (KEP-3178): e2e/cluster.sh stop removes it.
    const left = log.split('\n').filter((l) => l.startsWith('left: '));
    const services = left.filter((l) => !/ (:KUBE-FIREWALL |-A (INPUT|OUTPUT) -j KUBE-FIREWALL$|-A KUBE-FIREWALL )/.test(l));
    if (pod.status.phase !== 'Succeeded' || !/exit 0/.test(log) || services.length > 0) {
      throw new StepFailed(`kube-proxy --cleanup left kube-proxy's Service rules on the node: ${services.join('; ') || log.split('\n')[0]}`);
    }
    const firewall = left.filter((l) => / :KUBE-FIREWALL /.test(l)).map((l) => l.split(' ')[1]);
    evidence(`kube-proxy's Service chains and rules removed from the node; left by --cleanup: ${firewall.length > 0 ? `KUBE-FIREWALL in ${firewall.join(' and ')} (KEP-3178: kubelet's too), which e2e/cluster.sh stop removes` : 'nothing'}`);
  } finally {
    kubectl(['-n', 'kube-system', 'delete', 'pod', 'kube-proxy-cleanup', '--ignore-not-found', '--wait=true', '--timeout=60s'], { allowFail: true });
  }
}

/** kubeadm's kube-proxy running, the library's applied over it, the roll measured, the ClusterIP answering throughout. */
function kubeProxyAdoption(): void {
  const server = localServer();
  const kubeadm = kubeadmObjects(server);
  const example = libraryObjects(server);
  const createdPaths = PROXY_HOST_PATHS.filter((p) => !fs.existsSync(p));
  const rolled: string[] = [];
  let failure: unknown;
  try {
    step(`kubeadm's kube-proxy objects, created as kubeadm creates them (no kubectl apply), server ${server}, clusterCIDR ${POD_SUBNET}`);
    const created = kubectl(['create', '-f', '-'], { input: kubeadm }).out.trim().split('\n');
    evidence(created.join('; '));
    const before = daemonSet();
    const kubeadmPod = waitForProxyPod("kubeadm's kube-proxy pod to be Ready");
    evidence(`kubeadm's kube-proxy pod ${kubeadmPod.metadata.name} Running and Ready`);

    step("a ClusterIP Service in front of a busybox httpd pod answers from the host, programmed by kubeadm's kube-proxy");
    kubectl(['create', '-f', '-'], { input: WEB });
    kubectl(['-n', WEB_NAMESPACE, 'wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
    const first = serviceAnswers('web-kubeadm');
    evidence(`http://${first.ip}:80/ answered "${first.answer}" after ${first.seconds.toFixed(1)} s (Service web-kubeadm, created while kubeadm's ${kubeadmPod.metadata.name} ran)`);

    step("the library's kube-proxy (the example for this cluster) applied over them");
    const since = Date.now();
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

    step("the DaemonSet controller replaces kubeadm's pod by the update strategy");
    const roll = followRoll(kubeadmPod, since, first.ip);
    rolled.push(`${((roll.ready - roll.gone) / 1000).toFixed(1)} s (${((roll.ready - roll.deleted) / 1000).toFixed(1)} s without a Ready pod)`);
    reportRoll(roll, kubeadmPod, before.metadata.uid);

    // kubectl apply removes only the fields of its last-applied annotation, which kubeadm's objects lack: kubeadm's own volume stays.
    const left = daemonSet().spec.template.spec.volumes.map((v: Json) => v.name).filter((n: string) => n === 'kube-proxy');
    evidence(`left of kubeadm's template by the first apply: ${left.length > 0 ? `volume ${left.join(', ')}` : 'nothing'}`);

    step("kubectl replace --save-config once: the template is the library's alone");
    const replacedAt = Date.now();
    const replaced = kubectl(['replace', '--save-config', '-f', '-'], { input: example }).out.trim().split('\n');
    evidence(replaced.join('; '));
    const volumes = daemonSet().spec.template.spec.volumes.map((v: Json) => v.name);
    if (volumes.includes('kube-proxy')) {
      throw new StepFailed(`kubeadm's volume kube-proxy is still in the template: ${volumes.join(', ')}`);
    }
    evidence(`volumes ${volumes.join(', ')}`);
    const second = followRoll(roll.newPod, replacedAt, first.ip);
    rolled.push(`${((second.ready - second.gone) / 1000).toFixed(1)} s (${((second.ready - second.deleted) / 1000).toFixed(1)} s without a Ready pod)`);
    reportRoll(second, roll.newPod, before.metadata.uid);

    step('re-applying the same file changes nothing');
    const again = kubectl(['apply', '-f', '-'], { input: example }).out.trim().split('\n');
    const changed = again.filter((l) => !/ unchanged$/.test(l));
    if (changed.length > 0) {
      throw new StepFailed(`a re-apply changed: ${changed.join('; ')}`);
    }
    evidence(`all ${again.length} objects unchanged`);

    step("the ClusterIPs answer via the library's kube-proxy");
    const pods = proxyPods();
    if (pods.length !== 1 || !isLibraryPod(pods[0]) || !isReady(pods[0])) {
      throw new StepFailed(`wanted one Ready pod of the library's template, got ${describePods(pods)}`);
    }
    const proxy = pods[0].metadata.name;
    const still = ask(first.ip, 80);
    if (still === undefined) {
      throw new StepFailed(`the ClusterIP ${first.ip}:80 of Service web-kubeadm no longer answers`);
    }
    evidence(`http://${first.ip}:80/ (web-kubeadm) answers "${still}" with ${proxy} running`);
    const fresh = serviceAnswers('web-library');
    evidence(`a Service created now, web-library: http://${fresh.ip}:80/ answered "${fresh.answer}" after ${fresh.seconds.toFixed(1)} s: programmed by the library's ${proxy}`);
    evidence(`pod gap per roll (old pod gone to new pod Ready): ${rolled.join('; ')}`);

    pruneKubeProxy(example, 'the kube-proxy example for this cluster');
  } catch (e) {
    failure = e;
  } finally {
    step('cleanup');
    kubectl(['delete', 'namespace', WEB_NAMESPACE, '--ignore-not-found', '--wait=true', '--timeout=60s'], { allowFail: true });
    kubectl(['delete', '--ignore-not-found', '--wait=true', '--timeout=60s', '-f', '-'], { input: example, allowFail: true });
    kubectl(['delete', '--ignore-not-found', '--wait=true', '--timeout=60s', '-f', '-'], { input: kubeadm, allowFail: true });
    kubectl(['-n', 'kube-system', 'wait', '--for=delete', 'pod', '-l', PROXY_SELECTOR, '--timeout=60s'], { allowFail: true });
    console.log("   deleted the web namespace and kubeadm's and the library's kube-proxy objects; no kube-proxy pod left");
    try {
      cleanupRules();
    } catch (e) {
      failure ??= e;
    }
    for (const p of createdPaths.filter((h) => fs.existsSync(h))) {
      fs.rmSync(p, { recursive: true, force: true });
      console.log(`   removed ${p}, which a kube-proxy pod's volume created`);
    }
  }
  if (failure !== undefined) {
    throw failure;
  }
}

function run(): void {
  const { context, server } = reachableCluster();
  console.log(`cluster: ${context}, server ${server.gitVersion}`);
  kubeProxyAdoption();
  calicoAdoption();
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
