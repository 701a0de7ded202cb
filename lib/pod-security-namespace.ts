import { ApiObject, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { appChanged, appCheck } from './app-checks';
import { isAtLeastAsStrict } from './checks/pod-security';
import { KubernetesVersion } from './checks/versions';
import { clusterScoped } from './cluster-scoped';
import { checkDns1123Label, defined, isRecord, Problem, problem, show } from './k8s/syntax';
import { kubernetesTarget, targetAnnotations } from './kubernetes-target';
import { NodeAgent, PodSecurityLevel } from './node-agent';
import { MANAGED_BY } from './node-agent/metadata';
import { unknownKeys } from './prop-keys';
import { reportProblems } from './validate-props';

/**
 * Namespaces the cluster owns: labelling one for Pod Security would stop its
 * system pods from being re-created, and `kubectl delete -f` would delete it.
 * @internal
 */
export const RESERVED_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** @internal The Pod Security Standards version the namespaces pin at the default target (1.28); at a target, its `v1.<minor>`. */
export const POD_SECURITY_VERSION = 'v1.28';

/**
 * Props for {@link PodSecurityNamespace}.
 */
export interface PodSecurityNamespaceProps {
  /** The namespace's name, a DNS-1123 label; not one the cluster owns (`default`, `kube-*`). */
  readonly name: string;

  /**
   * The Pod Security level the cluster enforces on the namespace's pods.
   * {@link PodSecurityNamespace.admit} relaxes it for agents that need it.
   * @default PodSecurityLevel.RESTRICTED
   */
  readonly enforce?: PodSecurityLevel;
}

/** @internal The problems of a namespace name this library may own. */
export function checkOwnableNamespace(prop: string, name: unknown): Problem[] {
  return defined(
    checkDns1123Label(prop, name),
    RESERVED_NAMESPACES.includes(name as string)
      ? problem(prop, `a namespace this library may own, not one the cluster owns (${RESERVED_NAMESPACES.join(', ')}): labelling it for Pod Security stops its system pods and 'kubectl delete -f' would delete it; deploy into it without owning it instead`, name)
      : undefined,
  );
}

const LEVELS = Object.values(PodSecurityLevel) as string[];

const BRAND = Symbol.for('node-reporter.PodSecurityNamespace');

/**
 * The agents of the app whose pods the namespace they deploy into (a
 * PodSecurityNamespace of the app) would refuse: one pass over the app.
 */
function refusedAgents(constructs: readonly IConstruct[]): string[] {
  // Charts of one variant group may each hold the namespace: every one must admit the agent.
  const namespaces = new Map<string, PodSecurityNamespace[]>();
  for (const c of constructs) {
    if (PodSecurityNamespace.isPodSecurityNamespace(c)) {
      const list = namespaces.get(c.name) ?? [];
      list.push(c);
      namespaces.set(c.name, list);
    }
  }
  // The strictest level among the namespaces of each name: an agent that level admits is admitted by them all,
  // so that the usual case costs one comparison per agent, not one per agent and variant.
  const strictest = new Map([...namespaces].map(([name, list]) => [name, list.map((ns) => ns.enforce).reduce((a, b) => (isAtLeastAsStrict(a, b) ? a : b))]));
  return constructs.filter(NodeAgent.isNodeAgent).flatMap((agent) => {
    const name = Chart.of(agent).namespace ?? '';
    const level = strictest.get(name);
    return level === undefined || isAtLeastAsStrict(agent.podSecurityLevel, level) ? [] : namespaces.get(name)!.map((ns) => ({ agent, ns }));
  }).filter(({ agent, ns }) => !isAtLeastAsStrict(agent.podSecurityLevel, ns.enforce))
    .map(({ agent, ns }) => `namespace "${ns.name}" (${ns.node.path}) enforces Pod Security "${ns.enforce}", which refuses the pods of ${agent.node.path} (they need "${agent.podSecurityLevel}"): call admit() on this namespace with the agent${ns.admitsLax ? '' : ', in a PodSecurityNamespace (a RestrictedNamespace admits only restricted agents)'}, or deploy the agent elsewhere`);
}

/**
 * @internal Throws, naming the argument, unless every one is a NodeAgent
 * that deploys into this namespace (its chart's): admitting another
 * namespace's agent would relax this one for pods it never holds.
 */
export function checkAgents(namespace: Construct & { readonly name: string }, agents: readonly unknown[]): void {
  const bad = agents.map((a, i) => {
    if (!NodeAgent.isNodeAgent(a)) return `argument ${i + 1} must be a NodeAgent but got ${show(a)}`;
    const into = Chart.of(a).namespace;
    return into === namespace.name ? undefined
      : `argument ${i + 1} (${a.node.path}) must be an agent that deploys into namespace ${show(namespace.name)} but it deploys into ${into === undefined ? 'no namespace (its chart has none)' : show(into)}: admit it in a namespace of its own chart's name`;
  }).filter((p) => p !== undefined);
  if (agents.length === 0 || bad.length > 0) {
    throw new Error(`${namespace.node.path}: admit() takes the NodeAgents to admit: ${agents.length === 0 ? 'none given' : bad.join('; ')}`);
  }
}

/**
 * A Namespace whose pods the cluster holds to a Pod Security level (label
 * `pod-security.kubernetes.io/enforce`, pinned to the Pod Security version
 * of the app's Kubernetes target: v1.28 by default), so that it enforces
 * what the node agents in it promise.
 *
 * A Chart stamps its namespace on every object; a Namespace is cluster-scoped,
 * so this one never carries `metadata.namespace`, in whichever chart it is.
 *
 * @example
 * const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'monitoring' });
 * ns.admit(exporter); // enforce the level the exporter needs, e.g. privileged
 */
export class PodSecurityNamespace extends Construct {
  /**
   * Whether `x` is a PodSecurityNamespace (a RestrictedNamespace too), also
   * one made by another copy of this package.
   */
  public static isPodSecurityNamespace(x: unknown): x is PodSecurityNamespace {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The namespace's name. */
  public readonly name: string;

  /** The cdk8s-plus Namespace underneath. */
  public readonly namespace: kplus.Namespace;

  /** The Kubernetes version the namespace is written for (the app's context `node-reporter:kubernetesVersion`, 1.28 when unset): it enforces that version's Pod Security Standards. */
  public readonly kubernetesVersion: KubernetesVersion;

  private level: PodSecurityLevel;

  constructor(scope: Construct, id: string, props: PodSecurityNamespaceProps) {
    super(scope, id);
    Object.defineProperty(this, BRAND, { value: true });
    const target = kubernetesTarget(this);
    this.kubernetesVersion = target.version;
    reportProblems(this, isRecord(props) ? [
      ...checkOwnableNamespace('name', props.name),
      props.enforce !== undefined && !LEVELS.includes(props.enforce) ? problem('enforce', `one of ${LEVELS.join(', ')}`, props.enforce) : undefined,
      ...unknownKeys('props', props, { known: ['name', 'enforce'] }),
    ] : [problem('props', 'an object { name, enforce? }', props)]);
    this.name = props.name;
    this.level = props.enforce ?? PodSecurityLevel.RESTRICTED;
    this.namespace = new kplus.Namespace(this, 'Resource', {
      metadata: {
        name: this.name,
        annotations: targetAnnotations(target),
        labels: {
          'app.kubernetes.io/managed-by': MANAGED_BY,
          'pod-security.kubernetes.io/enforce': this.level,
          'pod-security.kubernetes.io/enforce-version': `v${this.kubernetesVersion}`,
        },
      },
    });
    clusterScoped(ApiObject.of(this.namespace));
    // Only at synth are all the agents that deploy into it known.
    appCheck(this, 'NamespaceAdmission', refusedAgents);
  }

  /** Whether admit() may relax the level (a RestrictedNamespace's may not). */
  public get admitsLax(): boolean {
    return true;
  }

  /** The Pod Security level the namespace enforces. */
  public get enforce(): PodSecurityLevel {
    return this.level;
  }

  /**
   * Relaxes the enforced level to what these agents need (never tightens it),
   * for agents that cannot be "restricted" and say why (`podSecurity`).
   */
  public admit(...agents: NodeAgent[]): void {
    checkAgents(this, agents);
    for (const agent of agents) {
      if (!isAtLeastAsStrict(agent.podSecurityLevel, this.level)) {
        this.level = agent.podSecurityLevel;
        // The app's checks read the level (NamespaceAdmission).
        appChanged();
      }
    }
    this.namespace.metadata.addLabel('pod-security.kubernetes.io/enforce', this.level);
  }
}
