/**
 * The wave labels: the contract between an agent rolled out in waves and the
 * tools that read waves in any YAML (`check`, `eligible`, `diff`). A leaf,
 * so that both the constructs and checks/ may import it.
 */

/** The metadata label on each wave's DaemonSet naming the agent the wave belongs to. */
export const AGENT_LABEL = 'node-reporter.dev/agent';
/** The metadata label on each wave's DaemonSet naming its wave. */
export const WAVE_LABEL = 'node-reporter.dev/wave';
/** The node label that puts a node in a wave (by default; the last wave takes every node not in another wave). */
export const ROLLOUT_WAVE_NODE_LABEL = 'node-reporter.dev/rollout-wave';
