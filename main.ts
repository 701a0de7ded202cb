import { App } from 'cdk8s';
import { finishHelmChart, NodeReporterChart, synthesizesHelmChart } from './lib';
import { KUBERNETES_VERSION_CONTEXT } from './lib/checks';
import { booleanSetting, selectVariants } from './lib/variants';

// The app's settings come from the environment; a bad one is one line and exit 2.
function settings() {
  const helm = synthesizesHelmChart(process.env.CDK8S_OUTDIR);
  try {
    return {
      helm,
      // NODE_REPORTER_VARIANTS=v2 synthesizes v2 alone; a Helm chart must pick one.
      variants: selectVariants(['v1', 'v2'], process.env.NODE_REPORTER_VARIANTS, { helm }),
      // NODE_REPORTER_CREATE_NAMESPACE=false: deploy into a namespace someone else owns.
      createNamespace: booleanSetting('NODE_REPORTER_CREATE_NAMESPACE', process.env.NODE_REPORTER_CREATE_NAMESPACE, true),
    };
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

const { helm, variants, createNamespace } = settings();
// No outdir: it would override `cdk8s synth -o` and `--stdout`.
const app = new App();
// Written for the cluster it runs on (Kubernetes 1.35): Pod Security v1.35, each object marked with it.
app.node.setContext(KUBERNETES_VERSION_CONTEXT, '1.35');
for (const version of variants) {
  new NodeReporterChart(app, `node-reporter-${version}`, { version, createNamespace });
}
app.synth();
if (helm) {
  // Helm would evaluate `{{` in the manifests; the chart's appVersion is the variant's.
  finishHelmChart(app.outdir, { appVersion: variants[0] });
}
