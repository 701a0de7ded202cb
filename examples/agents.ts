// The real agents of examples/, by the name of their file in examples/dist/.
// `npm run examples` synthesizes each into examples/dist/<name>.k8s.yaml.
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { AwsEbsCsiNodeChart } from './aws-ebs-csi-node';
import { CalicoNodeChart } from './calico-node';
import { CiliumChart } from './cilium';
import { FalcoChart } from './falco';
import { FluentBitChart } from './fluent-bit';
import { KubeProxyChart } from './kube-proxy';
import { KuredChart } from './kured';
import { NodeExporterChart } from './node-exporter';
import { NodeExporterWavesChart } from './node-exporter-waves';
import { NodeInventoryChart } from './node-inventory';
import { NodeProblemDetectorChart } from './node-problem-detector';
import { NvidiaDevicePluginChart } from './nvidia-device-plugin';
import { OpenTelemetryCollectorChart } from './opentelemetry-collector';
import { PromtailChart } from './promtail';
import { VectorChart } from './vector';

/** Each example agent's chart, by its name. */
export const AGENTS: Record<string, (scope: Construct, id: string) => Chart> = {
  'aws-ebs-csi-node': (scope, id) => new AwsEbsCsiNodeChart(scope, id),
  'calico-node': (scope, id) => new CalicoNodeChart(scope, id),
  'cilium': (scope, id) => new CiliumChart(scope, id),
  'falco': (scope, id) => new FalcoChart(scope, id),
  'fluent-bit': (scope, id) => new FluentBitChart(scope, id),
  'kube-proxy': (scope, id) => new KubeProxyChart(scope, id),
  'kured': (scope, id) => new KuredChart(scope, id),
  'node-exporter': (scope, id) => new NodeExporterChart(scope, id),
  'node-exporter-waves': (scope, id) => new NodeExporterWavesChart(scope, id),
  'node-inventory': (scope, id) => new NodeInventoryChart(scope, id),
  'node-problem-detector': (scope, id) => new NodeProblemDetectorChart(scope, id),
  'nvidia-device-plugin': (scope, id) => new NvidiaDevicePluginChart(scope, id),
  'opentelemetry-collector': (scope, id) => new OpenTelemetryCollectorChart(scope, id),
  'promtail': (scope, id) => new PromtailChart(scope, id),
  'vector': (scope, id) => new VectorChart(scope, id),
};
