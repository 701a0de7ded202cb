// calico-node as calico.yaml deploys it (projectcalico/calico
// manifests/calico.yaml at v3.32.0; e2e/upstream/PROVENANCE.md): the DaemonSet, the ConfigMap calico-config, the
// ServiceAccounts calico-node and calico-cni-plugin with their ClusterRoles,
// and the calico-tier-getter ClusterRole bound to the User
// system:kube-controller-manager, built with props alone and adopting the
// manifest's objects (README: "Taking over an existing install"). The CRDs
// and calico-kube-controllers (a Deployment) stay as calico.yaml has them.
// Where it differs from calico.yaml, the library's defaults improve on it,
// and a comment says so.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentEnvFrom, AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel } from 'node-reporter';

/** calico.yaml's images' tag. */
export const CALICO_TAG = 'v3.32.0';

/** calico.yaml's CNI network config, which install-cni fills in and writes to each node. */
export const CNI_NETWORK_CONFIG = `{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "log_level": "info",
      "log_file_path": "/var/log/calico/cni/cni.log",
      "datastore_type": "kubernetes",
      "nodename": "__KUBERNETES_NODE_NAME__",
      "mtu": __CNI_MTU__,
      "ipam": {
          "type": "calico-ipam"
      },
      "policy": {
          "type": "k8s"
      },
      "kubernetes": {
          "kubeconfig": "__KUBECONFIG_FILEPATH__"
      }
    },
    {
      "type": "portmap",
      "snat": true,
      "capabilities": {"portMappings": true}
    }
  ]
}`;

// calico.yaml grants each Calico resource in both groups: the v3 API (projectcalico.org) and its CRDs.
const calicoGroups = ['projectcalico.org', 'crd.projectcalico.org'];
const crud = ['get', 'list', 'create', 'update', 'delete'];

