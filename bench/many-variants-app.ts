/**
 * A node-reporter app with N variant charts, for `npm run bench`.
 * Usage: node --require tsx/cjs bench/many-variants-app.ts N OUTDIR [--stock | --bare | --bare-rendered | --bare-classes]
 * --stock renders with cdk8s' own Chart.toJson, for comparison.
 * --bare renders, with cdk8s' own Chart.toJson, N charts of the same tree as
 * one variant chart (the same constructs at the same paths, ApiObjects where
 * it has them) made of plain Constructs and ApiObjects: what cdk8s alone
 * costs for that app, with none of this library's code in it.
 * --bare-rendered does the same with ApiObjects that hold the model's whole
 * rendered manifests (names suffixed): what cdk8s alone costs to write the
 * same YAML from the same tree.
 * --bare-classes does what --bare-rendered does with one empty class per
 * class of the model's tree (a subclass of Chart, ApiObject or Construct):
 * cdk8s alone writing the same YAML from a tree of as many classes, the floor
 * of any library whose tree this is (cdk8s' walks slow down with the number
 * of classes they meet, V8's megamorphic property loads).
 * Prints {"charts": N, "ms": synth milliseconds, "maxRssMiB": peak memory,
 * "classes": the number of classes in the app's tree}.
 * With BENCH_PASSES=K it then times K more of cdk8s' validation passes over
 * the whole app (Chart.toJson of a chart of one ConfigMap) and adds
 * "passMs", the milliseconds of one.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { NodeReporterChart } from '../lib';

const [count, outdir, mode] = process.argv.slice(2);
if (mode === '--stock') {
  NodeReporterChart.prototype.toJson = Chart.prototype.toJson;
}

/** The model's manifests by construct, when rendered copies are asked for. */
let renderedOf: Map<IConstruct, { metadata?: object } & Record<string, unknown>> | undefined;

/** With `--bare-classes`, the empty class standing for each class of the model's tree. */
const standIns = new Map<unknown, unknown>();
/** The class a copy of `original` is made of: `base`, or with `--bare-classes` an empty subclass of it, one per original class. */
function classFor<T extends typeof Chart | typeof ApiObject | typeof Construct>(original: unknown, base: T): T {
  if (mode !== '--bare-classes') return base;
  if (!standIns.has(original)) standIns.set(original, class extends (base as typeof Construct) {});
  return standIns.get(original) as T;
}

/** Copies the tree under `from` into `to`, with plain Constructs and ApiObjects of the same kinds (holding the model's manifests with `--bare-rendered` and `--bare-classes`). */
function copyTree(from: IConstruct, to: Construct, suffix: string): void {
  for (const child of from.node.children) {
    const rendered = renderedOf?.get(child);
    const copy = ApiObject.isApiObject(child)
      ? new (classFor(child.constructor, ApiObject))(to, child.node.id, rendered !== undefined
        ? { ...rendered, apiVersion: child.apiVersion, kind: child.kind, metadata: { ...rendered.metadata, name: `${child.name}-${suffix}` } }
        : { apiVersion: child.apiVersion, kind: child.kind, metadata: { name: `${child.name}-${suffix}` } })
      : new (classFor(child.constructor, Construct))(to, child.node.id);
    copyTree(child, copy, suffix);
  }
}
// Loaded and built once in every mode, so that all three start alike.
const model = new NodeReporterChart(new App({ outdir, recordConstructMetadata: false }), 'node-reporter-v0', { version: 'v0' });

if (mode === '--bare-rendered' || mode === '--bare-classes') {
  renderedOf = new Map(model.node.findAll().filter(ApiObject.isApiObject).map((o) => [o, o.toJson()]));
}

const start = process.hrtime.bigint();
const app = new App({ outdir, recordConstructMetadata: false });
for (let i = 1; i <= Number(count); i++) {
  if (mode === '--bare' || mode === '--bare-rendered' || mode === '--bare-classes') {
    copyTree(model, new (classFor(NodeReporterChart, Chart))(app, `node-reporter-v${i}`), `v${i}`);
  } else {
    new NodeReporterChart(app, `node-reporter-v${i}`, { version: `v${i}` });
  }
}
app.synth();
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const passes = Number(process.env.BENCH_PASSES ?? 0);
let passMs: number | undefined;
if (passes > 0) {
  const small = new Chart(app, 'small');
  new ApiObject(small, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
  Chart.prototype.toJson.call(small);
  const t = process.hrtime.bigint();
  for (let i = 0; i < passes; i++) Chart.prototype.toJson.call(small);
  passMs = Number(process.hrtime.bigint() - t) / 1e6 / passes;
}
// The classes cdk8s' walks meet in the app (after the timing).
const classes = new Set(app.node.findAll().map((c) => c.constructor)).size;
console.log(JSON.stringify({ charts: Number(count), ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, passMs, classes }));
