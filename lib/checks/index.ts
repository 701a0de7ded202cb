/**
 * Manifest checks for any YAML, this project's or a consumer's: the strict
 * Kubernetes 1.28 schema, the API server's field validation, Pod Security
 * "restricted" (v1.28), workload, DaemonSet and metadata rules. They judge
 * manifests, not constructs, so they import none (only the Kubernetes syntax
 * and scheduling rules of ../k8s).
 *
 * An object waives one rule on purpose with the annotation
 * `checks.node-reporter.dev/waive-<rule id>: <reason>`; its findings for that
 * rule are then reported as waived, with the reason, and do not fail.
 *
 * @module node-reporter/checks
 */
export { checkFiles, checkInputs, checkObject, checkObjects, CheckOptions, CheckReport, checkTexts, checkYaml, Note } from './check';
export { Finding, KubeObject } from './finding';
export { formatFinding, formatReport, isBlocking, toSarif } from './report';
export { ALL_RULES, Rule, Severity, WAIVER_PREFIX } from './rules';
export { NodeAgentChecks, NodeAgentChecksProps, ValidationContextLike } from './validation-plugin';
