import { App } from 'cdk8s';
import { NodeReporterChart, selectVariants } from './lib';

// No outdir: it would override `cdk8s synth -o` and `--stdout`. No construct
// metadata file: dist/ holds exactly one manifest per variant.
const app = new App({ recordConstructMetadata: false });
// NODE_REPORTER_VARIANTS=v2 synthesizes v2 alone, e.g. as one Helm chart.
for (const version of selectVariants(['v1', 'v2'], process.env.NODE_REPORTER_VARIANTS)) {
  new NodeReporterChart(app, `node-reporter-${version}`, { version });
}
app.synth();
