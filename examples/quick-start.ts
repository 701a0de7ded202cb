// Quick start: one agent pod on every Linux node, secure by default, checked at synth.
import { App, Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-28';
import { DownwardApi, NodeAgent, NodePolicy, RestrictedNamespace } from 'node-reporter';

const app = new App();
const chart = new Chart(app, 'agents', { namespace: 'agents' });
new RestrictedNamespace(chart, 'Namespace', { name: 'agents' });

// Which nodes are eligible: every Linux node.
const linux = new NodePolicy(chart, 'Linux', { operatingSystem: 'linux' });

// What runs on each of them: a DaemonSet that passes Pod Security "restricted".
new NodeAgent(chart, 'Hello', {
  policy: linux,
  name: 'hello',
  containers: [{
    name: 'hello',
    image: 'busybox:1.36',
    command: ['sh', '-c', 'while true; do echo "hello from $NODE_NAME"; sleep 60; done'],
    env: { NODE_NAME: DownwardApi.nodeName() },
    // Sized: it runs on every node. Without resources it gets small requests
    // and no limit, and the checks warn until you size it.
    resources: { cpu: { request: Cpu.millis(10) }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } },
  }],
});

app.synth();
