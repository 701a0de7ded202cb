/**
 * A node agent's config files: one ConfigMap, its name, the file name of
 * each key, and whether a change rolls the pods (a checksum on the pod
 * template) or is picked up in place (the agent or a reloader sidecar
 * watches the mounted files).
 */
import { createHash } from 'node:crypto';
import { checkVolumes } from '../checks/api/core-volumes';
import { checkConfigKey, checkDns1123Label, defined, isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks, PropPath } from '../prop-checks';
import { unknownKeys } from '../prop-keys';
import { AgentVolume, checkAbsolutePath, checkPathText } from './volumes';

/** The pod template annotation that holds the config's checksum, so a config change rolls the agents. */
export const CONFIG_CHECKSUM_ANNOTATION = 'node-reporter.dev/config-sha256';

/** The name of the config's volume, which containers may mount like any other. */
export const CONFIG_VOLUME = 'config';

/** What a change of the config does to the running pods. */
export enum ConfigChange {
  /** Every pod is replaced, by the update strategy: the config's checksum is on the pod template. */
  ROLL = 'roll',
  /**
   * The pods stay: the kubelet updates the mounted files (within a minute or
   * so, never for a `subPath` mount) and the agent, or a reloader sidecar,
   * picks them up. No checksum on the pod template.
   */
  IN_PLACE = 'in-place',
}

/**
 * A config file set: a ConfigMap (`node-agent-<name>`, or
 * `adopt.configMapName`) and the volume `config`.
 */
export interface AgentConfig {
  /** File name to content; names are ConfigMap keys. */
  readonly data: Record<string, string>;
  /**
   * Where every container sees the files, absolute; or mount the volume
   * `config` yourself, per container (e.g. one file by `subPath`).
   * @default - mounted nowhere by default
   */
  readonly mountPath?: string;
  /**
   * The file name (a relative path) of some keys in the volume, e.g.
   * `{ 'config.conf': 'kube-proxy.conf' }`; with it, only the keys listed are files.
   * @default - every key, as a file of its own name
   */
  readonly files?: Record<string, string>;
  /**
   * What a change of `data` does to the running pods.
   * @default ConfigChange.ROLL
   */
  readonly onChange?: ConfigChange;
  /**
   * The volume's name, a DNS-1123 label, as containers mount it (an upstream
   * chart's name, so that its mounts carry over).
   * @default 'config'
   */
  readonly volumeName?: string;
}

const CONFIG_KEYS = ['data', 'mountPath', 'files', 'onChange', 'volumeName'];

/** @internal The name of the config's volume: `volumeName`, else `config`. */
export function configVolumeName(config: unknown): string {
  return isRecord(config) && typeof config.volumeName === 'string' ? config.volumeName : CONFIG_VOLUME;
}
const CHANGES: string[] = Object.values(ConfigChange);

/** @internal The config's volume, of the ConfigMap `configMapName`. */
export function configVolume(config: AgentConfig, configMapName: string): AgentVolume {
  const items = config.files !== undefined ? Object.entries(config.files).map(([key, path]) => ({ key, path })) : undefined;
  return AgentVolume.configMap(configVolumeName(config), configMapName, items !== undefined ? { items } : {});
}

/**
 * What the API server refuses in the file names of `config.files` (the config
 * volume's items: validateKeyToPath, validateLocalNonReservedPath: relative,
 * without '..', not starting with '..'), asked of the checks on the volume
 * as rendered; each key's refusals, named `config.files.<key>`.
 */
