// The Cilium agent, as the official chart deploys it by default (cilium/cilium
// install/kubernetes/cilium 1.19.5, app 1.19.5; `helm template cilium ... -n
// kube-system --kube-version 1.28`), built with props alone: the agent
// DaemonSet, its ServiceAccount and RBAC, its ConfigMap cilium-config and the
// hubble-peer Service. Not here: the cilium-envoy DaemonSet and the operator
// Deployment (other workloads of the chart), and the Secrets cilium-ca and
// hubble-server-certs, which the chart generates anew on every render (their
// volumes are optional, so the agent starts without them). Where it differs
// from the chart, the library's defaults improve on it, or a comment says
// why the difference is forced.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AgentContainer, AgentProbe, AgentSecurityContext, AgentUpdateStrategy, AgentVolume, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, PodSecurityNamespace,
  ProjectedSource, TerminationMessagePolicy,
} from 'node-reporter';
import { CILIUM_CONFIG } from './cilium-config';

/** The chart's app version. */
export const CILIUM_VERSION = '1.19.5';

/** The chart's image, by tag and digest, for the agent and its six init containers alike. */
export const CILIUM_IMAGE = `quay.io/cilium/cilium:v${CILIUM_VERSION}@sha256:20fbbc14ac20b55a292c0dcda5571bf31cde30a7dbc68c29db3e709390ab0732`;

/** The agent's postStart hook: removes the AWS VPC CNI's SNAT rules, if any (the chart renders it on every cluster). */
export const CILIUM_POST_START = `set -o errexit
set -o pipefail
set -o nounset

# When running in AWS ENI mode, it's likely that 'aws-node' has
# had a chance to install SNAT iptables rules. These can result
# in dropped traffic, so we should attempt to remove them.
# We do it using a 'postStart' hook since this may need to run
# for nodes which might have already been init'ed but may still
# have dangling rules. This is safe because there are no
# dependencies on anything that is part of the startup script
# itself, and can be safely run multiple times per node (e.g. in
# case of a restart).
if [[ "$(iptables-save | grep -E -c 'AWS-SNAT-CHAIN|AWS-CONNMARK-CHAIN')" != "0" ]];
then
    echo 'Deleting iptables rules created by the AWS CNI VPC plugin'
    iptables-save | grep -E -v 'AWS-SNAT-CHAIN|AWS-CONNMARK-CHAIN' | iptables-restore
fi
echo 'Done!'
`;

/** The chart's labels of the agent's pods; `k8s-app: cilium` is what the chart's Services, anti-affinity and cilium-envoy's pod affinity select. */
export const CILIUM_LABELS = { 'k8s-app': 'cilium', 'app.kubernetes.io/part-of': 'cilium', 'app.kubernetes.io/name': 'cilium-agent' };

const { Capability: Cap } = kplus;

/** The agent's capabilities: routes and sockets, bpf() and memlock, kernel modules, and the files of its host paths. */
const AGENT_CAPABILITIES = [
  Cap.CHOWN, Cap.KILL, Cap.NET_ADMIN, Cap.NET_RAW, Cap.IPC_LOCK, Cap.SYS_MODULE, Cap.SYS_ADMIN, Cap.SYS_RESOURCE, Cap.DAC_OVERRIDE,
  Cap.FOWNER, Cap.SETGID, Cap.SETUID, Cap.SYSLOG,
];

/** nsenter into PID 1's mount and cgroup namespaces, through the host's /proc. */
const NSENTER_CAPABILITIES = [Cap.SYS_ADMIN, Cap.SYS_CHROOT, Cap.SYS_PTRACE];

/** The chart's SELinux labels on five of the seven containers: spc_t stands in for privileged on SELinux hosts. */
const SPC_T = { level: 's0', type: 'spc_t' };

/**
 * What every container keeps of the chart: a writable root. Cilium has never
 * run with a read-only one (its chart offers none); the agent writes beneath
 * its root (e.g. gops' config under $HOME), and a CNI agent that does not
 * start leaves the node without pod networking. Seccomp is the pod's
 * (Unconfined); drop ALL and the added capabilities are each container's.
 */
