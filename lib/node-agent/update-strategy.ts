import * as kplus from 'cdk8s-plus-28';
import { Problem } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';
import { checkRollingUpdate } from '../validate-props';

/** Options of {@link AgentUpdateStrategy.rollingUpdate} (a named type: jsii takes no inline object type). */
export interface AgentRollingUpdateOptions {
  /**
   * Nodes that may be without a ready agent during the update.
   * @default - 1, or 0 when maxSurge is non-zero
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;
  /**
   * Nodes that may run an old and a new agent at once.
   * @default - 0
   */
  readonly maxSurge?: kplus.PercentOrAbsolute;
}

/** How a new version of the agent reaches the nodes. */
export class AgentUpdateStrategy {
  /**
   * Replace pods node by node: `maxUnavailable` nodes at a time without an
   * agent, or `maxSurge` nodes at a time with two (never both non-zero, as the
   * API server requires).
   * @param options maxUnavailable (default 1, or 0 when maxSurge is non-zero) and maxSurge (default 0)
   */
  public static rollingUpdate(options: AgentRollingUpdateOptions = {}): AgentUpdateStrategy {
    const maxSurge = options.maxSurge ?? kplus.PercentOrAbsolute.absolute(0);
    const surging = typeof maxSurge?.isZero === 'function' && !maxSurge.isZero();
    const maxUnavailable = options.maxUnavailable ?? kplus.PercentOrAbsolute.absolute(surging ? 0 : 1);
    // A misspelt option from JavaScript would silently take the default: reported with the strategy's other problems.
    return new AgentUpdateStrategy('RollingUpdate', maxUnavailable, maxSurge, unknownKeys('updateStrategy', options, { known: ['maxUnavailable', 'maxSurge'] }));
  }

  /** Replace a pod only when someone deletes it: a new version never reaches running nodes by itself. */
  public static onDelete(): AgentUpdateStrategy {
    return new AgentUpdateStrategy('OnDelete');
  }

  private constructor(
    /** `RollingUpdate` or `OnDelete`. */
    public readonly type: 'RollingUpdate' | 'OnDelete',
    /** For RollingUpdate: nodes that may be without a ready agent. */
    public readonly maxUnavailable?: kplus.PercentOrAbsolute,
    /** For RollingUpdate: nodes that may run two agents. */
    public readonly maxSurge?: kplus.PercentOrAbsolute,
    /** The options' unknown keys, as problems. */
    private readonly unknownOptions: Problem[] = [],
  ) {}

  /** Whether a rollout starts the new pod before it stops the old one (maxSurge non-zero). */
  public get surges(): boolean {
    return this.type === 'RollingUpdate' && this.maxSurge !== undefined && !(this.maxSurge.value === 0 || this.maxSurge.value === '0%');
  }

  /** The problems of this strategy (the API server's rules), named as parts of the `updateStrategy` prop. */
  public problems(): Problem[] {
    return this.type === 'RollingUpdate' ? [...this.unknownOptions, ...checkRollingUpdate(this.maxUnavailable!, this.maxSurge!, 'updateStrategy.')] : [];
  }

  /** The DaemonSet's `updateStrategy`, in the L1 types of cdk8s-plus. */
  public toKube(): kplus.k8s.DaemonSetUpdateStrategy {
    if (this.type === 'OnDelete') {
      return { type: 'OnDelete' };
    }
    return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: intOrString(this.maxUnavailable!), maxSurge: intOrString(this.maxSurge!) } };
  }
}

function intOrString(value: kplus.PercentOrAbsolute): kplus.k8s.IntOrString {
  return typeof value.value === 'number' ? kplus.k8s.IntOrString.fromNumber(value.value) : kplus.k8s.IntOrString.fromString(value.value);
}
