/**
 * NodeAgent's props: the interface only. Each part's props live with the
 * part (containers, volumes, config, RBAC, services, ...); the rules they
 * must follow are in ./props-problems.
 */
import * as kplus from 'cdk8s-plus-28';
import { NodePolicy } from '../node-policy';
import { AgentAdoption } from './adoption';
import { AgentConfig } from './config';
import { AgentContainer } from './containers';
import { AgentExtraServiceAccount, AgentGrant } from './grants';
import { AgentMetrics } from './metrics';
import { AgentPodSecurity } from './pod-security';
import { AgentServiceAccount } from './rbac';
import { AgentService } from './services';
import { NodeAgentTargetProps } from './target';
import { AgentUpdateStrategy } from './update-strategy';
import { AgentVolume, HostPathMount } from './volumes';
import { AgentWave } from './wave';

/** Pods the agent's pods must not share a topology domain (by default: a node) with. */
export interface PodAntiAffinityTerm {
  /** The labels of those pods (in the agent's namespace). */
  readonly labels: Record<string, string>;
  /**
   * The node label whose value is the domain.
   * @default 'kubernetes.io/hostname' - one node
   */
  readonly topologyKey?: string;
}

/**
 * Props for {@link NodeAgent}.
 */
export interface NodeAgentProps extends NodeAgentTargetProps {
  /** Which nodes run the agent. */
  readonly policy: NodePolicy;

  /**
   * The DaemonSet's name, a DNS-1123 label; also its selector label `app`
   * (unless `adopt.selector`), and the name the agent's other objects derive
   * theirs from: `node-agent-<name>`, `node-agent:<name>`, `node-agent:<namespace>:<name>`.
   */
  readonly name: string;

  /**
   * The existing objects the agent replaces (an install by Helm, kubeadm or
   * a manifest): its DaemonSet's selector and the names of its
   * ServiceAccount, ConfigMap, RBAC objects and metrics Service, so that an
   * apply updates them in place. Only what is written here is adopted.
   * @default - nothing: every object but the DaemonSet gets a derived `node-agent` name
   */
  readonly adopt?: AgentAdoption;

  /** The agent's containers (the main one and its sidecars), at least one. */
  readonly containers: AgentContainer[];

  /**
   * Containers that run to completion, in order, before the others start
   * (e.g. to prepare a host path); with the same secure defaults.
   * @default - none
   */
  readonly initContainers?: AgentContainer[];

  /**
   * The pods' volumes, declared once; each container mounts those it needs
   * (`mounts`). Host paths break Pod Security "baseline": set `podSecurity`.
   * @default - none
   */
  readonly volumes?: AgentVolume[];

  /**
   * Host paths mounted read-only into every container, e.g. `/` at
   * `/host/root`: the shorthand of a hostPath volume mounted by all.
   * @default - none
   */
  readonly hostPaths?: HostPathMount[];

  /**
   * Run in the node's network namespace (and resolve cluster names with
   * `dnsPolicy: ClusterFirstWithHostNet`, unless `dns` says otherwise).
   * @default false, or true for a Windows host process
   */
  readonly hostNetwork?: boolean;

  /**
   * See the node's processes.
   * @default false
   */
  readonly hostPID?: boolean;

  /**
   * Share the node's IPC namespace.
   * @default false
   */
  readonly hostIPC?: boolean;

  /**
   * On Windows nodes: run the containers as host processes (`windowsOptions.hostProcess`), with host networking as the API server requires.
   * @default false
   */
  readonly hostProcess?: boolean;

  /**
   * A ServiceAccount `node-agent-<name>` (or `adopt.serviceAccountName`) of its own, with what it may do (cluster-wide
   * rules, rules in its namespace, existing ClusterRoles); its API token is
   * mounted into the pods unless `automountToken` is false.
   * @default - no ServiceAccount of its own and no token
   */
  readonly serviceAccount?: AgentServiceAccount;

  /**
   * More ServiceAccounts the agent brings (e.g. calico's `calico-cni-plugin`,
   * whose token its CNI plugin uses), each named, with its own grants.
   * @default - none
   */
  readonly serviceAccounts?: AgentExtraServiceAccount[];

  /**
   * Roles granted to subjects other than the agent's ServiceAccount (a Group
   * of bootstrap tokens, a User), each named.
   * @default - none
   */
  readonly grants?: AgentGrant[];

  /**
   * Services beyond the metrics one, each named: headless, several ports, node-local.
   * @default - none
   */
  readonly services?: AgentService[];

  /**
   * CustomResourceDefinitions the agent ships (cdk8s-plus' `k8s.CustomResourceDefinitionSpec`),
   * each named `<plural>.<group>`, cluster-scoped. The L1 names (`openApiv3Schema`,
   * `xKubernetesPreserveUnknownFields`): a manifest spelling is refused with the name to use.
   * @default - none
   */
  readonly customResourceDefinitions?: kplus.k8s.CustomResourceDefinitionSpec[];

  /**
   * An existing ServiceAccount the pods run as, with its token mounted; not with `serviceAccount`.
   * @default - see `serviceAccount`
   */
  readonly serviceAccountName?: string;

  /**
   * Config files, as a ConfigMap `node-agent-<name>` (or `adopt.configMapName`) and the volume `config`.
   * @default - none
   */
  readonly config?: AgentConfig;

  /**
   * The uid the containers run as (Linux). 0 (root) breaks "restricted".
   * @default 65534
   */
  readonly runAsUser?: number;

  /**
   * The gid the containers run as (Linux).
   * @default - 65534 when runAsUser is unset too; else none: the image's (most agents need gid 0 or the image's group)
   */
  readonly runAsGroup?: number;

  /**
   * The group that owns the pods' volumes (Linux).
   * @default - none
   */
  readonly fsGroup?: number;