function securityContext(sc: AgentSecurityContext): AgentSecurityContext {
  return { readOnlyRootFilesystem: false, ...sc };
}

/** The Downward API variables the chart gives the agent and its config init container. */
function nodeAndNamespace(): Record<string, kplus.EnvValue> {
  return {
    K8S_NODE_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_NAME, { apiVersion: 'v1' }),
    CILIUM_K8S_NAMESPACE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE, { apiVersion: 'v1' }),
  };
}

/**
 * Improved: the chart sets no resources (but on install-cni-binaries);
 * requests let the scheduler count the agent, and memory limits bound what
 * it takes of every node. Generous ones: an OOM-killed CNI agent stops the
 * node's pod networking. The agent's GOMEMLIMIT follows its limit (the
 * chart's, without one, is the node's allocatable memory).
 */
const INIT_RESOURCES: kplus.ContainerResources = { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) } };

/** The Cilium agent in kube-system on every Linux node, whatever its taints. */
export class CiliumChart extends Chart {
  /** The agent. */
  public readonly agent: NodeAgent;

  constructor(scope: Construct, id: string) {
    // kube-system is the cluster's: the chart deploys into it and owns no Namespace.
    super(scope, id, { namespace: 'kube-system' });
    // The chart creates the namespace of the Secrets TLS interception reads;
    // no pod runs in it, so it can enforce "restricted".
    new PodSecurityNamespace(this, 'CiliumSecrets', { name: 'cilium-secrets' });

    // A CNI agent must run on every node: the chart tolerates every taint.
    const linux = new NodePolicy(this, 'Linux', { operatingSystem: 'linux', tolerations: [NodeToleration.everything()] });

    const ciliumConfig = kplus.ConfigMap.fromConfigMapName(this, 'CiliumConfigRef', 'cilium-config');
    const fromConfig = (key: string) => kplus.EnvValue.fromConfigMap(ciliumConfig, key, { optional: true });
    const hostPath = (name: string, path: string, type?: kplus.HostPathVolumeType) => AgentVolume.hostPath(name, path, { type });
    const { DIRECTORY, DIRECTORY_OR_CREATE, FILE_OR_CREATE } = kplus.HostPathVolumeType;
    const { BIDIRECTIONAL, HOST_TO_CONTAINER } = kplus.MountPropagation;
    const fallbackToLogs = TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR;

    // The chart probes the port by name; the probes take its number.
    const healthz = (headers: { name: string; value: string }[], timings: Partial<kplus.HttpGetProbeOptions>) => AgentProbe.httpGet('/healthz', {
      host: '127.0.0.1', port: 9879, scheme: kplus.ConnectionScheme.HTTP, headers, ...timings,
    });
    const brief = { name: 'brief', value: 'true' };

    const agent: AgentContainer = {
      name: 'cilium-agent',
      image: CILIUM_IMAGE,
      command: ['cilium-agent'],
      args: ['--config-dir=/tmp/cilium/config-map'],
      startup: healthz([brief], { failureThreshold: 300, periodSeconds: Duration.seconds(2), successThreshold: 1, initialDelaySeconds: Duration.seconds(5) }),
      // Not restarted while the API server is away.
      liveness: healthz([brief, { name: 'require-k8s-connectivity', value: 'false' }], {
        periodSeconds: Duration.seconds(30), successThreshold: 1, failureThreshold: 10, timeoutSeconds: Duration.seconds(5),
      }),
      readiness: healthz([brief], { periodSeconds: Duration.seconds(30), successThreshold: 1, failureThreshold: 3, timeoutSeconds: Duration.seconds(5) }),
      env: {
        ...nodeAndNamespace(),
        CILIUM_CLUSTERMESH_CONFIG: kplus.EnvValue.fromValue('/var/lib/cilium/clustermesh/'),
        GOMEMLIMIT: kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_LIMIT, { divisor: '1' }),
        KUBE_CLIENT_BACKOFF_BASE: kplus.EnvValue.fromValue('1'),
        KUBE_CLIENT_BACKOFF_DURATION: kplus.EnvValue.fromValue('120'),
      },
      lifecycle: {
        postStart: kplus.Handler.fromCommand(['bash', '-c', CILIUM_POST_START]),
        // The CNI configuration goes with the agent.
        preStop: kplus.Handler.fromCommand(['/cni-uninstall.sh']),
      },
      // With host networking each is also the host port, as in the chart.
      ports: [
        { number: 9879, name: 'health', protocol: kplus.Protocol.TCP },
        { number: 4244, name: 'peer-service', protocol: kplus.Protocol.TCP },
      ],
      // See INIT_RESOURCES.
      resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(512), limit: Size.gibibytes(2) } },
      // Root (the image's), the chart's capabilities over drop ALL, spc_t, and
      // AppArmor unconfined (a pod annotation on Kubernetes 1.28): the agent
      // mounts filesystems and writes /proc/sys. Privilege escalation stays on
      // (the chart's default, and SYS_ADMIN's).
      securityContext: securityContext({ capabilities: { add: AGENT_CAPABILITIES }, seLinuxOptions: SPC_T, appArmorProfile: 'unconfined' }),
      terminationMessagePolicy: fallbackToLogs,
      mounts: [
        { volume: 'envoy-sockets', path: '/var/run/cilium/envoy/sockets', readOnly: false },
        // Writable sysctls without privileged.
        { volume: 'host-proc-sys-net', path: '/host/proc/sys/net', readOnly: false },
        { volume: 'host-proc-sys-kernel', path: '/host/proc/sys/kernel', readOnly: false },
        // bpffs, which mount-bpf-fs mounted on the host.
        { volume: 'bpf-maps', path: '/sys/fs/bpf', readOnly: false, propagation: HOST_TO_CONTAINER },
        // State across restarts and upgrades.
        { volume: 'cilium-run', path: '/var/run/cilium', readOnly: false },
        // The pods' network namespaces, bind-mounted on the host.
        { volume: 'cilium-netns', path: '/var/run/cilium/netns', readOnly: false, propagation: HOST_TO_CONTAINER },
        // The agent writes 05-cilium.conflist there.
        { volume: 'etc-cni-netd', path: '/host/etc/cni/net.d', readOnly: false },
        { volume: 'clustermesh-secrets', path: '/var/lib/cilium/clustermesh' },
        { volume: 'lib-modules', path: '/lib/modules' },
        // Shared with kube-proxy.
        { volume: 'xtables-lock', path: '/run/xtables.lock', readOnly: false },
        { volume: 'hubble-tls', path: '/var/lib/cilium/tls/hubble' },
        { volume: 'tmp', path: '/tmp' },
      ],
    };

    const initContainers: AgentContainer[] = [
      {
        // Builds the agent's configuration from cilium-config into /tmp.
        name: 'config',
        image: CILIUM_IMAGE,
        command: ['cilium-dbg', 'build-config'],
        env: nodeAndNamespace(),
        resources: INIT_RESOURCES,
        // Improved: no privilege escalation (the chart leaves it on).
        securityContext: securityContext({ capabilities: { add: [Cap.NET_ADMIN] } }),
        terminationMessagePolicy: fallbackToLogs,
        mounts: [{ volume: 'tmp', path: '/tmp' }],
      },
      {
        // Mounts cgroup2 on the host, with nsenter into PID 1's namespaces.
        name: 'mount-cgroup',
        image: CILIUM_IMAGE,
        command: ['bash', '-ec', 'cp /usr/bin/cilium-mount /hostbin/cilium-mount;\nnsenter --cgroup=/hostproc/1/ns/cgroup --mount=/hostproc/1/ns/mnt "${BIN_PATH}/cilium-mount" $CGROUP_ROOT;\nrm /hostbin/cilium-mount\n'],
        env: { CGROUP_ROOT: kplus.EnvValue.fromValue('/run/cilium/cgroupv2'), BIN_PATH: kplus.EnvValue.fromValue('/opt/cni/bin') },
        resources: INIT_RESOURCES,
        securityContext: securityContext({ capabilities: { add: NSENTER_CAPABILITIES }, seLinuxOptions: SPC_T, appArmorProfile: 'unconfined' }),
        terminationMessagePolicy: fallbackToLogs,
        // Writable, as in the chart: the binary is copied to the host's CNI directory to run there.
        mounts: [{ volume: 'hostproc', path: '/hostproc', readOnly: false }, { volume: 'cni-path', path: '/hostbin', readOnly: false }],
      },
      {
        // Applies Cilium's sysctl overrides on the host.
        name: 'apply-sysctl-overwrites',
        image: CILIUM_IMAGE,
        command: ['bash', '-ec', 'cp /usr/bin/cilium-sysctlfix /hostbin/cilium-sysctlfix;\nnsenter --mount=/hostproc/1/ns/mnt "${BIN_PATH}/cilium-sysctlfix";\nrm /hostbin/cilium-sysctlfix\n'],
        env: { BIN_PATH: kplus.EnvValue.fromValue('/opt/cni/bin') },
        resources: INIT_RESOURCES,
        securityContext: securityContext({ capabilities: { add: NSENTER_CAPABILITIES }, seLinuxOptions: SPC_T, appArmorProfile: 'unconfined' }),
        terminationMessagePolicy: fallbackToLogs,
        mounts: [{ volume: 'hostproc', path: '/hostproc', readOnly: false }, { volume: 'cni-path', path: '/hostbin', readOnly: false }],
      },
      {
        // Mounts bpffs on the host if it is not: Bidirectional, which only a privileged container may have.
        name: 'mount-bpf-fs',
        image: CILIUM_IMAGE,
        command: ['/bin/bash', '-c', '--'],
        args: ['mount | grep "/sys/fs/bpf type bpf" || mount -t bpf bpf /sys/fs/bpf'],
        resources: INIT_RESOURCES,
        securityContext: securityContext({ privileged: true }),
        terminationMessagePolicy: fallbackToLogs,
        mounts: [{ volume: 'bpf-maps', path: '/sys/fs/bpf', readOnly: false, propagation: BIDIRECTIONAL }],
      },
      {
        // Cleans the BPF state when cilium-config asks for it.
        name: 'clean-cilium-state',
        image: CILIUM_IMAGE,
        command: ['/init-container.sh'],
        env: {
          CILIUM_ALL_STATE: fromConfig('clean-cilium-state'),
          CILIUM_BPF_STATE: fromConfig('clean-cilium-bpf-state'),
          WRITE_CNI_CONF_WHEN_READY: fromConfig('write-cni-conf-when-ready'),
        },
        resources: INIT_RESOURCES,
        securityContext: securityContext({
          capabilities: { add: [Cap.NET_ADMIN, Cap.SYS_MODULE, Cap.SYS_ADMIN, Cap.SYS_RESOURCE] }, seLinuxOptions: SPC_T, appArmorProfile: 'unconfined',
        }),
        terminationMessagePolicy: fallbackToLogs,
        mounts: [
          { volume: 'bpf-maps', path: '/sys/fs/bpf', readOnly: false },
          { volume: 'cilium-cgroup', path: '/run/cilium/cgroupv2', readOnly: false, propagation: HOST_TO_CONTAINER },
          { volume: 'cilium-run', path: '/var/run/cilium', readOnly: false },
        ],
      },
      {
        // Installs the CNI plugin, so that the agent needs no writable host /opt/cni/bin.
        name: 'install-cni-binaries',
        image: CILIUM_IMAGE,
        command: ['/install-plugin.sh'],
        // The chart's.
        resources: { cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.units(1) }, memory: { request: Size.mebibytes(10), limit: Size.gibibytes(1) } },
        // Improved: no privilege escalation (the chart leaves it on).
        securityContext: securityContext({ seLinuxOptions: SPC_T }),
        terminationMessagePolicy: fallbackToLogs,
        mounts: [{ volume: 'cni-path', path: '/host/opt/cni/bin', readOnly: false }],
      },
    ];

    const optionalSecret = (name: string, items?: { key: string; path: string }[]) => ProjectedSource.secret(name, items, { optional: true });
    const etcdClient = (prefix: string) => [{ key: 'tls.key', path: `${prefix}.key` }, { key: 'tls.crt', path: `${prefix}.crt` }, { key: 'ca.crt', path: `${prefix}-ca.crt` }];

    this.agent = new NodeAgent(this, 'Agent', {
      policy: linux,
      name: 'cilium',
      labels: CILIUM_LABELS,
      // The chart's, on the pods (here on the DaemonSet too): `kubectl logs` and `exec` pick the agent.
      annotations: { 'kubectl.kubernetes.io/default-container': 'cilium-agent' },
      containers: [agent],
      initContainers,
      volumes: [
        // Shares the configuration the config init container builds with the agent.
        AgentVolume.emptyDir('tmp'),
        hostPath('cilium-run', '/var/run/cilium', DIRECTORY_OR_CREATE),
        hostPath('cilium-netns', '/var/run/netns', DIRECTORY_OR_CREATE),
        hostPath('bpf-maps', '/sys/fs/bpf', DIRECTORY_OR_CREATE),
        hostPath('hostproc', '/proc', DIRECTORY),
        hostPath('cilium-cgroup', '/run/cilium/cgroupv2', DIRECTORY_OR_CREATE),
        hostPath('cni-path', '/opt/cni/bin', DIRECTORY_OR_CREATE),
        hostPath('etc-cni-netd', '/etc/cni/net.d', DIRECTORY_OR_CREATE),
        // The chart's: no type.
        hostPath('lib-modules', '/lib/modules'),
        hostPath('xtables-lock', '/run/xtables.lock', FILE_OR_CREATE),
        // Shared with cilium-envoy.
        hostPath('envoy-sockets', '/var/run/cilium/envoy/sockets', DIRECTORY_OR_CREATE),
        // Every key of cilium-clustermesh (the peers come and go), and the etcd client certificates.
        AgentVolume.projected('clustermesh-secrets', [
          optionalSecret('cilium-clustermesh'),
          optionalSecret('clustermesh-apiserver-remote-cert', etcdClient('common-etcd-client')),
          optionalSecret('clustermesh-apiserver-local-cert', etcdClient('local-etcd-client')),
        ], { defaultMode: 0o400 }),
        hostPath('host-proc-sys-net', '/proc/sys/net', DIRECTORY),
        hostPath('host-proc-sys-kernel', '/proc/sys/kernel', DIRECTORY),
        // The chart generates hubble-server-certs at render time; it is left
        // out here (not deterministic), and the agent starts without it.
        AgentVolume.projected('hubble-tls', [
          optionalSecret('hubble-server-certs', [{ key: 'tls.crt', path: 'server.crt' }, { key: 'tls.key', path: 'server.key' }, { key: 'ca.crt', path: 'client-ca.crt' }]),
        ], { defaultMode: 0o400 }),
      ],
      // The chart's ConfigMap cilium-config (adopted, below), which the agent
      // reads through the API, and which the chart's operator and cilium CLI look up by name. Its volume `config` is declared and mounted nowhere,
      // and its checksum on the pods rolls the agents when it changes (the
      // chart's pods do not follow their ConfigMap).
      config: { data: CILIUM_CONFIG },
      hostNetwork: true,
      // Improved: dnsPolicy ClusterFirstWithHostNet, the library's default for
      // host networking (the chart's unset ClusterFirst falls back to the
      // node's resolver, which cannot resolve Services, e.g. a clustermesh
      // apiserver). The default configuration resolves no name to start (it
      // reaches the API server by the IP in KUBERNETES_SERVICE_HOST), so the
      // agent does not wait for the cluster DNS that its pod network carries.

      // As root, with the image's group (root), as the chart's pods run.
      runAsUser: 0,
      runAsGroup: 0,
      // The chart's: the agent loads BPF programs and mounts filesystems, which the runtime's default profile refuses.
      seccompProfile: { type: kplus.SeccompProfileType.UNCONFINED },
      // The chart's names of the objects the agent replaces, so that this
      // applies over a Helm install in place (README: "Taking over an existing install").
      adopt: {
        serviceAccountName: 'cilium',
        configMapName: 'cilium-config',
        rbacNames: { clusterRole: 'cilium', clusterRoleBinding: 'cilium', role: 'cilium-config-agent', roleBinding: 'cilium-config-agent' },
      },
      serviceAccount: {
        rules: [
          { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['namespaces', 'services', 'pods', 'endpoints', 'nodes'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['list', 'watch', 'get'] },
          {
            apiGroups: ['cilium.io'],
            resources: [
              'ciliumloadbalancerippools', 'ciliumbgppeeringpolicies', 'ciliumbgpnodeconfigs', 'ciliumbgpadvertisements', 'ciliumbgppeerconfigs',
              'ciliumclusterwideenvoyconfigs', 'ciliumclusterwidenetworkpolicies', 'ciliumegressgatewaypolicies', 'ciliumendpoints',
              'ciliumendpointslices', 'ciliumenvoyconfigs', 'ciliumidentities', 'ciliumlocalredirectpolicies', 'ciliumnetworkpolicies',
              'ciliumnodes', 'ciliumnodeconfigs', 'ciliumcidrgroups', 'ciliuml2announcementpolicies', 'ciliumpodippools',
            ],
            verbs: ['list', 'watch'],
          },
          { apiGroups: ['cilium.io'], resources: ['ciliumidentities', 'ciliumendpoints', 'ciliumnodes'], verbs: ['create'] },
          { apiGroups: ['cilium.io'], resources: ['ciliumidentities'], verbs: ['update'] },
          { apiGroups: ['cilium.io'], resources: ['ciliumendpoints'], verbs: ['delete', 'get'] },
          { apiGroups: ['cilium.io'], resources: ['ciliumnodes', 'ciliumnodes/status'], verbs: ['get', 'update'] },
          { apiGroups: ['cilium.io'], resources: ['ciliumendpoints/status', 'ciliumendpoints', 'ciliuml2announcementpolicies/status', 'ciliumbgpnodeconfigs/status'], verbs: ['patch'] },
        ],
        // The chart's Role cilium-config-agent (adopted, below).
        namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
        // The chart's Role cilium-tlsinterception-secrets in the namespace
        // cilium-secrets: TLS interception policies read their Secrets there.
        rulesIn: { 'cilium-secrets': [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }] },
      },
      priorityClassName: 'system-node-critical',
      // The chart's: the agent stops at once, its datapath stays in the kernel.
      terminationGracePeriodSeconds: 1,
      // The chart's: two nodes at a time.
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(2) }),
      // The chart's, redundant for a DaemonSet (one pod per node anyway).
      podAntiAffinity: [{ labels: { 'k8s-app': 'cilium' } }],
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "Cilium is the node's CNI: it programs the host network (host network, BPF, sysctls, kernel modules) and installs the CNI plugin on the host",
        writableHostPathsReason: "it writes the CNI configuration into /etc/cni/net.d, mounts the BPF filesystem and the cgroup root, and sets the kernel's network sysctls through /proc",
      },
    });

    // The chart's hubble-peer Service: hubble-relay finds every agent's
    // Hubble server (4244) through it, each node its own (internalTrafficPolicy Local).
    // Not the agent's metrics Service, so a Service of its own beside the agent.
    new kplus.k8s.KubeService(this, 'HubblePeer', {
      metadata: { name: 'hubble-peer', labels: { 'k8s-app': 'cilium', 'app.kubernetes.io/part-of': 'cilium', 'app.kubernetes.io/name': 'hubble-peer' } },
      spec: {
        selector: { 'k8s-app': 'cilium' },
        ports: [{ name: 'peer-service', port: 443, protocol: 'TCP', targetPort: kplus.k8s.IntOrString.fromNumber(4244) }],
        internalTrafficPolicy: 'Local',
      },
    });
  }
}
