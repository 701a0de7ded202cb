/**
 * A `kubectl get nodes -o json` list of N nodes, shaped as kubectl prints
 * them (labels, annotations, taints, conditions, addresses, node info), for
 * the eligibility benchmark. Taints are typed with the project's Kubernetes
 * 1.28 bindings (imports/ holds no status types: cdk8s omits them).
 */
import type { Taint } from '../imports/k8s';

function node(i: number) {
  const name = `ip-10-${(i >> 16) & 255}-${(i >> 8) & 255}-${i & 255}.ec2.internal`;
  const controlPlane = i < 3;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'm6i.large',
    'topology.kubernetes.io/region': 'eu-west-1', 'topology.kubernetes.io/zone': `eu-west-1${'abc'[i % 3]}`,
  };
  if (controlPlane) labels['node-role.kubernetes.io/control-plane'] = '';
  if (i % 4 !== 0) labels['practice-tier'] = i % 4 === 3 ? 'batch' : 'operations';
  const taints: Taint[] = controlPlane ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] : i % 50 === 0 ? [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] : [];
  const time = '2026-11-30T10:00:00Z';
  const conditions = [
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'], ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID'], ['Ready', 'True', 'KubeletReady'],
  ].map(([type, status, reason]) => ({ type, status, reason, message: `kubelet reports ${reason}`, lastHeartbeatTime: time, lastTransitionTime: time }));
  const addresses = [{ type: 'InternalIP', address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }, { type: 'Hostname', address: name }];
  const nodeInfo = {
    architecture: 'amd64', bootID: `boot-${i}`, containerRuntimeVersion: 'containerd://1.7.13', kernelVersion: '6.1.0', kubeProxyVersion: 'v1.28.6',
    kubeletVersion: 'v1.28.6', machineID: `machine-${i}`, operatingSystem: 'linux', osImage: 'Debian GNU/Linux 12 (bookworm)', systemUUID: `uuid-${i}`,
  };
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels, uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i), creationTimestamp: time,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } },
    spec: { podCIDR: `10.244.${i % 256}.0/24`, providerID: `aws:///eu-west-1a/i-${i.toString(16).padStart(17, '0')}`, ...(taints.length ? { taints } : {}) },
    status: {
      addresses, conditions,
      capacity: { 'cpu': '2', 'ephemeral-storage': '61202244Ki', 'memory': '8150636Ki', 'pods': '110' },
      allocatable: { 'cpu': '1930m', 'ephemeral-storage': '56403987978', 'memory': '7313516Ki', 'pods': '110' },
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo,
      images: [{ names: ['docker.io/library/busybox:1.36'], sizeBytes: 2155245 }],
    },
  };
}

/** The JSON text of a node list of this size. */
export function nodeListJson(count: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: Array.from({ length: count }, (_, i) => node(i)) }, null, 4);
}