  /**
   * The seccomp profile of the pod, which every container inherits unless it
   * sets its own (Linux). Anything but RuntimeDefault or Localhost breaks "restricted".
   * @default - { type: RuntimeDefault }
   */
  readonly seccompProfile?: kplus.SeccompProfile;

  /**
   * More groups of the containers' processes (Linux).
   * @default - none
   */
  readonly supplementalGroups?: number[];

  /**
   * Required when the agent's pod cannot meet Pod Security "restricted": the
   * level its namespace must enforce (exactly the strictest that admits the
   * pod, as the checks judge the rendered pod) and why. The DaemonSet then
   * carries a waiver annotation with this reason for each control its pod breaks.
   * @default - restricted, and an error if the pod is not
   */
  readonly podSecurity?: AgentPodSecurity;

  /**
   * Rules of the manifest checks, beyond Pod Security's, that the agent breaks
   * on purpose, by rule id, each with why (e.g. `{ 'hostnetwork-dns': 'resolves
   * nothing at start' }`): written as waiver annotations on the DaemonSet, so
   * the checks report them with the reason. Pod Security's waivers come from `podSecurity`.
   * @default - none
   */
  readonly waivers?: Record<string, string>;

  /**
   * The pods' PriorityClass, e.g. `system-node-critical`.
   * @default - none: the cluster's default priority
   */
  readonly priorityClassName?: string;

  /**
   * The pods' RuntimeClass, e.g. `nvidia`.
   * @default - the node's default runtime
   */
  readonly runtimeClassName?: string;

  /**
   * Secrets (of type kubernetes.io/dockerconfigjson) the kubelet pulls the images with.
   * @default - none
   */
  readonly imagePullSecrets?: string[];

  /**
   * Whether the containers of a pod see each other's processes.
   * @default false
   */
  readonly shareProcessNamespace?: boolean;

  /**
   * The pods' DNS: policy, nameservers, searches, options (cdk8s-plus' PodDnsProps).
   * @default - ClusterFirst, or ClusterFirstWithHostNet with hostNetwork
   */
  readonly dns?: kplus.PodDnsProps;

  /**
   * Pods the agent's pods must not share a node (or another topology domain) with.
   * @default - none
   */
  readonly podAntiAffinity?: PodAntiAffinityTerm[];

  /**
   * A metrics Service that selects the agent's pods, and optionally a ServiceMonitor or PodMonitor.
   * @default - none
   */
  readonly metrics?: AgentMetrics;

  /**
   * How a new version reaches the nodes.
   * @default AgentUpdateStrategy.rollingUpdate(): one node at a time, no surge
   */
  readonly updateStrategy?: AgentUpdateStrategy;

  /**
   * Extra labels on every object the agent creates and on its pods, never in
   * the selector; over the recommended `app.kubernetes.io/*` ones, but may not set the selector's keys (`app`, or those of `adopt.selector`).
   * @default - none
   */
  readonly labels?: Record<string, string>;

  /**
   * Labels on the agent's pods only (what a NetworkPolicy, a mesh or a log
   * shipper selects pods by), never on its other objects nor in the
   * selector; `labels` and the selector's win over them.
   * @default - none
   */
  readonly podLabels?: Record<string, string>;

  /**
   * The `app.kubernetes.io/version` label: the version of what the agent runs, a label value.
   * @default - the main container's image tag, when it is a label value
   */
  readonly version?: string;

  /**
   * The name of the agent's main container (not a sidecar's), whose image
   * tag is the version label.
   * @default - the container named like the agent, else the first one
   */
  readonly mainContainer?: string;

  /**
   * With `hostNetwork`: the node ports the agent binds beyond its containers'
   * `ports` (`[]`: none), so that a rolling update with surge can be judged
   * (a surge pod cannot bind a port the old pod holds). Required for a surge
   * on a host-network agent, unless the rule `hostport-surge` is waived with a reason.
   * @default - unknown
   */
  readonly boundHostPorts?: number[];

  /**
   * The `app.kubernetes.io/component` label: the agent's role in a larger application.
   * @default 'node-agent'
   */
  readonly component?: string;

  /**
   * The `app.kubernetes.io/part-of` label: the application the agent belongs to.
   * @default - the agent's name
   */
  readonly partOf?: string;

  /**
   * Extra annotations on the DaemonSet and its pods. Changing one rolls every
   * pod. May not set the annotations the agent owns (change-cause, config checksum, waivers, AppArmor).
   * @default - none
   */
  readonly annotations?: Record<string, string>;

  /**
   * The `kubernetes.io/change-cause` annotation of the DaemonSet, shown by `kubectl rollout history`.
   * @default - none
   */
  readonly changeCause?: string;

  /**
   * Seconds a new pod must be ready before it counts as available, 0 to 86400.
   * @default 0
   */
  readonly minReadySeconds?: number;

  /**
   * Seconds a pod may take to stop, 0 to 86400.
   * @default 30
   */
  readonly terminationGracePeriodSeconds?: number;

  /**
   * Old ControllerRevisions kept for `kubectl rollout undo`, 0 to 1000.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;

  /**
   * Roll the agent out in waves, in this order (e.g. `canary`, `early`, then
   * the rest): each wave a DaemonSet over its own nodes, with its own image,
   * version, command, env, config and update strategy; the ServiceAccount,
   * RBAC, CRDs and Services once, the Services selecting every wave's pods by
   * `node-reporter.dev/agent: <name>`. The last wave is this agent's DaemonSet
   * (its name, selector and ConfigMap); each earlier one is `<name>-<wave>`.
   * See docs/rolling-out-in-waves.md.
   * @default - one DaemonSet on every node of the policy
   */
  readonly waves?: AgentWave[];
}
