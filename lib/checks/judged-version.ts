/**
 * Which Kubernetes version a run of the checks judges by, and why: the one
 * the caller chose (`--kubernetes-version`, the `kubernetesVersion` option or
 * plugin property), else the one the input's objects name in their
 * `node-reporter.dev/kubernetes-version` annotation (what the library writes
 * for an app's target) when they name one, else the default. Never silent:
 * every output names the result, and a choice the input contradicts is a
 * warning.
 */
import { isRecord } from '../k8s/syntax';
import { FieldProblem,join, KubeObject } from './finding';
import { RULES } from './rules';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_ANNOTATION, KubernetesVersion, kubernetesVersion, parseKubernetesVersion } from './versions';

/** Where the judged version came from. */
export type KubernetesVersionSource = 'option' | 'annotation' | 'default';

/** The version a run judged by, and where it came from. */
export interface JudgedVersion {
  /** The Kubernetes minor judged by. */
  readonly version: KubernetesVersion;
  /** `option`: the caller chose it; `annotation`: the input's objects name it; `default`: neither. */
  readonly source: KubernetesVersionSource;
}

/** How a report names where its version came from: `the kubernetesVersion option`. */
export function describeVersionSource(source: KubernetesVersionSource, option = 'the kubernetesVersion option'): string {
  switch (source) {
    case 'option': return option;
    case 'annotation': return `the input's ${KUBERNETES_VERSION_ANNOTATION} annotation`;
    default: return 'the default';
  }
}

const AT = join('metadata', 'annotations', KUBERNETES_VERSION_ANNOTATION);

/**
 * The version to judge `objects` by, with a warning (by object index) where
 * an object's annotation contradicts it, names an unsupported version, or
 * the objects name several.
 * @throws Error with the message of parseKubernetesVersion when `option` is no supported version
 */
export function judgedVersion(objects: readonly unknown[], option: string | undefined): { judged: JudgedVersion; problems: Map<number, FieldProblem[]> } {
  const chosen = option === undefined ? undefined : kubernetesVersion(option);
  const problems = new Map<number, FieldProblem[]>();
  const warn = (i: number, message: string) => problems.set(i, [...(problems.get(i) ?? []), { rule: RULES.kubernetesVersion, path: AT, message }]);
  const named = new Map<KubernetesVersion, number>();
  objects.forEach((o, i) => {
    const value: unknown = isRecord(o) && isRecord((o as KubeObject).metadata?.annotations) ? (o as KubeObject).metadata.annotations[KUBERNETES_VERSION_ANNOTATION] : undefined;
    if (value === undefined) return;
    const parsed = parseKubernetesVersion(value);
    if ('error' in parsed) {
      warn(i, `names Kubernetes version ${parsed.error}: it is not judged by it`);
    } else if (!named.has(parsed.version)) {
      named.set(parsed.version, i);
    }
  });
  if (chosen !== undefined) {
    for (const [version, i] of named) {
      if (version !== chosen) warn(i, `this object was written for Kubernetes ${version}, but the checks judge by ${chosen} as chosen`);
    }
    return { judged: { version: chosen, source: 'option' }, problems };
  }
  if (named.size === 1) {
    return { judged: { version: [...named.keys()][0], source: 'annotation' }, problems };
  }
  if (named.size > 1) {
    const list = [...named.keys()].join(', ');
    for (const i of named.values()) warn(i, `the input's objects were written for several Kubernetes versions (${list}), so the checks judge by the default ${DEFAULT_KUBERNETES_VERSION}: choose one`);
  }
  return { judged: { version: DEFAULT_KUBERNETES_VERSION, source: 'default' }, problems };
}
