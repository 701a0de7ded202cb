/**
 * A node-reporter app with N variant charts, for `npm run bench`.
 * Usage: node --require tsx/cjs bench/many-variants-app.ts N OUTDIR [--stock]
 * --stock renders with cdk8s' own Chart.toJson, for comparison.
 * Prints {"charts": N, "ms": synth milliseconds, "maxRssMiB": peak memory}.
 */
import { App, Chart } from 'cdk8s';
import { NodeReporterChart } from '../lib';

const [count, outdir, mode] = process.argv.slice(2);
if (mode === '--stock') {
  NodeReporterChart.prototype.toJson = Chart.prototype.toJson;
}
const start = process.hrtime.bigint();
const app = new App({ outdir, recordConstructMetadata: false });
for (let i = 1; i <= Number(count); i++) {
  new NodeReporterChart(app, `node-reporter-v${i}`, { version: `v${i}` });
}
app.synth();
const ms = Number(process.hrtime.bigint() - start) / 1e6;
console.log(JSON.stringify({ charts: Number(count), ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
