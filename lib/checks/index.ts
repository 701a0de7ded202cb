/**
 * Manifest checks for any YAML, this project's or a consumer's, as an API
 * server of the Kubernetes version judged by (1.28, or 1.31 to 1.36: the
 * `kubernetesVersion` option, else the input's
 * `node-reporter.dev/kubernetes-version` annotation, else 1.28) and
 * `kubectl apply` judge it: the strict schema of that version and the APIs it serves,
 * the API server's field validation (per API group, as upstream keeps it),
 * Pod Security at each namespace's level (restricted where the input does not
 * say), custom resources by the CRDs of the input, workload, DaemonSet and
 * metadata rules. Lists are expanded; files that are no manifests are set
 * aside with a note. They judge manifests, not constructs, so they import
 * none (only the Kubernetes syntax and scheduling rules of ../k8s).
 *
 * An object waives one rule on purpose with the annotation
 * `checks.node-reporter.dev/waive-<rule id>: <reason>`; its findings for that
 * rule are then reported as waived, with the reason, and do not fail.
 *
 * @module node-reporter/checks
 */
export { checkFiles, checkInputs, checkObject, checkObjects, CheckOptions, CheckReport, checkTexts, checkYaml } from './check';
export { Finding, KubeObject } from './finding';
export { Note } from './input/manifests';
export { JudgedVersion, KubernetesVersionSource } from './judged-version';
export { NodeSelectionLike, selectionAccepts, SharedNode, sharedNode } from './overlaps';
export { formatCounts, formatFinding, formatReport, isBlocking, SarifOptions, toSarif } from './report';
export { ALL_RULES, Rule, Severity, WAIVER_PREFIX } from './rules';
export { NodeAgentChecks, NodeAgentChecksProps, ValidationContextLike } from './validation-plugin';
export { atLeast, DEFAULT_KUBERNETES_VERSION, FEATURE_GATES, featureEnabled, FeatureGate, KUBERNETES_VERSION_ANNOTATION, KUBERNETES_VERSION_CONTEXT, KUBERNETES_VERSIONS, KubernetesVersion, kubernetesVersion, ParsedKubernetesVersion, parseKubernetesVersion } from './versions';
