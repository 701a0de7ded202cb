import { Chart, Testing, Yaml } from 'cdk8s';

/** A synthesized Kubernetes object, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Manifest = Record<string, any>;

/** The chart's objects, as `cdk8s synth` would write them. */
export function synth(chart: Chart): Manifest[] {
  return Testing.synth(chart);
}

/** The chart as the multi-document YAML file `cdk8s synth` writes. */
export function synthYaml(chart: Chart): string {
  return Yaml.stringify(...Testing.synth(chart));
}

/** The one object of this kind (and name, if given); fails the test when there is not exactly one. */
export function only(manifests: Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata?.name === name));
  if (found.length !== 1) {
    throw new Error(`expected one ${kind}${name ? ` named ${name}` : ''} but found ${found.length}`);
  }
  return found[0];
}
