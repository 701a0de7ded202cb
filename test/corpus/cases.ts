/**
 * The checks' corpus: for each rule, manifests that break it and nearby ones
 * that do not. Each case is one file (`<id>.yaml`, written by
 * `corpusFiles()`), and records the verdict the API server gives with
 * `kubectl apply --dry-run=server --validate=strict` in a namespace that
 * enforces and warns Pod Security "restricted" v1.28, per server version
 * where the versions differ (bases.ts: SERVER_VERSIONS, VersionFacts). The
 * unit test (corpus.test.ts) holds the checks at each version to these
 * verdicts offline; the CI test (e2e/agreement.ts) asks real Kubernetes 1.32
 * and 1.35 API servers and judges each case by the checks at the server's
 * version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { checkInputs, CheckOptions, Finding, isBlocking } from '../../lib/checks';
import { barePod, CheckedVersion, clusterRole, clusterRoleBinding, configMap, CORPUS_NAMESPACE, CorpusCase, crd, cronJob, daemonSet, deployment, job, labels, make, namespace, no, ok, pdb, priorityClass, replicaSet, role, roleBinding, secret, service, serviceAccount, statefulSet } from './bases';
import { CUSTOM_RESOURCES } from './custom-resources';
import { LISTS } from './lists';
import { PENDING } from './pending';
import { POD_SECURITY_LEVELS } from './pod-security-levels';
import { SELECTORS_AND_GROUPS } from './selectors-and-groups';
import { SERVER_REFUSALS, YAML_AS_KUBECTL } from './server-refusals';
import { TOO_LENIENT } from './too-lenient';
import { TOO_STRICT } from './too-strict';
import { TRUTH } from './truth';
import { VERSIONED } from './versioned';

export { CHECKED_VERSIONS, CheckedVersion, CORPUS_NAMESPACE, CorpusCase, expectedVerdict, SERVER_VERSIONS, serverVerdict, ServerVersion, Verdict } from './bases';
export { PENDING } from './pending';

/** Every case, in a stable order. */
export const CORPUS: readonly CorpusCase[] = [
  // Clean objects of every kind.
  make('daemonset-clean', daemonSet, ok),
  make('deployment-clean', deployment, ok),
  make('statefulset-clean', statefulSet, ok),
  make('replicaset-clean', replicaSet, ok),
  make('job-clean', job, ok),
  make('cronjob-clean', cronJob, ok),
  make('pod-clean', barePod, ok),
  make('service-clean', service, ok),
  make('configmap-clean', configMap, ok),
  make('secret-clean', secret, ok),
  make('serviceaccount-clean', serviceAccount, ok),
  make('role-clean', role, ok),
  make('clusterrole-clean', clusterRole, ok),
  make('rolebinding-clean', roleBinding, ok),
  make('clusterrolebinding-clean', clusterRoleBinding, ok),
  make('priorityclass-clean', priorityClass, ok),
  make('pdb-clean', pdb, ok),
  make('namespace-clean', namespace, ok),
  make('crd-preserve-unknown-fields', crd, ok),
  make('crd-int-or-string-and-list-type', crd, ok, (o) => {
    o.spec.versions[0].schema.openAPIV3Schema.properties.spec = { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true }, items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } };
  }),

  // Schema: unknown fields, wrong types, required fields.
  make('schema-unknown-field', daemonSet, no, (_, p) => { p.nodeSelektor = { a: 'b' }; }),
  make('schema-unknown-container-field', daemonSet, no, (_, __, c) => { c.imagePullPolicyy = 'Always'; }),
  make('schema-string-for-integer', daemonSet, no, (o) => { o.spec.minReadySeconds = '5'; }),
  make('schema-integer-as-integer', daemonSet, ok, (o) => { o.spec.minReadySeconds = 5; }),
  make('schema-string-for-boolean', daemonSet, no, (_, p) => { p.hostNetwork = 'false'; }),
  make('schema-not-a-quantity', daemonSet, no, (_, __, c) => { c.resources.limits.memory = '32MB'; }),
  make('schema-quantity-number', daemonSet, ok, (_, __, c) => { c.resources.requests.cpu = 0.01; }),
  make('schema-int32-overflow', daemonSet, no, (o) => { o.spec.revisionHistoryLimit = 3000000000; }),
  make('schema-missing-container-name', daemonSet, no, (_, __, c) => { delete c.name; }),
  make('schema-labels-not-strings', daemonSet, no, (o) => { o.metadata.labels = { app: 'agent', tier: 1 }; }),
  make('schema-field-from-1.30', daemonSet, ok, (_, p) => { p.containers[0].securityContext.appArmorProfile = { type: 'RuntimeDefault' }; }, { at128: no, why: 'appArmorProfile exists since 1.30 (a field unknown to 1.28: --validate=strict refuses it)' }),
  make('schema-sleep-action-from-1.29', daemonSet, ok, (_, __, c) => { c.lifecycle = { preStop: { sleep: { seconds: 1 } } }; }, { at128: no, why: 'the lifecycle sleep action exists since 1.29 (PodLifecycleSleepAction): a field unknown to 1.28' }),

  // Removed and unknown apiVersions.
  make('api-removed-batch-v1beta1-cronjob', cronJob, no, (o) => { o.apiVersion = 'batch/v1beta1'; }),
  make('api-removed-extensions-daemonset', daemonSet, no, (o) => { o.apiVersion = 'extensions/v1beta1'; }),
  make('api-removed-policy-v1beta1-pdb', pdb, no, (o) => { o.apiVersion = 'policy/v1beta1'; }),
  make('api-removed-rbac-v1beta1-role', role, no, (o) => { o.apiVersion = 'rbac.authorization.k8s.io/v1beta1'; }),
  make('api-unknown-kind', daemonSet, no, (o) => { o.kind = 'DaemonSett'; }),

  // Object metadata.
  make('meta-name-missing', configMap, no, (o) => { delete o.metadata.name; }),
  make('meta-name-uppercase', configMap, no, (o) => { o.metadata.name = 'Config'; }),
  make('meta-name-dotted', configMap, ok, (o) => { o.metadata.name = 'agent.config'; }),
  make('meta-service-name-dotted', service, no, (o) => { o.metadata.name = 'agent.svc'; }),
  // validateServiceInternalTrafficFieldsValue: internalTrafficPolicy is Cluster or Local.
  make('service-internal-traffic-policy-unknown', service, no, (o) => { o.spec.internalTrafficPolicy = 'Node'; }),
  make('service-internal-traffic-policy-local', service, ok, (o) => { o.spec.internalTrafficPolicy = 'Local'; }),
  make('meta-label-key-two-slashes', configMap, no, (o) => { o.metadata.labels = { 'a/b/c': 'x' }; }),
  make('meta-label-value-space', configMap, no, (o) => { o.metadata.labels = { tier: 'a b' }; }),
  make('meta-label-value-empty', configMap, ok, (o) => { o.metadata.labels = { tier: '' }; }),
  make('meta-annotation-key-bad', configMap, no, (o) => { o.metadata.annotations = { 'a b': 'x' }; }),
  make('meta-namespace-on-cluster-scoped', clusterRole, ok, (o) => { o.metadata.namespace = CORPUS_NAMESPACE; }),

  // Containers.
  make('container-duplicate-names', daemonSet, no, (_, p) => { p.containers.push({ ...structuredClone(p.containers[0]) }); }),
  make('container-two-names', daemonSet, ok, (_, p) => { p.containers.push({ ...structuredClone(p.containers[0]), name: 'sidecar' }); }),
  make('container-init-same-name', daemonSet, no, (_, p) => { p.initContainers = [{ ...structuredClone(p.containers[0]) }]; }),
  make('container-name-uppercase', daemonSet, no, (_, __, c) => { c.name = 'Main'; }),
  make('container-image-missing', deployment, no, (_, __, c) => { delete c.image; }),
  make('container-image-whitespace', deployment, ok, (_, __, c) => { c.image = ' busybox:1.36'; }),
  make('container-pull-policy-bad', daemonSet, no, (_, __, c) => { c.imagePullPolicy = 'Sometimes'; }),
  make('container-pull-policy-never', daemonSet, ok, (_, __, c) => { c.imagePullPolicy = 'Never'; }),
  make('container-termination-message-policy-bad', daemonSet, no, (_, __, c) => { c.terminationMessagePolicy = 'Stdout'; }),
  make('container-no-containers', daemonSet, no, (_, p) => { p.containers = []; }),
  make('container-restart-policy-on-app-container', daemonSet, no, (_, __, c) => { c.restartPolicy = 'Always'; }, { servers: { '1.35': ok }, why: 'a restartPolicy on an app container: ContainerRestartRules, on by default in 1.35' }),

  // Ports.
  make('port-out-of-range', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 70000 }]; }),
  make('port-zero', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 0 }]; }),
  make('port-in-range', daemonSet, ok, (_, __, c) => { c.ports = [{ containerPort: 9100, name: 'metrics' }]; }),
  make('port-name-too-long', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 9100, name: 'metrics-endpoint-x' }]; }),
  make('port-name-no-letter', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 9100, name: '9100' }]; }),
  make('port-names-duplicate', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 9100, name: 'm' }, { containerPort: 9101, name: 'm' }]; }),
  make('port-protocol-bad', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 9100, protocol: 'HTTP' }]; }),
  make('port-protocol-udp', daemonSet, ok, (_, __, c) => { c.ports = [{ containerPort: 9100, protocol: 'UDP' }]; }),

  // Env.
  make('env-name-bad', daemonSet, ok, (_, __, c) => { c.env = [{ name: '1NODE', value: 'x' }]; }, { at128: no, why: 'a name that starts with a digit: 1.28 refuses it (ValidateEnv), 1.32 accepts it (RelaxedEnvironmentVariableValidation, on by default since 1.32)' }),
  make('env-name-space', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'NODE NAME', value: 'x' }]; }, { at128: no, why: 'a name with a space: 1.28 refuses it (ValidateEnv), 1.32 accepts any printable name without "=" (RelaxedEnvironmentVariableValidation)' }),
  make('env-name-equals', daemonSet, no, (_, __, c) => { c.env = [{ name: 'A=B', value: 'x' }]; }),
  make('env-name-with-dot', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'node.name', value: 'x' }]; }),
  make('env-value-and-value-from', daemonSet, no, (_, __, c) => { c.env = [{ name: 'N', value: 'x', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]; }),
  make('env-field-ref-node-name', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]; }),
  // kubectl reads YAML 1.1: an unquoted N, y, yes, on or off is a boolean, not a string.
  make('yaml-1.1-boolean-env-name', daemonSet, no, (_, __, c) => { c.env = [{ name: 'N', value: 'x' }]; }),
  make('yaml-1.1-boolean-label-value', configMap, no, (o) => { o.metadata.labels = { enabled: 'on' }; }),
  make('env-field-ref-bad-path', daemonSet, no, (_, __, c) => { c.env = [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'spec.hostname' } } }]; }),
  make('env-field-ref-label', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }]; }),
  make('env-resource-field-ref', daemonSet, ok, (_, __, c) => { c.env = [{ name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } }]; }),
  make('env-resource-field-ref-bad', daemonSet, no, (_, __, c) => { c.env = [{ name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.disk' } } }]; }),
  make('env-two-sources', daemonSet, no, (_, __, c) => { c.env = [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' }, configMapKeyRef: { name: 'cfg', key: 'a' } } }]; }),
  make('env-configmap-key-bad', daemonSet, no, (_, __, c) => { c.env = [{ name: 'N', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a b' } } }]; }),
  make('env-from-no-source', daemonSet, no, (_, __, c) => { c.envFrom = [{ prefix: 'A_' }]; }),
  make('env-from-configmap', daemonSet, ok, (_, __, c) => { c.envFrom = [{ configMapRef: { name: 'cfg' } }]; }),

  // Resources.
  make('resources-request-above-limit', daemonSet, no, (_, __, c) => { c.resources.requests.memory = '64Mi'; }),
  make('resources-request-equal-limit', daemonSet, ok, (_, __, c) => { c.resources.requests.memory = '32Mi'; }),
  make('resources-negative', daemonSet, no, (_, __, c) => { c.resources.requests.cpu = '-10m'; }),
  make('resources-bad-name', daemonSet, no, (_, __, c) => { c.resources.limits.gpu = '1'; }),
  make('resources-extended-fractional', daemonSet, no, (_, __, c) => { c.resources.limits['example.com/gpu'] = '0.5'; c.resources.requests['example.com/gpu'] = '0.5'; }),
  make('resources-extended', daemonSet, ok, (_, __, c) => { c.resources.limits['example.com/gpu'] = '1'; c.resources.requests['example.com/gpu'] = '1'; }),

  // Probes and lifecycle.
  make('probe-no-handler', daemonSet, no, (_, __, c) => { c.readinessProbe = { periodSeconds: 10 }; }),
  make('probe-two-handlers', daemonSet, no, (_, __, c) => { c.readinessProbe = { tcpSocket: { port: 80 }, exec: { command: ['true'] } }; }),
  make('probe-exec', daemonSet, ok, (_, __, c) => { c.livenessProbe = { exec: { command: ['true'] } }; }),
  make('probe-liveness-success-threshold', daemonSet, no, (_, __, c) => { c.livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; }),
  make('probe-readiness-success-threshold', daemonSet, ok, (_, __, c) => { c.readinessProbe = { exec: { command: ['true'] }, successThreshold: 2 }; }),
  make('probe-http-port-out-of-range', daemonSet, no, (_, __, c) => { c.readinessProbe = { httpGet: { path: '/', port: 0 } }; }),
  make('probe-http-port-name', daemonSet, ok, (_, __, c) => { c.ports = [{ containerPort: 8080, name: 'http' }]; c.readinessProbe = { httpGet: { path: '/', port: 'http' } }; }),
  make('probe-negative-period', daemonSet, no, (_, __, c) => { c.readinessProbe = { exec: { command: ['true'] }, periodSeconds: -1 }; }),
  make('probe-grpc', daemonSet, ok, (_, __, c) => { c.readinessProbe = { grpc: { port: 9090 } }; }),
  // validateHTTPHeader: each httpHeaders name is IsHTTPHeaderName (letters, digits, dashes).
  make('probe-http-header-name-space', daemonSet, no, (_, __, c) => { c.readinessProbe = { httpGet: { path: '/', port: 8080, httpHeaders: [{ name: 'bad name', value: 'x' }] } }; }),
  make('probe-http-header-name-dashes', daemonSet, ok, (_, __, c) => { c.readinessProbe = { httpGet: { path: '/', port: 8080, httpHeaders: [{ name: 'X-Require-K8s-9', value: '' }] } }; }),
  make('lifecycle-no-handler', daemonSet, no, (_, __, c) => { c.lifecycle = { preStop: {} }; }),
  make('lifecycle-exec', daemonSet, ok, (_, __, c) => { c.lifecycle = { preStop: { exec: { command: ['true'] } } }; }),

  // Volumes and mounts.
  make('volume-mount-undefined', daemonSet, no, (_, __, c) => { c.volumeMounts = [{ name: 'data', mountPath: '/data' }]; }),
  make('volume-mount-defined', daemonSet, ok, (_, p, c) => { p.volumes = [{ name: 'data', emptyDir: {} }]; c.volumeMounts = [{ name: 'data', mountPath: '/data' }]; }),
  make('volume-duplicate-names', daemonSet, no, (_, p) => { p.volumes = [{ name: 'data', emptyDir: {} }, { name: 'data', emptyDir: {} }]; }),
  make('volume-no-source', daemonSet, ok, (_, p) => { p.volumes = [{ name: 'data' }]; }),
  make('volume-two-sources', daemonSet, no, (_, p) => { p.volumes = [{ name: 'data', emptyDir: {}, configMap: { name: 'cfg' } }]; }),
  make('volume-mount-path-twice', daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'a', emptyDir: {} }, { name: 'b', emptyDir: {} }]; c.volumeMounts = [{ name: 'a', mountPath: '/d' }, { name: 'b', mountPath: '/d' }]; }),
  make('volume-name-uppercase', daemonSet, no, (_, p) => { p.volumes = [{ name: 'Data', emptyDir: {} }]; }),
  make('volume-configmap', daemonSet, ok, (_, p, c) => { p.volumes = [{ name: 'cfg', configMap: { name: 'cfg' } }]; c.volumeMounts = [{ name: 'cfg', mountPath: '/etc/agent', readOnly: true }]; }),
  make('volume-subpath-escape', daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'a', emptyDir: {} }]; c.volumeMounts = [{ name: 'a', mountPath: '/d', subPath: '../etc' }]; }),
  make('volume-host-path-restricted', daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'logs', hostPath: { path: '/var/log' } }]; c.volumeMounts = [{ name: 'logs', mountPath: '/logs', readOnly: true }]; }),

  // Security contexts and Pod Security.
  make('security-privileged-no-escalation', daemonSet, no, (_, __, c) => { c.securityContext.privileged = true; }),
  make('security-privileged', daemonSet, no, (_, __, c) => { c.securityContext = { privileged: true }; }),
  make('security-negative-uid', daemonSet, no, (_, p) => { p.securityContext.runAsUser = -1; }),
  // ValidatePodSecurityContext: each supplemental group IsValidGroupID (0 to 2147483647).
  make('security-supplemental-group-too-large', daemonSet, no, (_, p) => { p.securityContext.supplementalGroups = [1000, 2147483648]; }),
  make('security-supplemental-group-largest', daemonSet, ok, (_, p) => { p.securityContext.supplementalGroups = [0, 2147483647]; }),
  // ValidateRuntimeClassName: a DNS-1123 subdomain (a template names no RuntimeClass that must exist yet).
  make('pod-runtime-class-name-underscore', daemonSet, no, (_, p) => { p.runtimeClassName = 'gvisor_sandbox'; }),
  make('pod-runtime-class-name-subdomain', daemonSet, ok, (_, p) => { p.runtimeClassName = 'gvisor.sandbox-1'; }),
  make('security-root-uid', daemonSet, no, (_, p) => { p.securityContext.runAsUser = 0; }),
  make('security-localhost-without-profile', daemonSet, no, (_, p) => { p.securityContext.seccompProfile = { type: 'Localhost' }; }),
  make('security-localhost-profile', daemonSet, ok, (_, p) => { p.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'agent.json' }; }),
  make('security-runtime-default-with-profile', daemonSet, no, (_, p) => { p.securityContext.seccompProfile = { type: 'RuntimeDefault', localhostProfile: 'agent.json' }; }),
  make('security-unconfined', daemonSet, no, (_, p) => { p.securityContext.seccompProfile = { type: 'Unconfined' }; }),
  make('security-capabilities-not-dropped', daemonSet, no, (_, __, c) => { delete c.securityContext.capabilities; }),
  make('security-net-bind-service', daemonSet, ok, (_, __, c) => { c.securityContext.capabilities.add = ['NET_BIND_SERVICE']; }),
  make('security-escalation-allowed', daemonSet, no, (_, __, c) => { c.securityContext.allowPrivilegeEscalation = true; }),
  make('security-host-pid', daemonSet, no, (_, p) => { p.hostPID = true; }),
  make('security-host-port', daemonSet, no, (_, __, c) => { c.ports = [{ containerPort: 9100, hostPort: 9100 }]; }),
  make('security-pod-privileged', barePod, no, (_, __, c) => { c.securityContext = { privileged: true }; }),
  make('security-sysctl-unsafe', daemonSet, no, (_, p) => { p.securityContext.sysctls = [{ name: 'net.core.somaxconn', value: '1024' }]; }),
  make('security-sysctl-bad-name', daemonSet, no, (_, p) => { p.securityContext.sysctls = [{ name: 'Net Core', value: '1' }]; }),
  make('security-windows-exempt', daemonSet, ok, (_, p, c) => { p.os = { name: 'windows' }; p.securityContext = { runAsNonRoot: true }; c.securityContext = {}; }),
  make('security-windows-linux-fields', daemonSet, no, (_, p, c) => { p.os = { name: 'windows' }; delete p.securityContext.seccompProfile; delete c.securityContext.capabilities; delete c.securityContext.allowPrivilegeEscalation; }),
  make('security-linux-not-exempt', daemonSet, no, (_, p, c) => { p.os = { name: 'linux' }; delete c.securityContext.capabilities; }),

  // Tolerations.
  make('toleration-exists-with-value', daemonSet, no, (_, p) => { p.tolerations = [{ key: 'a', operator: 'Exists', value: 'b' }]; }),
  make('toleration-exists-everything', daemonSet, ok, (_, p) => { p.tolerations = [{ operator: 'Exists' }]; }),
  make('toleration-equal-without-key', daemonSet, no, (_, p) => { p.tolerations = [{ operator: 'Equal', value: 'b' }]; }),
  make('toleration-seconds-without-noexecute', daemonSet, no, (_, p) => { p.tolerations = [{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }]; }),
  make('toleration-seconds-noexecute', daemonSet, ok, (_, p) => { p.tolerations = [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]; }),
  make('toleration-bad-effect', daemonSet, no, (_, p) => { p.tolerations = [{ key: 'a', operator: 'Exists', effect: 'NoRun' }]; }),
  make('toleration-bad-operator', daemonSet, no, (_, p) => { p.tolerations = [{ key: 'a', operator: 'In' }]; }),
  // ValidateTolerations: an empty operator means Equal.
  make('toleration-empty-operator', daemonSet, ok, (_, p) => { p.tolerations = [{ key: 'a', operator: '', value: 'b' }]; }),
  make('toleration-empty-operator-without-key', daemonSet, no, (_, p) => { p.tolerations = [{ operator: '', value: 'b' }]; }),

  // Node selection and affinity.
  make('node-selector-bad-key', daemonSet, no, (_, p) => { p.nodeSelector = { 'a b': 'x' }; }),
  make('node-selector-ok', daemonSet, ok, (_, p) => { p.nodeSelector = { 'kubernetes.io/os': 'linux' }; }),
  // ValidateLabels, wherever a map of labels is given.
  make('node-selector-bad-value', daemonSet, no, (_, p) => { p.nodeSelector = { tier: 'a b' }; }),
  make('service-selector-bad-value', service, no, (o) => { o.spec.selector = { app: 'a b' }; }),
  make('pdb-match-labels-bad-key', pdb, no, (o) => { o.spec.selector.matchLabels = { 'a b': 'web' }; }),
  make('affinity-in-without-values', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }] } } }; }),
  make('affinity-exists-with-values', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }] } } }; }),
  make('affinity-gt-two-values', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }] } } }; }),
  make('affinity-gt-one-value', daemonSet, ok, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['2'] }] }] } } }; }),
  make('affinity-bad-operator', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }] }] } } }; }),
  make('affinity-match-fields-name', daemonSet, ok, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } } }; }),
  make('affinity-match-fields-label', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.labels', operator: 'In', values: ['a'] }] }] } } }; }),
  make('affinity-no-terms', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }; }),
  make('affinity-weight-zero', daemonSet, no, (_, p) => { p.affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }] } }; }),

  // Topology spread.
  make('spread-zero-skew', deployment, no, (_, p) => { p.topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: labels } }]; }),
  make('spread-ok', deployment, ok, (_, p) => { p.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: labels } }]; }),
  make('spread-bad-when', deployment, no, (_, p) => { p.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Never' }]; }),
  make('spread-duplicate', deployment, no, (_, p) => { p.topologySpreadConstraints = [1, 2].map(() => ({ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' })); }),

  // DNS and host aliases.
  make('dns-policy-bad', daemonSet, no, (_, p) => { p.dnsPolicy = 'Cluster'; }),
  make('dns-none-without-nameservers', daemonSet, no, (_, p) => { p.dnsPolicy = 'None'; }),
  make('dns-none-with-nameserver', daemonSet, ok, (_, p) => { p.dnsPolicy = 'None'; p.dnsConfig = { nameservers: ['10.96.0.10'] }; }),
  make('dns-four-nameservers', daemonSet, no, (_, p) => { p.dnsConfig = { nameservers: ['1.1.1.1', '1.0.0.1', '8.8.8.8', '8.8.4.4'] }; }),
  make('dns-nameserver-not-ip', daemonSet, no, (_, p) => { p.dnsConfig = { nameservers: ['dns.example.com'] }; }),
  make('host-alias-bad-ip', daemonSet, no, (_, p) => { p.hostAliases = [{ ip: '10.0.0.300', hostnames: ['db'] }]; }),
  make('host-alias-ok', daemonSet, ok, (_, p) => { p.hostAliases = [{ ip: '10.0.0.3', hostnames: ['db.local'] }]; }),
  make('host-alias-bad-hostname', daemonSet, no, (_, p) => { p.hostAliases = [{ ip: '10.0.0.3', hostnames: ['DB_1'] }]; }),

  // Restart policy and grace periods.
  make('restart-never-in-daemonset', daemonSet, no, (_, p) => { p.restartPolicy = 'Never'; }),
  make('restart-always-in-daemonset', daemonSet, ok, (_, p) => { p.restartPolicy = 'Always'; }),
  make('restart-bad-value', barePod, no, (_, p) => { p.restartPolicy = 'Sometimes'; }),
  make('restart-always-in-job', job, no, (_, p) => { p.restartPolicy = 'Always'; }),
  make('restart-onfailure-in-job', job, ok, (_, p) => { p.restartPolicy = 'OnFailure'; }),
  make('grace-negative', daemonSet, ok, (_, p) => { p.terminationGracePeriodSeconds = -1; }, { warnings: { '1.32': ['spec.template.spec.terminationGracePeriodSeconds: must be >= 0'], '1.35': ['spec.template.spec.terminationGracePeriodSeconds: must be >= 0'] } }),
  make('grace-zero', daemonSet, ok, (_, p) => { p.terminationGracePeriodSeconds = 0; }),
  make('active-deadline-in-daemonset', daemonSet, no, (_, p) => { p.activeDeadlineSeconds = 60; }),
  make('priority-class-name-bad', daemonSet, no, (_, p) => { p.priorityClassName = 'Critical'; }),
  make('service-account-name-bad', daemonSet, no, (_, p) => { p.serviceAccountName = 'agent_sa'; }),
  make('hostname-bad', barePod, no, (_, p) => { p.hostname = 'a.b'; }),

  // DaemonSet.
  make('daemonset-maxsurge-and-maxunavailable', daemonSet, no, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }; }),
  make('daemonset-maxsurge-alone', daemonSet, ok, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }; }),
  make('daemonset-both-zero', daemonSet, no, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }; }),
  make('daemonset-maxunavailable-percent', daemonSet, ok, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } }; }),
  make('daemonset-maxunavailable-over-100', daemonSet, no, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } }; }),
  make('daemonset-maxunavailable-bad-string', daemonSet, no, (o) => { o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 'one' } }; }),
  make('daemonset-strategy-bad', daemonSet, no, (o) => { o.spec.updateStrategy = { type: 'Recreate' }; }),
  make('daemonset-on-delete', daemonSet, ok, (o) => { o.spec.updateStrategy = { type: 'OnDelete' }; }),
  make('daemonset-selector-missing', daemonSet, no, (o) => { delete o.spec.selector; }),
  make('daemonset-selector-mismatch', daemonSet, no, (o) => { o.spec.selector = { matchLabels: { app: 'other' } }; }),
  make('daemonset-negative-history', daemonSet, no, (o) => { o.spec.revisionHistoryLimit = -1; }),
  // Pod Security refuses the host port here; with the PSS rule waived, the checks still refuse the surge (kubernetes/kubernetes#106417).
  make('daemonset-hostport-surge', daemonSet, no, (o, __, c) => {
    c.ports = [{ containerPort: 9100, hostPort: 9100 }];
    o.metadata.annotations = { 'checks.node-reporter.dev/waive-pss-host-ports': 'corpus: host port on purpose' };
    o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  }),

  // Deployment, StatefulSet, ReplicaSet.
  make('deployment-negative-replicas', deployment, no, (o) => { o.spec.replicas = -1; }),
  make('deployment-recreate-with-rolling', deployment, no, (o) => { o.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }; }),
  make('deployment-both-zero', deployment, no, (o) => { o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }; }),
  make('deployment-surge-and-unavailable', deployment, ok, (o) => { o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }; }),
  make('deployment-progress-deadline-low', deployment, no, (o) => { o.spec.minReadySeconds = 30; o.spec.progressDeadlineSeconds = 10; }),
  make('deployment-restart-never', deployment, no, (_, p) => { p.restartPolicy = 'Never'; }),
  make('statefulset-bad-policy', statefulSet, no, (o) => { o.spec.podManagementPolicy = 'Random'; }),
  make('statefulset-parallel', statefulSet, ok, (o) => { o.spec.podManagementPolicy = 'Parallel'; }),
  make('replicaset-selector-mismatch', replicaSet, no, (o) => { o.spec.selector = { matchLabels: { app: 'other' } }; }),

  // Job and CronJob.
  make('job-negative-backoff', job, no, (o) => { o.spec.backoffLimit = -1; }),
  make('job-completion-mode-bad', job, no, (o) => { o.spec.completionMode = 'Ordered'; }),
  make('cronjob-bad-schedule', cronJob, no, (o) => { o.spec.schedule = 'every five minutes'; }),
  make('cronjob-six-fields', cronJob, no, (o) => { o.spec.schedule = '0 */5 * * * *'; }),
  make('cronjob-out-of-range', cronJob, no, (o) => { o.spec.schedule = '61 * * * *'; }),
  make('cronjob-descriptor', cronJob, ok, (o) => { o.spec.schedule = '@hourly'; }),
  make('cronjob-named-days', cronJob, ok, (o) => { o.spec.schedule = '0 3 * * MON-FRI'; }),
  make('cronjob-tz-in-schedule', cronJob, no, (o) => { o.spec.schedule = 'TZ=UTC 0 3 * * *'; }),
  make('cronjob-time-zone', cronJob, ok, (o) => { o.spec.timeZone = 'Europe/Berlin'; }),
  make('cronjob-time-zone-bad', cronJob, no, (o) => { o.spec.timeZone = 'Mars/Olympus'; }),
  make('cronjob-concurrency-bad', cronJob, no, (o) => { o.spec.concurrencyPolicy = 'Queue'; }),
  make('cronjob-name-too-long', cronJob, no, (o) => { o.metadata.name = 'c'.repeat(53); }),
  make('cronjob-restart-always', cronJob, no, (_, p) => { p.restartPolicy = 'Always'; }),

  // Service.
  make('service-no-ports', service, no, (o) => { o.spec.ports = []; }),
  make('service-headless-no-ports', service, ok, (o) => { o.spec.ports = []; o.spec.clusterIP = 'None'; }),
  make('service-bad-type', service, no, (o) => { o.spec.type = 'Internal'; }),
  make('service-port-out-of-range', service, no, (o) => { o.spec.ports = [{ port: 70000 }]; }),
  make('service-two-ports-unnamed', service, no, (o) => { o.spec.ports = [{ port: 80 }, { port: 443 }]; }),
  make('service-two-ports-named', service, ok, (o) => { o.spec.ports = [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]; }),
  make('service-node-port-on-cluster-ip', service, no, (o) => { o.spec.ports = [{ port: 80, nodePort: 30080 }]; }),
  make('service-target-port-name-bad', service, no, (o) => { o.spec.ports = [{ port: 80, targetPort: 'HTTP_PORT' }]; }),
  make('service-external-name', service, ok, (o) => { o.spec = { type: 'ExternalName', externalName: 'db.example.com' }; }),
  make('service-session-affinity-bad', service, no, (o) => { o.spec.sessionAffinity = 'Cookie'; }),

  // ConfigMap and Secret.
  make('configmap-bad-key', configMap, no, (o) => { o.data = { 'agent conf': 'x' }; }),
  make('configmap-duplicate-key', configMap, no, (o) => { o.binaryData = { 'agent.conf': 'eA==' }; }),
  make('configmap-binary', configMap, ok, (o) => { o.binaryData = { 'logo.png': 'iVBORw0KGgo=' }; }),
  make('configmap-too-big', configMap, no, (o) => { o.data = { big: 'x'.repeat(1024 * 1024 + 1) }; }),
  make('secret-tls-missing-key', secret, no, (o) => { o.type = 'kubernetes.io/tls'; o.stringData = { 'tls.crt': 'x' }; }),
  make('secret-tls', secret, ok, (o) => { o.type = 'kubernetes.io/tls'; o.stringData = { 'tls.crt': 'x', 'tls.key': 'z' }; }, { warnings: { '1.32': ['tls: failed to find any PEM data in certificate input'], '1.35': ['tls: failed to find any PEM data in certificate input'] } }),
  make('secret-bad-key', secret, no, (o) => { o.stringData = { 'a/b': 'x' }; }),
  make('secret-data-not-base64', secret, no, (o) => { o.data = { token: 'not base64!' }; }),

  // RBAC.
  make('role-no-verbs', role, no, (o) => { o.rules[0].verbs = []; }),
  make('role-no-api-groups', role, no, (o) => { delete o.rules[0].apiGroups; }),
  make('role-non-resource-urls', role, no, (o) => { o.rules = [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]; }),
  make('clusterrole-non-resource-urls', clusterRole, ok, (o) => { o.rules = [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]; }),
  make('rolebinding-bad-kind', roleBinding, no, (o) => { o.roleRef.kind = 'Group'; }),
  make('rolebinding-cluster-role', roleBinding, ok, (o) => { o.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }; }),
  make('clusterrolebinding-role', clusterRoleBinding, no, (o) => { o.roleRef.kind = 'Role'; }),
  make('clusterrolebinding-sa-no-namespace', clusterRoleBinding, no, (o) => { delete o.subjects[0].namespace; }),
  make('rolebinding-subject-bad-kind', roleBinding, no, (o) => { o.subjects = [{ kind: 'Robot', name: 'r' }]; }),
  make('rolebinding-user', roleBinding, ok, (o) => { o.subjects = [{ kind: 'User', name: 'jane@example.com', apiGroup: 'rbac.authorization.k8s.io' }]; }),
  // RBAC policy (issue 25): the server accepts dangerous grants and a roleRef naming a group (it binds nothing);
  // the checks want a reason, here written as the waiver.
  make('clusterrolebinding-cluster-admin-with-reason', clusterRoleBinding, ok, (o) => { o.roleRef.name = 'cluster-admin'; o.metadata.annotations = { 'checks.node-reporter.dev/waive-rbac-dangerous': 'corpus: on purpose' }; }),
  make('clusterrolebinding-system-masters-with-reason', clusterRoleBinding, ok, (o) => { o.roleRef.name = 'system:masters'; o.metadata.annotations = { 'checks.node-reporter.dev/waive-rbac-role-ref': 'corpus: on purpose' }; }),
  make('clusterrole-dangerous-with-reason', clusterRole, ok, (o) => {
    o.rules = [{ apiGroups: [''], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['get'] }, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate', 'bind'] },
      { apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'], verbs: ['impersonate'] }, { apiGroups: [''], resources: ['secrets', 'nodes/proxy'], verbs: ['get', 'list'] }];
    o.metadata.annotations = { 'checks.node-reporter.dev/waive-rbac-dangerous': 'corpus: on purpose' };
  }),
  // A projected API token the pod opted out of: accepted (the checks only warn, projected-api-token).
  make('pod-projected-token-no-audience', barePod, ok, (_, p, c) => {
    p.automountServiceAccountToken = false;
    p.volumes = [...(p.volumes ?? []), { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }];
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'token', mountPath: '/var/run/token', readOnly: true }];
  }),

  // PriorityClass.
  make('priorityclass-too-high', priorityClass, no, (o) => { o.value = 2000000000; }),
  make('priorityclass-system-prefix', priorityClass, no, (o) => { o.metadata.name = 'system-agents'; }),
  make('priorityclass-preemption-bad', priorityClass, no, (o) => { o.preemptionPolicy = 'Always'; }),
  make('priorityclass-never-preempt', priorityClass, ok, (o) => { o.preemptionPolicy = 'Never'; }),

  // PodDisruptionBudget.
  make('pdb-both-set', pdb, no, (o) => { o.spec.maxUnavailable = 1; }),
  make('pdb-percent', pdb, ok, (o) => { o.spec.minAvailable = '50%'; }),
  make('pdb-over-100', pdb, no, (o) => { o.spec.minAvailable = '120%'; }),
  make('pdb-negative', pdb, no, (o) => { delete o.spec.minAvailable; o.spec.maxUnavailable = -1; }),

  ...TOO_STRICT,
  ...TOO_LENIENT,
  ...POD_SECURITY_LEVELS,
  ...CUSTOM_RESOURCES,
  ...LISTS,
  ...SELECTORS_AND_GROUPS,
  ...VERSIONED,
  ...SERVER_REFUSALS,
  ...YAML_AS_KUBECTL,
  ...TRUTH,
];

