/**
 * The Kubernetes version an app's constructs write for: one app-wide
 * setting, the construct context key `node-reporter:kubernetesVersion`
 * (`app.node.setContext('node-reporter:kubernetesVersion', '1.35')` before
 * the constructs are added). Each construct that writes version-dependent
 * output resolves it once, here, and exposes it as `kubernetesVersion`.
 */
import { IConstruct } from 'constructs';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_ANNOTATION, KUBERNETES_VERSION_CONTEXT, KUBERNETES_VERSIONS, KubernetesVersion, parseKubernetesVersion } from './checks/versions';
import { show } from './k8s/syntax';

/** @internal The version a construct writes for, and whether the app chose it. */
export interface KubernetesTarget {
  /** The supported minor written for: the context's, or 1.28 when it is unset. */
  readonly version: KubernetesVersion;
  /** Whether the app set the context key (only then is the output marked with the version). */
  readonly explicit: boolean;
}

/**
 * The target of `scope`'s app, read from the construct context (the nearest
 * setting up the tree, as `tryGetContext` reads it). Throws, naming the
 * context key, the value and the supported versions, for a value that names
 * no supported version.
 * @internal
 */
export function kubernetesTarget(scope: IConstruct): KubernetesTarget {
  const value: unknown = scope.node.tryGetContext(KUBERNETES_VERSION_CONTEXT);
  if (value === undefined) {
    return { version: DEFAULT_KUBERNETES_VERSION, explicit: false };
  }
  const parsed = parseKubernetesVersion(value);
  if ('error' in parsed) {
    // One line, as a bad prop reads; the first construct to ask fails the app.
    throw new Error(`${scope.node.path || '<app>'}: the context '${KUBERNETES_VERSION_CONTEXT}' must be a supported Kubernetes version, one of ${KUBERNETES_VERSIONS.join(', ')} ('v1.35' or '1.35.6' name 1.35), but got ${show(value)}`);
  }
  return { version: parsed.version, explicit: true };
}

/**
 * The annotations that mark an object written for an explicit target
 * (`node-reporter.dev/kubernetes-version: "1.35"`), so that the checks judge
 * it at that version; none without one, so that the output stays as it was.
 * @internal
 */
export function targetAnnotations(target: KubernetesTarget): Record<string, string> {
  return target.explicit ? { [KUBERNETES_VERSION_ANNOTATION]: target.version } : {};
}
