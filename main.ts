import { App } from 'cdk8s';
import { booleanSetting, NodeReporterChart, selectVariants, synthesizesHelmChart } from './lib';

// No outdir: it would override `cdk8s synth -o` and `--stdout`.
const app = new App();
// NODE_REPORTER_VARIANTS=v2 synthesizes v2 alone; a Helm chart must pick one.
const variants = selectVariants(['v1', 'v2'], process.env.NODE_REPORTER_VARIANTS, { helm: synthesizesHelmChart(process.env.CDK8S_OUTDIR) });
// NODE_REPORTER_CREATE_NAMESPACE=false: deploy into a namespace someone else owns.
const createNamespace = booleanSetting('NODE_REPORTER_CREATE_NAMESPACE', process.env.NODE_REPORTER_CREATE_NAMESPACE, true);
for (const version of variants) {
  new NodeReporterChart(app, `node-reporter-${version}`, { version, createNamespace });
}
app.synth();
