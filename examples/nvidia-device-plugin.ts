// The NVIDIA device plugin, as its official chart deploys it by default
// (NVIDIA/k8s-device-plugin deployments/helm/nvidia-device-plugin 0.20.0,
// app 0.20.0; `helm template nvidia-device-plugin ... -n
// nvidia-device-plugin`, the namespace of its README), built with props
// alone: the plugin DaemonSet and the MPS control daemon DaemonSet the chart
// renders beside it. Where it differs from the chart, the library's defaults
// improve on it, or a comment says why the difference is forced.
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeRequirement, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect,
} from 'node-reporter';

/** The chart's app version; the image tag is `v` and it. */
export const NVIDIA_DEVICE_PLUGIN_VERSION = '0.20.0';

/** The chart's image, for the plugin and the MPS control daemon alike. */
export const NVIDIA_DEVICE_PLUGIN_IMAGE = `nvcr.io/nvidia/k8s-device-plugin:v${NVIDIA_DEVICE_PLUGIN_VERSION}`;

/** The node label gpu-feature-discovery sets on nodes whose GPUs are shared through MPS. */
export const MPS_CAPABLE_LABEL = 'nvidia.com/mps.capable';

/** The chart's labels on every object; informative here, the selectors are the library's `app`. */
const CHART_LABELS = { 'app.kubernetes.io/name': 'nvidia-device-plugin', 'app.kubernetes.io/instance': 'nvidia-device-plugin' };

/** The namespace `nvidia-device-plugin` with the device plugin on every GPU node, and the MPS control daemon where MPS is on. */
export class NvidiaDevicePluginChart extends Chart {
  /** The device plugin, which advertises `nvidia.com/gpu` to the kubelet. */
  public readonly plugin: NodeAgent;

