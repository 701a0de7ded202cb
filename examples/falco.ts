// Falco, as its official chart deploys it by default (falcosecurity/charts
// charts/falco 9.1.0, app 0.44.1; `helm install falco falcosecurity/falco
// -n falco --create-namespace`), built with props alone: the default driver
// kind `auto`, which the privileged init container falco-driver-loader turns
// into modern eBPF or a kernel module, the falcoctl init container and
// sidecar that install and follow the rules and the container plugin, and the
// namespaced Role the loader reads the config with. Where it differs from the
// chart, the library's defaults improve on it, or the difference is forced,
// and a comment says which.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AgentContainer, AgentMount, AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect,
} from 'node-reporter';

/** The chart's app version: the falco and driver loader images' tag, without a `v`. */
export const FALCO_VERSION = '0.44.1';

/** The falcoctl image's tag, pinned in the chart's values. */
export const FALCOCTL_VERSION = '0.13.0';

/** The chart's default falco.yaml, as its ConfigMap renders it (keys sorted by toYaml). */
export const FALCO_YAML = `append_output:
- suggested_output: true
base_syscalls:
  all: false
  custom_set: []
  repair: false
buffer_format_base64: false
buffered_outputs: false
capture:
  default_duration: 5000
  enabled: false
  mode: rules
  path_prefix: /tmp/falco
config_files:
- /etc/falco/config.d
engine:
  kind: modern_ebpf
  kmod:
    buf_size_preset: 4
    drop_failed_exit: false
  modern_ebpf:
    buf_size_preset: 4
    cpus_for_each_buffer: 2
    disable_iterators: false
    drop_failed_exit: false
falco_libs:
  snaplen: 80
  thread_table_auto_purging_interval_s: 300
  thread_table_auto_purging_thread_timeout_s: 300
  thread_table_size: 262144
file_output:
  enabled: false
  filename: ./events.txt
  keep_alive: false
http_output:
  ca_bundle: ""
  ca_cert: ""
  ca_path: /etc/falco/certs/
  client_cert: /etc/falco/certs/client/client.crt
  client_key: /etc/falco/certs/client/client.key
  compress_uploads: false
  echo: false
  enabled: false
  insecure: false
  keep_alive: false
  max_consecutive_timeouts: 5
  mtls: false
  url: ""
  user_agent: falcosecurity/falco
json_include_message_property: false
json_include_output_fields_property: true
json_include_output_property: true
json_include_tags_property: true
json_output: false
libs_logger:
  enabled: true
  severity: info
load_plugins:
- container
log_level: info
log_stderr: true
log_syslog: true
output_timeout: 2000
outputs_queue:
  capacity: 0
plugins:
- init_config:
    engines:
      bpm:
        enabled: true
      containerd:
        enabled: true
        sockets:
        - /run/host-containerd/containerd.sock
      cri:
        enabled: true
        sockets:
        - /run/containerd/containerd.sock
        - /run/crio/crio.sock
        - /run/k3s/containerd/containerd.sock
        - /run/host-containerd/containerd.sock
      docker:
        enabled: true
        sockets:
        - /var/run/docker.sock
      libvirt_lxc:
        enabled: true
      lxc:
        enabled: true
      podman:
        enabled: true
        sockets:
        - /run/podman/podman.sock
    hooks:
    - create
    label_max_len: 100
    with_size: false
  library_path: libcontainer.so
  name: container
plugins_hostinfo: true
priority: debug
program_output:
  enabled: false
  keep_alive: false
  program: 'jq ''{text: .output}'' | curl -d @- -X POST https://hooks.slack.com/services/XXX'
rule_matching: first
rules_files:
- /etc/falco/falco_rules.yaml
- /etc/falco/falco_rules.local.yaml
- /etc/falco/rules.d
stdout_output:
  enabled: true
syscall_event_drops:
  actions:
  - log
  - alert
  max_burst: 1
  rate: 0.03333
  simulate_drops: false
  threshold: 0.1
syscall_event_timeouts:
  max_consecutives: 1000
syslog_output:
  enabled: true
time_format_iso_8601: false
watch_config_files: true
webserver:
  enabled: true
  k8s_healthz_endpoint: /healthz
  listen_address: 0.0.0.0
  listen_port: 8765
  prometheus_metrics_enabled: false
  ssl_certificate: /etc/falco/falco.pem
  ssl_enabled: false
  threadiness: 0
`;

