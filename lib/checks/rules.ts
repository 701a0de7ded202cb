/**
 * The manifest checks' rules: one id each, what it protects, how to fix it.
 *
 * A rule id names the rule in findings and in waivers (the annotation
 * `checks.node-reporter.dev/waive-<id>: <reason>` on an object's metadata).
 * Only the rules marked `waivable` (policy and recommendations) can be waived:
 * a waiver does not make the API server accept an object.
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
  /**
   * Whether an object may waive it: true for policy (Pod Security) and this
   * library's recommendations; absent for what the API server or kubectl
   * refuses or changes (YAML, schema, API validation, removed APIs), which no
   * annotation changes: a waiver of such a rule is itself an error.
   */
  readonly waivable?: true;
}

const PSS_URL = 'https://kubernetes.io/docs/concepts/security/pod-security-standards/';

/** A Pod Security control: pod-security-admission's check `check` (policy/check_<check>.go) of that level. */
function pss(id: string, control: string, level: 'baseline' | 'restricted', check: string, fix: string): Rule {
  return { id, severity: Severity.ERROR, waivable: true, citation: `Pod Security Standards "${level}" (pod-security-admission policy/check_${check}.go, at the namespace's policy version), control "${control}" (${PSS_URL}#${level})`, fix };
}

function api(id: string, source: string, fix: string): Rule {
  return { id, severity: Severity.ERROR, citation: `Kubernetes API server validation, ${source}`, fix };
}

