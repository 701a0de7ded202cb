/**
 * "Which nodes are eligible?": the DaemonSet controller's decision over node
 * objects, node-list reading, and the kubectl commands that fix a node.
 *
 * The public surface of `node-reporter/eligibility`, each name on purpose
 * (test/public-api.test.ts pins it). The terminal-safe printing helpers of
 * ./printable and the text decoding of ../checks/input are internal.
 *
 * @module node-reporter/eligibility
 */
export type { Taint, Toleration } from '../k8s/scheduling';
export {
  DAEMONSET_TOLERATIONS, EligibilityReport, evaluateNode, evaluateNodes, KubeNode, KubeNodeMetadata, KubeNodeSpec, NodeTaint, NodeVerdict, PodScheduling, PodTemplateLike,
  PolicyLike, requirementMatches, schedulingOf, schedulingOfPolicy, schedulingOfWorkload, selectorMatches, tolerates, WorkloadLike, WorkloadMetadata, WorkloadSpecLike,
} from './evaluate';
export {
  compareEligibility, EligibilityChange, EligibilityFormat, EligibilitySummary, formatEligibilityChange, formatEligibilityMarkdown, formatEligibilityText, NODE_ROWS_LIMIT, SkipReason,
  summarize, summaryLines,
} from './format';
export { isUserLabel, labelNodeCommand, unlabelNodeCommand } from './kubectl';
export { DaemonSetEligibility, daemonSetsIn, daemonSetsOfManifest, ManifestDaemonSet } from './manifest';
export { NodeListError, readNodeList } from './node-list';
