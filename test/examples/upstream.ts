/**
 * Reading a synthesized example as its upstream chart's default render is
 * read: the DaemonSet, a container, its mounts by path, the volumes by name.
 */
import { Testing } from 'cdk8s';
import { AGENTS } from '../../examples/agents';
import { Manifest, only } from '../util';

/** The objects of an example agent, as synthesized. */
export function objectsOf(name: string): Manifest[] {
  return Testing.synth(AGENTS[name](Testing.app(), name));
}

/** The one DaemonSet of the objects (or the one with this name). */
export function daemonSetOf(objects: Manifest[], name?: string): Manifest {
  return only(objects, 'DaemonSet', name);
}

/** A container of a DaemonSet's pod, by name, among containers and init containers. */
export function containerOf(ds: Manifest, name: string): Manifest {
  const pod = ds.spec.template.spec;
  const found = [...pod.containers, ...(pod.initContainers ?? [])].filter((c: Manifest) => c.name === name);
  if (found.length !== 1) {
    throw new Error(`expected one container ${name} but found ${found.length}`);
  }
  return found[0];
}

/** The container's mounts by mount path: `{ volume, readOnly, propagation, subPath }`. */
export function mountsOf(container: Manifest): Record<string, Manifest> {
  return Object.fromEntries((container.volumeMounts ?? []).map((m: Manifest) => [m.mountPath, {
    volume: m.name, readOnly: m.readOnly ?? false, ...(m.mountPropagation ? { propagation: m.mountPropagation } : {}), ...(m.subPath ? { subPath: m.subPath } : {}),
  }]));
}

/** The pod's volumes by name, without their name. */
export function volumesOf(ds: Manifest): Record<string, Manifest> {
  return Object.fromEntries((ds.spec.template.spec.volumes ?? []).map(({ name, ...source }: Manifest) => [name, source]));
}

/** The rules of a (Cluster)Role, each as the API shows it. */
export function rulesOf(objects: Manifest[], kind: 'ClusterRole' | 'Role', name?: string): Manifest[] {
  return only(objects, kind, name).rules;
}
