import { Construct } from 'constructs';
import { labelNodeCommand, unlabelNodeCommand } from './eligibility/kubectl';
import { checkLabelValue, checkQualifiedName, defined, isRecord, problem } from './k8s/syntax';
import { NodePolicy } from './node-policy';
import { NodeToleration } from './node-toleration';
import { unknownKeys } from './prop-keys';

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
 * The eligibility rule "nodes labelled `key=value`" for node agents: the
 * one-label {@link NodePolicy}.
 *
 * A policy adds no API object of its own: DaemonSets that use it render it as
 * their pod `nodeSelector` and `tolerations`. One policy can serve several DaemonSets, in this
 * chart or in others, so that they all land on the same nodes.
 *
 * @example
 * const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'practice-tier', value: 'operations' });
 * policy.labelCommand('node-1'); // 'kubectl label node node-1 practice-tier=operations'
 */
export class LabeledNodePolicy extends NodePolicy {
  /** The node label key. */
  public readonly key: string;

  /** The node label value. */
  public readonly value: string;

  constructor(scope: Construct, id: string, props: LabeledNodePolicyProps) {
    // Judged before super() so that the messages name this construct's props.
    const problems = isRecord(props)
      ? [...defined(checkQualifiedName('key', props.key), checkLabelValue('value', props.value)), ...unknownKeys('props', props, { known: ['key', 'value', 'tolerations'] })]
      : [problem('props', 'an object { key, value, tolerations? }', props)];
    if (problems.length > 0) {
      const path = [scope.node.path, id].filter((p) => p !== '').join('/');
      throw new Error(problems.map((p) => `${path}: ${p}`).join('\n'));
    }
    super(scope, id, { matchLabels: { [props.key]: props.value }, tolerations: props.tolerations });
    this.key = props.key;
    this.value = props.value;
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
