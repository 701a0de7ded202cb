import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** What the agent gives its DaemonSet. */
export interface AgentDaemonSetHooks {
  /** The agent's rendering of the spec cdk8s-plus produced. */
  readonly render: (spec: kplus.k8s.DaemonSetSpec) => kplus.k8s.DaemonSetSpec;
  /** The agent's last word on the DaemonSet's manifest, each time it is written. */
  readonly finish: (manifest: Record<string, unknown>) => Record<string, unknown>;
  /** The labels every pod carries and the selector selects. */
  readonly selectorLabels: Readonly<Record<string, string>>;
  /** What to tell someone who adds a container through cdk8s-plus. */
  readonly addContainerHint: string;
}

/**
 * cdk8s-plus-28's DaemonSet, with the agent's hooks:
 * - its rendered spec goes through the agent's `render` (`_toKube` is how
 *   cdk8s-plus produces the spec lazily at synth; it is public in its
 *   declarations), and its whole manifest through the agent's `finish` (the
 *   L1 object is made inside cdk8s-plus' constructor, so its `toJson` is
 *   wrapped here, once);
 * - used as a pod selector by cdk8s-plus (a Service's `selector`,
 *   `scheduling.separate`, `connections.allowFrom`), it selects the labels
 *   the agent's pods carry, not the construct-path label cdk8s-plus would;
 * - containers added through cdk8s-plus after construction would miss the
 *   agent's defaults (1 CPU / 512Mi requests on every node, no seccomp, none
 *   of its mounts), so they are refused, pointing to the agent's own methods.
 */
export class AgentDaemonSet extends kplus.DaemonSet {
  private sealed = false;

  constructor(scope: Construct, id: string, props: kplus.DaemonSetProps, private readonly hooks: AgentDaemonSetHooks) {
    super(scope, id, props);
    const manifest = ApiObject.of(this);
    const render = manifest.toJson.bind(manifest);
    manifest.toJson = () => hooks.finish(render());
  }

  public override _toKube(): kplus.k8s.DaemonSetSpec {
    return this.hooks.render(super._toKube());
  }

  public override toPodSelectorConfig(): kplus.PodSelectorConfig {
    return {
      labelSelector: kplus.LabelSelector.of({ labels: { ...this.hooks.selectorLabels } }),
      namespaces: this.metadata.namespace ? { names: [this.metadata.namespace] } : undefined,
    };
  }

  public override addContainer(container: kplus.ContainerProps): kplus.Container {
    this.refuseWhenSealed('addContainer');
    return super.addContainer(container);
  }

  public override addInitContainer(container: kplus.ContainerProps): kplus.Container {
    this.refuseWhenSealed('addInitContainer');
    return super.addInitContainer(container);
  }

  /** @internal adds a container the agent has given its defaults */
  public _addAgentContainer(container: kplus.ContainerProps, init: boolean): kplus.Container {
    return init ? super.addInitContainer(container) : super.addContainer(container);
  }

  /** @internal from now on, containers come through the agent only */
  public _seal(): void {
    this.sealed = true;
  }

  private refuseWhenSealed(method: string): void {
    if (this.sealed) {
      throw new Error(`${this.node.path}: daemonSet.${method}() would give the container cdk8s-plus' defaults instead of the agent's; ${this.hooks.addContainerHint}`);
    }
  }
}
