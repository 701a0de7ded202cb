/**
 * The manifests `npm run e2e:agents` uses when no file is given, written into
 * a folder, and what each one is for (the plan). Everything after this is
 * driven by the files alone.
 *
 * Until examples/dist/ exists, they are the current examples synthesized
 * here: node-exporter (its image is built by e2e/cluster.sh) and the
 * reporter run; the log collector (fluent-bit's image is not on the node)
 * gives its RBAC to the authorizer, its config checksum to the roll, and its
 * Namespace, ClusterRole and namespaced objects to the pruning recipe.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { FluentBitChart } from '../examples/fluent-bit';
import { NodeExporterChart } from '../examples/node-exporter';
import { parseManifest, WORKLOAD_KINDS } from './manifests';

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
}

/** Another config for the log collector: the roll step's change. */
const CHANGED_CONFIG = `[SERVICE]
    HTTP_Server  On
    HTTP_Port    2020
    Log_Level    debug
`;

function write(dir: string, name: string, objects: unknown[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Yaml.stringify(...objects));
  return file;
}

/** Writes the default manifests into dir and returns the plan that uses them. */
export function writePlan(dir: string): Plan {
  const exporter = write(dir, 'node-exporter.k8s.yaml', Testing.synth(new NodeExporterChart(Testing.app(), 'node-exporter')));
  const collector = write(dir, 'log-collector.k8s.yaml', Testing.synth(new FluentBitChart(Testing.app(), 'log-collector')));
  const changed = write(dir, 'log-collector-config-changed.k8s.yaml', Testing.synth(new FluentBitChart(Testing.app(), 'log-collector', { config: CHANGED_CONFIG })));
  const reporter = path.join(dir, 'node-reporter-v1.k8s.yaml');
  fs.copyFileSync(path.join(__dirname, '..', 'dist', 'node-reporter-v1.k8s.yaml'), reporter);
  // An upgrade that drops the agent's cluster RBAC: the same file without its
  // ClusterRole and binding (and without the DaemonSet, whose image is not here).
  const unworked = parseManifest(fs.readFileSync(collector, 'utf-8'), collector).filter((o) => !WORKLOAD_KINDS.has(o.kind));
  const pruneOld = write(dir, 'log-collector-no-workload.k8s.yaml', unworked);
  const pruneNew = write(dir, 'log-collector-no-cluster-rbac.k8s.yaml', unworked.filter((o) => o.kind !== 'ClusterRole' && o.kind !== 'ClusterRoleBinding'));
  return { run: [reporter, exporter], metrics: exporter, rbac: [collector], roll: [collector, changed], prune: [pruneOld, pruneNew] };
}
