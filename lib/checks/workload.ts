/**
 * Workload rules beyond Pod Security: a selector that selects the pods, a uid
 * for runAsNonRoot, resources, pinned images, no API token a pod opted out of.
 */
import { requirementMatches, selectorMatches } from '../k8s/scheduling';
import { FieldProblem, join, KubeObject, show } from './finding';
import { containersOf, PodTemplate } from './pod-templates';
import { RULES } from './rules';

/** Kinds whose selector is required and must select the pod template. */
const SELECTOR_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet']);

/** Operators of a label selector; Gt and Lt exist only in node selectors. */
const LABEL_SELECTOR_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Whether a label selector (matchLabels and matchExpressions) selects these labels. */
export function labelSelectorMatches(selector: KubeObject, labels: Record<string, string>): boolean {
  const label = (key: string) => (Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined);
  return selectorMatches(selector.matchLabels ?? {}, labels)
    && (selector.matchExpressions ?? []).every((r: { key: string; operator: string; values?: string[] }) =>
      LABEL_SELECTOR_OPERATORS.has(r.operator) && requirementMatches(r, label(r.key)));
}

/** A workload's selector: not empty, and selecting its pod template's labels (ValidateDaemonSetSpec and the other workloads'); the constructs ask it too. */
export function checkSelector(obj: KubeObject, pod: PodTemplate): FieldProblem[] {
  if (!SELECTOR_KINDS.has(obj.kind)) {
    return [];
  }
  const selector = obj.spec?.selector;
  const empty = !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
  if (empty) {
    return [{ rule: RULES.selector, path: 'spec.selector', message: `the selector is empty (${show(selector ?? null)}): it would select every pod in the namespace, and the API server refuses it` }];
  }
  const labels = pod.metadata.labels ?? {};
  if (!labelSelectorMatches(selector, labels)) {
    return [{ rule: RULES.selector, path: 'spec.selector', message: `the selector ${show(selector)} does not select the pod template labels ${show(labels)}` }];
  }
  return [];
}

function checkContainers(pod: PodTemplate): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const podContext = pod.spec.securityContext ?? {};
  for (const c of containersOf(pod)) {
    const context = c.container.securityContext ?? {};
    const name = c.container.name ? `container "${c.container.name}"` : 'container';
    const nonRoot = context.runAsNonRoot ?? podContext.runAsNonRoot;
    const uid = context.runAsUser ?? podContext.runAsUser;
    // Windows pods take no runAsUser (the API server forbids it there).
    if (nonRoot === true && uid === undefined && pod.spec.os?.name !== 'windows') {
      problems.push({ rule: RULES.nonRootWithoutUid, path: join(c.path, 'securityContext', 'runAsUser'), message: `${name} sets runAsNonRoot without runAsUser; the kubelet refuses to start an image whose user is root` });
    }
    if (c.path.includes('ephemeralContainers')) {
      continue; // ephemeral containers take no resources
    }
    const missing = [['requests', 'cpu'], ['requests', 'memory'], ['limits', 'memory']]
      .filter(([kind, resource]) => c.container.resources?.[kind]?.[resource] === undefined)
      .map(([kind, resource]) => `${kind}.${resource}`);
    if (missing.length > 0) {
      problems.push({ rule: RULES.resources, path: join(c.path, 'resources'), message: `${name} has no ${missing.join(', ')}` });
    }
    const image = c.container.image;
    if (typeof image === 'string' && !image.includes('@')) {
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      if (tag === undefined || tag === 'latest') {
        problems.push({ rule: RULES.imageTag, path: join(c.path, 'image'), message: `${name} uses ${show(image)}, ${tag === undefined ? 'without a tag' : 'tagged :latest'}` });
      }
    }
  }
  return problems;
}

/**
 * A projected serviceAccountToken without an audience is a token for the API
 * server (validateProjectionSources: the audience defaults to the API
 * server's), mounted whatever automountServiceAccountToken says: a pod that
 * opted out of its token, or runs as the namespace's `default`
 * ServiceAccount, gets one all the same.
 */
function checkProjectedTokens(pod: PodTemplate): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const account = pod.spec.serviceAccountName ?? pod.spec.serviceAccount;
  const isDefault = typeof account !== 'string' || account === '' || account === 'default';
  const optedOut = pod.spec.automountServiceAccountToken === false;
  if (!isDefault && !optedOut) {
    return [];
  }
  const volumes: unknown[] = Array.isArray(pod.spec.volumes) ? pod.spec.volumes : [];
  volumes.forEach((volume, v) => {
    const sources: unknown[] = Array.isArray((volume as KubeObject | null)?.projected?.sources) ? (volume as KubeObject).projected.sources : [];
    sources.forEach((source, s) => {
      const token = (source as KubeObject | null)?.serviceAccountToken;
      if (token === undefined || token === null || (typeof token.audience === 'string' && token.audience !== '')) {
        return;
      }
      const whose = isDefault ? "the namespace's default ServiceAccount (the pod names none), which every pod of the namespace runs as" : `ServiceAccount ${show(account)}`;
      problems.push({
        rule: RULES.projectedApiToken, path: join(pod.specPath, 'volumes', v, 'projected', 'sources', s, 'serviceAccountToken', 'audience'),
        message: `a serviceAccountToken with no audience is an API token, of ${whose}${optedOut ? ', mounted though the pod sets automountServiceAccountToken: false' : ''}`,
      });
    });
  });
  return problems;
}

/** The workload rules for one object. */
export function checkWorkload(obj: KubeObject, pod: PodTemplate | undefined): FieldProblem[] {
  if (!pod) {
    return [];
  }
  return [...checkSelector(obj, pod), ...checkContainers(pod), ...checkProjectedTokens(pod)];
}