/** The YAML text of a case. */
export function corpusYaml(c: CorpusCase): string {
  return c.text ?? c.objects.map((o) => stringify(o)).join('---\n');
}

/** Writes every case to `<dir>/<id>.yaml`; returns the paths by id. */
export function corpusFiles(dir: string): Map<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const c of CORPUS) {
    const file = path.join(dir, `${c.id}.yaml`);
    fs.writeFileSync(file, corpusYaml(c));
    files.set(c.id, file);
  }
  return files;
}

/**
 * The checks' verdict on a case's text at a Kubernetes version: refused when
 * a finding blocks, or when it holds no object at all (kubectl: "no objects
 * passed to apply"); and the warnings (the findings that do not block).
 */
export function checksVerdict(c: CorpusCase, text: string, file: string, version: CheckedVersion): { verdict: 'accepted' | 'refused'; blocking: Finding[]; warnings: Finding[] } {
  const report = checkInputs([{ file, text }], corpusOptions(c, version));
  const blocking = report.findings.filter(isBlocking);
  return { verdict: blocking.length > 0 || report.objects === 0 ? 'refused' : 'accepted', blocking, warnings: report.findings.filter((f) => !isBlocking(f)) };
}

/** The options the checks judge a case with: as the case is applied, at this version (`--kubernetes-version`). */
export function corpusOptions(c: CorpusCase, version: CheckedVersion): CheckOptions {
  return { apply: c.apply ?? 'client-side', kubernetesVersion: version };
}

