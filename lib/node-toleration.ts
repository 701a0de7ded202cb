import { checkTolerations } from './checks/api/core-pod-scheduling';
import { Toleration } from './k8s/scheduling';
import { checkInteger, isRecord, Problem, problem } from './k8s/syntax';
import { askChecks, PropPath } from './prop-checks';
import { unknownKeys } from './prop-keys';
import { throwIfProblem } from './validate-props';

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

/** Options of {@link NodeToleration.exists} and {@link NodeToleration.equal}. */
export interface NodeTolerationOptions {
  /**
   * For a NoExecute toleration: seconds the pod stays on a node after the
   * taint appears, then it is evicted. An integer from 0 to 86400 * 365.
   * @default - forever
   */
  readonly tolerationSeconds?: number;
}

const BRAND = Symbol.for('node-reporter.NodeToleration');

/** How a refusal of a toleration's field names it. */
const TOLERATION_PROP_PATHS: readonly PropPath[] = [[/^tolerations\[0\]\./, 'toleration ']];

function checkOptions(options: unknown): Problem[] {
  if (options === undefined) return [];
  return isRecord(options) ? unknownKeys('toleration options', options, { known: ['tolerationSeconds'] }) : [problem('toleration options', 'an object { tolerationSeconds? }', options)];
}

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
  /**
   * Whether `x` is a NodeToleration, also one made by another copy of this
   * package (where `instanceof` would say no).
   */
  public static isNodeToleration(x: unknown): x is NodeToleration {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  /** Tolerates the kubeadm control-plane taint `node-role.kubernetes.io/control-plane:NoSchedule`. */
  public static controlPlane(): NodeToleration {
    return NodeToleration.exists(CONTROL_PLANE_TAINT_KEY, TaintEffect.NO_SCHEDULE);
  }

  /**
   * Tolerates any taint with this key, whatever its value.
   * @param key the taint key, a qualified name
   * @param effect the effect tolerated; all effects when omitted
   * @param options tolerationSeconds, for NoExecute
   */
  public static exists(key: string, effect?: TaintEffect, options?: NodeTolerationOptions): NodeToleration {
    throwIfProblem(...checkOptions(options));
    return new NodeToleration({ key, operator: 'Exists', effect, tolerationSeconds: options?.tolerationSeconds });
  }

  /**
   * Tolerates the taint `key=value`.
   * @param key the taint key, a qualified name
   * @param value the taint value, a label value
   * @param effect the effect tolerated; all effects when omitted
   * @param options tolerationSeconds, for NoExecute
   */
  public static equal(key: string, value: string, effect?: TaintEffect, options?: NodeTolerationOptions): NodeToleration {
    throwIfProblem(...checkOptions(options));
    return new NodeToleration({ key, operator: 'Equal', value, effect, tolerationSeconds: options?.tolerationSeconds });
  }

  /**
   * Tolerates every taint (`operator: Exists` without a key), or every taint
   * of one effect: `everything(TaintEffect.NO_SCHEDULE)` is
   * `{ operator: Exists, effect: NoSchedule }`, the toleration of
   * prometheus-node-exporter's chart. Without an effect the agent runs on every
   * eligible node whatever its taints: control planes, dedicated, cordoned and
   * draining nodes included, and it is never evicted by a NoExecute taint.
   * @param effect the only effect tolerated; every effect when omitted
   */
  public static everything(effect?: TaintEffect): NodeToleration {
    return new NodeToleration({ operator: 'Exists', effect });
  }

  /** The taint key tolerated; undefined for {@link NodeToleration.everything}. */
  public readonly key?: string;

  /** `Exists` or `Equal`. */
  public readonly operator: 'Exists' | 'Equal';

  /** The taint value, for `Equal`. */
  public readonly value?: string;

  /** The effect tolerated; undefined means every effect. */
  public readonly effect?: TaintEffect;

  /** For NoExecute: seconds until eviction; undefined means forever. */
  public readonly tolerationSeconds?: number;

  private constructor(toleration: { key?: string; operator: 'Exists' | 'Equal'; value?: string; effect?: TaintEffect; tolerationSeconds?: number }) {
    // The key's, the value's and the effect's syntax, and tolerationSeconds only with NoExecute, are the API server's (ValidateTolerations): asked of the checks.
    const fragment = { tolerations: [{ ...toleration }] };
    throwIfProblem(
      ...askChecks('', fragment, TOLERATION_PROP_PATHS, (add) => checkTolerations(add, '', fragment.tolerations)),
      // At most a year: the library's bound on how long an agent stays on a node being drained.
      toleration.tolerationSeconds !== undefined ? checkInteger('tolerationSeconds', toleration.tolerationSeconds, 0, 86400 * 365) : undefined,
    );
    this.key = toleration.key;
    this.operator = toleration.operator;
    this.value = toleration.value;
    this.effect = toleration.effect;
    this.tolerationSeconds = toleration.tolerationSeconds;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The Kubernetes `Toleration` object of a pod spec. */
  public toKube(): Toleration {
    const result: { -readonly [K in keyof Toleration]: Toleration[K] } = {};
    if (this.key !== undefined) result.key = this.key;
    result.operator = this.operator;
    // An empty value is the API's default, which it does not store: written, every apply would report a change.
    if (this.value !== undefined && this.value !== '') result.value = this.value;
    if (this.effect !== undefined) result.effect = this.effect;
    if (this.tolerationSeconds !== undefined) result.tolerationSeconds = this.tolerationSeconds;
    return result;
  }
}
