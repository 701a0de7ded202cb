/**
 * examples/cilium.ts against the default render of cilium/cilium
 * install/kubernetes/cilium 1.19.5 (`helm template cilium ... -n kube-system
 * --kube-version 1.28`): the agent DaemonSet and what it needs.
 */
import { Testing } from 'cdk8s';
import { CiliumChart } from '../../examples/cilium';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../../lib/eligibility';
import { only } from '../util';
import { containerOf, daemonSetOf, mountsOf, objectsOf, rulesOf, volumesOf } from './upstream';

const objects = objectsOf('cilium');
const ds = daemonSetOf(objects);
const pod = ds.spec.template.spec;
const agent = containerOf(ds, 'cilium-agent');
const image = 'quay.io/cilium/cilium:v1.19.5@sha256:20fbbc14ac20b55a292c0dcda5571bf31cde30a7dbc68c29db3e709390ab0732';
const spcT = { level: 's0', type: 'spc_t' };

describe('examples/cilium.ts: the agent container, as the chart renders it', () => {
  test('runs the chart image by digest with its config directory, Downward API and backoff variables', () => {
    expect(ds.metadata).toMatchObject({ name: 'cilium', namespace: 'kube-system' });
    expect(agent).toMatchObject({ image, command: ['cilium-agent'], args: ['--config-dir=/tmp/cilium/config-map'], terminationMessagePolicy: 'FallbackToLogsOnError' });
    expect(agent.env).toEqual([
      { name: 'K8S_NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
      { name: 'CILIUM_K8S_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'CILIUM_CLUSTERMESH_CONFIG', value: '/var/lib/cilium/clustermesh/' },
      { name: 'GOMEMLIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1' } } },
      { name: 'KUBE_CLIENT_BACKOFF_BASE', value: '1' },
      { name: 'KUBE_CLIENT_BACKOFF_DURATION', value: '120' },
    ]);
    // With host networking each port is its host port.
    expect(agent.ports).toEqual([
      { name: 'health', containerPort: 9879, hostPort: 9879, protocol: 'TCP' },
      { name: 'peer-service', containerPort: 4244, hostPort: 4244, protocol: 'TCP' },
    ]);
  });

  test('probes /healthz on 127.0.0.1 with the chart headers: brief, and liveness not failing while the API server is away', () => {
    const httpGet = (headers: object[]) => ({ host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP', httpHeaders: headers });
    const brief = { name: 'brief', value: 'true' };
    expect(agent.startupProbe).toEqual({ httpGet: httpGet([brief]), failureThreshold: 300, periodSeconds: 2, successThreshold: 1, initialDelaySeconds: 5 });
    expect(agent.livenessProbe).toEqual({
      httpGet: httpGet([brief, { name: 'require-k8s-connectivity', value: 'false' }]), periodSeconds: 30, successThreshold: 1, failureThreshold: 10, timeoutSeconds: 5,
    });
    expect(agent.readinessProbe).toEqual({ httpGet: httpGet([brief]), periodSeconds: 30, successThreshold: 1, failureThreshold: 3, timeoutSeconds: 5 });
  });

  test('cleans AWS SNAT rules after it starts and uninstalls the CNI configuration before it stops', () => {
    expect(agent.lifecycle.postStart.exec.command.slice(0, 2)).toEqual(['bash', '-c']);
    expect(agent.lifecycle.postStart.exec.command[2]).toMatch(/^set -o errexit\n[^]*iptables-save \| grep -E -v 'AWS-SNAT-CHAIN\|AWS-CONNMARK-CHAIN' \| iptables-restore\nfi\necho 'Done!'\n$/);
    expect(agent.lifecycle.preStop).toEqual({ exec: { command: ['/cni-uninstall.sh'] } });
  });

  test('has the chart capabilities over drop ALL, spc_t and AppArmor unconfined, as root with a writable root', () => {
    expect(agent.securityContext).toEqual({
      capabilities: {
        add: ['CHOWN', 'KILL', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'SYS_MODULE', 'SYS_ADMIN', 'SYS_RESOURCE', 'DAC_OVERRIDE', 'FOWNER', 'SETGID', 'SETUID', 'SYSLOG'],
        drop: ['ALL'],
      },
      seLinuxOptions: spcT,
      allowPrivilegeEscalation: true,
      privileged: false,
      readOnlyRootFilesystem: false,
      runAsUser: 0, runAsGroup: 0, runAsNonRoot: false,
    });
    expect(pod.securityContext).toMatchObject({ runAsUser: 0, seccompProfile: { type: 'Unconfined' } });
    // Kubernetes 1.28's AppArmor: pod annotations, for the four containers the chart names.
    const annotations = ds.spec.template.metadata.annotations;
    expect(Object.keys(annotations).filter((k) => k.startsWith('container.apparmor')).sort()).toEqual(
      ['apply-sysctl-overwrites', 'cilium-agent', 'clean-cilium-state', 'mount-cgroup'].map((c) => `container.apparmor.security.beta.kubernetes.io/${c}`));
    expect(new Set(Object.entries(annotations).filter(([k]) => k.startsWith('container.apparmor')).map(([, v]) => v))).toEqual(new Set(['unconfined']));
    expect(annotations['kubectl.kubernetes.io/default-container']).toBe('cilium-agent');
  });

  test('mounts its host state writable where it writes, with HostToContainer for bpffs and the netns, and the secrets read-only', () => {
    expect(mountsOf(agent)).toEqual({
      '/var/run/cilium/envoy/sockets': { volume: 'envoy-sockets', readOnly: false },
      '/host/proc/sys/net': { volume: 'host-proc-sys-net', readOnly: false },
      '/host/proc/sys/kernel': { volume: 'host-proc-sys-kernel', readOnly: false },
      '/sys/fs/bpf': { volume: 'bpf-maps', readOnly: false, propagation: 'HostToContainer' },
      '/var/run/cilium': { volume: 'cilium-run', readOnly: false },
      '/var/run/cilium/netns': { volume: 'cilium-netns', readOnly: false, propagation: 'HostToContainer' },
      '/host/etc/cni/net.d': { volume: 'etc-cni-netd', readOnly: false },
      '/var/lib/cilium/clustermesh': { volume: 'clustermesh-secrets', readOnly: true },
      '/lib/modules': { volume: 'lib-modules', readOnly: true },
      '/run/xtables.lock': { volume: 'xtables-lock', readOnly: false },
      '/var/lib/cilium/tls/hubble': { volume: 'hubble-tls', readOnly: true },
      '/tmp': { volume: 'tmp', readOnly: false },
    });
    // The CNI binary directory is writable in the init containers only, by design.
    expect(agent.volumeMounts.map((m: { name: string }) => m.name)).not.toContain('cni-path');
  });
});

describe('examples/cilium.ts: the six init containers, in the chart order', () => {
  const init = (name: string) => containerOf(ds, name);

  test('run in the chart order, each with the chart image, command and FallbackToLogsOnError', () => {
    expect(pod.initContainers.map((c: { name: string }) => c.name)).toEqual(['config', 'mount-cgroup', 'apply-sysctl-overwrites', 'mount-bpf-fs', 'clean-cilium-state', 'install-cni-binaries']);
    for (const c of pod.initContainers) {
      expect([c.name, c.image, c.terminationMessagePolicy]).toEqual([c.name, image, 'FallbackToLogsOnError']);
    }
    expect(init('config').command).toEqual(['cilium-dbg', 'build-config']);
    expect(init('mount-cgroup').command).toEqual(['bash', '-ec', 'cp /usr/bin/cilium-mount /hostbin/cilium-mount;\nnsenter --cgroup=/hostproc/1/ns/cgroup --mount=/hostproc/1/ns/mnt "${BIN_PATH}/cilium-mount" $CGROUP_ROOT;\nrm /hostbin/cilium-mount\n']);
    expect(init('apply-sysctl-overwrites').command).toEqual(['bash', '-ec', 'cp /usr/bin/cilium-sysctlfix /hostbin/cilium-sysctlfix;\nnsenter --mount=/hostproc/1/ns/mnt "${BIN_PATH}/cilium-sysctlfix";\nrm /hostbin/cilium-sysctlfix\n']);
    expect(init('mount-bpf-fs')).toMatchObject({ command: ['/bin/bash', '-c', '--'], args: ['mount | grep "/sys/fs/bpf type bpf" || mount -t bpf bpf /sys/fs/bpf'] });
    expect(init('clean-cilium-state').command).toEqual(['/init-container.sh']);
    expect(init('install-cni-binaries').command).toEqual(['/install-plugin.sh']);
  });

  test('get their variables: the Downward API, the CNI paths, and optional keys of cilium-config', () => {
    expect(init('config').env).toEqual(agent.env.slice(0, 2));
    expect(init('mount-cgroup').env).toEqual([{ name: 'CGROUP_ROOT', value: '/run/cilium/cgroupv2' }, { name: 'BIN_PATH', value: '/opt/cni/bin' }]);
    expect(init('apply-sysctl-overwrites').env).toEqual([{ name: 'BIN_PATH', value: '/opt/cni/bin' }]);
    const fromConfig = (name: string, key: string) => ({ name, valueFrom: { configMapKeyRef: { name: 'cilium-config', key, optional: true } } });
    expect(init('clean-cilium-state').env).toEqual([
      fromConfig('CILIUM_ALL_STATE', 'clean-cilium-state'), fromConfig('CILIUM_BPF_STATE', 'clean-cilium-bpf-state'), fromConfig('WRITE_CNI_CONF_WHEN_READY', 'write-cni-conf-when-ready'),
    ]);
  });

  test('have the chart privileges: mount-bpf-fs alone privileged, the others their capabilities over drop ALL', () => {
    const caps = (name: string) => init(name).securityContext.capabilities;
    expect(caps('config')).toEqual({ add: ['NET_ADMIN'], drop: ['ALL'] });
    expect(caps('mount-cgroup')).toEqual({ add: ['SYS_ADMIN', 'SYS_CHROOT', 'SYS_PTRACE'], drop: ['ALL'] });
    expect(caps('apply-sysctl-overwrites')).toEqual({ add: ['SYS_ADMIN', 'SYS_CHROOT', 'SYS_PTRACE'], drop: ['ALL'] });
    expect(caps('clean-cilium-state')).toEqual({ add: ['NET_ADMIN', 'SYS_MODULE', 'SYS_ADMIN', 'SYS_RESOURCE'], drop: ['ALL'] });
    expect(caps('install-cni-binaries')).toEqual({ drop: ['ALL'] });
    expect(pod.initContainers.filter((c: { securityContext: { privileged: boolean } }) => c.securityContext.privileged).map((c: { name: string }) => c.name)).toEqual(['mount-bpf-fs']);
    // spc_t on the five the chart labels; not config, not mount-bpf-fs.
    expect(pod.initContainers.filter((c: { securityContext: object }) => 'seLinuxOptions' in c.securityContext).map((c: { name: string }) => c.name))
      .toEqual(['mount-cgroup', 'apply-sysctl-overwrites', 'clean-cilium-state', 'install-cni-binaries']);
    // Improved: no escalation where neither privileged nor SYS_ADMIN needs it.
    expect(pod.initContainers.map((c: { securityContext: { allowPrivilegeEscalation: boolean } }) => c.securityContext.allowPrivilegeEscalation)).toEqual([false, true, true, true, true, false]);
    expect(init('install-cni-binaries').resources).toEqual({ requests: { cpu: '100m', memory: '10Mi' }, limits: { cpu: '1', memory: '1Gi' } });
  });

  test('mount their host paths with the chart propagation: Bidirectional only in the privileged mount-bpf-fs', () => {
    expect(mountsOf(init('config'))).toEqual({ '/tmp': { volume: 'tmp', readOnly: false } });
    for (const name of ['mount-cgroup', 'apply-sysctl-overwrites']) {
      expect(mountsOf(init(name))).toEqual({ '/hostproc': { volume: 'hostproc', readOnly: false }, '/hostbin': { volume: 'cni-path', readOnly: false } });
    }
    expect(mountsOf(init('mount-bpf-fs'))).toEqual({ '/sys/fs/bpf': { volume: 'bpf-maps', readOnly: false, propagation: 'Bidirectional' } });
    expect(mountsOf(init('clean-cilium-state'))).toEqual({
      '/sys/fs/bpf': { volume: 'bpf-maps', readOnly: false },
      '/run/cilium/cgroupv2': { volume: 'cilium-cgroup', readOnly: false, propagation: 'HostToContainer' },
      '/var/run/cilium': { volume: 'cilium-run', readOnly: false },
    });
    expect(mountsOf(init('install-cni-binaries'))).toEqual({ '/host/opt/cni/bin': { volume: 'cni-path', readOnly: false } });
  });
});

describe('examples/cilium.ts: the pod', () => {
  test('declares the chart volumes with their host path types, and optional secrets (none generated here)', () => {
    const optional = (name: string, items?: object[]) => ({ secret: { name, optional: true, ...(items ? { items } : {}) } });
    const etcd = (p: string) => [{ key: 'tls.key', path: `${p}.key` }, { key: 'tls.crt', path: `${p}.crt` }, { key: 'ca.crt', path: `${p}-ca.crt` }];
    expect(volumesOf(ds)).toEqual({
      'tmp': { emptyDir: {} },
      'cilium-run': { hostPath: { path: '/var/run/cilium', type: 'DirectoryOrCreate' } },
      'cilium-netns': { hostPath: { path: '/var/run/netns', type: 'DirectoryOrCreate' } },
      'bpf-maps': { hostPath: { path: '/sys/fs/bpf', type: 'DirectoryOrCreate' } },
      'hostproc': { hostPath: { path: '/proc', type: 'Directory' } },
      'cilium-cgroup': { hostPath: { path: '/run/cilium/cgroupv2', type: 'DirectoryOrCreate' } },
      'cni-path': { hostPath: { path: '/opt/cni/bin', type: 'DirectoryOrCreate' } },
      'etc-cni-netd': { hostPath: { path: '/etc/cni/net.d', type: 'DirectoryOrCreate' } },
      'lib-modules': { hostPath: { path: '/lib/modules' } },
      'xtables-lock': { hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
      'envoy-sockets': { hostPath: { path: '/var/run/cilium/envoy/sockets', type: 'DirectoryOrCreate' } },
      'clustermesh-secrets': { projected: { defaultMode: 0o400, sources: [
        optional('cilium-clustermesh'), optional('clustermesh-apiserver-remote-cert', etcd('common-etcd-client')), optional('clustermesh-apiserver-local-cert', etcd('local-etcd-client')),
      ] } },
      'host-proc-sys-net': { hostPath: { path: '/proc/sys/net', type: 'Directory' } },
      'host-proc-sys-kernel': { hostPath: { path: '/proc/sys/kernel', type: 'Directory' } },
      'hubble-tls': { projected: { defaultMode: 0o400, sources: [
        optional('hubble-server-certs', [{ key: 'tls.crt', path: 'server.crt' }, { key: 'tls.key', path: 'server.key' }, { key: 'ca.crt', path: 'client-ca.crt' }]),
      ] } },
      // The agent's config volume, of cilium-config; mounted nowhere.
      'config': { configMap: { name: 'cilium-config' } },
    });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('uses the host network, stops within 1 s at system-node-critical priority, and rolls two nodes at a time', () => {
    expect(pod).toMatchObject({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet', terminationGracePeriodSeconds: 1, priorityClassName: 'system-node-critical' });
    expect(pod).not.toHaveProperty('hostPID');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, maxSurge: 0 } });
  });

  test('runs on every Linux node whatever its taints, with the chart anti-affinity on k8s-app: cilium', () => {
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.affinity).toEqual({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { 'k8s-app': 'cilium' } }, topologyKey: 'kubernetes.io/hostname' }] } });
    expect(ds.spec.template.metadata.labels).toMatchObject({ 'k8s-app': 'cilium', 'app.kubernetes.io/part-of': 'cilium', 'app.kubernetes.io/name': 'cilium-agent' });
    const nodes: KubeNode[] = [
      { metadata: { name: 'not-ready', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node.cilium.io/agent-not-ready', effect: 'NoExecute' }] } },
      { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
      { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } } },
    ];
    expect(evaluateNodes(nodes, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['not-ready', 'cp']);
  });

  test('needs a privileged namespace, which kube-system is: its only Namespace object is the chart cilium-secrets', () => {
    expect(new CiliumChart(Testing.app(), 'cilium').agent.podSecurityLevel).toBe('privileged');
    expect(objects.filter((o) => o.kind === 'Namespace').map((n) => n.metadata.name)).toEqual(['cilium-secrets']);
  });
});

describe('examples/cilium.ts: what the agent needs beside its DaemonSet', () => {
  test('reads the cluster and its CRDs with the chart ClusterRole, and cilium-config with a Role in its namespace', () => {
    const rules = rulesOf(objects, 'ClusterRole');
    expect(rules).toHaveLength(10);
    expect(rules[2]).toEqual({ apiGroups: [''], resources: ['namespaces', 'services', 'pods', 'endpoints', 'nodes'], verbs: ['get', 'list', 'watch'] });
    expect(rules[4].resources).toHaveLength(19);
    expect(rules.slice(5)).toEqual([
      { apiGroups: ['cilium.io'], resources: ['ciliumidentities', 'ciliumendpoints', 'ciliumnodes'], verbs: ['create'] },
      { apiGroups: ['cilium.io'], resources: ['ciliumidentities'], verbs: ['update'] },
      { apiGroups: ['cilium.io'], resources: ['ciliumendpoints'], verbs: ['delete', 'get'] },
      { apiGroups: ['cilium.io'], resources: ['ciliumnodes', 'ciliumnodes/status'], verbs: ['get', 'update'] },
      { apiGroups: ['cilium.io'], resources: ['ciliumendpoints/status', 'ciliumendpoints', 'ciliuml2announcementpolicies/status', 'ciliumbgpnodeconfigs/status'], verbs: ['patch'] },
    ]);
    // The chart reads secrets only from its secrets namespace: no secrets rule cluster-wide.
    expect(rules.some((r) => r.resources.includes('secrets'))).toBe(false);
    expect(only(objects, 'Role', 'cilium-config-agent')).toMatchObject({ metadata: { namespace: 'kube-system' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] });
    // The chart's cilium-tlsinterception-secrets: Secrets of the cilium-secrets namespace only.
    const subjects = [{ kind: 'ServiceAccount', name: 'cilium', namespace: 'kube-system' }];
    expect(only(objects, 'Role', 'node-agent:kube-system:cilium')).toMatchObject({ metadata: { namespace: 'cilium-secrets' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }] });
    expect(only(objects, 'RoleBinding', 'node-agent:kube-system:cilium')).toMatchObject({ metadata: { namespace: 'cilium-secrets' }, subjects });
    expect(pod).toMatchObject({ serviceAccountName: 'cilium', automountServiceAccountToken: true });
  });

  test('has the chart cilium-config, whose checksum rolls the agents', () => {
    const config = only(objects, 'ConfigMap');
    expect(config.metadata).toMatchObject({ name: 'cilium-config', namespace: 'kube-system' });
    expect(Object.keys(config.data)).toHaveLength(154);
    expect(config.data).toMatchObject({
      'routing-mode': 'tunnel', 'tunnel-protocol': 'vxlan', 'ipam': 'cluster-pool', 'cluster-pool-ipv4-cidr': '10.0.0.0/8', 'kube-proxy-replacement': 'false',
      'write-cni-conf-when-ready': '/host/etc/cni/net.d/05-cilium.conflist', 'hubble-listen-address': ':4244', 'debug-verbose': '',
    });
    expect(ds.spec.template.metadata.annotations['node-reporter.dev/config-sha256']).toMatch(/^[0-9a-f]{64}$/);
  });

  test('has the hubble-peer Service, which selects the agent pods on their peer port, node-local', () => {
    const service = only(objects, 'Service', 'hubble-peer');
    expect(service.spec).toEqual({ selector: { 'k8s-app': 'cilium' }, ports: [{ name: 'peer-service', port: 443, protocol: 'TCP', targetPort: 4244 }], internalTrafficPolicy: 'Local' });
    expect(ds.spec.template.metadata.labels).toMatchObject(service.spec.selector);
  });
});
