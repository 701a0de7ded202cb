import { App } from 'cdk8s';
import { NodeReporterChart } from './lib';

// No outdir here: it would override `cdk8s synth -o` and `--stdout`.
const app = new App();
for (const version of ['v1', 'v2']) {
  new NodeReporterChart(app, `node-reporter-${version}`, { version });
}
app.synth();
