import { Construct } from 'constructs';
import { selectorMatches } from './eligibility/evaluate';
import { labelNodeCommand, unlabelNodeCommand } from './eligibility/kubectl';
import { NodeToleration } from './node-toleration';
import { validateLabelValue, validateProps, validateQualifiedName } from './validate-props';

/**
 * Props for {@link LabeledNodePolicy}.
 */
export interface LabeledNodePolicyProps {
  /**
   * The node label key that makes a node eligible, a Kubernetes qualified name
   * such as `practice-tier` or `node-role.example.com/agents`.
   */
  readonly key: string;

  /**
   * The value the label must have; may be empty.
   */
  readonly value: string;

  /**
   * Taints the agents may run on, such as {@link NodeToleration.controlPlane}
   * for kubeadm control-plane nodes. A DaemonSet pod also gets the
   * tolerations the DaemonSet controller adds to every DaemonSet pod.
   * @default - none: eligible nodes with a NoSchedule or NoExecute taint get no agent
   */
  readonly tolerations?: NodeToleration[];
}

/**
 * The eligibility rule "nodes labelled `key=value`" for node agents.
 *
 * A policy adds no API object of its own: DaemonSets that use it render it as
 * their pod `nodeSelector` and `tolerations`. One policy can serve several DaemonSets, in this
 * chart or in others, so that they all land on the same nodes.
 *
 * @example
 * const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'practice-tier', value: 'operations' });
 * policy.labelCommand('node-1'); // 'kubectl label node node-1 practice-tier=operations'
 */
export class LabeledNodePolicy extends Construct {
  /** The node label key. */
  public readonly key: string;

  /** The node label value. */
  public readonly value: string;

  /** The taints tolerated, beyond those the DaemonSet controller adds. */
  public readonly tolerations: readonly NodeToleration[];

  constructor(scope: Construct, id: string, props: LabeledNodePolicyProps) {
    super(scope, id);
    validateProps(this, () => {
      validateQualifiedName('key', props.key);
      validateLabelValue('value', props.value);
      (props.tolerations ?? []).forEach((t, i) => {
        if (!(t instanceof NodeToleration)) {
          throw new Error(`'tolerations[${i}]' must be a NodeToleration (NodeToleration.controlPlane(), .exists(), .equal() or .everything()) but got ${JSON.stringify(t)}`);
        }
      });
    });
    this.key = props.key;
    this.value = props.value;
    this.tolerations = [...(props.tolerations ?? [])];
  }

  /**
   * The pod `nodeSelector` that expresses this policy: `{ [key]: value }`.
   * A fresh object on each call, so callers cannot change the policy.
   */
  public get nodeSelector(): Record<string, string> {
    return { [this.key]: this.value };
  }

  /**
   * Whether a node with these labels is eligible: it carries the key with
   * exactly this value.
   */
  public matches(nodeLabels: Record<string, string>): boolean {
    return selectorMatches(this.nodeSelector, nodeLabels);
  }

  /**
   * The command that makes a node eligible: `kubectl label node NODE key=value`.
   *
   * @param nodeName the node's name, a DNS-1123 subdomain (checked, because the result is meant for a shell)
   */
  public labelCommand(nodeName: string): string {
    return labelNodeCommand(nodeName, this.nodeSelector);
  }

  /**
   * The command that makes a node ineligible again: `kubectl label node NODE key-`.
   *
   * @param nodeName the node's name, a DNS-1123 subdomain (checked, because the result is meant for a shell)
   */
  public unlabelCommand(nodeName: string): string {
    return unlabelNodeCommand(nodeName, [this.key]);
  }
}

