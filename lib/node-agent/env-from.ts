/**
 * Every key of a ConfigMap or Secret as environment variables, optionally:
 * cdk8s-plus' `Env.fromConfigMap` has no `optional`, and a required source
 * that is missing keeps the container from starting (calico-node's
 * `kubernetes-services-endpoint` ConfigMap exists only with eBPF).
 */
import type * as kplus from 'cdk8s-plus-28';
import { defined, isRecord, Problem, problem } from '../k8s/syntax';

/** Options of {@link AgentEnvFrom}. */
export interface AgentEnvFromOptions {
  /**
   * A prefix of every variable's name.
   * @default - none
   */
  readonly prefix?: string;
  /**
   * Whether the container starts when the ConfigMap or Secret does not exist.
   * @default false
   */
  readonly optional?: boolean;
}

/** A ConfigMap's or Secret's keys as a container's variables (`envFrom`), by the object's name. */
export class AgentEnvFrom {
  /** Every key of the ConfigMap `name` in the agent's namespace. */
  public static configMap(name: string, options: AgentEnvFromOptions = {}): AgentEnvFrom {
    return new AgentEnvFrom('configMap', name, options);
  }

  /** Every key of the Secret `name` in the agent's namespace. */
  public static secret(name: string, options: AgentEnvFromOptions = {}): AgentEnvFrom {
    return new AgentEnvFrom('secret', name, options);
  }

  private constructor(
    /** Whether the keys are a ConfigMap's or a Secret's. */
    public readonly kind: 'configMap' | 'secret',
    /** The ConfigMap's or Secret's name. */
    public readonly name: string,
    /** The prefix and whether it is optional. */
    public readonly options: AgentEnvFromOptions,
  ) {}

  /** @internal The problems of this source, named by `prop`. */
  public _problems(prop: string): Problem[] {
    const o: unknown = this.options;
    if (!isRecord(o)) return [problem(`${prop}.options`, 'an object { prefix?, optional? }', o)];
    return defined(
      ...Object.keys(o).filter((k) => k !== 'prefix' && k !== 'optional').map((k) => problem(`${prop}.options[key]`, 'prefix or optional', k)),
      o.optional !== undefined && typeof o.optional !== 'boolean' ? problem(`${prop}.optional`, 'a boolean', o.optional) : undefined,
      // The name's and the prefix's syntax are the API server's: the container asks the checks (validateEnvFrom).
      typeof this.name === 'string' ? undefined : problem(`${prop}.name`, 'a string', this.name),
      o.prefix !== undefined && typeof o.prefix !== 'string' ? problem(`${prop}.prefix`, 'a string', o.prefix) : undefined,
    );
  }

  /**
   * The API's EnvFromSource: how cdk8s-plus renders `envFrom` (as its own `Env.fromConfigMap` does).
   * jsii: cdk8s-plus' hook, called in JavaScript only.
   * @jsii ignore
   */
  public _toKube(): kplus.k8s.EnvFromSource {
    const ref = { name: this.name, ...(this.options.optional !== undefined ? { optional: this.options.optional } : {}) };
    return { ...(this.options.prefix !== undefined ? { prefix: this.options.prefix } : {}), ...(this.kind === 'configMap' ? { configMapRef: ref } : { secretRef: ref }) };
  }
}
