/**
 * Corpus cases for what the checks let pass and the API server refuses
 * (issue 17, "Too lenient"), each with nearby manifests it accepts. Cases
 * that need Pod Security out of the way run in a privileged namespace of
 * their own.
 */
import {
  barePod, configMap, CorpusCase, daemonSet, deployment, inNamespace, job, make, no, Obj, ok, pod, podSecurityNamespace, replicaSet, statefulSet, text,
} from './bases';

const privileged = podSecurityNamespace('privileged');

/** A ReplicationController of the clean pod. */
function replicationController(): Obj {
  return { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { replicas: 1, selector: { app: 'rc' }, template: { metadata: { labels: { app: 'rc' } }, spec: pod() } } };
}

/** A plain pod spec without the restricted settings, for the privileged namespace. */
function plainPod(...containers: Obj[]): Obj {
  return { automountServiceAccountToken: false, containers };
}

const container = (name: string, ports: Obj[]) => ({ name, image: 'busybox:1.36', ports });

/** A Windows host-process pod spec (os windows: no Linux-only fields). */
function windowsPod(hostNetwork: boolean, ...hostProcess: Array<boolean | undefined>): Obj {
  return {
    os: { name: 'windows' }, hostNetwork,
    containers: hostProcess.map((hp, i) => ({ name: `c${i}`, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ...(hp === undefined ? {} : { securityContext: { windowsOptions: { hostProcess: hp } } }) })),
  };
}

const podObject = (name: string, spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const daemonSetOf = (spec: Obj): Obj => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec } } });

const DOC = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n';

