// `npm run examples`: every agent of examples/agents.ts into
// examples/dist/<name>.k8s.yaml, as `cdk8s synth` writes a chart, and only
// those files: a fresh folder swapped in when all of them synthesize.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { AGENTS } from './agents';

const dist = path.join(__dirname, 'dist');
const fresh = fs.mkdtempSync(path.join(__dirname, '.examples-'));
try {
  // One app per agent: each example is a deployment of its own, as its test
  // synthesizes it; no two examples own one object (test/examples/ownership.test.ts).
  for (const [name, chart] of Object.entries(AGENTS)) {
    const app = new App({ outdir: fresh });
    chart(app, name);
    app.synth();
  }
  fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(fresh, dist);
  console.log(`wrote ${Object.keys(AGENTS).map((n) => `examples/dist/${n}.k8s.yaml`).join(', ')}`);
} finally {
  fs.rmSync(fresh, { recursive: true, force: true });
}
