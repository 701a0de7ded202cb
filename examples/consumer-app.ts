// A team's own cdk8s app that installs this library: two reporters, a stable
// one and a canary, share one eligibility policy in the team's namespace; the
// team's own exporter runs on Linux nodes chosen by set-based rules, with an
// init container, its volumes, the RBAC it needs and a metrics Service.
import { App, Chart } from 'cdk8s';
import { PercentOrAbsolute } from 'cdk8s-plus-28';
import {
  AgentVolume, DownwardApi, LabeledNodePolicy, NodeAgent, NodePolicy, NodeReporterDaemonSet, NodeRequirement, NodeToleration, ProjectedSource, RestrictedNamespace,
} from 'node-reporter';

const app = new App();
const chart = new Chart(app, 'monitoring', { namespace: 'monitoring' });
new RestrictedNamespace(chart, 'Namespace', { name: 'monitoring' });

// Nodes labelled node-role.example.com/agents=true are eligible, control-plane nodes included.
const agents = new LabeledNodePolicy(chart, 'Agents', {
  key: 'node-role.example.com/agents',
  value: 'true',
  tolerations: [NodeToleration.controlPlane()],
});

const labels = { 'app.kubernetes.io/part-of': 'observability' };
new NodeReporterDaemonSet(chart, 'Stable', { policy: agents, version: 'v3', labels });
new NodeReporterDaemonSet(chart, 'Canary', {
  policy: agents,
  version: 'v4-rc.1',
  name: 'node-reporter-canary',
  labels,
  priorityClassName: 'system-node-critical',
  maxUnavailable: PercentOrAbsolute.percent(10),
  minReadySeconds: 10,
});

// Any agent: Linux on amd64 or arm64, never a Fargate (virtual) node.
const linux = new NodePolicy(chart, 'Linux', {
  operatingSystem: 'linux',
  architectures: ['amd64', 'arm64'],
  matchExpressions: [NodeRequirement.notIn('eks.amazonaws.com/compute-type', 'fargate')],
});
new NodeAgent(chart, 'Exporter', {
  policy: linux,
  name: 'team-exporter',
  labels,
  // Writes the collectors' config into a scratch directory the exporter reads.
  initContainers: [{
    name: 'render-config',
    image: 'registry.example.com/team/exporter:1.4.0',
    command: ['/bin/exporter', 'render-config', '--out=/work/exporter.yaml'],
    mounts: [{ volume: 'work', path: '/work' }],
  }],
  containers: [{
    name: 'exporter',
    image: 'registry.example.com/team/exporter:1.4.0',
    args: ['--listen=:8080', '--config=/work/exporter.yaml', '--token=/var/run/exporter/token'],
    ports: [{ number: 8080, name: 'metrics' }],
    env: { NODE_NAME: DownwardApi.nodeName(), HOST_IP: DownwardApi.hostIp() },
    mounts: [{ volume: 'work', path: '/work', readOnly: true }, { volume: 'token', path: '/var/run/exporter' }],
  }],
  volumes: [
    AgentVolume.emptyDir('work'),
    // A token for the team's metrics gateway, not the API server.
    AgentVolume.projected('token', [ProjectedSource.serviceAccountToken({ path: 'token', audience: 'metrics-gateway', expirationSeconds: 3600 })]),
  ],
  // May read its own settings ConfigMap, and no other.
  serviceAccount: { namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['team-exporter-settings'], verbs: ['get', 'watch'] }] },
  // A Service on the metrics port that selects the exporter's pods.
  metrics: { port: 'metrics' },
});

app.synth();