/** The chart's default falcoctl.yaml: the rules and the container plugin to install, the rules to follow. */
export const FALCOCTL_YAML = `artifact:
  allowedTypes:
  - rulesfile
  - plugin
  follow:
    every: 168h
    falcoversions: http://localhost:8765/versions
    pluginsDir: /plugins
    refs:
    - falco-rules:5
    rulesfilesDir: /rulesfiles
    stateDir: /artifactstate
  install:
    pluginsDir: /plugins
    refs:
    - falco-rules:5
    - ghcr.io/falcosecurity/plugins/plugin/container:0.7.1
    resolveDeps: true
    rulesfilesDir: /rulesfiles
    stateDir: /artifactstate
indexes:
- name: falcosecurity
  url: https://falcosecurity.github.io/falcoctl/index.yaml
`;

const FALCO_IMAGE = `docker.io/falcosecurity/falco:${FALCO_VERSION}`;
const DRIVER_LOADER_IMAGE = `docker.io/falcosecurity/falco-driver-loader:${FALCO_VERSION}`;
const FALCOCTL_IMAGE = `docker.io/falcosecurity/falcoctl:${FALCOCTL_VERSION}`;

/** The container runtimes' sockets the container plugin asks for metadata, in the chart's order (deduplicated). */
const CONTAINER_ENGINE_SOCKETS = [
  '/var/run/docker.sock',
  '/run/podman/podman.sock',
  '/run/host-containerd/containerd.sock',
  '/run/containerd/containerd.sock',
  '/run/crio/crio.sock',
  '/run/k3s/containerd/containerd.sock',
];

/** The falcoctl image's user (chainguard/static's nonroot). */
const FALCOCTL_UID = 65532;

/** Falco's webserver: health and the versions falcoctl follows. */
const WEB_PORT = 8765;

const healthz = (o: { initialDelay: number; period: number; failureThreshold: number }) => kplus.Probe.fromHttpGet('/healthz', {
  port: WEB_PORT,
  initialDelaySeconds: Duration.seconds(o.initialDelay),
  timeoutSeconds: Duration.seconds(5),
  periodSeconds: Duration.seconds(o.period),
  failureThreshold: o.failureThreshold,
});

/** falcoctl `artifact install` (init) or `artifact follow` (sidecar), with the chart's mounts. */
function falcoctl(verb: 'install' | 'follow'): AgentContainer {
  return {
    name: `falcoctl-artifact-${verb}`,
    image: FALCOCTL_IMAGE,
    args: ['artifact', verb, '--log-format=json'],
    // falcoctl keeps its index cache under $HOME/.config: on an emptyDir, since the root is read-only.
    env: { HOME: kplus.EnvValue.fromValue('/home/nonroot') },
    // Improved: the chart sets none; small, bounded ones.
    resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) } },
    // Improved: the chart's securityContext is empty (the image's uid 65532,
    // every default capability); here also drop ALL, no privilege escalation,
    // seccomp RuntimeDefault and a read-only root, with emptyDirs for the
    // only paths falcoctl writes outside its volumes (/tmp and $HOME).
    securityContext: { user: FALCOCTL_UID, group: FALCOCTL_UID },
    mounts: [
      { volume: 'plugins-install-dir', path: '/plugins' },
      { volume: 'rulesfiles-install-dir', path: '/rulesfiles' },
      { volume: 'falcoctl-config-volume', path: '/etc/falcoctl' },
      { volume: 'artifact-state-dir', path: '/artifactstate' },
      { volume: 'falcoctl-tmp', path: '/tmp' },
      { volume: 'falcoctl-home', path: '/home/nonroot' },
    ],
  };
}