export const TOO_LENIENT: readonly CorpusCase[] = [
  // A workload or Pod without a pod spec.
  make('no-spec-pod', barePod, no, (o) => { delete o.spec; }),
  make('no-template-deployment', deployment, no, (o) => { delete o.spec.template; }),
  make('no-template-daemonset', daemonSet, no, (o) => { delete o.spec.template; }),
  make('no-template-replicaset', replicaSet, no, (o) => { delete o.spec.template; }),
  make('no-template-job', job, no, (o) => { delete o.spec.template; }),
  make('no-template-spec-daemonset', daemonSet, no, (o) => { delete o.spec.template.spec; }),

  // A Windows hostProcess container needs the host network, and every container must be one.
  inNamespace('hostprocess-without-host-network', privileged, no, podObject('hp', windowsPod(false, true))),
  inNamespace('hostprocess-with-host-network', privileged, ok, podObject('hp', windowsPod(true, true))),
  inNamespace('hostprocess-mixed-containers', privileged, no, podObject('hp', windowsPod(true, true, false))),
  inNamespace('hostprocess-inherited-from-pod', privileged, ok, podObject('hp', { ...windowsPod(true, undefined, undefined), securityContext: { windowsOptions: { hostProcess: true } } })),
  inNamespace('hostprocess-template-without-host-network', privileged, no, daemonSetOf(windowsPod(false, true))),

  // Ephemeral containers: never in a template, never on create.
  make('ephemeral-in-daemonset', daemonSet, no, (_, p, c) => { p.ephemeralContainers = [{ ...structuredClone(c), name: 'debug' }]; delete p.ephemeralContainers[0].resources; }),
  make('ephemeral-on-pod-create', barePod, no, (_, p, c) => { p.ephemeralContainers = [{ ...structuredClone(c), name: 'debug' }]; delete p.ephemeralContainers[0].resources; }),
  make('ephemeral-empty-list', daemonSet, ok, (_, p) => { p.ephemeralContainers = []; }),

  // AppArmor annotations name a container of the pod and a valid profile.
  make('apparmor-unknown-container', daemonSet, no, (o) => { o.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/other': 'runtime/default' }; }),
  make('apparmor-known-container', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/main': 'runtime/default' }; }, { warnings: { '1.28': [], '1.32': ['spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/main]: deprecated since v1.30'], '1.35': ['spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/main]: deprecated since v1.30'] }, why: 'the AppArmor annotations are deprecated since 1.30 (GetWarningsForPod)' }),
  make('apparmor-bad-profile', daemonSet, no, (o) => { o.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/main': 'foo' }; }),
  make('apparmor-localhost-profile', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/main': 'localhost/agent' }; }, { warnings: { '1.28': [], '1.32': ['spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/main]: deprecated since v1.30'], '1.35': ['spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/main]: deprecated since v1.30'] } }),
  make('apparmor-unknown-container-on-pod', barePod, no, (o) => { o.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/sidecar': 'runtime/default' }; }),

  // A ReplicationController needs a selector, or template labels to default it from.
  make('rc-clean', replicationController, ok),
  make('rc-no-selector-no-labels', replicationController, no, (o) => { delete o.spec.selector; delete o.spec.template.metadata; }),
  make('rc-labels-only', replicationController, ok, (o) => { delete o.spec.selector; }),
  make('rc-selector-mismatch', replicationController, no, (o) => { o.spec.selector = { app: 'other' }; }),
  make('rc-negative-replicas', replicationController, no, (o) => { o.spec.replicas = -1; }),
  make('rc-restart-never', replicationController, no, (_, p) => { p.restartPolicy = 'Never'; }),

  // YAML that kubectl's parser refuses: a merge key whose value is not a mapping.
  text('yaml-merge-scalar', `${DOC}  <<: 5\n`, no),
  text('yaml-merge-null', `${DOC}  <<: null\n`, no),
  text('yaml-merge-list-with-scalar', `${DOC}  <<: [{labels: {a: b}}, 5]\n`, no),
  text('yaml-merge-map', `${DOC}  <<: {labels: {tier: agents}}\n`, ok),
  text('yaml-merge-alias', `${DOC}  labels: &l {tier: agents}\n  annotations:\n    <<: *l\n`, ok),
  // go-yaml v2 keeps the last of duplicate keys: accepted (the checks warn).
  text('yaml-duplicate-key', `${DOC}  labels: {tier: a}\n  labels: {tier: b}\n`, ok),
  text('yaml-duplicate-key-last-wins', `${DOC}  labels: {tier: 'a b'}\n  labels: {tier: b}\n`, ok),
  text('yaml-duplicate-key-last-bad', `${DOC}  labels: {tier: b}\n  labels: {tier: 'a b'}\n`, no),

  // kubectl apply refuses generateName.
  make('generate-name-only', configMap, no, (o) => { o.metadata = { generateName: 'cfg-' }; }),
  make('generate-name-with-name', configMap, ok, (o) => { o.metadata.generateName = 'cfg-'; }),

  // Seccomp annotations: a valid profile, and where the field is set, the same one.
  make('seccomp-annotation-contradicts-field', daemonSet, no, (o) => { o.spec.template.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }; }),
  make('seccomp-annotation-agrees', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' }; }),
  make('seccomp-annotation-docker-default', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'docker/default' }; }),
  make('seccomp-annotation-bad-value', daemonSet, no, (o) => { o.spec.template.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'bogus' }; }),
  make('seccomp-container-annotation-without-field', daemonSet, ok, (o) => { o.spec.template.metadata.annotations = { 'container.seccomp.security.alpha.kubernetes.io/main': 'unconfined' }; }, { warnings: { '1.32': ['spec.template.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/main]: non-functional in v1.27+'], '1.35': ['spec.template.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/main]: non-functional in v1.27+'] } }),
  make('seccomp-container-annotation-contradicts-field', daemonSet, no, (o, _, c) => {
    o.spec.template.metadata.annotations = { 'container.seccomp.security.alpha.kubernetes.io/main': 'unconfined' };
    c.securityContext.seccompProfile = { type: 'RuntimeDefault' };
  }),
  make('seccomp-localhost-annotation-other-profile', daemonSet, no, (o, p) => {
    o.spec.template.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'localhost/a.json' };
    p.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'b.json' };
  }),

  // The same host port twice in a pod (by protocol and host IP; under the host network a Pod's container ports are host ports).
  inNamespace('hostport-twice-in-pod', privileged, no, podObject('hp', plainPod(container('a', [{ containerPort: 80, hostPort: 8080 }]), container('b', [{ containerPort: 81, hostPort: 8080 }])))),
  inNamespace('hostport-twice-in-one-container', privileged, no, podObject('hp', plainPod(container('a', [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 8080 }])))),
  inNamespace('hostport-host-network-same-port-pod', privileged, no, podObject('hp', { ...plainPod(container('a', [{ containerPort: 8080 }]), container('b', [{ containerPort: 8080 }])), hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' })),
  inNamespace('hostport-twice-in-daemonset', privileged, no, daemonSetOf(plainPod(container('a', [{ containerPort: 80, hostPort: 8080 }]), container('b', [{ containerPort: 81, hostPort: 8080 }])))),
  // A template is not defaulted: the server only warns ("duplicate port definition"); its pods would be refused.
  {
    ...inNamespace('hostport-host-network-same-port-daemonset', privileged, ok, daemonSetOf({ ...plainPod(container('a', [{ containerPort: 8080 }]), container('b', [{ containerPort: 8080 }])), hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' })),
    warnings: { '1.32': ['spec.template.spec.containers[1].ports[0]: duplicate port definition'], '1.35': ['spec.template.spec.containers[1].ports[0]: duplicate port definition'] },
  },
  inNamespace('hostport-init-and-container', privileged, ok, podObject('hp', { ...plainPod(container('a', [{ containerPort: 81, hostPort: 8080 }])), initContainers: [container('i', [{ containerPort: 80, hostPort: 8080 }])] })),
  inNamespace('hostport-other-host-ip', privileged, ok, podObject('hp', plainPod(container('a', [{ containerPort: 80, hostPort: 8080, hostIP: '127.0.0.1' }]), container('b', [{ containerPort: 81, hostPort: 8080 }])))),
  inNamespace('hostport-other-protocol', privileged, ok, podObject('hp', plainPod(container('a', [{ containerPort: 80, hostPort: 8080 }]), container('b', [{ containerPort: 81, hostPort: 8080, protocol: 'UDP' }])))),

  // A Pod and a template with the same port twice but no host port: a warning.
  make('port-duplicate-container-port', deployment, ok, (_, p, c) => { p.containers.push({ ...structuredClone(c), name: 'twin', ports: [{ containerPort: 8080 }] }); c.ports = [{ containerPort: 8080 }]; }, { warnings: { '1.32': ['spec.template.spec.containers[1].ports[0]: duplicate port definition'], '1.35': ['spec.template.spec.containers[1].ports[0]: duplicate port definition'] } }),
  make('statefulset-ephemeral-container', statefulSet, ok, (_, p, c) => { p.ephemeralContainers = [{ ...structuredClone(c), name: 'debug' }]; delete p.ephemeralContainers[0].resources; }, { servers: { '1.35': no }, why: 'a StatefulSet\'s pod template is validated in 1.35 (ephemeral containers not allowed in a template); 1.32 does not validate it' }),
];
