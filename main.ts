import { App } from 'cdk8s';
import { NodeReporterChart } from './lib';

// No outdir: it would override `cdk8s synth -o` and `--stdout`. No construct
// metadata file: dist/ holds exactly one manifest per variant.
const app = new App({ recordConstructMetadata: false });
for (const version of ['v1', 'v2']) {
  new NodeReporterChart(app, `node-reporter-${version}`, { version });
}
app.synth();
