import type { k8s } from 'cdk8s-plus-28';
import { validateLabelValue, validateQualifiedName } from './validate-props';

/** The effect of a node taint. */
export enum TaintEffect {
  /** New pods that do not tolerate the taint are not scheduled on the node. */
  NO_SCHEDULE = 'NoSchedule',
  /** The scheduler avoids the node; never blocks a DaemonSet pod. */
  PREFER_NO_SCHEDULE = 'PreferNoSchedule',
  /** Pods that do not tolerate the taint are not scheduled, and running ones are evicted. */
  NO_EXECUTE = 'NoExecute',
}

/** The taint that kubeadm puts on control-plane nodes. */
export const CONTROL_PLANE_TAINT_KEY = 'node-role.kubernetes.io/control-plane';

/**
 * A toleration that lets a node agent run on tainted nodes.
 *
 * On kubeadm clusters the control-plane nodes carry
 * `node-role.kubernetes.io/control-plane:NoSchedule`, so an agent that must
 * run there too needs {@link NodeToleration.controlPlane}.
 *
 * @example
 * new LabeledNodePolicy(chart, 'Policy', { key: 'agents', value: 'true', tolerations: [NodeToleration.controlPlane()] });
 */
export class NodeToleration {
  /** Tolerates the kubeadm control-plane taint `node-role.kubernetes.io/control-plane:NoSchedule`. */
  public static controlPlane(): NodeToleration {
    return NodeToleration.exists(CONTROL_PLANE_TAINT_KEY, TaintEffect.NO_SCHEDULE);
  }

  /**
   * Tolerates any taint with this key, whatever its value.
   * @param key the taint key, a qualified name
   * @param effect the effect tolerated; all effects when omitted
   */
  public static exists(key: string, effect?: TaintEffect): NodeToleration {
    validateQualifiedName('toleration key', key);
    return new NodeToleration({ key, operator: 'Exists', effect });
  }

  /**
   * Tolerates the taint `key=value`.
   * @param key the taint key, a qualified name
   * @param value the taint value, a label value
   * @param effect the effect tolerated; all effects when omitted
   */
  public static equal(key: string, value: string, effect?: TaintEffect): NodeToleration {
    validateQualifiedName('toleration key', key);
    validateLabelValue('toleration value', value);
    return new NodeToleration({ key, operator: 'Equal', value, effect });
  }

  /**
   * Tolerates every taint, so the agent runs on every eligible node whatever
   * its taints (as most log and network agents do). Cordoned and draining
   * nodes included.
   */
  public static everything(): NodeToleration {
    return new NodeToleration({ operator: 'Exists' });
  }

  /** The taint key tolerated; undefined for {@link NodeToleration.everything}. */
  public readonly key?: string;

  /** `Exists` or `Equal`. */
  public readonly operator: 'Exists' | 'Equal';

  /** The taint value, for `Equal`. */
  public readonly value?: string;

  /** The effect tolerated; undefined means every effect. */
  public readonly effect?: TaintEffect;

  private constructor(toleration: { key?: string; operator: 'Exists' | 'Equal'; value?: string; effect?: TaintEffect }) {
    if (toleration.effect !== undefined && !Object.values(TaintEffect).includes(toleration.effect)) {
      throw new Error(`'toleration effect' must be one of ${Object.values(TaintEffect).join(', ')} but got ${JSON.stringify(toleration.effect)}`);
    }
    this.key = toleration.key;
    this.operator = toleration.operator;
    this.value = toleration.value;
    this.effect = toleration.effect;
  }

  /** The Kubernetes `Toleration` object of a pod spec. */
  public toKube(): k8s.Toleration {
    const result: { -readonly [K in keyof k8s.Toleration]: k8s.Toleration[K] } = {};
    if (this.key !== undefined) result.key = this.key;
    result.operator = this.operator;
    if (this.value !== undefined) result.value = this.value;
    if (this.effect !== undefined) result.effect = this.effect;
    return result;
  }
}
