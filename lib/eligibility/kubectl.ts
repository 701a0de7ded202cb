/**
 * kubectl commands printed for a person to run. Every value in them is
 * checked first: the output is meant for a shell.
 */
import { checkDns1123Subdomain, checkLabelValue, checkQualifiedName, Problem } from '../k8s/syntax';

function orThrow(...problems: (Problem | undefined)[]): void {
  const found = problems.filter((p) => p !== undefined);
  if (found.length > 0) {
    throw new Error(found.join('\n'));
  }
}

/**
 * `kubectl label node NODE k=v ...`, with `--overwrite` when a label already
 * has another value.
 * @throws Error when the node name, a key or a value is not valid Kubernetes syntax
 */
export function labelNodeCommand(nodeName: string, labels: Record<string, string>, overwrite = false): string {
  orThrow(checkDns1123Subdomain('nodeName', nodeName));
  const pairs = Object.entries(labels).map(([key, value]) => {
    orThrow(checkQualifiedName('label key', key), checkLabelValue('label value', value));
    return `${key}=${value}`;
  });
  return ['kubectl label node', nodeName, ...pairs, ...(overwrite ? ['--overwrite'] : [])].join(' ');
}

/**
 * `kubectl label node NODE k- ...`: removes labels.
 * @throws Error when the node name or a key is not valid Kubernetes syntax
 */
export function unlabelNodeCommand(nodeName: string, keys: string[]): string {
  orThrow(checkDns1123Subdomain('nodeName', nodeName), ...keys.map((key) => checkQualifiedName('label key', key)));
  return ['kubectl label node', nodeName, ...keys.map((key) => `${key}-`)].join(' ');
}

/**
 * Label prefixes the kubelet (or the cloud provider) sets from the node
 * itself: labelling them by hand is refused by NodeRestriction or undone
 * (plugin/pkg/admission/noderestriction; kubelet's node labels, k8s.io/api/core/v1 well_known_labels.go).
 */
const SYSTEM_LABEL_PREFIXES = ['kubernetes.io', 'k8s.io', 'beta.kubernetes.io', 'node.kubernetes.io', 'topology.kubernetes.io'];

/**
 * Node labels an operator sets from the node's hardware or its cloud: set by
 * hand, they lie about the node (a GPU agent lands on a node with no GPU).
 * Each prefix with its owner, the most specific first; a person's own
 * switches of an operator (nvidia.com/gpu.deploy.*) stay theirs.
 */
const OPERATOR_LABELS: ReadonlyArray<readonly [string, string | undefined]> = [
  ['nvidia.com/gpu.deploy.', undefined],
  ['nvidia.com/', "NVIDIA's GPU feature discovery (the GPU Operator)"],
  ['feature.node.kubernetes.io/', 'Node Feature Discovery (NFD)'],
  ['intel.feature.node.kubernetes.io/', "Intel's device plugins operator (through NFD)"],
  ['gpu.intel.com/', "Intel's GPU device plugin"],
  ['amd.com/', "AMD's GPU node labeller"],
  ['beta.amd.com/', "AMD's GPU node labeller"],
  ['karpenter.sh/', 'Karpenter'],
  ['eks.amazonaws.com/', 'Amazon EKS'],
  ['cloud.google.com/', 'GKE'],
  ['kubernetes.azure.com/', 'AKS'],
];

/**
 * Who sets this node label from the node itself, when a person must not:
 * the kubelet or the cloud provider (kubernetes.io and k8s.io prefixes), or
 * a known operator; undefined for a label a person may set
 * (node-role.kubernetes.io/* and node.kubernetes.io/exclude-* are theirs).
 */
export function labelOwner(key: string): string | undefined {
  const slash = key.indexOf('/');
  if (slash < 0) {
    return undefined;
  }
  const [prefix, name] = [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix === 'node.kubernetes.io' && name.startsWith('exclude-')) {
    return undefined;
  }
  if (SYSTEM_LABEL_PREFIXES.includes(prefix)) {
    return 'the kubelet or the cloud provider';
  }
  return OPERATOR_LABELS.find(([start]) => key.startsWith(start))?.[1];
}

/** Whether a person may set this node label: no kubelet, cloud provider or known operator (NVIDIA GPU feature discovery, Node Feature Discovery, ...) owns it. */
export function isUserLabel(key: string): boolean {
  return labelOwner(key) === undefined;
}
