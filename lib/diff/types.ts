/** The shape of a manifest diff: objects added, removed and changed, each with its impacts. */

/** What a change does to a cluster. */
export type ImpactKind = 'rollout' | 'immutable' | 'rbac-widened' | 'rbac-narrowed' | 'pod-security' | 'nodes-lost' | 'duplicate' | 'config-in-place' | 'eligibility' | 'resources' | 'prune' | 'image' | 'all-waves';

/** Every impact kind, in the order reports list them. */
export const IMPACT_KINDS: readonly ImpactKind[] = ['immutable', 'rbac-widened', 'pod-security', 'duplicate', 'prune', 'nodes-lost', 'all-waves', 'config-in-place', 'eligibility', 'rollout', 'image', 'resources', 'rbac-narrowed'];

/** A DaemonSet's DESIRED before and after a change, over a node list. */
export interface DesiredChange {
  /** DESIRED before (0 for a new DaemonSet). */
  readonly before: number;
  /** DESIRED after. */
  readonly after: number;
}

/** One impact of a change, with a one-line reason. */
export interface Impact {
  /** What kind of impact. */
  readonly kind: ImpactKind;
  /** The reason, one line. */
  readonly message: string;
  /** Whether a reviewer must look (--fail-on-warnings fails on these): a refused update, a dangerous grant, a laxer Pod Security, a Namespace pruned. */
  readonly warning: boolean;
  /** The fields that changed, when the impact is about fields. */
  readonly fields?: readonly string[];
  /** The Kubernetes source of the rule. */
  readonly source?: string;
  /** How to make the change anyway (immutable). */
  readonly recipe?: string;
  /** The dangerous grants or subjects among those added (rbac-widened). */
  readonly dangerous?: readonly string[];
  /** What was added (rbac: grants or subjects). */
  readonly added?: readonly string[];
  /** What was removed (rbac: grants or subjects). */
  readonly removed?: readonly string[];
  /** Eligibility over --nodes: nodes gained. */
  readonly gained?: readonly string[];
  /** Eligibility and nodes-lost over --nodes: nodes lost. */
  readonly lost?: readonly string[];
  /** DESIRED before and after, over --nodes. */
  readonly desired?: DesiredChange;
  /** Rollout: the update strategy. */
  readonly strategy?: string;
  /** Rollout over --nodes: how many pods restart and in how many rounds. */
  readonly rounds?: number;
  /** config-in-place: the workloads that mount the ConfigMap or Secret (`DaemonSet ns/name`). */
  readonly workloads?: readonly string[];
  /** config-in-place over --nodes: the nodes their pods run on. */
  readonly nodes?: readonly string[];
  /** Resources: the change of the total over the pods (--nodes for a DaemonSet), per resource. */
  readonly total?: Readonly<Record<string, string>>;
  /** all-waves: the waves whose pod template changed (every wave of the agent). */
  readonly waves?: readonly string[];
}

/** How many of an agent's nodes one wave runs on, over --nodes. */
export interface WaveReach {
  /** The nodes the wave's DaemonSet runs on (its DESIRED, after the change). */
  readonly nodes: number;
  /** The nodes any wave of the agent runs on, after the change. */
  readonly of: number;
}

/** How an object changed. */
export type ChangeKind = 'added' | 'removed' | 'changed';

/** One object of either side that differs. */
export interface ObjectDiff {
  /** Its kind. */
  readonly kind: string;
  /** Its API version (NEW's, or OLD's when removed). */
  readonly apiVersion: string;
  /** Its namespace, if any. */
  readonly namespace?: string;
  /** Its name. */
  readonly name: string;
  /** The agent it is a wave of: a DaemonSet's `node-reporter.dev/agent` label, when it carries both wave labels. */
  readonly agent?: string;
  /** The wave it is: its `node-reporter.dev/wave` label, when it carries both wave labels. */
  readonly wave?: string;
  /** With --nodes, how many of the agent's nodes the wave runs on (a wave in NEW only). */
  readonly reach?: WaveReach;
  /** Added, removed or changed. */
  readonly change: ChangeKind;
  /** The impacts, most serious first. */
  readonly impacts: readonly Impact[];
}

/** The counts. */
export interface DiffSummary {
  /** Objects in NEW and not in OLD. */
  readonly added: number;
  /** Objects in OLD and not in NEW. */
  readonly removed: number;
  /** Objects in both that differ. */
  readonly changed: number;
  /** Objects in both that are the same. */
  readonly unchanged: number;
  /** Impacts by kind (every kind present, 0 when none). */
  readonly impacts: Readonly<Record<ImpactKind, number>>;
  /** How many impacts are warnings. */
  readonly warnings: number;
  /** The Kubernetes version judged by. */
  readonly kubernetesVersion: string;
  /** Why that version: `--kubernetes-version`, the input's annotation, or the default. */
  readonly kubernetesVersionSource: string;
  /** The nodes of --nodes, when given. */
  readonly nodes?: number;
}

/** A whole diff. */
export interface DiffReport {
  /** The objects that differ, in NEW's order, removed ones after. */
  readonly objects: readonly ObjectDiff[];
  /** The counts. */
  readonly summary: DiffSummary;
}
