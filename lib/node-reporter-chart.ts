import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { DEFAULT_NAMESPACE, DEFAULT_POLICY_KEY, DEFAULT_POLICY_VALUE } from './defaults';
import { LabeledNodePolicy } from './labeled-node-policy';
import { NodeReporterDaemonSet, NodeReporterDaemonSetProps } from './node-reporter-daemon-set';
import { NodeToleration } from './node-toleration';
import { RestrictedNamespace } from './restricted-namespace';
import { validateDns1123Label, validateProps } from './validate-props';

/**
 * Props for {@link NodeReporterChart}.
 */
export interface NodeReporterChartProps extends Omit<NodeReporterDaemonSetProps, 'policy'> {
  /**
   * The namespace the chart creates and deploys the DaemonSet into, a DNS-1123 label.
   * It is labelled `pod-security.kubernetes.io/enforce: restricted`.
   * @default 'practice-daemon'
   */
  readonly namespace?: string;

  /**
   * The node label key that makes a node eligible.
   * @default 'practice-tier'
   */
  readonly policyKey?: string;

  /**
   * The node label value that makes a node eligible.
   * @default 'operations'
   */
  readonly policyValue?: string;

  /**
   * Taints the reporter may run on, e.g. `[NodeToleration.controlPlane()]`
   * where the labelled node is a kubeadm control plane that keeps its taint.
   * @default - none
   */
  readonly tolerations?: NodeToleration[];
}

/**
 * One deployable variant of the node reporter: the Namespace (first), the
 * eligibility policy and the DaemonSet. `cdk8s synth` writes each chart to its
 * own self-contained file, `dist/<chart id>.k8s.yaml`.
 *
 * @example
 * new NodeReporterChart(app, 'node-reporter-v1', { version: 'v1' });
 */
export class NodeReporterChart extends Chart {
  /** The Namespace, cluster-scoped and restricted. */
  public readonly ns: RestrictedNamespace;

  /** The eligibility policy. */
  public readonly policy: LabeledNodePolicy;

  /** The node reporter. */
  public readonly reporter: NodeReporterDaemonSet;

  constructor(scope: Construct, id: string, props: NodeReporterChartProps) {
    const namespace = props.namespace ?? DEFAULT_NAMESPACE;
    super(scope, id, { namespace });
    validateProps(this, () => validateDns1123Label('namespace', namespace));
    this.ns = new RestrictedNamespace(this, 'Namespace', { name: namespace });

    this.policy = new LabeledNodePolicy(this, 'Policy', {
      key: props.policyKey ?? DEFAULT_POLICY_KEY,
      value: props.policyValue ?? DEFAULT_POLICY_VALUE,
      tolerations: props.tolerations,
    });
    this.reporter = new NodeReporterDaemonSet(this, 'NodeReporter', { ...props, policy: this.policy });
  }
}