/** Every rule, by a name for this library's code; `ALL_RULES` is the public list. */
export const RULES = {
  yamlSyntax: { id: 'yaml-syntax', severity: Severity.ERROR, citation: 'YAML 1.1, as kubectl reads it (sigs.k8s.io/yaml, go-yaml v2: an unquoted yes, no, on, off, y or n is a boolean; a merge key takes only maps)', fix: 'Write YAML that parses: quote strings such as "yes" and "on", merge only mappings.' },
  schema: { id: 'schema', severity: Severity.ERROR, citation: 'the OpenAPI definitions of the Kubernetes version judged by (schemas/), strict as kubectl apply --validate=strict: unknown fields and wrong JSON types are refused', fix: 'Use the field names and types of the API reference of the Kubernetes version you deploy to.' },
  unknownKind: { id: 'unknown-kind', severity: Severity.ERROR, citation: 'the API groups, versions and kinds the Kubernetes version judged by serves by default (kubectl api-versions; beta APIs are off by default since 1.24, KEP-3136)', fix: 'Use a built-in apiVersion/kind (for example apps/v1 DaemonSet); a custom resource needs its CustomResourceDefinition in the same set of manifests.' },
  removedApi: { id: 'removed-api', severity: Severity.ERROR, citation: 'Kubernetes Deprecated API Migration Guide (https://kubernetes.io/docs/reference/using-api/deprecation-guide/)', fix: 'Move the object to the replacement apiVersion and apply the field changes the guide lists.' },
  deprecatedApi: { id: 'deprecated-api', severity: Severity.WARNING, citation: 'Kubernetes Deprecated API Migration Guide (https://kubernetes.io/docs/reference/using-api/deprecation-guide/)', fix: 'Move the object to the replacement apiVersion before the version that removes it.' },
  yamlDuplicateKey: { id: 'yaml-duplicate-key', severity: Severity.WARNING, citation: 'YAML as kubectl reads it (sigs.k8s.io/yaml, go-yaml v2): of duplicate keys in a mapping the last one wins, and the others are silently lost', fix: 'Write each key once per mapping.' },

  hostNamespaces: pss('pss-host-namespaces', 'Host Namespaces', 'baseline', 'hostNamespaces', 'Remove hostNetwork, hostPID and hostIPC (or set them to false).'),
  hostProcess: pss('pss-host-process', 'HostProcess', 'baseline', 'windowsHostProcess', 'Remove windowsOptions.hostProcess (or set it to false).'),
  privileged: pss('pss-privileged', 'Privileged Containers', 'baseline', 'privileged', 'Remove securityContext.privileged (or set it to false).'),
  capabilitiesBaseline: pss('pss-capabilities-baseline', 'Capabilities', 'baseline', 'capabilities_baseline', 'Add only capabilities of the default set (AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT).'),
  capabilities: pss('pss-capabilities', 'Capabilities', 'restricted', 'capabilities_restricted', "Set securityContext.capabilities.drop to ['ALL'] and add at most NET_BIND_SERVICE."),
  hostPathVolumes: pss('pss-host-path-volumes', 'HostPath Volumes', 'baseline', 'hostPathVolumes', 'Remove hostPath volumes.'),
  volumeTypes: pss('pss-volume-types', 'Volume Types', 'restricted', 'restrictedVolumes', 'Use only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected or secret volumes; never hostPath.'),
  hostPorts: pss('pss-host-ports', 'Host Ports', 'baseline', 'hostPorts', 'Remove hostPort from the container ports; expose the agent through a Service instead.'),
  appArmor: pss('pss-apparmor', 'AppArmor', 'baseline', 'appArmorProfile', 'Set securityContext.appArmorProfile.type (1.30+) or the container.apparmor.security.beta.kubernetes.io annotation only to RuntimeDefault (runtime/default) or Localhost (localhost/<profile>).'),
  seLinux: pss('pss-selinux', 'SELinux', 'baseline', 'seLinuxOptions', 'Remove seLinuxOptions.user and .role, and set .type only to container_t, container_init_t or container_kvm_t.'),
  procMount: pss('pss-proc-mount', '/proc Mount Type', 'baseline', 'procMount', 'Remove securityContext.procMount (or set it to Default).'),
  probeHost: pss('pss-probe-host', 'Probes / Lifecycle Hooks', 'baseline', 'hostProbesAndHostLifecycle', 'Remove the host of httpGet and tcpSocket probes and lifecycle handlers (they reach the pod itself by default).'),
  sysctls: pss('pss-sysctls', 'Sysctls', 'baseline', 'sysctls', 'Set only the safe sysctls: kernel.shm_rmid_forced, net.ipv4.ip_local_port_range, net.ipv4.ip_local_reserved_ports, net.ipv4.ip_unprivileged_port_start, net.ipv4.tcp_syncookies, net.ipv4.ping_group_range; from policy v1.29 also net.ipv4.tcp_keepalive_time, tcp_fin_timeout, tcp_keepalive_intvl and tcp_keepalive_probes, from v1.32 net.ipv4.tcp_rmem and tcp_wmem.'),
  runAsNonRoot: pss('pss-run-as-non-root', 'Running as Non-root', 'restricted', 'runAsNonRoot', 'Set securityContext.runAsNonRoot: true on the pod (or on every container), with a non-zero runAsUser.'),
  runAsUser: pss('pss-run-as-user', 'Running as Non-root user', 'restricted', 'runAsUser', 'Set runAsUser to a non-zero uid (for example 65534), or leave it unset.'),
  seccompBaseline: pss('pss-seccomp-baseline', 'Seccomp', 'baseline', 'seccompProfile_baseline', 'Do not set seccompProfile.type to Unconfined.'),
  seccomp: pss('pss-seccomp', 'Seccomp', 'restricted', 'seccompProfile_restricted', 'Set securityContext.seccompProfile.type to RuntimeDefault (or Localhost) on the pod or on every container.'),
  privilegeEscalation: pss('pss-privilege-escalation', 'Privilege Escalation', 'restricted', 'allowPrivilegeEscalation', 'Set securityContext.allowPrivilegeEscalation: false on every container.'),

  podSecurityLabels: { id: 'pod-security-labels', severity: Severity.ERROR, citation: 'pod-security-admission (admission.go: validating a Namespace): the labels pod-security.kubernetes.io/enforce, audit and warn take privileged, baseline or restricted, and their -version labels latest or v1.<minor>', fix: 'Label the namespace with a level of privileged, baseline or restricted, and a version of latest or v1.28.' },
  crdSchema: { id: 'crd-schema', severity: Severity.ERROR, citation: "k8s.io/apiextensions-apiserver: a custom resource against its CustomResourceDefinition's served versions and structural openAPIV3Schema (types, required, enum, bounds, patterns, list types; unknown fields refused under strict field validation unless x-kubernetes-preserve-unknown-fields); CEL rules are not evaluated", fix: "Make the resource match its CRD's schema for that version (kubectl explain <kind>.<field> shows it)." },
  crdNotInInput: { waivable: true, id: 'crd-not-in-input', severity: Severity.WARNING, citation: 'a custom resource is judged by its CustomResourceDefinition; without it in the input the checks cannot tell its fields', fix: 'Check it together with its CRD (for example the CRDs of the chart, or those of the cluster: kubectl get crd NAME -o yaml), or skip its kind with --skip-kind.' },
  apiCrd: api('api-crd', 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation: ValidateCustomResourceDefinition (the name is plural.group, one storage version, a schema of type object per version)', 'Name the CRD <plural>.<group>, mark exactly one version as storage, and give each version an openAPIV3Schema of type object.'),
  selector: { id: 'selector-matches-template', severity: Severity.ERROR, citation: 'apps/v1 workload validation: spec.selector must be non-empty and select spec.template.metadata.labels', fix: 'Give the workload a selector whose labels all appear on its pod template.' },
  nonRootWithoutUid: { waivable: true, id: 'run-as-non-root-without-uid', severity: Severity.WARNING, citation: 'kubelet: runAsNonRoot with an image whose user is root (busybox, most base images) fails with CreateContainerConfigError', fix: 'Set runAsUser (and runAsGroup) to a uid the image can use, for example 65534.' },
  clusterScopedNamespace: { waivable: true, id: 'cluster-scoped-namespace', severity: Severity.WARNING, citation: 'Kubernetes API: cluster-scoped objects have no namespace; the API server ignores metadata.namespace on them (the request names none), but it shows a chart stamping its namespace on everything', fix: "Remove metadata.namespace; in cdk8s, patch it out: ApiObject.of(obj).addJsonPatch(JsonPatch.remove('/metadata/namespace'))." },
  metadataSyntax: { id: 'metadata-syntax', severity: Severity.ERROR, citation: 'ValidateObjectMeta: ValidateNamespaceName, ValidateLabels, ValidateAnnotations (k8s.io/apimachinery validation)', fix: 'Use a DNS-1123 label namespace, qualified-name label and annotation keys, and label values of at most 63 characters.' },
  resources: { waivable: true, id: 'resources', severity: Severity.WARNING, citation: 'a node agent runs on every node: unbounded requests or memory multiply by the node count', fix: 'Set resources.requests.cpu, resources.requests.memory and resources.limits.memory.' },
  droppedField: { id: 'dropped-field', severity: Severity.WARNING, citation: 'pkg/api/pod and pkg/registry/batch/job: dropDisabledFields: a field whose feature gate is off by default in the version judged by is dropped on create, before validation and admission', fix: 'Remove the field, or enable its feature gate on the API server (and expect it to change before it graduates).' },
  deprecatedField: { id: 'deprecated-field', severity: Severity.WARNING, citation: 'pkg/api/pod/warnings.go and pkg/api/service/warnings.go: the API server of the version judged by accepts the field or value with a warning that it is deprecated (the AppArmor annotations from 1.30, trafficDistribution PreferClose once PreferSameZone exists)', fix: 'Use the field or value the warning names instead.' },
  imageTag: { waivable: true, id: 'image-tag', severity: Severity.WARNING, citation: 'reproducible rollouts: an untagged or :latest image changes under the same manifest', fix: 'Pin the image to a version tag or a digest.' },

  // The API server's own validation (kubernetes/kubernetes, pkg/apis/*/validation), function by function; what changed after
  // 1.28 follows the version judged by (lib/checks/versions.ts names each change and its feature gate).
  apiObjectMeta: api('api-object-meta', "staging/src/k8s.io/apimachinery/pkg/api/validation: ValidateObjectMeta with each kind's name function (ValidateServiceName: DNS-1035 label; ValidateNamespaceName, ValidateStatefulSetName: DNS-1123 label; ValidateRBACName and PodDisruptionBudget: path segment; most kinds: DNS-1123 subdomain), generateName, ValidateAnnotationsSize", 'Give the object a metadata.name of the syntax its kind requires (the message names it).'),
  kubectlApply: { id: 'kubectl-apply', severity: Severity.ERROR, citation: 'kubectl apply (k8s.io/kubectl/pkg/cmd/apply): it refuses an object with generateName ("cannot use generate name with apply"), reads any object with items as a List, and (client-side) stores the object in the last-applied-configuration annotation, which ValidateAnnotationsSize limits to 256 KiB', fix: 'Give the object a metadata.name (generateName works only with kubectl create); give List items apiVersion and kind; apply objects over 256 KiB with kubectl apply --server-side.' },
  apiPodSpec: api('api-pod-spec', 'pkg/apis/core/validation: ValidatePodSpec (at least one container, restartPolicy, dnsPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, priorityClassName, serviceAccountName, nodeSelector)', 'Use the values the API reference lists for the pod spec fields.'),
  apiContainer: api('api-container', 'pkg/apis/core/validation: validateContainers, validateInitContainers, validateEphemeralContainers, ValidatePodTemplateSpec and ValidatePodCreate (no ephemeral containers in a template or on create; names unique DNS-1123 labels, image, imagePullPolicy, terminationMessagePolicy); from 1.35 restartPolicy on an app container too (ContainerRestartRules); from 1.34 in a StatefulSet\'s template as well', 'Give every container a unique DNS-1123 name, an image and a supported imagePullPolicy.'),
  apiPorts: api('api-ports', 'pkg/apis/core/validation: validateContainerPorts, validateHostNetwork, checkHostPortConflicts (port numbers, IANA names, protocols, hostPort equal to containerPort with hostNetwork, each host port once)', 'Use port numbers from 1 to 65535, unique IANA names of at most 15 characters, and TCP, UDP or SCTP.'),
  apiEnv: api('api-env', 'pkg/apis/core/validation: ValidateEnv, validateEnvVarValueFrom, validateObjectFieldSelector, validateContainerResourceFieldSelector, ValidateEnvFrom; from 1.32 any printable ASCII name but "=" (RelaxedEnvironmentVariableValidation)', 'Name variables [-._a-zA-Z][-._a-zA-Z0-9]* (from 1.32: any printable ASCII but "="), and give valueFrom exactly one supported source.'),
  apiResources: api('api-resources', 'pkg/apis/core/validation: ValidateResourceRequirements (resource names, non-negative quantities, request at most limit); from 1.33 resizePolicy (InPlacePodVerticalScaling: validateResizePolicy)', 'Use cpu, memory, ephemeral-storage or a domain-qualified resource, with each request at most its limit.'),
  apiProbes: api('api-probes', 'pkg/apis/core/validation: validateProbe, validateLivenessProbe, validateStartupProbe, validateHandler, validateLifecycle (exactly one handler, successThreshold 1 for liveness and startup, ports); from 1.30 the sleep handler (PodLifecycleSleepAction: validateSleepAction), 0 seconds from 1.33 (PodLifecycleSleepActionAllowZero)', 'Give each probe and lifecycle hook exactly one handler (exec, httpGet, tcpSocket or grpc).'),
  apiVolumes: api('api-volumes', 'pkg/apis/core/validation: ValidateVolumes, ValidateVolumeMounts (unique names, exactly one source, mounts of defined volumes, unique mount paths); from 1.31 recursiveReadOnly (RecursiveReadOnlyMounts: validateMountRecursiveReadOnly)', 'Define every mounted volume once, with exactly one source, and mount each at its own path.'),
  apiSecurityContext: api('api-security-context', 'pkg/apis/core/validation: ValidatePodSecurityContext, ValidateSecurityContext, validateSeccompProfileField, validateSeccompAnnotationsAndFields, validateWindows, validateWindowsHostProcessPod (ids, privileged with allowPrivilegeEscalation false, seccomp localhostProfile and annotations, Linux-only fields on Windows pods, hostProcess only with the host network); from 1.30 appArmorProfile (AppArmorFields: validateAppArmorProfileField), from 1.33 procMount (ProcMountType)', 'Use non-negative ids, do not combine privileged: true with allowPrivilegeEscalation: false, and set localhostProfile only with type Localhost.'),
  apiPodAnnotations: api('api-pod-annotations', 'pkg/apis/core/validation: ValidatePodSpecificAnnotations (ValidateAppArmorPodAnnotations: the container exists, the profile is runtime/default, unconfined or localhost/<name>; ValidateSeccompPodAnnotations)', 'Name an existing container in each container.apparmor.security.beta.kubernetes.io/<container> annotation, with a valid profile; better, use the securityContext fields.'),
  apiLabelSelector: api('api-label-selector', 'staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation: ValidateLabelSelector, ValidateLabelSelectorRequirement (keys, operators In, NotIn, Exists, DoesNotExist, values as the operator wants them)', 'Use qualified label keys and label values, an operator of In, NotIn, Exists or DoesNotExist, values with In and NotIn only.'),
  apiTolerations: api('api-tolerations', 'pkg/apis/core/validation: ValidateTolerations (key, operator, value, effect, tolerationSeconds)', 'Use operator Exists without a value (or Equal with one), a known effect, and tolerationSeconds only with NoExecute.'),
  apiAffinity: api('api-affinity', 'pkg/apis/core/validation: validateAffinity, ValidateNodeSelector, ValidateNodeSelectorRequirement, validateNodeFieldSelectorRequirement, validatePodAffinityTerm', 'In and NotIn need values, Exists and DoesNotExist take none, Gt and Lt exactly one; matchFields only on metadata.name.'),
  apiTopologySpread: api('api-topology-spread', 'pkg/apis/core/validation: validateTopologySpreadConstraints (maxSkew, topologyKey, whenUnsatisfiable, minDomains, unique pairs)', 'Give each constraint maxSkew > 0, a topologyKey and DoNotSchedule or ScheduleAnyway, once per pair.'),
  apiDns: api('api-dns', 'pkg/apis/core/validation: validateDNSPolicy, validatePodDNSConfig, ValidateHostAliases', 'Use a supported dnsPolicy; None needs dnsConfig.nameservers (at most 3 IPs); host aliases need an IP and DNS-1123 hostnames.'),
  apiDaemonSet: api('api-daemonset', 'pkg/apis/apps/validation: ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet (selector, restartPolicy Always, strategy, maxSurge and maxUnavailable)', 'Use RollingUpdate with exactly one of maxUnavailable and maxSurge non-zero (percentages up to 100%), or OnDelete.'),
  apiDeployment: api('api-deployment', 'pkg/apis/apps/validation: ValidateDeploymentSpec, ValidateDeploymentStrategy, ValidateRollingUpdateDeployment; ValidateStatefulSetSpec; ValidateReplicaSetSpec', 'Use a supported strategy, non-negative replicas, and progressDeadlineSeconds above minReadySeconds.'),
  apiJob: api('api-job', 'pkg/apis/batch/validation: ValidateJobSpec, ValidateCronJobSpec, validateScheduleFormat, validateTimeZone (restartPolicy OnFailure or Never, counts, cron schedule, time zone); from 1.29 podReplacementPolicy (JobPodReplacementPolicy), from 1.31 successPolicy (JobSuccessPolicy)', 'Give a Job restartPolicy OnFailure or Never; give a CronJob a five-field cron schedule and an IANA time zone.'),
  apiService: api('api-service', 'pkg/apis/core/validation: ValidateService, validateServicePort (type, ports, names, targetPort, nodePort, sessionAffinity); from 1.31 trafficDistribution (ServiceTrafficDistribution), PreferSameZone and PreferSameNode from 1.34 (PreferSameTrafficDistribution)', 'Give a Service a supported type and ports 1-65535, named when there are several.'),
  apiConfig: api('api-config', 'pkg/apis/core/validation: ValidateConfigMap, ValidateSecret (keys, duplicate keys, size, the keys each Secret type requires)', "Use keys of [-._a-zA-Z0-9], each once across data and binaryData, within 1 MiB, and the keys the Secret's type requires."),
  apiRbac: api('api-rbac', 'pkg/apis/rbac/validation: ValidatePolicyRule, ValidateRoleBinding, ValidateClusterRoleBinding, ValidateRoleBindingSubject', 'Give every rule verbs (and apiGroups with resources), and bindings a supported roleRef and complete subjects.'),
  apiReplicationController: api('api-replicationcontroller', 'pkg/apis/core/validation: ValidateReplicationControllerSpec, ValidatePodTemplateSpecForRC (a selector, or template labels it defaults from; the selector matches the template labels)', 'Give the ReplicationController a selector, or labels on its template (the selector defaults to them); better, use a Deployment.'),
  portConflict: { id: 'port-conflict', severity: Severity.WARNING, citation: 'pkg/api/pod: warningsForPodSpecAndMeta: duplicate, overlapping or ambiguous container ports; under the host network, a duplicate port across containers makes every pod refused (SetDefaults_Pod, checkHostPortConflicts)', fix: 'Declare each port once per pod: one container, one protocol, one host binding.' },
  statefulSetTemplate: { id: 'statefulset-template', severity: Severity.WARNING, citation: "pkg/apis/apps/validation: ValidatePodTemplateSpecForStatefulSet checks only the template's labels and annotations (a TODO since 1.5): the API server accepts a StatefulSet whose pods it then refuses, and the controller reports FailedCreate", fix: 'Fix the pod template as the message says: the StatefulSet controller cannot create its pods until then.' },
  apiNetworking: api('api-networking', 'pkg/apis/networking/validation: ValidateIngressSpec (validateIngressRules, validateHTTPIngressPath, validateIngressBackend), ValidateNetworkPolicySpec (ports, peers, ipBlock CIDRs, policyTypes)', 'Give an Ingress a default backend or rules, DNS hosts, absolute paths with a pathType and one service port; give NetworkPolicy peers one kind each and valid CIDRs.'),
  apiAutoscaling: api('api-autoscaling', 'pkg/apis/autoscaling/validation: ValidateHorizontalPodAutoscaler (scaleTargetRef, minReplicas at most maxReplicas, metric types and targets)', 'Name the scale target, keep minReplicas >= 1 and <= maxReplicas, and give each metric a known type, its source and a target.'),
  apiPriorityClass: api('api-priorityclass', 'pkg/apis/scheduling/validation: ValidatePriorityClass (value limit, the reserved system- prefix, preemptionPolicy)', 'Keep value at most 1000000000 and do not start the name with system-.'),
  apiPdb: api('api-pdb', 'pkg/apis/policy/validation: ValidatePodDisruptionBudgetSpec (minAvailable xor maxUnavailable, non-negative, at most 100%)', 'Set exactly one of minAvailable and maxUnavailable, as a count or a percentage up to 100%.'),

  // DaemonSet rules no linter has.
  hostPortSurge: { waivable: true, id: 'hostport-surge', severity: Severity.ERROR, citation: 'kubernetes/kubernetes#106417: with maxSurge > 0 the new pod needs the hostPort the old one holds, so it never starts on that node', fix: 'Use maxUnavailable (maxSurge: 0) for an agent with a hostPort or on the host network.' },
  pdbSelectsDaemonSet: { waivable: true, id: 'pdb-selects-daemonset', severity: Severity.WARNING, citation: 'kubectl drain evicts pods through their PodDisruptionBudget; DaemonSet pods are skipped by drain, but a PDB that selects them blocks eviction-based drains and autoscalers (https://kubernetes.io/docs/tasks/run-application/configure-pdb/)', fix: 'Do not select DaemonSet pods with a PodDisruptionBudget.' },
  hostNetworkDns: { waivable: true, id: 'hostnetwork-dns', severity: Severity.WARNING, citation: 'DNS for pods: a hostNetwork pod with dnsPolicy ClusterFirst falls back to the node resolver and cannot resolve cluster names (https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/#pod-s-dns-policy)', fix: 'Set dnsPolicy: ClusterFirstWithHostNet.' },
  onDelete: { waivable: true, id: 'ondelete-strategy', severity: Severity.WARNING, citation: 'DaemonSet update strategies: with OnDelete a new template reaches a node only when its pod is deleted by hand (https://kubernetes.io/docs/tasks/manage-daemon/update-daemon-set/#daemonset-update-strategy)', fix: 'Use RollingUpdate, or delete the pods yourself after every change.' },
  // RBAC held like Pod Security (./rbac-policy).
  rbacDangerous: { waivable: true, id: 'rbac-dangerous', severity: Severity.ERROR, citation: 'Kubernetes RBAC good practices (https://kubernetes.io/docs/concepts/security/rbac-good-practices/): cluster-admin, admin or edit bound; \'*\' in verbs, resources or nonResourceURLs; escalate, bind, impersonate; secrets in a ClusterRole; nodes/proxy. The API server accepts them; like a Pod Security exception, this library asks for a written reason', fix: 'Grant less (name the verbs and resources, a Role in one namespace, resourceNames), or say why in the annotation checks.node-reporter.dev/waive-rbac-dangerous: <reason> (NodeAgent: serviceAccount.dangerousGrantsReason).' },
  rbacRoleRef: { waivable: true, id: 'rbac-role-ref', severity: Severity.ERROR, citation: 'k8s.io/apiserver/pkg/authentication/user and serviceaccount: system:masters, system:nodes, system:authenticated, system:serviceaccounts[:<ns>], system:bootstrappers[:...] are groups, system:anonymous, system:serviceaccount:<ns>:<name>, system:node:<node> users; the API server accepts a binding whose roleRef names no existing role, and it binds nothing', fix: 'Bind a ClusterRole (kubectl get clusterroles); to grant to a group, put it in subjects: { kind: Group, name: system:... }.' },
  projectedApiToken: { waivable: true, id: 'projected-api-token', severity: Severity.WARNING, citation: 'pkg/apis/core/validation: validateProjectionSources (serviceAccountToken.audience is optional and defaults to the API server\'s audience) and the ServiceAccount admission plugin: a projected serviceAccountToken with no audience is an API token, whatever automountServiceAccountToken says, of the namespace\'s default ServiceAccount when the pod names none', fix: 'Set serviceAccountToken.audience to the audience the token is for (a registry, Vault); for an API token, give the pod its own ServiceAccount and let it mount its token.' },
  kubernetesVersion: { id: 'kubernetes-version', severity: Severity.WARNING, citation: 'this library: the Kubernetes version judged by is the one chosen (--kubernetes-version, the kubernetesVersion option or plugin property), else the one the input names in its node-reporter.dev/kubernetes-version annotation, else the default', fix: 'Judge at the version the manifests were written for (--kubernetes-version), or write them for the version of the cluster.' },
  waiver: { id: 'waiver', severity: Severity.ERROR, citation: 'this library: a waiver must say why, and may waive only policy (Pod Security) and recommendations, never what the API server or kubectl refuses', fix: 'Give the waiver annotation a non-empty reason, and name a rule that can be waived (docs/rules.md, last column); fix what the API server refuses instead of waiving it.' },
} as const satisfies Record<string, Rule>;

/** Every rule the checks apply; a waiver names one by its id. */
export const ALL_RULES: readonly Rule[] = Object.values(RULES);

/** The rules a waiver may name (`waivable`): Pod Security's and the recommendations. */
export const WAIVABLE_RULES: readonly Rule[] = ALL_RULES.filter((r) => r.waivable === true);

/** The annotation key prefix that waives a rule for one object: `<prefix><rule id>`. */
export const WAIVER_PREFIX = 'checks.node-reporter.dev/waive-';
