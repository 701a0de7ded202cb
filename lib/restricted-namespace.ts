import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { validateDns1123Label, validateProps } from './validate-props';

/**
 * Props for {@link RestrictedNamespace}.
 */
export interface RestrictedNamespaceProps {
  /**
   * The namespace's name, a DNS-1123 label.
   */
  readonly name: string;
}

/**
 * A Namespace whose pods the cluster holds to Pod Security "restricted"
 * (label `pod-security.kubernetes.io/enforce: restricted`, pinned to v1.28),
 * so it enforces what the node agents in it promise.
 *
 * A Chart stamps its namespace on every object; a Namespace is cluster-scoped,
 * so this one never carries `metadata.namespace`, in whichever chart it is.
 *
 * @example
 * const chart = new Chart(app, 'monitoring', { namespace: 'monitoring' });
 * new RestrictedNamespace(chart, 'Namespace', { name: 'monitoring' });
 */
export class RestrictedNamespace extends Construct {
  /** The namespace's name. */
  public readonly name: string;

  /** The cdk8s-plus Namespace underneath. */
  public readonly namespace: kplus.Namespace;

  constructor(scope: Construct, id: string, props: RestrictedNamespaceProps) {
    super(scope, id);
    validateProps(this, () => validateDns1123Label('name', props.name));
    this.name = props.name;
    this.namespace = new kplus.Namespace(this, 'Resource', {
      metadata: {
        name: this.name,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/enforce-version': 'v1.28',
        },
      },
    });
    if (Chart.of(this).namespace !== undefined) {
      ApiObject.of(this.namespace).addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
  }
}