/** The namespace `falco` with Falco on every node, the control planes included. */
export class FalcoChart extends Chart {
  /** Falco. */
  public readonly falco: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'falco' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'falco' });

    // The chart selects every node (no nodeSelector, no affinity) and
    // tolerates the control planes' taints, by key and effect without an
    // operator: Equal, with the empty value those taints have.
    const everyNode = new NodePolicy(this, 'EveryNode', {
      tolerations: [
        NodeToleration.equal('node-role.kubernetes.io/master', '', TaintEffect.NO_SCHEDULE),
        NodeToleration.equal('node-role.kubernetes.io/control-plane', '', TaintEffect.NO_SCHEDULE),
      ],
    });

    const socketVolume = (i: number) => `container-engine-socket-${i}`;
    const hostPath = (name: string, path: string) => AgentVolume.hostPath(name, path);
    const writable = (mount: AgentMount): AgentMount => ({ ...mount, readOnly: false });

    this.falco = new NodeAgent(this, 'Falco', {
      policy: everyNode,
      name: 'falco',
      containers: [{
        name: 'falco',
        image: FALCO_IMAGE,
        // The image has no entrypoint: the chart's args are the command.
        args: ['/usr/bin/falco'],
        env: {
          HOST_ROOT: kplus.EnvValue.fromValue('/host'),
          FALCO_HOSTNAME: DownwardApi.nodeName(),
          FALCO_K8S_NODE_NAME: DownwardApi.nodeName(),
        },
        ports: [{ number: WEB_PORT, name: 'web', protocol: kplus.Protocol.TCP }],
        // About 100 s to load the driver and the rules before liveness counts.
        startup: healthz({ initialDelay: 3, period: 5, failureThreshold: 20 }),
        liveness: healthz({ initialDelay: 0, period: 15, failureThreshold: 3 }),
        readiness: healthz({ initialDelay: 0, period: 15, failureThreshold: 3 }),
        resources: { cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(1000) }, memory: { request: Size.mebibytes(512), limit: Size.mebibytes(1024) } },
        // driver.kind auto: ready for a kernel module (the /dev/falco* devices)
        // or modern eBPF (BPF, PERFMON, SYS_RESOURCE, SYS_PTRACE, no AppArmor).
        // Improved: the root is read-only; Falco writes only to its emptyDirs.
        securityContext: { privileged: true },
        mounts: [
          // Improved: read-only; a Unix socket still connects on a read-only mount.
          ...CONTAINER_ENGINE_SOCKETS.map((socket, i) => ({ volume: socketVolume(i), path: `/host${socket}` })),
          // The rules and plugins falcoctl installs; they hide the image's own /etc/falco.
          { volume: 'rulesfiles-install-dir', path: '/etc/falco' },
          { volume: 'plugins-install-dir', path: '/usr/share/falco/plugins' },
          // The driver the loader chose, as a config file.
          { volume: 'specialized-falco-configs', path: '/etc/falco/config.d' },
          { volume: 'root-falco-fs', path: '/root/.falco' },
          // Improved: read-only (the chart mounts /proc writable whenever the
          // loader runs, and read-only when it does not; Falco only reads it).
          { volume: 'proc-fs', path: '/host/proc' },
          { volume: 'etc-fs', path: '/host/etc' },
          { volume: 'dev-fs', path: '/host/dev' },
          // Kernel module parameters.
          writable({ volume: 'sys-module-fs', path: '/sys/module' }),
          { volume: 'sys-fs', path: '/sys/kernel' },
          // The one file of the ConfigMap, inside the rules' emptyDir.
          { volume: 'config', path: '/etc/falco/falco.yaml', subPath: 'falco.yaml' },
        ],
      }, falcoctl('follow')],
      initContainers: [{
        name: 'falco-driver-loader',
        image: DRIVER_LOADER_IMAGE,
        args: ['auto'],
        env: {
          HOST_ROOT: kplus.EnvValue.fromValue('/host'),
          FALCOCTL_DRIVER_CONFIG_NAMESPACE: DownwardApi.podNamespace(),
          // The agent's ConfigMap, adopted as the chart's `falco`.
          FALCOCTL_DRIVER_CONFIG_CONFIGMAP: kplus.EnvValue.fromValue('falco'),
        },
        // Improved: the chart sets none. Bounded, with room to build the
        // kernel module when no prebuilt one matches the node's kernel.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(1024) } },
        // Loads the kernel module (or probes eBPF), so privileged; and
        // writable: it writes falcoctl's config and may build the module with
        // DKMS inside its image.
        securityContext: { privileged: true, readOnlyRootFilesystem: false },
        mounts: [
          { volume: 'root-falco-fs', path: '/root/.falco' },
          { volume: 'proc-fs', path: '/host/proc' },
          { volume: 'boot-fs', path: '/host/boot' },
          // Where the module is installed.
          writable({ volume: 'lib-modules', path: '/host/lib/modules' }),
          { volume: 'usr-fs', path: '/host/usr' },
          { volume: 'etc-fs', path: '/host/etc' },
          { volume: 'specialized-falco-configs', path: '/etc/falco/config.d' },
        ],
      }, falcoctl('install')],
      volumes: [
        // No type, as in the chart: every node lacks most of these sockets,
        // and a typed one would keep the pod from starting there.
        ...CONTAINER_ENGINE_SOCKETS.map((socket, i) => hostPath(socketVolume(i), socket)),
        AgentVolume.emptyDir('specialized-falco-configs'),
        AgentVolume.emptyDir('plugins-install-dir'),
        AgentVolume.emptyDir('rulesfiles-install-dir'),
        AgentVolume.emptyDir('artifact-state-dir'),
        AgentVolume.emptyDir('root-falco-fs'),
        // For falcoctl's read-only root (not in the chart).
        AgentVolume.emptyDir('falcoctl-tmp'),
        AgentVolume.emptyDir('falcoctl-home'),
        hostPath('boot-fs', '/boot'),
        hostPath('lib-modules', '/lib/modules'),
        hostPath('usr-fs', '/usr'),
        hostPath('etc-fs', '/etc'),
        hostPath('dev-fs', '/dev'),
        hostPath('sys-module-fs', '/sys/module'),
        hostPath('sys-fs', '/sys/kernel'),
        hostPath('proc-fs', '/proc'),
        AgentVolume.configMap('falcoctl-config-volume', 'falco', { items: [{ key: 'falcoctl.yaml', path: 'falcoctl.yaml' }] }),
      ],
      // Forced: one ConfigMap `falco` with both files and the volume
      // `config` (chart: ConfigMaps `falco` and `falco-falcoctl`, volume
      // `falco-yaml`). Its checksum rolls the pods, as the chart's checksum/config does.
      config: { data: { 'falco.yaml': FALCO_YAML, 'falcoctl.yaml': FALCOCTL_YAML } },
      // Falco and the loader read every process and load kernel code: root,
      // as the images run. falcoctl runs as its image's user.
      runAsUser: 0,
      runAsGroup: 0,
      // The chart's names of the objects the agent replaces.
      adopt: { serviceAccountName: 'falco', configMapName: 'falco', rbacNames: { role: 'falco', roleBinding: 'falco' } },
      serviceAccount: {
        // The loader reads falco.yaml from the ConfigMap to learn the engine.
        // The chart also grants list and update, which falcoctl does not use
        // today; kept, as the chart has them.
        namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'update'] }],
      },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "Falco loads a kernel driver and watches every process of the node through the host's /proc, /dev and /sys",
        writableHostPathsReason: 'its driver loader builds and loads the kernel module into /lib/modules and /sys/module',
      },
    });
    namespace.admit(this.falco);
  }
}
