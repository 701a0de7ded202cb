// node-inventory: the project's own small agent, not a chart reproduction.
// It is built on busybox so that it runs on the e2e node (where nothing can
// be pulled and only busybox, pause and node-exporter exist), and it uses the
// parts a real agent combines: an init container that prepares a host
// directory as root with one capability, a main container that writes into it
// as nobody, a config whose checksum rolls the pods, and RBAC of every shape
// (a rule by resource name, a non-resource URL, a namespaced Role, a binding
// to a built-in ClusterRole) for the e2e to judge with the real authorizer.
//
// Every INTERVAL seconds it writes what it sees of its node into
// /var/lib/node-inventory/node.txt on the host. busybox speaks no TLS to the
// API server, so the shell never calls the API: the rules are those a fuller
// inventory would need (its node, the workloads on it, a lock), and the token
// is not mounted.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, PodSecurityLevel, PodSecurityNamespace, TerminationMessagePolicy } from 'node-reporter';

/** Sized as measured: a busybox shell loop stays far below 32Mi (an agent without resources gets requests only, and the checks warn). */
const BUSYBOX_RESOURCES: kplus.ContainerResources = { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } };

/** The agent's namespace, its own. */
export const NODE_INVENTORY_NAMESPACE = 'node-inventory';

/** The host directory the inventory is written into; the kubelet creates it when it is missing. */
export const NODE_INVENTORY_HOST_PATH = '/var/lib/node-inventory';

/** The default inventory.conf: shell variables the agent sources at start. */
export const NODE_INVENTORY_CONF = `# Seconds between two inventories.
INTERVAL=30
# Host-wide files of /proc copied into the inventory.
PROC_FILES="loadavg meminfo uptime"
`;

/** Props of {@link NodeInventoryChart}. */
export interface NodeInventoryChartProps {
  /**
   * The inventory.conf; a change rolls the pods (its checksum is on the pod template).
   * @default NODE_INVENTORY_CONF
   */
  readonly config?: string;

  /**
   * Whether the inventory also covers the workloads on the node: the
   * built-in `view` ClusterRole (read-only, Secrets excluded), bound cluster-wide.
   * @default true
   */
  readonly workloads?: boolean;

  /**
   * Whether one node at a time takes the full inventory, locked as kured
   * locks reboots: an annotation on its own DaemonSet, which a Role lets it
   * update and patch (that DaemonSet only, by name).
   * @default true
   */
  readonly lock?: boolean;
}

// Written atomically (a temporary file, then mv), so that a reader never sees half of one.
// `sleep & wait` keeps the shell (PID 1) able to act on SIGTERM at once.
const SCRIPT = `set -eu
. /etc/node-inventory/inventory.conf
trap 'exit 0' TERM
while true; do
  {
    echo "node: $NODE_NAME"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "kernel: $(uname -srm)"
    for f in $PROC_FILES; do echo "--- /proc/$f"; head -n 5 "/proc/$f"; done
  } > /data/node.txt.tmp
  mv /data/node.txt.tmp /data/node.txt
  sleep "$INTERVAL" & wait $!
done
`;

/** The namespace `node-inventory` with the inventory agent on every Linux node. */
export class NodeInventoryChart extends Chart {
  /** The inventory agent. */
  public readonly inventory: NodeAgent;

  constructor(scope: Construct, id: string, props: NodeInventoryChartProps = {}) {
    super(scope, id, { namespace: NODE_INVENTORY_NAMESPACE });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: NODE_INVENTORY_NAMESPACE });

    this.inventory = new NodeAgent(this, 'NodeInventory', {
      policy: new NodePolicy(this, 'Linux', { operatingSystem: 'linux' }),
      name: 'node-inventory',
      // busybox's tag is not the agent's version.
      version: '0.1.0',
      component: 'inventory',
      initContainers: [{
        name: 'prepare',
        image: 'busybox:1.36',
        // The kubelet creates the directory as root, 0755: hand it to nobody,
        // who writes into it. Root with CHOWN alone, every other capability dropped.
        command: ['sh', '-c', 'chown 65534:65534 /data'],
        resources: BUSYBOX_RESOURCES,
        securityContext: { user: 0, group: 0, capabilities: { add: [kplus.Capability.CHOWN] } },
        // A failure's reason (e.g. chown's) shows in the pod's status, not only in its log.
        terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
        mounts: [{ volume: 'data', path: '/data', readOnly: false }],
      }],
      containers: [{
        name: 'inventory',
        image: 'busybox:1.36',
        command: ['sh', '-c', SCRIPT],
        resources: BUSYBOX_RESOURCES,
        env: { NODE_NAME: DownwardApi.nodeName() },
        terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
        // Ready once the first inventory is written.
        readiness: kplus.Probe.fromCommand(['test', '-s', '/data/node.txt'], { periodSeconds: Duration.seconds(2) }),
        mounts: [{ volume: 'data', path: '/data', readOnly: false }],
      }],
      volumes: [AgentVolume.hostPath('data', NODE_INVENTORY_HOST_PATH, { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE })],
      config: { data: { 'inventory.conf': props.config ?? NODE_INVENTORY_CONF }, mountPath: '/etc/node-inventory' },
      // The shell stops at once on SIGTERM; nothing is left to flush.
      terminationGracePeriodSeconds: 5,
      serviceAccount: {
        rules: [
          // Its node's labels, capacity and conditions.
          { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
          // The API server's build (kubernetes_build_info), beside the node's kubelet version.
          { nonResourceURLs: ['/metrics'], verbs: ['get'] },
        ],
        // The lock: update and patch its own DaemonSet only, in its own namespace.
        ...(props.lock ?? true ? { namespacedRules: [{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['node-inventory'], verbs: ['update', 'patch'] }] } : {}),
        // What runs on the node, read-only.
        ...(props.workloads ?? true ? { clusterRoles: ['view'] } : {}),
        automountToken: false,
      },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: 'node-inventory writes its inventory into a host directory (hostPath), which its init container hands to nobody as root with CHOWN',
      },
    });
    namespace.admit(this.inventory);
  }
}
