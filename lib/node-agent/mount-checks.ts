/**
 * Internal: what the API server refuses in an agent's volumes and in a container's
 * mounts, asked of the checks (lib/checks/api/core-volumes: ValidateVolumes,
 * ValidateVolumeMounts, validateMountPropagation), whose rules these are; the
 * findings are named by the props they come from.
 */
import * as kplus from 'cdk8s-plus-28';
import { checkVolumeMounts, checkVolumes } from '../checks/api/core-volumes';
import { isRecord, Problem } from '../k8s/syntax';
import { askChecks, PropPath } from '../prop-checks';

/** Where a field of one rendered volume comes from in its AgentVolume (or ProjectedSource). */
const VOLUME_PROP_PATHS: readonly PropPath[] = [
  [/^volumes\[0\]\.hostPath\./, ''],
  [/^volumes\[0\]\.configMap\.name/, 'configMapName'],
  [/^volumes\[0\]\.projected\.sources\[(\d+)\]\.downwardAPI\.items\[(\d+)\]\.fieldRef\./, 'sources[$1][$2].'],
  [/^volumes\[0\]\.projected\.sources\[(\d+)\]\.downwardAPI\.items\[(\d+)\]\./, 'sources[$1][$2].'],
  [/^volumes\[0\]\.projected\.sources\[(\d+)\]\.(serviceAccountToken|configMap|secret)\./, 'sources[$1].'],
  [/^volumes\[0\]\.(emptyDir|configMap|secret|projected)\./, ''],
  [/^volumes\[0\]\./, ''],
];

/**
 * The API server's refusals of one volume, as rendered (`_toKube`), named
 * under `prop` (`volumes[2]`). Asked only of a volume whose props have the
 * right shapes (AgentVolume.problems found none), which renders.
 */
export function volumeApiProblems(prop: string, volume: { _toKube(): kplus.k8s.Volume }): Problem[] {
  const fragment = { volumes: [kplus.k8s.toJson_Volume(volume._toKube())] };
  return askChecks(prop, fragment, VOLUME_PROP_PATHS, (add) => {
    checkVolumes(add, { metadataPath: 'metadata', metadata: {}, specPath: '', spec: fragment }, []);
  });
}

/**
 * The volume names the API server refuses as used twice in the pod
 * (ValidateVolumes), asked of the checks on the pod's volumes by name, each
 * named by its prop (`volumes[1].name`, `hostPaths[0].name`, `config`).
 * @param names the pod's volumes in its order, each with the prop its name comes from
 */
export function volumeNameProblems(names: readonly { readonly prop: string; readonly name: unknown }[]): Problem[] {
  const given = names.filter((n) => typeof n.name === 'string' && n.name !== '');
  const fragment = { volumes: given.map((n) => ({ name: n.name })) };
  const table: PropPath[] = given.map((n, i) => [new RegExp(`^volumes\\[${i}\\]\\.name$`), n.prop]);
  // A name that is no DNS-1123 label is the volume's own problem (volumeApiProblems); only the repeats are asked here.
  return askChecks('', fragment, table, (add) => checkVolumes((rule, path, message) => {
    if (message.startsWith('Duplicate value')) add(rule, path, message);
  }, { metadataPath: 'metadata', metadata: {}, specPath: '', spec: fragment }, []))
    .map((p) => p.replace(' must be unique but got ', ' must be a volume name no other volume uses but got '));
}

/** Where a field of one rendered mount comes from in its AgentMount. */
const MOUNT_PROP_PATHS: readonly PropPath[] = [
  [/^volumeMounts\[\d+\]\.name/, 'volume'],
  [/^volumeMounts\[\d+\]\.mountPath/, 'path'],
  [/^volumeMounts\[\d+\]\.mountPropagation/, 'propagation'],
  [/^volumeMounts\[\d+\]\./, ''],
];

/** A mount as the manifest has it. */
function renderedMount(m: unknown): Record<string, unknown> {
  return isRecord(m) ? { name: m.volume, mountPath: m.path, subPath: m.subPath, mountPropagation: m.propagation } : {};
}

/**
 * The API server's refusals of a container's mounts: each of its own
 * (`mounts[j]`, named under `prop`), and the paths it mounts twice, its
 * every-container mounts (hostPaths, config.mountPath) included, named `prop.mounts`.
 * @param prop the container's prop, e.g. `containers[0]`
 * @param every the every-container mounts, which come first
 * @param own the container's `mounts`
 * @param volumes the names of the agent's volumes
 * @param privileged whether the container is privileged (Bidirectional needs it)
 */
export function mountsApiProblems(prop: string, every: readonly unknown[], own: readonly unknown[], volumes: ReadonlySet<string>, privileged: boolean): Problem[] {
  const fragment = { volumeMounts: [...every, ...own].map(renderedMount) };
  const problems: Problem[] = [];
  const mine = (path: string) => Number(/^volumeMounts\[(\d+)\]/.exec(path)?.[1]) - every.length;
  checkVolumeMounts((rule, path, message) => {
    // Each finding named by the prop it comes from: an own mount's, or (a path the every-container mounts use twice) the container's.
    if (mine(path) < 0 && message.endsWith(': must be unique')) {
      problems.push(...askChecks(`${prop}.mounts`, fragment, [[/^volumeMounts\[\d+\]\.mountPath/, '']], (add) => add(rule, path, message)));
    } else if (mine(path) >= 0) {
      problems.push(...askChecks(`${prop}.mounts[${mine(path)}]`, fragment, MOUNT_PROP_PATHS, (add) => add(rule, path, message)));
    }
  }, '', fragment, new Set(volumes), privileged);
  return problems;
}