/** calico-node in kube-system, adopting calico.yaml's objects. */
export class CalicoNodeChart extends Chart {
  /** The agent. */
  public readonly agent: NodeAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'kube-system' });
    // calico.yaml's nodeSelector kubernetes.io/os: linux and its tolerations:
    // every NoSchedule and NoExecute taint, and CriticalAddonsOnly.
    const policy = new NodePolicy(this, 'Linux', {
      operatingSystem: 'linux',
      tolerations: [NodeToleration.everything(kplus.TaintEffect.NO_SCHEDULE), NodeToleration.exists('CriticalAddonsOnly'), NodeToleration.everything(kplus.TaintEffect.NO_EXECUTE)],
    });
    const calicoConfig = kplus.ConfigMap.fromConfigMapName(this, 'CalicoConfigRef', 'calico-config');
    const fromConfig = (key: string) => kplus.EnvValue.fromConfigMap(calicoConfig, key);
    // Lets an eBPF install override KUBERNETES_SERVICE_HOST and _PORT; absent by default.
    const servicesEndpoint = AgentEnvFrom.configMap('kubernetes-services-endpoint', { optional: true });
    const { BIDIRECTIONAL } = kplus.MountPropagation;
    const privileged = { privileged: true };
    const writable = { readOnly: false };

    this.agent = new NodeAgent(this, 'CalicoNode', {
      policy,
      name: 'calico-node',
      // calico.yaml's names and immutable selector.
      adopt: {
        selector: { 'k8s-app': 'calico-node' },
        serviceAccountName: 'calico-node',
        configMapName: 'calico-config',
        rbacNames: { clusterRole: 'calico-node', clusterRoleBinding: 'calico-node' },
      },
      initContainers: [{
        // Upgrades host-local IPAM to calico-ipam (a no-op on a fresh install).
        name: 'upgrade-ipam',
        image: `quay.io/calico/cni:${CALICO_TAG}`,
        command: ['/opt/cni/bin/calico-ipam', '-upgrade'],
        envFrom: [servicesEndpoint],
        env: { KUBERNETES_NODE_NAME: DownwardApi.nodeName(), CALICO_NETWORKING_BACKEND: fromConfig('calico_backend') },
        mounts: [
          { volume: 'host-local-net-dir', path: '/var/lib/cni/networks', ...writable },
          { volume: 'cni-bin-dir', path: '/host/opt/cni/bin', ...writable },
        ],
        securityContext: privileged,
      }, {
        // Installs the CNI binaries and network config on the node.
        name: 'install-cni',
        image: `quay.io/calico/cni:${CALICO_TAG}`,
        command: ['/opt/cni/bin/install'],
        envFrom: [servicesEndpoint],
        env: {
          CNI_CONF_NAME: kplus.EnvValue.fromValue('10-calico.conflist'),
          CNI_NETWORK_CONFIG: fromConfig('cni_network_config'),
          KUBERNETES_NODE_NAME: DownwardApi.nodeName(),
          CNI_MTU: fromConfig('veth_mtu'),
          SLEEP: kplus.EnvValue.fromValue('false'),
        },
        mounts: [
          { volume: 'cni-bin-dir', path: '/host/opt/cni/bin', ...writable },
          { volume: 'cni-net-dir', path: '/host/etc/cni/net.d', ...writable },
        ],
        securityContext: privileged,
      }, {
        // Mounts bpffs and cgroup2 for the eBPF data plane, on the host (Bidirectional).
        name: 'ebpf-bootstrap',
        image: `quay.io/calico/node:${CALICO_TAG}`,
        command: ['calico-node', '-init', '-best-effort'],
        mounts: [
          { volume: 'sys-fs', path: '/sys/fs', propagation: BIDIRECTIONAL, ...writable },
          { volume: 'var-run-calico', path: '/var/run/calico', propagation: BIDIRECTIONAL, ...writable },
          { volume: 'nodeproc', path: '/nodeproc' },
        ],
        securityContext: privileged,
      }],
      containers: [{
        name: 'calico-node',
        image: `quay.io/calico/node:${CALICO_TAG}`,
        envFrom: [servicesEndpoint],
        env: {
          DATASTORE_TYPE: kplus.EnvValue.fromValue('kubernetes'),
          WAIT_FOR_DATASTORE: kplus.EnvValue.fromValue('true'),
          NODENAME: DownwardApi.nodeName(),
          CALICO_NETWORKING_BACKEND: fromConfig('calico_backend'),
          CLUSTER_TYPE: kplus.EnvValue.fromValue('k8s,bgp'),
          IP: kplus.EnvValue.fromValue('autodetect'),
          CALICO_IPV4POOL_IPIP: kplus.EnvValue.fromValue('Always'),
          CALICO_IPV4POOL_VXLAN: kplus.EnvValue.fromValue('Never'),
          CALICO_IPV6POOL_VXLAN: kplus.EnvValue.fromValue('Never'),
          FELIX_IPINIPMTU: fromConfig('veth_mtu'),
          FELIX_VXLANMTU: fromConfig('veth_mtu'),
          FELIX_WIREGUARDMTU: fromConfig('veth_mtu'),
          CALICO_DISABLE_FILE_LOGGING: kplus.EnvValue.fromValue('true'),
          FELIX_DEFAULTENDPOINTTOHOSTACTION: kplus.EnvValue.fromValue('ACCEPT'),
          FELIX_IPV6SUPPORT: kplus.EnvValue.fromValue('false'),
          FELIX_HEALTHENABLED: kplus.EnvValue.fromValue('true'),
        },
        // It programs routes, iptables or eBPF and runs BIRD.
        securityContext: privileged,
        resources: { cpu: { request: kplus.Cpu.millis(250) }, memory: { request: Size.mebibytes(16) } },
        lifecycle: { preStop: kplus.Handler.fromCommand(['/bin/calico-node', '-shutdown']) },
        liveness: kplus.Probe.fromCommand(['/bin/calico-node', '-felix-live', '-bird-live'], {
          periodSeconds: Duration.seconds(10), initialDelaySeconds: Duration.seconds(10), failureThreshold: 6, timeoutSeconds: Duration.seconds(10),
        }),
        readiness: kplus.Probe.fromCommand(['/bin/calico-node', '-felix-ready', '-bird-ready'], {
          periodSeconds: Duration.seconds(10), timeoutSeconds: Duration.seconds(10),
        }),
        mounts: [
          { volume: 'cni-net-dir', path: '/host/etc/cni/net.d', ...writable },
          { volume: 'lib-modules', path: '/lib/modules' },
          { volume: 'xtables-lock', path: '/run/xtables.lock', ...writable },
          { volume: 'var-run-calico', path: '/var/run/calico', ...writable },
          { volume: 'var-lib-calico', path: '/var/lib/calico', ...writable },
          { volume: 'policysync', path: '/var/run/nodeagent', ...writable },
          { volume: 'bpffs', path: '/sys/fs/bpf', ...writable },
          { volume: 'cni-log-dir', path: '/var/log/calico/cni' },
        ],
      }],
      volumes: [
        AgentVolume.hostPath('lib-modules', '/lib/modules'),
        AgentVolume.hostPath('var-run-calico', '/var/run/calico', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('var-lib-calico', '/var/lib/calico', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('xtables-lock', '/run/xtables.lock', { type: kplus.HostPathVolumeType.FILE_OR_CREATE }),
        AgentVolume.hostPath('sys-fs', '/sys/fs/', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('bpffs', '/sys/fs/bpf', { type: kplus.HostPathVolumeType.DIRECTORY }),
        AgentVolume.hostPath('nodeproc', '/proc'),
        AgentVolume.hostPath('cni-bin-dir', '/opt/cni/bin', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
        AgentVolume.hostPath('cni-net-dir', '/etc/cni/net.d'),
        AgentVolume.hostPath('cni-log-dir', '/var/log/calico/cni'),
        AgentVolume.hostPath('host-local-net-dir', '/var/lib/cni/networks'),
        AgentVolume.hostPath('policysync', '/var/run/nodeagent', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }),
      ],
      // The ConfigMap calico-config, read through env. Improved: its
      // checksum rolls a change one node at a time (calico.yaml's pods keep
      // the old values until they restart); the library also mounts it,
      // read-only, as the volume `config`.
      config: {
        data: { typha_service_name: 'none', calico_backend: 'bird', veth_mtu: '0', cni_network_config: CNI_NETWORK_CONFIG },
      },
      hostNetwork: true,
      // Root, as calico.yaml's pod runs (the image's user); the image's group.
      runAsUser: 0,
      serviceAccount: {
        rules: [
          { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['calico-cni-plugin'], verbs: ['create'] },
          { apiGroups: [''], resources: ['pods', 'nodes', 'namespaces'], verbs: ['get'] },
          { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['watch', 'list'] },
          { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['watch', 'list', 'get'] },
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
          { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
          { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['watch', 'list'] },
          { apiGroups: ['policy.networking.k8s.io'], resources: ['clusternetworkpolicies'], verbs: ['watch', 'list'] },
          { apiGroups: [''], resources: ['pods', 'namespaces', 'serviceaccounts'], verbs: ['list', 'watch'] },
          { apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] },
          {
            apiGroups: calicoGroups,
            resources: ['globalfelixconfigs', 'felixconfigurations', 'bgppeers', 'bgpfilters', 'globalbgpconfigs', 'bgpconfigurations', 'ippools', 'ipreservations',
              'ipamblocks', 'globalnetworkpolicies', 'stagedglobalnetworkpolicies', 'networkpolicies', 'stagednetworkpolicies', 'stagedkubernetesnetworkpolicies',
              'globalnetworksets', 'networksets', 'clusterinformations', 'hostendpoints', 'blockaffinities', 'caliconodestatuses', 'tiers'],
            verbs: ['get', 'list', 'watch'],
          },
          { apiGroups: calicoGroups, resources: ['tiers'], verbs: ['create'] },
          { apiGroups: calicoGroups, resources: ['ippools', 'felixconfigurations', 'bgpconfigurations', 'clusterinformations'], verbs: ['create', 'update'] },
          { apiGroups: calicoGroups, resources: ['caliconodestatuses'], verbs: ['update'] },
          { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: calicoGroups, resources: ['bgpconfigurations', 'bgppeers'], verbs: ['create', 'update'] },
          { apiGroups: calicoGroups, resources: ['blockaffinities', 'ipamblocks', 'ipamhandles'], verbs: crud },
          { apiGroups: calicoGroups, resources: ['ipamconfigs', 'ipamconfigurations'], verbs: ['get', 'create'] },
          { apiGroups: calicoGroups, resources: ['blockaffinities'], verbs: ['watch'] },
          { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
          { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstancemigrations'], verbs: ['get', 'list', 'watch'] },
        ],
      },
      // The CNI plugin's own identity: calico-node mints its token, and the
      // plugin (run by the kubelet, not in the pod) uses it.
      serviceAccounts: [{
        name: 'calico-cni-plugin',
        rbacNames: { clusterRole: 'calico-cni-plugin', clusterRoleBinding: 'calico-cni-plugin' },
        rules: [
          { apiGroups: [''], resources: ['pods', 'nodes', 'namespaces'], verbs: ['get'] },
          { apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] },
          { apiGroups: calicoGroups, resources: ['blockaffinities', 'ipamblocks', 'ipamhandles', 'clusterinformations', 'ippools', 'ipreservations', 'ipamconfigs', 'ipamconfigurations'], verbs: crud },
        ],
      }],
      // Lets the kube-controller-manager read Tiers for its garbage collector.
      grants: [{
        name: 'calico-tier-getter',
        rules: [{ apiGroups: ['projectcalico.org'], resources: ['tiers'], verbs: ['get'] }],
        subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }],
      }],
      priorityClassName: 'system-node-critical',
      // calico.yaml's 0: the pod is killed at once, and the preStop hook drains BIRD.
      terminationGracePeriodSeconds: 0,
      waivers: {
        // calico.yaml requests 250m CPU for calico-node and sets nothing else.
        // The library adds small requests and no limit; size it for your
        // nodes (README: "Sizing an agent").
        resources: 'calico.yaml sets no memory for calico-node: sized by its routes, policies and endpoints, per cluster',
      },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "calico-node is the node's CNI: it programs routes and the packet filter in the host network namespace and installs the CNI plugin",
        writableHostPathsReason: 'it writes the CNI configuration into /etc/cni/net.d and mounts the BPF filesystem under /sys/fs',
      },
    });
  }
}
