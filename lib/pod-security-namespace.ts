import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkDns1123Label, defined, isRecord, Problem, problem } from './k8s/syntax';
import { clusterScoped, NodeAgent, PodSecurityLevel } from './node-agent';
import { reportProblems } from './validate-props';

/**
 * Namespaces the cluster owns: labelling one for Pod Security would stop its
 * system pods from being re-created, and `kubectl delete -f` would delete it.
 */
export const RESERVED_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The Kubernetes version whose Pod Security Standards the namespaces pin. */
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

/** The problems of a namespace name this library may own. */
export function checkOwnableNamespace(prop: string, name: unknown): Problem[] {
  return defined(
    checkDns1123Label(prop, name),
    RESERVED_NAMESPACES.includes(name as string)
      ? problem(prop, `a namespace this library may own, not one the cluster owns (${RESERVED_NAMESPACES.join(', ')}): labelling it for Pod Security stops its system pods and 'kubectl delete -f' would delete it; deploy into it without owning it instead`, name)
      : undefined,
  );
}

const LEVELS = Object.values(PodSecurityLevel) as string[];

/**
 * A Namespace whose pods the cluster holds to a Pod Security level (label
 * `pod-security.kubernetes.io/enforce`, pinned to v1.28), so that it enforces
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
  /** The namespace's name. */
  public readonly name: string;

  /** The cdk8s-plus Namespace underneath. */
  public readonly namespace: kplus.Namespace;

  private level: PodSecurityLevel;

  constructor(scope: Construct, id: string, props: PodSecurityNamespaceProps) {
    super(scope, id);
    reportProblems(this, isRecord(props) ? [
      ...checkOwnableNamespace('name', props.name),
      props.enforce !== undefined && !LEVELS.includes(props.enforce) ? problem('enforce', `one of ${LEVELS.join(', ')}`, props.enforce) : undefined,
    ] : [problem('props', 'an object { name, enforce? }', props)]);
    this.name = props.name;
    this.level = props.enforce ?? PodSecurityLevel.RESTRICTED;
    this.namespace = new kplus.Namespace(this, 'Resource', {
      metadata: {
        name: this.name,
        labels: {
          'pod-security.kubernetes.io/enforce': this.level,
          'pod-security.kubernetes.io/enforce-version': POD_SECURITY_VERSION,
        },
      },
    });
    clusterScoped(ApiObject.of(this.namespace));
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
    const order = [PodSecurityLevel.RESTRICTED, PodSecurityLevel.BASELINE, PodSecurityLevel.PRIVILEGED];
    for (const agent of agents) {
      if (order.indexOf(agent.podSecurityLevel) > order.indexOf(this.level)) {
        this.level = agent.podSecurityLevel;
      }
    }
    this.namespace.metadata.addLabel('pod-security.kubernetes.io/enforce', this.level);
  }
}
