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

/** Whether a person may set this node label (node-role.kubernetes.io/* and node.kubernetes.io/exclude-* are theirs). */
export function isUserLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) {
    return true;
  }
  const [prefix, name] = [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix === 'node.kubernetes.io' && name.startsWith('exclude-')) {
    return true;
  }
  return !SYSTEM_LABEL_PREFIXES.includes(prefix);
}
