// kube-proxy as kubeadm v1.35 deploys it (cmd/kubeadm/app/phases/addons/proxy:
// the DaemonSet, the ConfigMap kube-proxy, the ServiceAccount kube-proxy, the
// ClusterRoleBinding kubeadm:node-proxier to system:node-proxier, and the Role
// and RoleBinding kube-proxy that let its bootstrap tokens read the
// ConfigMap), built with props alone and adopting kubeadm's objects: applied
// over a kubeadm cluster, the server answers `configured` for each, and the
// pods roll one node at a time (README: "Taking over an existing install").
// Where it differs from kubeadm's, the library's defaults improve on it, and a
// comment says so.
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel } from 'node-reporter';

/** The Kubernetes version kube-proxy is of (the v1.35 bundle's static kube-proxy). */
export const KUBE_PROXY_VERSION = 'v1.35.6';

/** The Group of kubeadm's bootstrap tokens, which reads the ConfigMap on `kubeadm join`. */
export const BOOTSTRAP_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';

/** Options of the example. */
export interface KubeProxyChartProps {
  /**
   * The API server kube-proxy talks to: kubeadm's controlPlaneEndpoint (an
   * address, never a Service: kube-proxy is what makes Services work).
   * @default 'https://control-plane.example:6443'
   */
  readonly server?: string;
  /**
   * The pods' address range (kubeadm's networking.podSubnet).
   * @default '10.244.0.0/16'
   */
  readonly clusterCIDR?: string;
}

/** The KubeProxyConfiguration kubeadm writes into config.conf (the fields kubeadm sets; kube-proxy defaults the rest). */
export function kubeProxyConfig(clusterCIDR: string): string {
  return [
    'apiVersion: kubeproxy.config.k8s.io/v1alpha1',
    'kind: KubeProxyConfiguration',
    'bindAddress: 0.0.0.0',
    'clientConnection:',
    '  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf',
    `clusterCIDR: ${clusterCIDR}`,
    'mode: ""',
    '',
  ].join('\n');
}

/** The kubeconfig kubeadm writes into kubeconfig.conf: the pod's ServiceAccount token and CA. */
export function kubeProxyKubeconfig(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    '    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
    `    server: ${server}`,
    '  name: default',
    'contexts:',
    '- context:',
    '    cluster: default',
    '    namespace: default',
    '    user: default',
    '  name: default',
    'current-context: default',
    'users:',
    '- name: default',
    '  user:',
    '    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token',
    '',
  ].join('\n');
}

/** kube-proxy in kube-system, adopting kubeadm's objects. */
export class KubeProxyChart extends Chart {
  /** The agent. */
  public readonly agent: NodeAgent;

  constructor(scope: Construct, id: string, props: KubeProxyChartProps = {}) {
    super(scope, id, { namespace: 'kube-system' });
    // kubeadm's nodeSelector kubernetes.io/os: linux and its toleration of every taint.
    const policy = new NodePolicy(this, 'Linux', { operatingSystem: 'linux', tolerations: [NodeToleration.everything()] });
    this.agent = new NodeAgent(this, 'KubeProxy', {
      policy,
      name: 'kube-proxy',
      // kubeadm's names, looked up by name: kubeadm join reads the ConfigMap
      // kube-proxy, and kubeadm upgrade writes all of them.
      adopt: {
        selector: { 'k8s-app': 'kube-proxy' },
        serviceAccountName: 'kube-proxy',
        configMapName: 'kube-proxy',
        rbacNames: { clusterRoleBindings: { 'system:node-proxier': 'kubeadm:node-proxier' } },
      },
      containers: [{
        name: 'kube-proxy',
        image: `registry.k8s.io/kube-proxy:${KUBE_PROXY_VERSION}`,
        command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
        env: { NODE_NAME: DownwardApi.nodeName() },
        // kubeadm's: it programs the node's iptables (or nftables, IPVS) and conntrack.
        // Improved: a read-only root (it writes only the xtables lock, mounted).
        securityContext: { privileged: true },
        mounts: [
          { volume: 'config', path: '/var/lib/kube-proxy' },
          { volume: 'xtables-lock', path: '/run/xtables.lock', readOnly: false },
          { volume: 'lib-modules', path: '/lib/modules' },
        ],
      }],
      volumes: [
        AgentVolume.hostPath('xtables-lock', '/run/xtables.lock', { type: kplus.HostPathVolumeType.FILE_OR_CREATE }),
        AgentVolume.hostPath('lib-modules', '/lib/modules'),
      ],
      // The ConfigMap kube-proxy (volume `config`, kubeadm's `kube-proxy`).
      // Improved: its checksum on the pods rolls a change one node at a time
      // (kubeadm's kube-proxy exits when its file changes: on every node at once).
      config: {
        data: {
          'config.conf': kubeProxyConfig(props.clusterCIDR ?? '10.244.0.0/16'),
          'kubeconfig.conf': kubeProxyKubeconfig(props.server ?? 'https://control-plane.example:6443'),
        },
      },
      hostNetwork: true,
      // Root, as kubeadm's pod runs (the image's user); the image's group.
      runAsUser: 0,
      serviceAccount: {
        // kubeadm:node-proxier: what kube-proxy reads and writes (Services, EndpointSlices, Nodes, Events).
        clusterRoles: ['system:node-proxier'],
      },
      // kubeadm's Role and RoleBinding kube-proxy: its bootstrap tokens read
      // the ConfigMap on `kubeadm join`, before the node has credentials.
      grants: [{
        name: 'kube-proxy',
        namespace: 'kube-system',
        rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-proxy'], verbs: ['get'] }],
        subjects: [{ kind: 'Group', name: BOOTSTRAP_TOKEN_GROUP }],
      }],
      priorityClassName: 'system-node-critical',
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "kube-proxy programs the node's packet filter and conntrack tables in the host network namespace",
      },
      waivers: {
        // kubeadm's: no resources. The library requests 10m and 16Mi and sets
        // no limit; size it for your nodes (README: "Sizing an agent").
        resources: 'kubeadm sets no resources for kube-proxy: sized by its Services and endpoints, per cluster',
      },
    });
  }
}