/**
 * A field path as the server and the checks both write it, for comparing
 * them: `metadata.annotations[a/b]` and `metadata.annotations.a/b` are one.
 */
export function normalPath(path: string): string {
  return path.replace(/\[["']?([^\]"']*)["']?\]/g, '.$1');
}

/**
 * The server's warnings the checks give too, at the versions the server
 * gives them (issue 26: the AppArmor annotation from 1.30, PreferClose at
 * 1.35; and duplicate ports). The other warnings the corpus records (a
 * dotted Job name, a TLS certificate without PEM data, ...) are the server's
 * hints, held against the server only (e2e/agreement.ts).
 */
export const MIRRORED_WARNINGS: readonly RegExp[] = [/deprecated since v1\.30/, /"PreferClose" is deprecated/, /duplicate port definition/];

/**
 * The field paths of the mirrored warnings a case's server gives at this
 * version; undefined at 1.28 when the case records nothing for 1.28 (no
 * server of it runs here).
 */
export function mirroredWarningPaths(c: CorpusCase, version: CheckedVersion): string[] | undefined {
  const recorded = version === '1.28' ? c.warnings?.['1.28'] : c.warnings?.[version] ?? [];
  return recorded?.filter((w) => MIRRORED_WARNINGS.some((m) => m.test(w))).map(warningPath);
}

/** The field path a server's warning names: the text before its first ": ". */
export function warningPath(warning: string): string {
  return normalPath(warning.replace(/^Warning: /, '').split(': ')[0]);
}

/** The key of a (case, version) pair in PENDING: `<id>@<version>`, or `<id>@<version> warnings` for its warnings. */
export function pendingKey(id: string, version: CheckedVersion, what: 'verdict' | 'warnings' = 'verdict'): string {
  return what === 'verdict' ? `${id}@${version}` : `${id}@${version} warnings`;
}

/** Why the checks at this version do not yet give a case's recorded answer, when PENDING lists it. */
export function pendingReason(id: string, version: CheckedVersion, what: 'verdict' | 'warnings' = 'verdict'): string | undefined {
  return PENDING[pendingKey(id, version, what)];
}
