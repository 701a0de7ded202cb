/**
 * kubectl commands printed for a person to run. Every value in them is
 * checked first: the output is meant for a shell.
 */
import { validateDns1123Subdomain, validateLabelValue, validateQualifiedName } from '../validate-props';

/**
 * `kubectl label node NODE k=v ...`, with `--overwrite` when a label already
 * has another value.
 * @throws Error when the node name, a key or a value is not valid Kubernetes syntax
 */
export function labelNodeCommand(nodeName: string, labels: Record<string, string>, overwrite = false): string {
  validateDns1123Subdomain('nodeName', nodeName);
  const pairs = Object.entries(labels).map(([key, value]) => {
    validateQualifiedName('label key', key);
    validateLabelValue('label value', value);
    return `${key}=${value}`;
  });
  return ['kubectl label node', nodeName, ...pairs, ...(overwrite ? ['--overwrite'] : [])].join(' ');
}

/**
 * `kubectl label node NODE k- ...`: removes labels.
 * @throws Error when the node name or a key is not valid Kubernetes syntax
 */
export function unlabelNodeCommand(nodeName: string, keys: string[]): string {
  validateDns1123Subdomain('nodeName', nodeName);
  keys.forEach((key) => validateQualifiedName('label key', key));
  return ['kubectl label node', nodeName, ...keys.map((key) => `${key}-`)].join(' ');
}