function filePathProblems(files: Record<string, unknown>): Map<string, Problem[]> {
  const keys = Object.keys(files);
  const fragment = { volumes: [{ name: CONFIG_VOLUME, configMap: { name: CONFIG_VOLUME, items: keys.map((key) => ({ key, path: files[key] })) } }] };
  const byKey = new Map<string, Problem[]>();
  keys.forEach((key, i) => {
    const table: PropPath[] = [[new RegExp(`^volumes\\[0\\]\\.configMap\\.items\\[${i}\\]\\.path$`), `config.files.${key}`]];
    // Only this item's path: its key is config.data's (checkConfigKey), and an empty or non-string path is the text check's.
    byKey.set(key, askChecks('', fragment, table, (add) => checkVolumes((rule, path, message) => {
      if (path === `volumes[0].configMap.items[${i}].path` && !message.startsWith('Required')) add(rule, path, message);
    }, { metadataPath: 'metadata', metadata: {}, specPath: '', spec: fragment }, [])));
  });
  return byKey;
}

/** @internal Every problem of the `config` prop, unknown keys included. */
export function configProblems(config: unknown, windows: boolean): Problem[] {
  if (!isRecord(config) || !isRecord(config.data) || Object.keys(config.data).length === 0) {
    return [problem('config', `an object { ${CONFIG_KEYS.join('?, ').replace('data?', 'data')}? } with at least one file`, config)];
  }
  const problems: Problem[] = unknownKeys('config', config, { known: CONFIG_KEYS, elsewhere: { name: "is volumeName for the volume's name; the ConfigMap's is derived, or adopt.configMapName" } });
  for (const [file, content] of Object.entries(config.data)) {
    problems.push(...defined(
      checkConfigKey('config.data[key]', file),
      typeof content === 'string' ? undefined : problem(`config.data.${file}`, 'a string', content),
    ));
  }
  if (config.mountPath !== undefined) {
    problems.push(...defined(checkAbsolutePath('config.mountPath', config.mountPath, windows)));
  }
  if (config.volumeName !== undefined) {
    problems.push(...defined(checkDns1123Label('config.volumeName', config.volumeName)));
  }
  if (config.files !== undefined) {
    if (!isRecord(config.files) || Object.keys(config.files).length === 0) {
      problems.push(problem('config.files', 'a non-empty object of config.data keys to file names', config.files));
    } else {
      const paths = new Set<unknown>();
      const fromChecks = filePathProblems(config.files);
      for (const [key, path] of Object.entries(config.files)) {
        problems.push(...defined(
          Object.prototype.hasOwnProperty.call(config.data, key) ? undefined : problem('config.files[key]', `a key of config.data (${Object.keys(config.data).join(', ')})`, key),
          checkPathText(`config.files.${key}`, path),
          paths.has(path) ? problem(`config.files.${key}`, 'a file name no other key has', path) : undefined,
        ), ...(fromChecks.get(key) ?? []));
        paths.add(path);
      }
    }
  }
  if (config.onChange !== undefined && !CHANGES.includes(config.onChange as string)) {
    problems.push(problem('config.onChange', `one of ${CHANGES.join(', ')} (ConfigChange)`, config.onChange));
  }
  return problems;
}

/** @internal Mounts of the config that would never see a change picked up in place: a subPath mount, which the kubelet never updates (kubernetes/kubernetes#50345). */
export function configMountProblems(config: unknown, lists: Record<'containers' | 'initContainers', unknown>): Problem[] {
  if (!isRecord(config) || config.onChange !== ConfigChange.IN_PLACE) return [];
  const problems: Problem[] = [];
  for (const [key, list] of Object.entries(lists)) {
    (Array.isArray(list) ? list : []).forEach((c: unknown, i: number) => (isRecord(c) && Array.isArray(c.mounts) ? c.mounts : []).forEach((m: unknown, j: number) => {
      if (isRecord(m) && m.volume === configVolumeName(config) && m.subPath !== undefined) {
        problems.push(problem(`${key}[${i}].mounts[${j}].subPath`, 'unset with config.onChange IN_PLACE: the kubelet never updates a subPath mount, so the change would never arrive (mount the whole volume, or pick files with config.files)', m.subPath));
      }
    }));
  }
  return problems;
}

/** @internal A stable digest of the config: file names sorted, so key order does not roll the agents. */
export function configChecksum(data: Record<string, string>): string {
  const sorted = Object.keys(data).sort().map((k) => [k, data[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}
