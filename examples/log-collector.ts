// A log collector in the style of fluent-bit: /var/log read-only, RBAC to
// read pods and namespaces, its config as a ConfigMap whose checksum rolls
// the agents on change, every taint tolerated.
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

const FLUENT_BIT_CONF = `[SERVICE]
    HTTP_Server  On
    HTTP_Port    2020

[INPUT]
    Name              tail
    Path              /var/log/containers/*.log
    Tag               kube.*
    multiline.parser  cri

[FILTER]
    Name   kubernetes
    Match  kube.*

[OUTPUT]
    Name   stdout
    Match  *
`;

/** The namespace `logging` with a log collector on every Linux node. */
export class LogCollectorChart extends Chart {
  /** The collector. */
  public readonly collector: NodeAgent;

  constructor(scope: Construct, id: string, props: { readonly config?: string } = {}) {
    super(scope, id, { namespace: 'logging' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'logging' });

    const linux = new NodePolicy(this, 'Linux', { operatingSystem: 'linux', tolerations: [NodeToleration.everything()] });

    this.collector = new NodeAgent(this, 'FluentBit', {
      policy: linux,
      name: 'fluent-bit',
      containers: [{
        name: 'fluent-bit',
        image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
        ports: [{ number: 2020, name: 'http' }],
        env: { NODE_NAME: DownwardApi.nodeName(), POD_NAME: DownwardApi.podName(), POD_NAMESPACE: DownwardApi.podNamespace(), HOST_IP: DownwardApi.hostIp() },
        readiness: kplus.Probe.fromHttpGet('/api/v1/health', { port: 2020 }),
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(128) } },
      }],
      // Container log files are root's, mode 0640.
      runAsUser: 0,
      hostPaths: [{ name: 'varlog', hostPath: '/var/log', mountPath: '/var/log' }],
      serviceAccount: { rules: [{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }] },
      config: { data: { 'fluent-bit.conf': props.config ?? FLUENT_BIT_CONF }, mountPath: '/fluent-bit/etc' },
      priorityClassName: 'system-node-critical',
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "fluent-bit tails the node's container logs under /var/log, which only root may read",
      },
    });
    namespace.admit(this.collector);
  }
}
