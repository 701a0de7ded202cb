/**
 * The manifests `npm run e2e:agents` uses when no file is given, copied into
 * a folder, and what each one is for (the plan). Everything after this is
 * driven by the files alone.
 *
 * They are the committed files: the reporter (dist/), node-exporter (its
 * image is Debian's binary under the example's tag, built by e2e/cluster.sh)
 * and node-inventory (busybox) from examples/dist/ run side by side; every
 * other example with RBAC gives its RBAC to the authorizer (their images are
 * not on the node). node-inventory also gives the roll (another config) and
 * the prune (a version without some RBAC): those second versions are its
 * chart with other props, synthesized here. The reporter also gives the
 * switch of namespace ownership: its v1 chart with `createNamespace: false`
 * (`NODE_REPORTER_CREATE_NAMESPACE=false`), synthesized here as main.ts does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { NodeInventoryChart } from '../examples/node-inventory';
import { NodeReporterChart } from '../lib';
import { readManifest } from './manifests';

/** Which file each step of the agents e2e uses. */
export interface Plan {
  /** Applied as they are and run side by side: every image they run must be on the node. */
  run: string[];
  /** The node-exporter manifest (one of `run`): metrics from the host, read-only host root, host PID, refused when restricted. */
  metrics?: string;
  /** Applied without their workloads (their images are not on the node): their RBAC goes to the authorizer. */
  rbac: string[];
  /** The same agent before and after a config change: the change rolls, the same config does not. */
  roll?: [string, string];
  /** The same agent before and after an upgrade that drops objects: the recipe prunes them. */
  prune?: [string, string];
  /** The same agent owning its Namespace and then not: the switch-ownership recipe leaves the Namespace and what others put in it. */
  switch?: [string, string];
}

const ROOT = path.join(__dirname, '..');
const EXAMPLES = path.join(ROOT, 'examples', 'dist');

/** Another inventory.conf: the roll step's change. */
const CHANGED_CONFIG = `# Seconds between two inventories.
INTERVAL=10
# Host-wide files of /proc copied into the inventory.
PROC_FILES="loadavg uptime"
`;

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

function copy(from: string, dir: string): string {
  const file = path.join(dir, path.basename(from));
  fs.copyFileSync(from, file);
  return file;
}

function write(dir: string, name: string, objects: unknown[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Yaml.stringify(...objects));
  return file;
}

/** Copies the default manifests into dir (and writes the second versions) and returns the plan that uses them. */
export function writePlan(dir: string): Plan {
  const reporter = copy(path.join(ROOT, 'dist', 'node-reporter-v1.k8s.yaml'), dir);
  const exporter = copy(path.join(EXAMPLES, 'node-exporter.k8s.yaml'), dir);
  const inventory = copy(path.join(EXAMPLES, 'node-inventory.k8s.yaml'), dir);
  const run = [reporter, exporter, inventory];
  // Every other example whose file holds RBAC, whatever the examples are now.
  const rbac = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.k8s.yaml')).sort()
    .map((f) => path.join(EXAMPLES, f))
    .filter((f) => !run.some((r) => path.basename(r) === path.basename(f)) && readManifest(f).some((o) => RBAC_KINDS.has(o.kind)))
    .map((f) => copy(f, dir));
  const changed = write(dir, 'node-inventory-config-changed.k8s.yaml', Testing.synth(new NodeInventoryChart(Testing.app(), 'node-inventory', { config: CHANGED_CONFIG })));
  // An upgrade that drops the view binding (cluster-scoped) and the lock's Role and RoleBinding (namespaced).
  const smaller = write(dir, 'node-inventory-without-workloads-and-lock.k8s.yaml', Testing.synth(new NodeInventoryChart(Testing.app(), 'node-inventory', { workloads: false, lock: false })));
  const shared = write(dir, 'node-reporter-v1-without-namespace.k8s.yaml', Testing.synth(new NodeReporterChart(Testing.app(), 'node-reporter-v1', { version: 'v1', createNamespace: false })));
  return { run, metrics: exporter, rbac, roll: [inventory, changed], prune: [inventory, smaller], switch: [reporter, shared] };
}
