// fluent-bit, as its official chart deploys it by default (fluent/helm-charts
// charts/fluent-bit 0.58.1, app 5.1.1; `helm template fluent-bit ... -n
// logging`), built with props alone. Where it differs from the chart, the
// library's defaults improve on it, and a comment says so.
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, NodeAgent, NodePolicy, PodSecurityLevel, PodSecurityNamespace } from 'node-reporter';

/** The chart's default fluent-bit.conf. */
export const FLUENT_BIT_CONF = `[SERVICE]
    Daemon Off
    Flush 1
    Log_Level info
    Parsers_File /fluent-bit/etc/parsers.conf
    Parsers_File /fluent-bit/etc/conf/custom_parsers.conf
    HTTP_Server On
    HTTP_Listen 0.0.0.0
    HTTP_Port 2020
    Health_Check On

[INPUT]
    Name tail
    Path /var/log/containers/*.log
    multiline.parser docker, cri
    Tag kube.*
    Mem_Buf_Limit 5MB
    Skip_Long_Lines On

[INPUT]
    Name systemd
    Tag host.*
    Systemd_Filter _SYSTEMD_UNIT=kubelet.service
    Read_From_Tail On

[FILTER]
    Name kubernetes
    Match kube.*
    Merge_Log On
    Keep_Log Off
    K8S-Logging.Parser On
    K8S-Logging.Exclude On

[OUTPUT]
    Name es
    Match kube.*
    Host elasticsearch-master
    Logstash_Format On
    Retry_Limit False

[OUTPUT]
    Name es
    Match host.*
    Host elasticsearch-master
    Logstash_Format On
    Logstash_Prefix node
    Retry_Limit False
`;

/** The chart's default custom_parsers.conf. */
export const CUSTOM_PARSERS_CONF = `[PARSER]
    Name docker_no_time
    Format json
    Time_Keep Off
    Time_Key time
    Time_Format %Y-%m-%dT%H:%M:%S.%L
`;

/** Props of {@link FluentBitChart}. */
export interface FluentBitChartProps {
  /**
   * The fluent-bit.conf.
   * @default the chart's
   */
  readonly config?: string;
}

/** The namespace `logging` with fluent-bit on every node without a taint, reading pods and namespaces. */
export class FluentBitChart extends Chart {
  /** The collector. */
  public readonly collector: NodeAgent;

  constructor(scope: Construct, id: string, props: FluentBitChartProps = {}) {
    super(scope, id, { namespace: 'logging' });
    const namespace = new PodSecurityNamespace(this, 'Namespace', { name: 'logging' });

    // The chart selects every node and tolerates no taint.
    const everyNode = new NodePolicy(this, 'EveryNode');

    const hostPath = (name: string, path: string, type?: kplus.HostPathVolumeType) => AgentVolume.hostPath(name, path, { type });
    this.collector = new NodeAgent(this, 'FluentBit', {
      policy: everyNode,
      name: 'fluent-bit',
      containers: [{
        name: 'fluent-bit',
        image: 'cr.fluentbit.io/fluent/fluent-bit:5.1.1',
        command: ['/fluent-bit/bin/fluent-bit'],
        args: ['--workdir=/fluent-bit/etc', '--config=/fluent-bit/etc/conf/fluent-bit.conf'],
        ports: [{ number: 2020, name: 'http', protocol: kplus.Protocol.TCP }],
        liveness: kplus.Probe.fromHttpGet('/', { port: 2020 }),
        readiness: kplus.Probe.fromHttpGet('/api/v2/health', { port: 2020 }),
        // Improved: the chart sets none.
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(128) } },
        mounts: [
          { volume: 'config', path: '/fluent-bit/etc/conf' },
          // Improved: the chart mounts /var/log writable, but its config writes nothing there.
          { volume: 'varlog', path: '/var/log' },
          { volume: 'varlibdockercontainers', path: '/var/lib/docker/containers' },
          { volume: 'etcmachineid', path: '/etc/machine-id' },
        ],
        // The chart sets no security context; the library drops ALL capabilities,
        // forbids privilege escalation, makes the root read-only and sets
        // seccomp RuntimeDefault. Root stays: container logs are root's, 0640.
      }],
      volumes: [
        hostPath('varlog', '/var/log'),
        hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
        // The systemd input finds the journal by the machine id: a file, as in the chart.
        hostPath('etcmachineid', '/etc/machine-id', kplus.HostPathVolumeType.FILE),
      ],
      runAsUser: 0,
      config: { data: { 'custom_parsers.conf': CUSTOM_PARSERS_CONF, 'fluent-bit.conf': props.config ?? FLUENT_BIT_CONF } },
      // The kubernetes filter reads pods and namespaces with the ServiceAccount's token.
      serviceAccount: { rules: [{ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }] },
      metrics: { port: 'http', path: '/api/v2/metrics/prometheus' },
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "fluent-bit tails the node's container logs and journal under /var/log, which only root may read",
      },
    });
    namespace.admit(this.collector);
  }
}
