import { Construct } from 'constructs';
import { isRecord } from './k8s/syntax';
import { NodeAgent, PodSecurityLevel } from './node-agent';
import { checkAgents, PodSecurityNamespace } from './pod-security-namespace';
import { unknownKeys } from './prop-keys';

/**
 * Props for {@link RestrictedNamespace}.
 */
export interface RestrictedNamespaceProps {
  /**
   * The namespace's name, a DNS-1123 label; not one the cluster owns
   * (`default`, `kube-system`, `kube-public`, `kube-node-lease`).
   */
  readonly name: string;
}

/**
 * A Namespace whose pods the cluster holds to Pod Security "restricted"
 * (label `pod-security.kubernetes.io/enforce: restricted`, pinned to the
 * Pod Security version of the app's Kubernetes target: v1.28 by default),
 * so it enforces what the node agents in it promise: the restricted
 * {@link PodSecurityNamespace}.
 *
 * @example
 * const chart = new Chart(app, 'monitoring', { namespace: 'monitoring' });
 * new RestrictedNamespace(chart, 'Namespace', { name: 'monitoring' });
 */
export class RestrictedNamespace extends PodSecurityNamespace {
  constructor(scope: Construct, id: string, props: RestrictedNamespaceProps) {
    // Judged before super() so that a level given here is refused, not dropped: this namespace is restricted.
    const problems = unknownKeys('props', props, { known: ['name'] });
    if (problems.length > 0) {
      const path = [scope.node.path, id].filter((p) => p !== '').join('/');
      throw new Error(problems.map((p) => `${path}: ${p}`).join('\n'));
    }
    super(scope, id, isRecord(props) ? { name: props.name } : props);
  }

  /**
   * Refuses agents that need a laxer level than "restricted": use a
   * {@link PodSecurityNamespace} for them.
   */
  public override admit(...agents: NodeAgent[]): void {
    checkAgents(this, agents);
    const lax = agents.filter((a) => a.podSecurityLevel !== PodSecurityLevel.RESTRICTED);
    if (lax.length > 0) {
      throw new Error(`${this.node.path}: a RestrictedNamespace admits only "restricted" agents but ${lax.map((a) => `${a.node.path} needs "${a.podSecurityLevel}"`).join(', ')}; use a PodSecurityNamespace`);
    }
  }

  public override get admitsLax(): boolean {
    return false;
  }
}
