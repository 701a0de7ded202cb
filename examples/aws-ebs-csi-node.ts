// The AWS EBS CSI driver's node plugin, as its official chart deploys it by
// default (kubernetes-sigs/aws-ebs-csi-driver charts/aws-ebs-csi-driver
// 2.64.0, app 1.64.0; `helm template aws-ebs-csi-driver ... -n kube-system`),
// built with props alone: both node DaemonSets the chart renders by default,
// `ebs-csi-node` (Linux) and `ebs-csi-node-windows`, with their shared
// ServiceAccount and ClusterRole. The controller Deployment, its RBAC and the
// CSIDriver object belong to the driver's controller half (the chart's
// nodeComponentOnly install leaves them out too) and stay out. Where it
// differs from the chart, the library's defaults improve on it, or the
// difference is forced, and a comment says which.
//
// The chart's ServiceAccount `ebs-csi-node-sa`, ClusterRole
// `ebs-csi-node-role` and binding `ebs-csi-node-getter-binding` are adopted.
// Improved: the selector is `app: <name>` for each DaemonSet (the chart
// gives both one selector, which only their nodeSelectors keep apart: two
// DaemonSet controllers that select each other's pods); the Linux one keeps
// the chart's `app: ebs-csi-node`, so it applies over a Helm install in place.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AgentContainer, AgentUpdateStrategy, AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeRequirement, NodeToleration, PodSecurityLevel, TerminationMessagePolicy,
} from 'node-reporter';

/** The chart's node ServiceAccount, which both DaemonSets run as. */
const EBS_CSI_NODE_SERVICE_ACCOUNT = 'ebs-csi-node-sa';

/** The chart's app version: the plugin image's tag, with a `v`. */
export const EBS_CSI_DRIVER_VERSION = '1.64.0';

const PLUGIN_IMAGE = `public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v${EBS_CSI_DRIVER_VERSION}`;
const REGISTRAR_IMAGE = 'public.ecr.aws/csi-components/csi-node-driver-registrar:v2.17.0-eksbuild.5';
const LIVENESS_PROBE_IMAGE = 'public.ecr.aws/csi-components/livenessprobe:v2.19.0-eksbuild.5';

/** The chart's informative labels; its selector labels are the library's `app: <name>`. */
const LABELS = { 'app.kubernetes.io/component': 'csi-driver', 'app.kubernetes.io/part-of': 'aws-ebs-csi-driver' };

/** The chart's node.affinity: no EKS Fargate, Auto Mode or hybrid nodes (they bring their own storage). */
const NOT_ON_EKS_MANAGED_COMPUTE = NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate', 'auto', 'hybrid');

/** The plugin's health endpoint, as the chart probes it (by port name; cdk8s-plus probes take its number). */
const pluginLiveness = () => kplus.Probe.fromHttpGet('/healthz', {
  port: 9808, initialDelaySeconds: Duration.seconds(10), timeoutSeconds: Duration.seconds(3), periodSeconds: Duration.seconds(10), failureThreshold: 5,
});
const pluginReadiness = () => kplus.Probe.fromHttpGet('/healthz', {
  port: 9808, initialDelaySeconds: Duration.seconds(0), timeoutSeconds: Duration.seconds(3), periodSeconds: Duration.seconds(5), failureThreshold: 3,
});
const registrarLiveness = () => kplus.Probe.fromHttpGet('/healthz', {
  port: 9809, initialDelaySeconds: Duration.seconds(30), periodSeconds: Duration.seconds(90), timeoutSeconds: Duration.seconds(15),
});

/** The chart's resources: requests only for CPU, memory requests and limits. */
const resources = (cpuMillis: number, requestMi: number, limitMi: number): kplus.ContainerResources => ({
  cpu: { request: kplus.Cpu.millis(cpuMillis) },
  memory: { request: Size.mebibytes(requestMi), limit: Size.mebibytes(limitMi) },
});

