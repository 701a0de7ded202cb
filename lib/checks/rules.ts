/**
 * The manifest checks' rules: one id each, what it protects, how to fix it.
 *
 * A rule id names the rule in findings and in waivers (the annotation
 * `checks.node-reporter.dev/waive-<id>: <reason>` on an object's metadata).
 */

/** How bad a finding is: errors fail `cdk8s synth`, warnings are printed. */
export enum Severity {
  /** Fails synth. */
  ERROR = 'error',
  /** Printed; synth still succeeds. */
  WARNING = 'warning',
}

/** A check's rule. */
export interface Rule {
  /** The id, kebab-case; used in waivers. */
  readonly id: string;
  /** The severity of its findings. */
  readonly severity: Severity;
  /** Where the rule comes from, cited in each finding. */
  readonly citation: string;
  /** How to fix a finding, in general terms. */
  readonly fix: string;
}

const PSS = 'Pod Security Standards "restricted" (Kubernetes v1.28, pod-security-admission)';
const PSS_URL = 'https://kubernetes.io/docs/concepts/security/pod-security-standards/';

function pss(id: string, control: string, level: 'baseline' | 'restricted', fix: string): Rule {
  return { id, severity: Severity.ERROR, citation: `${PSS}, control "${control}" (${PSS_URL}#${level})`, fix };
}

/** Every rule, by a name for this library's code; `ALL_RULES` is the public list. */
export const RULES = {
  yamlSyntax: { id: 'yaml-syntax', severity: Severity.ERROR, citation: 'YAML 1.2; kubectl rejects duplicate keys', fix: 'Write each key once per mapping.' },
  schema: { id: 'schema', severity: Severity.ERROR, citation: 'Kubernetes 1.33 OpenAPI schema (kubernetes-models 4.5.1), strict: unknown fields are errors as with kubeconform -strict', fix: 'Use the field names and types of the Kubernetes API reference; misspelt fields are silently dropped by the API server.' },
  unknownKind: { id: 'unknown-kind', severity: Severity.ERROR, citation: 'Kubernetes 1.33 API groups and kinds (kubernetes-models 4.5.1)', fix: 'Use a built-in apiVersion/kind (for example apps/v1 DaemonSet); custom resources need their CRD schema.' },

  hostNamespaces: pss('pss-host-namespaces', 'Host Namespaces', 'baseline', 'Remove hostNetwork, hostPID and hostIPC (or set them to false).'),
  hostProcess: pss('pss-host-process', 'HostProcess', 'baseline', 'Remove windowsOptions.hostProcess (or set it to false).'),
  privileged: pss('pss-privileged', 'Privileged Containers', 'baseline', 'Remove securityContext.privileged (or set it to false).'),
  capabilities: pss('pss-capabilities', 'Capabilities', 'restricted', "Set securityContext.capabilities.drop to ['ALL'] and add at most NET_BIND_SERVICE."),
  volumeTypes: pss('pss-volume-types', 'Volume Types', 'restricted', 'Use only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected or secret volumes; never hostPath.'),
  hostPorts: pss('pss-host-ports', 'Host Ports', 'baseline', 'Remove hostPort from the container ports; expose the agent through a Service instead.'),
  appArmor: pss('pss-apparmor', 'AppArmor', 'baseline', "Remove the container.apparmor.security.beta.kubernetes.io annotation or set it to 'runtime/default' or 'localhost/<profile>'."),
  seLinux: pss('pss-selinux', 'SELinux', 'baseline', 'Remove seLinuxOptions.user and .role, and set .type only to container_t, container_init_t or container_kvm_t.'),
  procMount: pss('pss-proc-mount', '/proc Mount Type', 'baseline', 'Remove securityContext.procMount (or set it to Default).'),
  sysctls: pss('pss-sysctls', 'Sysctls', 'baseline', 'Set only the safe sysctls: kernel.shm_rmid_forced, net.ipv4.ip_local_port_range, net.ipv4.ip_local_reserved_ports, net.ipv4.ip_unprivileged_port_start, net.ipv4.tcp_syncookies, net.ipv4.ping_group_range.'),
  runAsNonRoot: pss('pss-run-as-non-root', 'Running as Non-root', 'restricted', 'Set securityContext.runAsNonRoot: true on the pod (or on every container), with a non-zero runAsUser.'),
  runAsUser: pss('pss-run-as-user', 'Running as Non-root user', 'restricted', 'Set runAsUser to a non-zero uid (for example 65534), or leave it unset.'),
  seccomp: pss('pss-seccomp', 'Seccomp', 'restricted', 'Set securityContext.seccompProfile.type to RuntimeDefault (or Localhost) on the pod or on every container.'),
  privilegeEscalation: pss('pss-privilege-escalation', 'Privilege Escalation', 'restricted', 'Set securityContext.allowPrivilegeEscalation: false on every container.'),

  selector: { id: 'selector-matches-template', severity: Severity.ERROR, citation: 'apps/v1 workload validation: spec.selector must be non-empty and select spec.template.metadata.labels', fix: 'Give the workload a selector whose labels all appear on its pod template.' },
  nonRootWithoutUid: { id: 'run-as-non-root-without-uid', severity: Severity.WARNING, citation: 'kubelet: runAsNonRoot with an image whose user is root (busybox, most base images) fails with CreateContainerConfigError', fix: 'Set runAsUser (and runAsGroup) to a uid the image can use, for example 65534.' },
  clusterScopedNamespace: { id: 'cluster-scoped-namespace', severity: Severity.ERROR, citation: 'Kubernetes API: cluster-scoped objects have no namespace', fix: "Remove metadata.namespace; in cdk8s, patch it out: ApiObject.of(obj).addJsonPatch(JsonPatch.remove('/metadata/namespace'))." },
  metadataSyntax: { id: 'metadata-syntax', severity: Severity.ERROR, citation: 'Kubernetes object names and labels (k8s.io/apimachinery validation)', fix: 'Use DNS-1123 names, qualified-name label and annotation keys, and label values of at most 63 characters.' },
  resources: { id: 'resources', severity: Severity.WARNING, citation: 'a node agent runs on every node: unbounded requests or memory multiply by the node count', fix: 'Set resources.requests.cpu, resources.requests.memory and resources.limits.memory.' },
  imageTag: { id: 'image-tag', severity: Severity.WARNING, citation: 'reproducible rollouts: an untagged or :latest image changes under the same manifest', fix: 'Pin the image to a version tag or a digest.' },
  waiver: { id: 'waiver', severity: Severity.ERROR, citation: 'this library: a waiver must say why', fix: 'Give the waiver annotation a non-empty reason, and name an existing rule.' },
} as const satisfies Record<string, Rule>;

/** Every rule the checks apply; a waiver names one by its id. */
export const ALL_RULES: readonly Rule[] = Object.values(RULES);

/** The annotation key prefix that waives a rule for one object: `<prefix><rule id>`. */
export const WAIVER_PREFIX = 'checks.node-reporter.dev/waive-';
