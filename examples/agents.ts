// The real agents of examples/, by the name of their file in examples/dist/.
// `npm run examples` synthesizes each into examples/dist/<name>.k8s.yaml.
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { AwsEbsCsiNodeChart } from './aws-ebs-csi-node';
import { FalcoChart } from './falco';
import { FluentBitChart } from './fluent-bit';
import { NodeExporterChart } from './node-exporter';
import { PromtailChart } from './promtail';

/** Each example agent's chart, by its name. */
export const AGENTS: Record<string, (scope: Construct, id: string) => Chart> = {
  'aws-ebs-csi-node': (scope, id) => new AwsEbsCsiNodeChart(scope, id),
  'falco': (scope, id) => new FalcoChart(scope, id),
  'fluent-bit': (scope, id) => new FluentBitChart(scope, id),
  'node-exporter': (scope, id) => new NodeExporterChart(scope, id),
  'promtail': (scope, id) => new PromtailChart(scope, id),
};
