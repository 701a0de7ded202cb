/**
 * Internal: where in NodeAgent's props a manifest path comes from: the table that lets
 * the constructs ask the checks (../prop-checks) and still name the prop.
 * Paths are relative to a container, or to the pod spec.
 */
import { isRecord } from '../k8s/syntax';
import { propOfPath, PropPath, valueAt } from '../prop-checks';
import { CONFIG_VOLUME } from './config';

/** A container's manifest fields that an AgentContainer names otherwise; the rest keep their names. */
export const CONTAINER_PROP_PATHS: readonly PropPath[] = [
  [/^ports\[(\d+)\]\.containerPort/, 'ports[$1].number'],
  [/^env\[\d+\]\.name/, 'env[key]'],
  [/^envFrom\[(\d+)\]\.(configMapRef|secretRef)\.name/, 'envFrom[$1].name'],
  [/^(liveness|readiness|startup)Probe/, '$1'],
  // A container's volume mounts are its every-container mounts (hostPaths, config.mountPath), then its own: no one index of a prop.
  [/^volumeMounts(\[\d+\].*)?$/, 'mounts'],
  [/^securityContext\.runAsUser/, 'securityContext.user'],
  [/^securityContext\.runAsGroup/, 'securityContext.group'],
  [/^resources\.requests\["ephemeral-storage"\]/, 'resources.ephemeralStorage.request'],
  [/^resources\.limits\["ephemeral-storage"\]/, 'resources.ephemeralStorage.limit'],
  [/^resources\.requests\.(\w+)/, 'resources.$1.request'],
  [/^resources\.limits\.(\w+)/, 'resources.$1.limit'],
];

/** A container's fields in a pod of that one container (`containers[0]`), as the checks' pod-wide rules report them. */
export const WINDOWS_CONTAINER_PROP_PATHS: readonly PropPath[] = [
  [/^containers\[0\]\.securityContext\.runAsUser/, 'securityContext.user'],
  [/^containers\[0\]\.securityContext\.runAsGroup/, 'securityContext.group'],
  [/^containers\[0\]\./, ''],
];

/** The pod's security context fields, which are NodeAgentProps of their own (`runAsUser`, `fsGroup`, `seccompProfile`). */
export const POD_PROP_PATHS: readonly PropPath[] = [
  [/^securityContext\./, ''],
  // The pod's volumes are the hostPaths', the volumes' and the config's, in that order: no one index of a prop.
  [/^volumes\[\d+\].*/, 'volumes'],
];

/**
 * The prop a path of the agent's DaemonSet comes from (its name, labels and
 * annotations are props of the same names):
 * `spec.template.spec.containers[0].ports[0].containerPort` is
 * `containers[0].ports[0].number`; undefined when it comes from no prop
 * that the table knows. Given the DaemonSet, a file name of the config's
 * volume (`volumes[2].configMap.items[0].path`) is the prop of its key
 * (`config.files.<key>`), and a container's AppArmor annotation is its
 * `securityContext.appArmorProfile`.
 */
export function propOfDaemonSetPath(path: string, daemonSet?: unknown): string | undefined {
  const file = /^spec\.template\.spec\.(volumes\[\d+\])\.configMap\.(items\[\d+\])\.path/.exec(path);
  const volume = file ? valueAt(daemonSet, `spec.template.spec.${file[1]}`) : undefined;
  const key = file ? valueAt(daemonSet, `spec.template.spec.${file[1]}.configMap.${file[2]}.key`) : undefined;
  if (isRecord(volume) && volume.name === CONFIG_VOLUME && typeof key === 'string') {
    return `config.files.${key}`;
  }
  const appArmor = /^spec\.template\.metadata\.annotations\["container\.apparmor\.security\.beta\.kubernetes\.io\/(.*)"\]$/.exec(path);
  for (const key of appArmor ? ['containers', 'initContainers'] : []) {
    const names = valueAt(daemonSet, `spec.template.spec.${key}`);
    const i = Array.isArray(names) ? names.findIndex((c) => isRecord(c) && c.name === appArmor![1]) : -1;
    if (i >= 0) return `${key}[${i}].securityContext.appArmorProfile`;
  }
  const container = /^spec\.template\.spec\.(containers|initContainers)\[(\d+)\]\.?/.exec(path);
  if (container) {
    const rest = propOfPath(path.slice(container[0].length), CONTAINER_PROP_PATHS);
    return `${container[1]}[${container[2]}]${rest === '' ? '' : rest.startsWith('[') ? rest : `.${rest}`}`;
  }
  const pod = /^spec\.template\.spec\./.exec(path);
  if (pod) {
    return propOfPath(path.slice(pod[0].length), POD_PROP_PATHS);
  }
  const strategy = /^spec\.updateStrategy\.(?:rollingUpdate\.)?/.exec(path);
  if (strategy) {
    return `updateStrategy.${path.slice(strategy[0].length)}`.replace(/\.$/, '');
  }
  const metadata = /^(?:spec\.template\.)?metadata\.(name|labels|annotations)/.exec(path);
  return metadata ? `${metadata[1]}${path.slice(metadata[0].length)}` : undefined;
}