/** The containers both DaemonSets share, given what differs on Windows. */
function containers(os: {
  readonly csiEndpoint: string;
  readonly registrarAddress: string;
  readonly registrationSocket: string;
  readonly pluginArgs: string[];
  readonly sidecarMemoryMi: number;
  readonly plugin: Partial<AgentContainer>;
  readonly registrar: Partial<AgentContainer>;
  readonly livenessProbe: Partial<AgentContainer>;
}): AgentContainer[] {
  return [{
    name: 'ebs-plugin',
    image: PLUGIN_IMAGE,
    args: ['node', '--endpoint=$(CSI_ENDPOINT)', ...os.pluginArgs, '--logging-format=text', '--v=2'],
    env: { CSI_ENDPOINT: kplus.EnvValue.fromValue(os.csiEndpoint), CSI_NODE_NAME: DownwardApi.nodeName() },
    ports: [{ number: 9808, name: 'healthz', protocol: kplus.Protocol.TCP }],
    liveness: pluginLiveness(),
    readiness: pluginReadiness(),
    resources: resources(10, 40, 256),
    // On a draining node, waits for its volumes to detach before the pod stops.
    // The chart gives the Windows plugin this Linux path too; kept as it is.
    lifecycle: { preStop: kplus.Handler.fromCommand(['/bin/aws-ebs-csi-driver', 'pre-stop-hook']) },
    terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
    ...os.plugin,
  }, {
    name: 'node-driver-registrar',
    image: REGISTRAR_IMAGE,
    args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--http-endpoint=0.0.0.0:9809', '--v=2'],
    env: { ADDRESS: kplus.EnvValue.fromValue(os.registrarAddress), DRIVER_REG_SOCK_PATH: kplus.EnvValue.fromValue(os.registrationSocket) },
    ports: [{ number: 9809, name: 'healthz-ndr' }],
    liveness: registrarLiveness(),
    resources: resources(10, os.sidecarMemoryMi, os.sidecarMemoryMi),
    terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
    ...os.registrar,
  }, {
    name: 'liveness-probe',
    image: LIVENESS_PROBE_IMAGE,
    resources: resources(10, os.sidecarMemoryMi, os.sidecarMemoryMi),
    terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
    ...os.livenessProbe,
  }];
}

/**
 * kube-system with the EBS CSI node plugin on every Linux and every Windows
 * node (but EKS Fargate, Auto Mode and hybrid ones), whatever their taints.
 * kube-system is the cluster's: no Namespace object.
 */
export class AwsEbsCsiNodeChart extends Chart {
  /** The Linux node plugin, `ebs-csi-node`. */
  public readonly linux: NodeAgent;

