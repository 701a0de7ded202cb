/**
 * The Pod Security level a node agent needs and the controls it breaks,
 * asked of the checks' own Pod Security rules on the rendered pod: nothing
 * here restates a control.
 */
import { KubeObject } from '../checks/finding';
import { isAtLeastAsStrict, POD_SECURITY_LEVELS, PodSecurityLevel, podSecurityNeeds } from '../checks/pod-security';
import { podTemplateOf } from '../checks/pod-templates';
import { KubernetesVersion, minorOf } from '../checks/versions';
import { checkSingleLine, defined, isRecord, Problem, problem } from '../k8s/syntax';

export { PodSecurityLevel };

/** Why an agent cannot meet Pod Security "restricted", and the level it needs. */
export interface AgentPodSecurity {
  /** The level the agent's namespace must enforce: exactly the strictest level that admits its pods, baseline or privileged. */
  readonly level: PodSecurityLevel;
  /** Why, one line; written into each waiver annotation and reported by the checks. */
  readonly reason: string;
}

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
  return defined(
    checkSingleLine('podSecurity.reason', given.reason, 512),
    needs.level === PodSecurityLevel.RESTRICTED
      ? problem('podSecurity', 'unset: the agent\'s pod meets Pod Security "restricted"', given)
      : level === needs.level ? undefined
        : isAtLeastAsStrict(level, needs.level)
          ? problem('podSecurity.level', `'${needs.level}', because the agent's pod breaks ${breaks}`, level)
          : problem('podSecurity.level', `'${needs.level}', the strictest level that admits the agent's pod (it breaks ${breaks}); a laxer namespace would admit more than the agent needs`, level),
  );
}
