/**
 * The Pod Security level a node agent needs and the controls it breaks,
 * asked of the checks' own Pod Security rules on the rendered pod: nothing
 * here restates a control.
 */
import { KubeObject } from '../checks/finding';
import { checkWritableHostPaths } from '../checks/host-paths';
import { isAtLeastAsStrict, POD_SECURITY_LEVELS, PodSecurityLevel, podSecurityNeeds } from '../checks/pod-security';
import { PodTemplate } from '../checks/pod-templates';
import { podTemplateOf } from '../checks/pod-templates';
import { KubernetesVersion, minorOf } from '../checks/versions';
import { checkSingleLine, defined, isRecord, Problem, problem, show } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';

export { PodSecurityLevel };

/** Why an agent cannot meet Pod Security "restricted", and the level it needs. */
export interface AgentPodSecurity {
  /** The level the agent's namespace must enforce: exactly the strictest level that admits its pods, baseline or privileged. */
  readonly level: PodSecurityLevel;
  /** Why, one line; written into each waiver annotation and reported by the checks. */
  readonly reason: string;
  /**
   * The Pod Security controls the reason was written for, by the checks'
   * rule ids (`pss-host-path-volumes`, `pss-privileged`, ...; docs/rules.md).
   * When set, a change that makes the pod break another control is refused
   * until it is listed here (and the reason says why), and a control listed
   * that the pod no longer breaks is refused too.
   * @default - the reason covers whatever controls the pod breaks
   */
  readonly controls?: string[];
  /**
   * Why a container writes to a sensitive host path: `/`, a path in `/etc`,
   * `/proc`, `/sys`, `/var/lib/kubelet` and the like, a container runtime's
   * socket, or a directory above one. Required when a container mounts one
   * writable (a read-only mount needs none); refused when none does.
   * @default - no container may write a sensitive host path
   */
  readonly writableHostPathsReason?: string;
}

const POD_SECURITY_KEYS = ['level', 'reason', 'controls', 'writableHostPathsReason'];

/** @internal What a rendered pod needs: the level, and the rules it breaks at "restricted" with where. */
export interface RenderedPodSecurity {
  /** The strictest level that admits the pod. */
  readonly level: PodSecurityLevel;
  /** The rule ids the pod breaks at "restricted", each once, in the checks' order. */
  readonly rules: string[];
  /** Each broken rule with the fields that break it, for messages. */
  readonly details: string[];
}

/** @internal Asks the checks what the workload's pod template needs under the Pod Security of `version` (the namespace's `enforce-version`). */
export function renderedPodSecurity(workload: KubeObject, version: KubernetesVersion): RenderedPodSecurity {
  const pod = podTemplateOf(workload);
  if (!pod) {
    return { level: PodSecurityLevel.RESTRICTED, rules: [], details: [] };
  }
  const needs = podSecurityNeeds(pod, minorOf(version));
  const rules = [...new Set(needs.problems.map((p) => p.rule.id))];
  const details = rules.map((id) => `${id} (${needs.problems.filter((p) => p.rule.id === id).map((p) => p.path).join(', ')})`);
  return { level: needs.level, rules, details };
}

/**
 * @internal
 * The problems of `podSecurity` against what the rendered pod needs: it must
 * be set exactly when the pod is not "restricted", to exactly the level the
 * pod needs (a stricter one refuses the pods; a laxer one admits more than
 * the agent needs into its namespace).
 */
export function podSecurityProblems(given: unknown, needs: RenderedPodSecurity): Problem[] {
  const breaks = needs.details.join(', ');
  if (given === undefined) {
    return needs.level === PodSecurityLevel.RESTRICTED ? [] : [
      `'podSecurity' must be set to { level: '${needs.level}', reason: '...' } because the agent's pod breaks Pod Security "restricted": ${breaks}; say why, and deploy it into a namespace that enforces '${needs.level}'`,
    ];
  }
  if (!isRecord(given) || !POD_SECURITY_LEVELS.includes(given.level as PodSecurityLevel)) {
    return [problem('podSecurity', "an object { level: 'baseline' | 'privileged', reason }", given)];
  }
  const level = given.level as PodSecurityLevel;
  return [...unknownKeys('podSecurity', given, { known: POD_SECURITY_KEYS }), ...controlsProblems(given.controls, needs), ...defined(
    checkSingleLine('podSecurity.reason', given.reason, 512),
    needs.level === PodSecurityLevel.RESTRICTED
      ? problem('podSecurity', 'unset: the agent\'s pod meets Pod Security "restricted"', given)
      : level === needs.level ? undefined
        : isAtLeastAsStrict(level, needs.level)
          ? problem('podSecurity.level', `'${needs.level}', because the agent's pod breaks ${breaks}`, level)
          : problem('podSecurity.level', `'${needs.level}', the strictest level that admits the agent's pod (it breaks ${breaks}); a laxer namespace would admit more than the agent needs`, level),
  )];
}

/** The problems of `podSecurity.controls` against the controls the rendered pod breaks. */
function controlsProblems(controls: unknown, needs: RenderedPodSecurity): Problem[] {
  if (controls === undefined) return [];
  if (!Array.isArray(controls) || controls.some((c) => typeof c !== 'string')) {
    return [problem('podSecurity.controls', "an array of the checks' Pod Security rule ids, such as ['pss-host-path-volumes', 'pss-privileged']", controls)];
  }
  const added = needs.rules.filter((r) => !controls.includes(r));
  const stale = (controls as string[]).filter((c) => !needs.rules.includes(c));
  return [
    ...(added.length > 0 ? [`'podSecurity.controls' must list every control the reason covers: the pod also breaks ${needs.details.filter((d) => added.some((r) => d.startsWith(`${r} `))).join(', ')}; say why in the reason and add it (${added.map((r) => `'${r}'`).join(', ')})`] : []),
    ...stale.map((c) => `'podSecurity.controls' must list only controls the pod breaks (${needs.rules.join(', ') || 'none'}) but got ${show(c)}`),
  ];
}

/**
 * @internal
 * A writable mount of a sensitive host path (asked of ../checks/host-paths)
 * needs `podSecurity.writableHostPathsReason`, which is refused when no
 * container writes one: the pod's reason was written for what it reads.
 */
export function writableHostPathProblems(given: unknown, pod: PodTemplate | undefined): Problem[] {
  const reason = isRecord(given) ? given.writableHostPathsReason : undefined;
  const written = checkWritableHostPaths(pod).map((p) => p.message);
  if (reason === undefined) {
    return written.length > 0 ? [`'podSecurity.writableHostPathsReason' must say why the agent writes to the node's own files, or the mounts must be readOnly: ${written.join('; ')}`] : [];
  }
  return written.length === 0
    ? [problem('podSecurity.writableHostPathsReason', 'unset: no container writes a sensitive host path', reason)]
    : defined(checkSingleLine('podSecurity.writableHostPathsReason', reason, 512));
}