  /** The Windows node plugin, `ebs-csi-node-windows`. */
  public readonly windows: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'kube-system' });

    // node.tolerateAllTaints: a CSI node plugin must run wherever a pod may mount a volume.
    const tolerations = [NodeToleration.everything()];
    const linuxNodes = new NodePolicy(this, 'LinuxNodes', { operatingSystem: 'linux', matchExpressions: [NOT_ON_EKS_MANAGED_COMPUTE], tolerations });
    const windowsNodes = new NodePolicy(this, 'WindowsNodes', { operatingSystem: 'windows', matchExpressions: [NOT_ON_EKS_MANAGED_COMPUTE], tolerations });

    // What both DaemonSets take from the chart.
    const common = {
      labels: LABELS,
      priorityClassName: 'system-node-critical',
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.percent(10) }),
      terminationGracePeriodSeconds: 30,
      revisionHistoryLimit: 10,
    };
    const writable = { readOnly: false };

    this.linux = new NodeAgent(this, 'Linux', {
      policy: linuxNodes,
      name: 'ebs-csi-node',
      ...common,
      containers: containers({
        csiEndpoint: 'unix:/csi/csi.sock',
        registrarAddress: '/csi/csi.sock',
        registrationSocket: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock',
        pluginArgs: ['--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/'],
        sidecarMemoryMi: 32,
        plugin: {
          // Formats and mounts block devices; Bidirectional propagation needs it too.
          securityContext: { privileged: true },
          mounts: [
            // The plugin's mounts must reach the kubelet and the pods that use the volume.
            { volume: 'kubelet-dir', path: '/var/lib/kubelet', propagation: kplus.MountPropagation.BIDIRECTIONAL, ...writable },
            { volume: 'plugin-dir', path: '/csi', ...writable },
            { volume: 'device-dir', path: '/dev', ...writable },
          ],
        },
        registrar: {
          // Improved: the chart sets allowPrivilegeEscalation false and a
          // read-only root; the library also drops ALL capabilities.
          mounts: [
            { volume: 'plugin-dir', path: '/csi', ...writable },
            { volume: 'registration-dir', path: '/registration', ...writable },
            // The chart hides the host's plugin dir from the registrar with an emptyDir.
            { volume: 'probe-dir', path: '/var/lib/kubelet/plugins/ebs.csi.aws.com/' },
          ],
        },
        livenessProbe: {
          args: ['--csi-address=/csi/csi.sock'],
          mounts: [{ volume: 'plugin-dir', path: '/csi', ...writable }],
        },
      }),
      volumes: [
        AgentVolume.hostPath('kubelet-dir', '/var/lib/kubelet', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.hostPath('device-dir', '/dev', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.emptyDir('probe-dir'),
      ],
      // The chart's node.securityContext: root binds the registration and driver sockets.
      runAsUser: 0,
      runAsGroup: 0,
      fsGroup: 0,
      // Improved: seccomp RuntimeDefault for the pod (the sidecars; the privileged plugin runs unconfined anyway).
      adopt: { serviceAccountName: EBS_CSI_NODE_SERVICE_ACCOUNT, rbacNames: { clusterRole: 'ebs-csi-node-role', clusterRoleBinding: 'ebs-csi-node-getter-binding' } },
      serviceAccount: {
        // The plugin reads its node and volume attachments, and removes the
        // ebs.csi.aws.com/agent-not-ready taint from its node once it is ready.
        rules: [
          { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
          { apiGroups: [''], resources: ['nodes'], verbs: ['patch', 'list', 'watch'] },
          { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['get'] },
        ],
      },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "a CSI node plugin formats and mounts the node's block devices and shares its mounts with the kubelet",
        writableHostPathsReason: "a CSI node plugin writes its socket and mounts under the kubelet's directory and formats devices in /dev",
      },
    });

    // Not a host process (node.windowsHostProcess is unset): a plain Windows
    // container that reaches the host through csi-proxy's named pipes.
    // Improved: spec.os.name windows, which the chart leaves unset, so the API
    // server refuses Linux-only fields and Pod Security judges it as Windows.
    this.windows = new NodeAgent(this, 'Windows', {
      policy: windowsNodes,
      name: 'ebs-csi-node-windows',
      ...common,
      containers: containers({
        csiEndpoint: 'unix:/csi/csi.sock',
        registrarAddress: 'unix:/csi/csi.sock',
        registrationSocket: 'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com\\csi.sock',
        pluginArgs: [],
        sidecarMemoryMi: 150,
        plugin: {
          // The chart's only Windows security field: the plugin formats and
          // mounts disks as ContainerAdministrator, so it is not non-root (the
          // library's Windows default).
          securityContext: { windowsOptions: { runAsUserName: 'ContainerAdministrator' }, ensureNonRoot: false },
          mounts: [
            { volume: 'kubelet-dir', path: 'C:\\var\\lib\\kubelet', propagation: kplus.MountPropagation.NONE, ...writable },
            { volume: 'plugin-dir', path: 'C:\\csi', ...writable },
            // csi-proxy on the host does the disk, volume and filesystem work.
            { volume: 'csi-proxy-disk-pipe', path: '\\\\.\\pipe\\csi-proxy-disk-v1', ...writable },
            { volume: 'csi-proxy-volume-pipe', path: '\\\\.\\pipe\\csi-proxy-volume-v1', ...writable },
            { volume: 'csi-proxy-filesystem-pipe', path: '\\\\.\\pipe\\csi-proxy-filesystem-v1', ...writable },
          ],
        },
        registrar: {
          // The chart sets nothing: the sidecars run as their images' user,
          // which this example cannot check, so it does not require non-root.
          securityContext: { ensureNonRoot: false },
          mounts: [
            { volume: 'plugin-dir', path: 'C:\\csi', ...writable },
            { volume: 'registration-dir', path: 'C:\\registration', ...writable },
            { volume: 'probe-dir', path: 'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com' },
          ],
        },
        livenessProbe: {
          securityContext: { ensureNonRoot: false },
          args: ['--csi-address=unix:/csi/csi.sock'],
          mounts: [{ volume: 'plugin-dir', path: 'C:\\csi', ...writable }],
        },
      }),
      volumes: [
        AgentVolume.hostPath('kubelet-dir', 'C:\\var\\lib\\kubelet', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.hostPath('plugin-dir', 'C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('registration-dir', 'C:\\var\\lib\\kubelet\\plugins_registry', { type: kplus.HostPathVolumeType.DIRECTORY }),
        // A named pipe is no hostPath type: no check, as in the chart.
        AgentVolume.hostPath('csi-proxy-disk-pipe', '\\\\.\\pipe\\csi-proxy-disk-v1'),
        AgentVolume.hostPath('csi-proxy-volume-pipe', '\\\\.\\pipe\\csi-proxy-volume-v1'),
        AgentVolume.hostPath('csi-proxy-filesystem-pipe', '\\\\.\\pipe\\csi-proxy-filesystem-v1'),
        AgentVolume.emptyDir('probe-dir'),
      ],
      // The Linux agent's ServiceAccount: the chart's two DaemonSets share one.
      serviceAccountName: EBS_CSI_NODE_SERVICE_ACCOUNT,
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "a CSI node plugin mounts volumes into the kubelet's directories and talks to csi-proxy over the host's named pipes",
      },
    });
  }
}
