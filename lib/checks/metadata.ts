/**
 * Metadata rules: cluster-scoped objects without a namespace, and the syntax
 * of namespaces, labels and annotation keys (names are ValidateObjectMeta's,
 * per kind: ./api/meta.ts).
 */
import {
  checkDns1123Label,
  checkLabelValue,
  checkQualifiedName,
  Problem,
} from '../k8s/syntax';
import { FieldProblem,join, KubeObject } from './finding';
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

/** Turns syntax problems into findings' problems at this path. */
function syntax(path: string, ...found: (Problem | undefined)[]): FieldProblem[] {
  return found.filter((m): m is Problem => m !== undefined).map((message) => ({ rule: RULES.metadataSyntax, path, message }));
}

function checkLabelsAndAnnotations(metadata: KubeObject, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(metadata.labels ?? {})) {
    problems.push(...syntax(join(path, 'labels', key), checkQualifiedName('label key', key) ?? checkLabelValue('label value', value)));
  }
  for (const key of Object.keys(metadata.annotations ?? {})) {
    problems.push(...syntax(join(path, 'annotations', key), checkQualifiedName('annotation key', key)));
  }
  return problems;
}

/** The metadata rules for one object. */
export function checkMetadata(obj: KubeObject): FieldProblem[] {
  const metadata: KubeObject = obj.metadata ?? {};
  const problems: FieldProblem[] = [];
  if (CLUSTER_SCOPED_KINDS.has(obj.kind) && metadata.namespace !== undefined) {
    problems.push({ rule: RULES.clusterScopedNamespace, path: 'metadata.namespace', message: `${obj.kind} is cluster-scoped but sets namespace ${JSON.stringify(metadata.namespace)}; the API server ignores it` });
  }
  if (metadata.namespace !== undefined) {
    problems.push(...syntax('metadata.namespace', checkDns1123Label('namespace', metadata.namespace)));
  }
  problems.push(...checkLabelsAndAnnotations(metadata, 'metadata'));
  const pod = podTemplateOf(obj);
  if (pod && pod.metadataPath !== 'metadata') {
    problems.push(...checkLabelsAndAnnotations(pod.metadata, pod.metadataPath));
  }
  return problems;
}
