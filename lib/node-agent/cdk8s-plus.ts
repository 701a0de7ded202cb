/**
 * The cdk8s-plus objects a container's props take, typed by what the agent
 * uses of them, so that an app may pass those of the cdk8s-plus it uses
 * itself. The library is built on cdk8s-plus-28; `cdk8s init
 * typescript-app` installs a newer one (cdk8s-plus-33). Two copies of a
 * class with private fields are different types to TypeScript (TS2322:
 * cdk8s-plus-33's `Probe` is not cdk8s-plus-28's), though each renders the
 * same Kubernetes spec. The classes without private fields (`Cpu`,
 * `EnvValue`, `PercentOrAbsolute`) and the enums (`Protocol`,
 * `HostPathVolumeType`, ...) of either already type-check as they are.
 *
 * The props name cdk8s-plus-28's class first (`kplus.Probe | ContainerProbe`):
 * that is the type Python, Java and Go pass (jsii sees these interfaces as
 * empty structs, their `_toKube` being TypeScript-only); to TypeScript the
 * union is the interface, which cdk8s-plus-28's class satisfies.
 */
import * as kplus from 'cdk8s-plus-28';

/**
 * A probe: `Probe.fromHttpGet(...)`, `Probe.fromCommand(...)`,
 * `Probe.fromTcpSocket(...)` of cdk8s-plus-28 or of a newer cdk8s-plus
 * (cdk8s-plus-33), or {@link AgentProbe.httpGet}.
 */
export interface ContainerProbe {
  /**
   * cdk8s-plus' own rendering of the probe for the container that holds it.
   * jsii: TypeScript types it structurally; other languages pass the cdk8s-plus-28 object as it is.
   * @jsii ignore
   * @param container the cdk8s-plus container
   */
  _toKube(container: never): unknown;
}

/**
 * A lifecycle hook: `Handler.fromCommand(...)`, `Handler.fromHttpGet(...)`,
 * `Handler.fromTcpSocket(...)` of cdk8s-plus-28 or of a newer cdk8s-plus.
 */
export interface ContainerHandler {
  /**
   * cdk8s-plus' own rendering of the hook for the container that holds it.
   * jsii: TypeScript types it structurally; other languages pass the cdk8s-plus-28 object as it is.
   * @jsii ignore
   * @param container the cdk8s-plus container
   */
  _toKube(container: never): unknown;
}

/** Hooks run after a container starts and before it stops. */
export interface ContainerLifecycle {
  /**
   * Run right after the container starts; it is killed if the hook fails.
   * @default - none
   */
  readonly postStart?: kplus.Handler | ContainerHandler;
  /**
   * Run before the container is stopped (not on a crash), within the grace period.
   * @default - none
   */
  readonly preStop?: kplus.Handler | ContainerHandler;
}

/**
 * Every key of a ConfigMap or Secret as variables: `Env.fromConfigMap(...)`,
 * `Env.fromSecret(...)` of cdk8s-plus-28 or of a newer cdk8s-plus.
 */
export interface ContainerEnvFrom {
  /**
   * cdk8s-plus' own rendering of the source.
   * jsii: TypeScript types it structurally; other languages pass the cdk8s-plus-28 object as it is.
   * @jsii ignore
   */
  _toKube(): unknown;
}
