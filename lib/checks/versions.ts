/**
 * The Kubernetes versions the checks judge by, and the constructs write for:
 * 1.28 and 1.31 to 1.36, each with its OpenAPI definitions in schemas/ (1.29
 * and 1.30 have none that could be had: see schemas/PROVENANCE.md). What
 * differs between versions is data keyed by these minors, never an `if` on a
 * version string in a rule: rules ask {@link atLeast}.
 */

/** The supported Kubernetes minors, oldest first. */
export const KUBERNETES_VERSIONS = ['1.28', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36'] as const;

/** A supported Kubernetes minor, `1.<minor>`. */
export type KubernetesVersion = typeof KUBERNETES_VERSIONS[number];

/**
 * The version judged by (and written for) when none is chosen: the oldest
 * supported, so that what passes is accepted by every supported server but
 * for the APIs later versions remove (those the checks warn about as
 * deprecated). Every output names the version used.
 */
export const DEFAULT_KUBERNETES_VERSION: KubernetesVersion = '1.28';

/** The construct context key that sets an app's target version: `app.node.setContext(KUBERNETES_VERSION_CONTEXT, '1.35')`. */
export const KUBERNETES_VERSION_CONTEXT = 'node-reporter:kubernetesVersion';

/**
 * The annotation that marks what the library wrote for an explicit target
 * (`node-reporter.dev/kubernetes-version: "1.35"`), on each DaemonSet a
 * NodeAgent renders and each Namespace it writes; the checks judge a marked
 * object at that version when none is chosen.
 */
export const KUBERNETES_VERSION_ANNOTATION = 'node-reporter.dev/kubernetes-version';

const FORM = /^v?1\.(\d{1,3})(?:\.\d{1,4})?$/;

/** What {@link parseKubernetesVersion} makes of a value: the version, or why it is none. */
export type ParsedKubernetesVersion = {
  /** The supported minor the value names. */
  readonly version: KubernetesVersion;
} | {
  /** Why the value names no supported version: the value and the supported ones. */
  readonly error: string;
};

/**
 * The supported version a string names (`1.35`, `v1.35`, `1.35.6`: a patch
 * release judges as its minor), or an error message that names the value and
 * lists the supported versions.
 */
export function parseKubernetesVersion(value: unknown): ParsedKubernetesVersion {
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? FORM.exec(text.trim()) : null;
  const version = match ? `1.${Number(match[1])}` : undefined;
  if (version !== undefined && (KUBERNETES_VERSIONS as readonly string[]).includes(version)) {
    return { version: version as KubernetesVersion };
  }
  const why = match ? 'is not supported (no OpenAPI definitions ship for it)' : 'is not a Kubernetes version (1.<minor>)';
  return { error: `${JSON.stringify(value)} ${why}; supported: ${KUBERNETES_VERSIONS.join(', ')}` };
}

/** The supported version a string names; throws the message of {@link parseKubernetesVersion} otherwise. */
export function kubernetesVersion(value: unknown): KubernetesVersion {
  const parsed = parseKubernetesVersion(value);
  if ('error' in parsed) throw new Error(`Kubernetes version ${parsed.error}`);
  return parsed.version;
}

/** The minor of a version: 35 for `1.35`. */
export function minorOf(version: KubernetesVersion | string): number {
  return Number(/^v?1\.(\d+)/.exec(version)?.[1] ?? NaN);
}

/** Whether `version` is `since` or later: `atLeast('1.35', '1.30')`. */
export function atLeast(version: KubernetesVersion, since: string): boolean {
  return minorOf(version) >= minorOf(since);
}

/**
 * Feature gates whose default changed between the supported versions: the
 * minor from which each is on by default (beta or GA) in kube-apiserver and
 * the kubelet, or `off` when it is alpha (or an off-by-default beta) in
 * every supported version. Each entry is the gate's versioned spec in
 * pkg/features/kube_features.go of the releases (the first release with
 * `Default: true`); the v1.32.13 and v1.35.6 servers confirm the ones they
 * can tell apart. A field behind a gate that is off is dropped by the server
 * (dropDisabledFields) before validation; a rule that changed with a gate
 * asks {@link featureEnabled}.
 */
export const FEATURE_GATES = {
  /** Init containers with restartPolicy Always, sidecars (alpha 1.28, beta 1.29, GA 1.33). */
  SidecarContainers: '1.29',
  /** Job spec.backoffLimitPerIndex and maxFailedIndexes (alpha 1.28, beta 1.29, GA 1.33). */
  JobBackoffLimitPerIndex: '1.29',
  /** Job spec.podReplacementPolicy (alpha 1.28, beta 1.29, GA 1.34). */
  JobPodReplacementPolicy: '1.29',
  /** securityContext.appArmorProfile (the field; the annotation is deprecated from 1.30) (beta 1.30, GA 1.31). */
  AppArmorFields: '1.30',
  /** lifecycle.preStop/postStart.sleep (alpha 1.29, beta 1.30, GA 1.34). */
  PodLifecycleSleepAction: '1.30',
  /** volumeMounts[].recursiveReadOnly (alpha 1.30, beta 1.31, GA 1.33). */
  RecursiveReadOnlyMounts: '1.31',
  /** Job spec.successPolicy (alpha 1.30, beta 1.31, GA 1.33). */
  JobSuccessPolicy: '1.31',
  /** Service spec.trafficDistribution: PreferClose (alpha 1.30, beta 1.31, GA 1.33). */
  ServiceTrafficDistribution: '1.31',
  /** Env var names of any printable ASCII but '=' (alpha 1.30, beta 1.32, GA 1.34). */
  RelaxedEnvironmentVariableValidation: '1.32',
  /** Job spec.managedBy (alpha 1.30, beta 1.32, GA 1.35). */
  JobManagedBy: '1.32',
  /** securityContext.procMount, validated (alpha 1.12, beta off 1.31, on 1.33). */
  ProcMountType: '1.33',
  /** spec.hostUsers: false, user namespaces (beta off 1.30, on 1.33). */
  UserNamespacesSupport: '1.33',
  /** containers[].resizePolicy (alpha 1.27, beta 1.33, GA 1.35). */
  InPlacePodVerticalScaling: '1.33',
  /** securityContext.supplementalGroupsPolicy (alpha 1.31, beta 1.33, GA 1.35). */
  SupplementalGroupsPolicy: '1.33',
  /** securityContext.seLinuxChangePolicy (alpha 1.32, beta 1.33). */
  SELinuxChangePolicy: '1.33',
  /** lifecycle sleep of 0 seconds (alpha 1.32, beta 1.33, GA 1.34). */
  PodLifecycleSleepActionAllowZero: '1.33',
  /** spec.resourceClaims and resources.claims (beta off 1.32, GA 1.34). */
  DynamicResourceAllocation: '1.34',
  /** Pod-level spec.resources (alpha 1.32, beta 1.34). */
  PodLevelResources: '1.34',
  /** trafficDistribution PreferSameZone and PreferSameNode (alpha 1.33, beta 1.34, GA 1.35). */
  PreferSameTrafficDistribution: '1.34',
  /** restartPolicy (and restartPolicyRules) on regular containers (alpha 1.34, beta 1.35). */
  ContainerRestartRules: '1.35',
  /** volumes[].image, OCI images and artifacts as volumes (alpha 1.31, beta off 1.33, on 1.35). */
  ImageVolume: '1.35',
  /** containers[].lifecycle.stopSignal (alpha 1.33, still alpha in v1.35's kube_features.go). */
  ContainerStopSignals: 'off',
  /** spec.hostnameOverride (alpha 1.34, beta 1.35). */
  HostnameOverride: '1.35',
  /** env[].valueFrom.fileKeyRef, variables read from a file of an emptyDir (alpha 1.34, beta 1.35). */
  EnvFiles: '1.35',
} as const satisfies Record<string, string>;

/** A feature gate of {@link FEATURE_GATES}. */
export type FeatureGate = keyof typeof FEATURE_GATES;

/** Whether a feature gate is on by default at `version`. */
export function featureEnabled(version: KubernetesVersion, gate: FeatureGate): boolean {
  return atLeast(version, FEATURE_GATES[gate]);
}

/**
 * Validation the API server added without a feature gate, by the release
 * that first applies it.
 */
export const VALIDATION_CHANGES = {
  /**
   * A StatefulSet's pod template is validated as a Pod's on create
   * (pkg/apis/apps/validation: ValidatePodTemplateSpecForStatefulSet calls
   * ValidatePodTemplateSpec; kubernetes/kubernetes#131790, 1.34). Before, only
   * its labels and annotations were.
   */
  StatefulSetPodTemplate: '1.34',
} as const satisfies Record<string, string>;

/** Whether `version` applies a validation change of {@link VALIDATION_CHANGES}. */
export function validates(version: KubernetesVersion, change: keyof typeof VALIDATION_CHANGES): boolean {
  return atLeast(version, VALIDATION_CHANGES[change]);
}