  /** The MPS control daemon, on nodes labelled `nvidia.com/mps.capable=true` only. */
  public readonly mpsControlDaemon: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'nvidia-device-plugin' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'nvidia-device-plugin' });

    // The chart's node affinity: three OR'd terms, each a way a GPU node is
    // labelled (by node-feature-discovery's PCI vendor 10de or CPU vendor, or
    // by gpu-feature-discovery). The chart has no OS selector.
    const gpuNode = [
      [NodeRequirement.in('feature.node.kubernetes.io/pci-10de.present', 'true')],
      [NodeRequirement.in('feature.node.kubernetes.io/cpu-model.vendor_id', 'NVIDIA')],
      [NodeRequirement.in('nvidia.com/gpu.present', 'true')],
    ];
    // The chart's: CriticalAddonsOnly with any effect, and the GPU taint's NoSchedule.
    const tolerations = [NodeToleration.exists('CriticalAddonsOnly'), NodeToleration.exists('nvidia.com/gpu', TaintEffect.NO_SCHEDULE)];
    const gpuNodes = new NodePolicy(this, 'GpuNodes', { anyOf: gpuNode, tolerations });

    const mpsRoot = AgentVolume.hostPath('mps-root', '/run/nvidia/mps', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE });
    // The chart's: no type. The MPS control daemon's init container mounts a
    // tmpfs there; until it has, the plugin sees the plain directory.
    const mpsShm = AgentVolume.hostPath('mps-shm', '/run/nvidia/mps/shm');
    const gpuEnv = { NVIDIA_VISIBLE_DEVICES: kplus.EnvValue.fromValue('all'), NVIDIA_DRIVER_CAPABILITIES: kplus.EnvValue.fromValue('compute,utility') };

    this.plugin = new NodeAgent(this, 'Plugin', {
      policy: gpuNodes,
      name: 'nvidia-device-plugin',
      labels: CHART_LABELS,
      containers: [{
        name: 'nvidia-device-plugin-ctr',
        image: NVIDIA_DEVICE_PLUGIN_IMAGE,
        command: ['nvidia-device-plugin'],
        env: { MPS_ROOT: kplus.EnvValue.fromValue('/run/nvidia/mps'), ...gpuEnv },
        // Improved: the chart sets none.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) } },
        // The chart's allowPrivilegeEscalation false and drop ALL are the
        // library's defaults. Improved: a read-only root (the plugin writes
        // only its socket, CDI specs and MPS files, all on host paths).
        mounts: [
          // The kubelet's directory: the plugin creates its socket there and watches kubelet.sock.
          { volume: 'kubelet-device-plugins-dir', path: '/var/lib/kubelet/device-plugins', readOnly: false },
          // The MPS /dev/shm, to check the health of the MPS daemon.
          { volume: 'mps-shm', path: '/dev/shm', readOnly: false },
          { volume: 'mps-root', path: '/mps', readOnly: false },
          // Where CDI specs are written.
          { volume: 'cdi-root', path: '/var/run/cdi', readOnly: false },
        ],
      }],
      volumes: [
        // Directory, not ...OrCreate: the directory must be the kubelet's.
        AgentVolume.hostPath('kubelet-device-plugins-dir', '/var/lib/kubelet/device-plugins', { type: kplus.HostPathVolumeType.DIRECTORY }),
        mpsRoot,
        mpsShm,
        AgentVolume.hostPath('cdi-root', '/var/run/cdi', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
      ],
      // The image runs as root (USER 0:0): the kubelet's device-plugins directory is root's.
      runAsUser: 0,
      // Improved: no ServiceAccount of its own and no API token, the library's
      // default. The chart's (nodes get/list/watch) serves only its
      // config-manager sidecar, which it renders only with a config; no
      // container of the default render talks to the API.
      priorityClassName: 'system-node-critical',
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: 'the NVIDIA device plugin registers with the kubelet through its socket directory and shares MPS and CDI files on the host, as root',
        writableHostPathsReason: "it writes its registration socket into the kubelet's device-plugins directory",
      },
    });

    // The chart renders the MPS control daemon by default too. It runs only
    // where MPS sharing is configured (the label gpu-feature-discovery sets),
    // which is nowhere on a default install; it costs a policy and an agent,
    // so it is here. Improved: its selector `app` is its own (the chart's two
    // DaemonSets share one selector).
    const mpsNodes = new NodePolicy(this, 'MpsNodes', { matchLabels: { [MPS_CAPABLE_LABEL]: 'true' }, anyOf: gpuNode, tolerations });
    this.mpsControlDaemon = new NodeAgent(this, 'MpsControlDaemon', {
      policy: mpsNodes,
      name: 'nvidia-device-plugin-mps-control-daemon',
      labels: CHART_LABELS,
      initContainers: [{
        name: 'mps-control-daemon-mounts',
        image: NVIDIA_DEVICE_PLUGIN_IMAGE,
        command: ['mps-control-daemon', 'mount-shm'],
        // It mounts a tmpfs at /run/nvidia/mps/shm on the host: Bidirectional,
        // which the API server allows only to a privileged container.
        // Improved: sized (the chart sets nothing): one mount needs little.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } },
        securityContext: { privileged: true },
        mounts: [{ volume: 'mps-root', path: '/mps', readOnly: false, propagation: kplus.MountPropagation.BIDIRECTIONAL }],
      }],
      containers: [{
        name: 'mps-control-daemon-ctr',
        image: NVIDIA_DEVICE_PLUGIN_IMAGE,
        command: ['mps-control-daemon'],
        env: { NODE_NAME: DownwardApi.nodeName(), ...gpuEnv },
        // Improved: the chart sets none. Generous: the MPS servers it starts run in this container.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(512) } },
        // The chart's privileged, for nvidia-cuda-mps-control on the GPUs.
        // Improved: a read-only root (pipes, logs and the .started file go under /mps).
        securityContext: { privileged: true },
        mounts: [
          { volume: 'mps-shm', path: '/dev/shm', readOnly: false },
          { volume: 'mps-root', path: '/mps', readOnly: false },
        ],
      }],
      volumes: [mpsRoot, mpsShm],
      // The MPS server finds its own PID through /proc.
      hostPID: true,
      runAsUser: 0,
      priorityClassName: 'system-node-critical',
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: 'the MPS control daemon shares GPUs between pods: privileged, host PID, and a tmpfs it mounts on the host for their shared memory',
      },
    });

    namespace.admit(this.plugin, this.mpsControlDaemon);
  }
}
