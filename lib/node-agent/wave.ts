/**
 * AgentWave, the props of one wave of an agent rolled out in waves (the
 * interface only; ./waves renders and checks them).
 */
import * as kplus from 'cdk8s-plus-28';
import { NodePolicy } from '../node-policy';
import { AgentUpdateStrategy } from './update-strategy';

/**
 * One wave of an agent rolled out in waves: which nodes, and what differs
 * from the agent's props there. Every override falls back to the agent's
 * prop, so a wave without overrides runs what the agent's props say, and a
 * change to the agent's props reaches every wave that does not override it.
 */
export interface AgentWave {
  /**
   * The wave's name, a label value: the value of the DaemonSet label
   * `node-reporter.dev/wave` and of the node label
   * `node-reporter.dev/rollout-wave` that puts a node in the wave. Every wave
   * but the last is a DaemonSet `<agent name>-<wave name>` (a DNS-1123 label).
   * Renaming a wave changes its DaemonSet's immutable selector.
   */
  readonly name: string;

  /**
   * The wave's nodes, among the agent policy's (the two are ANDed). The waves
   * must be provably disjoint: no node labels may match two of them.
   * @default - the nodes labelled `node-reporter.dev/rollout-wave=<name>`; for the last wave every other node of the agent's policy (unlabelled ones too)
   */
  readonly nodes?: NodePolicy;

  /**
   * The main container's image in this wave.
   * @default - the main container's image
   */
  readonly image?: string;

  /**
   * The `app.kubernetes.io/version` label of the wave's DaemonSet and pods, a label value.
   * @default - the tag of the wave's `image` when it sets one (none when that has no tag), else the agent's `version`
   */
  readonly version?: string;

  /**
   * The main container's command in this wave.
   * @default - the main container's command
   */
  readonly command?: string[];

  /**
   * The main container's arguments in this wave.
   * @default - the main container's arguments
   */
  readonly args?: string[];

  /**
   * Environment variables of the main container in this wave, over (and beside) its own.
   * @default - the main container's env
   */
  readonly env?: Record<string, kplus.EnvValue>;

  /**
   * The config files of this wave (in place of `config.data`; the mount, file
   * names and `onChange` stay the agent's). Each wave has its own ConfigMap,
   * so a change here restarts or reloads this wave's pods only.
   * @default - the agent's `config.data`
   */
  readonly configData?: Record<string, string>;

  /**
   * How a new version reaches this wave's nodes, e.g.
   * `AgentUpdateStrategy.onDelete()` for the last wave while an agent moves to
   * waves (see docs/rolling-out-in-waves.md).
   * @default - the agent's `updateStrategy`
   */
  readonly updateStrategy?: AgentUpdateStrategy;

  /**
   * The `kubernetes.io/change-cause` annotation of the wave's DaemonSet.
   * @default - the agent's `changeCause`
   */
  readonly changeCause?: string;
}

