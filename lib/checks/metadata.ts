/**
 * Metadata rules: cluster-scoped objects without a namespace, and the syntax
 * of names, namespaces, labels and annotation keys.
 */
import {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '../validate-props';
import { join, KubeObject, Problem } from './finding';
import { podTemplateOf } from './pod-templates';
import { RULES } from './rules';

/** Built-in kinds that are cluster-scoped: they never carry metadata.namespace. */
export const CLUSTER_SCOPED_KINDS = new Set([
  'APIService', 'CSIDriver', 'CSINode', 'CertificateSigningRequest', 'ClusterRole', 'ClusterRoleBinding',
  'ComponentStatus', 'CustomResourceDefinition', 'FlowSchema', 'IngressClass', 'MutatingWebhookConfiguration',
  'Namespace', 'Node', 'PersistentVolume', 'PriorityClass', 'PriorityLevelConfiguration', 'RuntimeClass',
  'StorageClass', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'ValidatingWebhookConfiguration',
  'VolumeAttachment',
]);

/** Kinds whose names must be DNS-1123 labels rather than subdomains. */
const LABEL_NAMED_KINDS = new Set(['Namespace', 'Service']);

/** Runs a validate-props rule and turns its error into a problem. */
function syntax(path: string, check: () => void): Problem[] {
  try {
    check();
    return [];
  } catch (e) {
    return [{ rule: RULES.metadataSyntax, path, message: (e as Error).message }];
  }
}

function checkLabelsAndAnnotations(metadata: KubeObject, path: string): Problem[] {
  const problems: Problem[] = [];
  for (const [key, value] of Object.entries(metadata.labels ?? {})) {
    problems.push(...syntax(join(path, 'labels', key), () => {
      validateQualifiedName('label key', key);
      validateLabelValue('label value', value);
    }));
  }
  for (const key of Object.keys(metadata.annotations ?? {})) {
    problems.push(...syntax(join(path, 'annotations', key), () => validateQualifiedName('annotation key', key)));
  }
  return problems;
}

/** The metadata rules for one object. */
export function checkMetadata(obj: KubeObject): Problem[] {
  const metadata: KubeObject = obj.metadata ?? {};
  const problems: Problem[] = [];
  if (CLUSTER_SCOPED_KINDS.has(obj.kind) && metadata.namespace !== undefined) {
    problems.push({ rule: RULES.clusterScopedNamespace, path: 'metadata.namespace', message: `${obj.kind} is cluster-scoped but sets namespace ${JSON.stringify(metadata.namespace)}` });
  }
  if (metadata.name !== undefined) {
    problems.push(...syntax('metadata.name', () => (LABEL_NAMED_KINDS.has(obj.kind) ? validateDns1123Label : validateDns1123Subdomain)('name', metadata.name)));
  }
  if (metadata.namespace !== undefined) {
    problems.push(...syntax('metadata.namespace', () => validateDns1123Label('namespace', metadata.namespace)));
  }
  problems.push(...checkLabelsAndAnnotations(metadata, 'metadata'));
  const pod = podTemplateOf(obj);
  if (pod && pod.metadataPath !== 'metadata') {
    problems.push(...checkLabelsAndAnnotations(pod.metadata, pod.metadataPath));
  }
  return problems;
}
