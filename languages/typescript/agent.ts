// The realistic agent every language builds (languages/python, java, go):
// host network, a read-only host path, the privileged level with its reason,
// tolerations, a cdk8s-plus probe, a set-based policy (`NodeRequirement.in`, escaped in Python and
// Go) and a typed host path (`type`, escaped in Go). Written to the folder
// given as the first argument (agent.k8s.yaml); each language's app must
// synthesize the same bytes.
import { App, Chart, Size } from 'cdk8s';
import { Cpu, HostPathVolumeType, Probe } from 'cdk8s-plus-28';
import {
  DownwardApi, NodeAgent, NodePolicy, NodeRequirement, NodeToleration, PodSecurityLevel, PodSecurityNamespace, TaintEffect,
} from 'node-reporter';

const app = new App({ outdir: process.argv[2] ?? 'dist' });
app.node.setContext('node-reporter:kubernetesVersion', '1.35');
const chart = new Chart(app, 'agent', { namespace: 'inventory' });
new PodSecurityNamespace(chart, 'Namespace', { name: 'inventory', enforce: PodSecurityLevel.PRIVILEGED });
const policy = new NodePolicy(chart, 'Workers', {
  operatingSystem: 'linux',
  matchExpressions: [NodeRequirement.in('node-role', 'worker', 'edge')],
  tolerations: [NodeToleration.controlPlane(), NodeToleration.exists('dedicated', TaintEffect.NO_SCHEDULE)],
});
new NodeAgent(chart, 'Inventory', {
  policy,
  name: 'node-inventory',
  containers: [{
    name: 'inventory',
    image: 'busybox:1.36',
    command: ['sh', '-c', 'while true; do cat /host/etc/os-release; echo "on $NODE_NAME"; sleep 300; done'],
    env: { NODE_NAME: DownwardApi.nodeName() },
    // A cdk8s-plus-28 object where the props take cdk8s-plus' (ContainerProbe): passed as it is in every language.
    liveness: Probe.fromCommand(['cat', '/host/etc/os-release']),
    resources: { cpu: { request: Cpu.millis(10) }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } },
  }],
  hostNetwork: true,
  hostPaths: [{ name: 'os-release', hostPath: '/etc/os-release', mountPath: '/host/etc/os-release', type: HostPathVolumeType.FILE }],
  podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the host network and the node\'s os-release' },
});
app.synth();
