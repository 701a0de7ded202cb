/**
 * Volumes a node agent declares once, and the mounts each container makes of
 * them. Rendered in the L1 shape of cdk8s-plus' bindings (`downwardApi`,
 * Quantity wrappers) by the agent's one rendering hook.
 */
import { Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { canonicalQuantity } from '../k8s/quantity';
import { checkConfigKey, checkDns1123Subdomain, defined, isRecord, Problem, problem } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';
import { volumeApiProblems } from './mount-checks';

/** A file of a ConfigMap or Secret volume: the key, and the path it is written to. */
export interface KeyToPath {
  /** The ConfigMap or Secret key. */
  readonly key: string;
  /** The file's path, relative to the mount, without '..'. */
  readonly path: string;
  /**
   * The file's mode bits, 0 to 0777.
   * @default - the volume's defaultMode
   */
  readonly mode?: number;
}

/** Options of {@link AgentVolume.hostPath}. */
export interface HostPathOptions {
  /**
   * What the kubelet checks (or creates) at the path before it starts the pod:
   * `Directory`, `DirectoryOrCreate`, `File`, `FileOrCreate`, `Socket`,
   * `CharDevice`, `BlockDevice`.
   * @default kplus.HostPathVolumeType.DEFAULT - no check
   */
  readonly type?: kplus.HostPathVolumeType;
}

/** Options of {@link AgentVolume.emptyDir}. */
export interface EmptyDirOptions {
  /**
   * Where the directory lives: the node's disk, or memory (tmpfs, counted against the container's memory limit).
   * @default kplus.EmptyDirMedium.DEFAULT - the node's disk
   */
  readonly medium?: kplus.EmptyDirMedium;
  /**
   * The most the directory may hold; a pod that writes more is evicted.
   * @default - no limit
   */
  readonly sizeLimit?: Size;
}

/** Options of {@link AgentVolume.configMap} and {@link AgentVolume.secret}. */
export interface KeysVolumeOptions {
  /**
   * The keys to project, and their file paths.
   * @default - every key, as a file of its name
   */
  readonly items?: KeyToPath[];
  /**
   * The files' mode bits, 0 to 0777.
   * @default 0o644
   */
  readonly defaultMode?: number;
  /**
   * Whether the pod starts without the ConfigMap or Secret.
   * @default false
   */
  readonly optional?: boolean;
}

/** Options of {@link AgentVolume.projected}. */
export interface ProjectedVolumeOptions {
  /**
   * The files' mode bits, 0 to 0777.
   * @default 0o644
   */
  readonly defaultMode?: number;
}

/** Options of {@link ProjectedSource.configMap} and {@link ProjectedSource.secret}. */
export interface ProjectedKeysOptions {
  /**
   * Whether the pod starts without the ConfigMap or Secret (its files are then
   * absent), e.g. for certificates another component issues later.
   * @default false
   */
  readonly optional?: boolean;
}

/** Options of {@link ProjectedSource.serviceAccountToken}. */
export interface ServiceAccountTokenOptions {
  /** Where the token is written, relative to the mount. */
  readonly path: string;
  /**
   * The audience the token is for.
   * @default - the API server's
   */
  readonly audience?: string;
  /**
   * How long the token is valid; the kubelet renews it. At least 600.
   * @default 3600
   */
  readonly expirationSeconds?: number;
}

/** A pod field written into a file of a projected volume. */
export interface DownwardApiFile {
  /** The file's path, relative to the mount. */
  readonly path: string;
  /** The field: `metadata.name`, `metadata.namespace`, `metadata.uid`, `metadata.labels` or `metadata.annotations`. */
  readonly fieldPath: string;
}

/** The fields a Downward API volume file may hold (pkg/apis/core/validation: validDownwardAPIFieldPathExpressions). */
const DOWNWARD_FIELDS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.labels', 'metadata.annotations'];

/** One source of a projected volume. */
export class ProjectedSource {
  /** A bound ServiceAccount token, e.g. for a registry or an audience other than the API server. */
  public static serviceAccountToken(options: ServiceAccountTokenOptions): ProjectedSource {
    return new ProjectedSource('serviceAccountToken', { ...options });
  }

  /** Pod fields as files (`metadata.labels`, `metadata.name`, ...). */
  public static downwardApi(files: DownwardApiFile[]): ProjectedSource {
    return new ProjectedSource('downwardApi', { items: files });
  }

  /** Keys of a ConfigMap, by its name (every key, unless `items` picks some); `optional` lets the pod start without it. */
  public static configMap(name: string, items?: KeyToPath[], options: ProjectedKeysOptions = {}): ProjectedSource {
    return new ProjectedSource('configMap', { name, items, keysOptions: options });
  }

  /** Keys of a Secret, by its name (every key, unless `items` picks some); `optional` lets the pod start without it. */
  public static secret(name: string, items?: KeyToPath[], options: ProjectedKeysOptions = {}): ProjectedSource {
    return new ProjectedSource('secret', { name, items, keysOptions: options });
  }

  private constructor(
    /** The source's kind. */
    public readonly kind: 'serviceAccountToken' | 'downwardApi' | 'configMap' | 'secret',
    private readonly options: Record<string, unknown>,
  ) {}

  /** The problems of this source, named by `prop`. */
  public problems(prop: string): Problem[] {
    const o = this.options;
    switch (this.kind) {
      case 'serviceAccountToken':
        return defined(
          checkPathText(`${prop}.path`, o.path),
          o.audience !== undefined && typeof o.audience !== 'string' ? problem(`${prop}.audience`, 'a string', o.audience) : undefined,
          // Its range is the API server's (validateProjectionSources), asked of the checks with the volume.
          o.expirationSeconds !== undefined ? checkWhole(`${prop}.expirationSeconds`, o.expirationSeconds) : undefined,
        );
      case 'downwardApi':
        if (!Array.isArray(o.items) || o.items.length === 0) {
          return [problem(`${prop}`, 'a non-empty array of { path, fieldPath }', o.items)];
        }
        return o.items.flatMap((f: unknown, i: number) => defined(
          checkPathText(`${prop}[${i}].path`, isRecord(f) ? f.path : f),
          isRecord(f) && typeof f.fieldPath === 'string' ? undefined : problem(`${prop}[${i}].fieldPath`, `a field such as ${DOWNWARD_FIELDS.join(', ')}`, isRecord(f) ? f.fieldPath : f),
        ));
      default:
        return [
          ...defined(checkDns1123Subdomain(`${prop}.name`, o.name)),
          ...itemsProblems(`${prop}.items`, o.items),
          ...keysOptionsProblems(prop, o.keysOptions),
        ];
    }
  }

  /** @internal the L1 projection */
  public _toKube(): kplus.k8s.VolumeProjection {
    const o = this.options as Record<string, never>;
    switch (this.kind) {
      case 'serviceAccountToken':
        return { serviceAccountToken: { path: o.path, audience: o.audience, expirationSeconds: o.expirationSeconds } };
      case 'downwardApi':
        return { downwardApi: { items: (o.items as DownwardApiFile[]).map((f) => ({ path: f.path, fieldRef: { fieldPath: f.fieldPath } })) } };
      case 'configMap':
        return { configMap: { name: o.name, items: keyToPaths(o.items), optional: (o.keysOptions as ProjectedKeysOptions | undefined)?.optional } };
      default:
        return { secret: { name: o.name, items: keyToPaths(o.items), optional: (o.keysOptions as ProjectedKeysOptions | undefined)?.optional } };
    }
  }
}

/** The problems of a projected ConfigMap's or Secret's options; unknown keys are refused, never dropped. */
function keysOptionsProblems(prop: string, options: unknown): Problem[] {
  if (options === undefined) {
    return [];
  }
  if (!isRecord(options)) {
    return [problem(`${prop}.options`, 'an object { optional? }', options)];
  }
  return defined(
    options.optional !== undefined && typeof options.optional !== 'boolean' ? problem(`${prop}.optional`, 'a boolean', options.optional) : undefined,
    ...Object.keys(options).filter((k) => k !== 'optional').map((k) => problem(`${prop}.options[key]`, 'optional (the only option)', k)),
  );
}

/** The kinds of volume a node agent declares. */
export type AgentVolumeKind = 'hostPath' | 'emptyDir' | 'configMap' | 'secret' | 'projected';

/**
 * A volume of a node agent's pods, declared once in `NodeAgentProps.volumes`
 * and mounted by name in each container that needs it (`mounts`).
 *
 * @example
 * AgentVolume.hostPath('positions', '/var/lib/fluent-bit', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE })
 */
export class AgentVolume {
  /**
   * A path of the node. Breaks Pod Security "baseline": the agent needs a
   * privileged namespace and a reason (`podSecurity`).
   * @param name the volume's name, a DNS-1123 label
   * @param path the absolute path on the node (`C:\...` or `\\.\pipe\...` on Windows)
   * @param options the type the kubelet checks
   */
  public static hostPath(name: string, path: string, options: HostPathOptions = {}): AgentVolume {
    return new AgentVolume(name, 'hostPath', { path, ...options });
  }

  /**
   * A scratch directory that lives as long as the pod, e.g. a writable /tmp under a read-only root.
   * @param name the volume's name, a DNS-1123 label
   * @param options the medium and size limit
   */
  public static emptyDir(name: string, options: EmptyDirOptions = {}): AgentVolume {
    return new AgentVolume(name, 'emptyDir', { ...options });
  }

  /**
   * A ConfigMap's keys as files.
   * @param name the volume's name, a DNS-1123 label
   * @param configMapName the ConfigMap's name, in the agent's namespace
   * @param options the keys to project, their mode, whether the ConfigMap may be missing
   */
  public static configMap(name: string, configMapName: string, options: KeysVolumeOptions = {}): AgentVolume {
    return new AgentVolume(name, 'configMap', { configMapName, ...options });
  }

  /**
   * A Secret's keys as files.
   * @param name the volume's name, a DNS-1123 label
   * @param secretName the Secret's name, in the agent's namespace
   * @param options the keys to project, their mode, whether the Secret may be missing
   */
  public static secret(name: string, secretName: string, options: KeysVolumeOptions = {}): AgentVolume {
    return new AgentVolume(name, 'secret', { secretName, ...options });
  }

  /**
   * Several sources in one directory: bound ServiceAccount tokens, Downward API files, ConfigMap and Secret keys.
   * @param name the volume's name, a DNS-1123 label
   * @param sources what the directory holds
   * @param options the files' mode
   */
  public static projected(name: string, sources: ProjectedSource[], options: ProjectedVolumeOptions = {}): AgentVolume {
    return new AgentVolume(name, 'projected', { sources, ...options });
  }

  private constructor(
    /** The volume's name, which mounts refer to. */
    public readonly name: string,
    /** What the volume is. */
    public readonly kind: AgentVolumeKind,
    private readonly options: Record<string, unknown>,
  ) {}

  /** Whether mounts are read-only unless they say otherwise: every kind but emptyDir. */
  public get readOnlyByDefault(): boolean {
    return this.kind !== 'emptyDir';
  }

  /**
   * For a host path: the path on the node.
   * jsii: the static factory `hostPath` has the name in other languages (JSII5013); there `path` answers.
   * @jsii ignore
   */
  public get hostPath(): string | undefined {
    return this.path;
  }

  /** For a host path: the path on the node (`hostPath` in TypeScript too). */
  public get path(): string | undefined {
    return this.kind === 'hostPath' ? this.options.path as string : undefined;
  }

  /**
   * The problems of this volume, named by `prop`.
   * @param prop the prop that holds it, e.g. `volumes[2]`
   * @param windows whether the agent runs on Windows nodes (where host paths are `C:\...`)
   */
  public problems(prop: string, windows = false): Problem[] {
    const o = this.options;
    // The name, the hostPath type, the modes, the token's lifetime, the paths' '..' and the downward fields are the API server's rules: asked of the checks below.
    const problems = defined(typeof this.name === 'string' ? undefined : problem(`${prop}.name`, 'a string', this.name));
    switch (this.kind) {
      case 'hostPath':
        problems.push(...defined(
          checkAbsolutePath(`${prop}.path`, o.path, windows, false),
          o.type !== undefined && typeof o.type !== 'string' ? problem(`${prop}.type`, 'a kplus.HostPathVolumeType', o.type) : undefined,
        ));
        break;
      case 'emptyDir':
        problems.push(...defined(
          o.medium !== undefined && !EMPTY_DIR_MEDIA.includes(o.medium as string) ? problem(`${prop}.medium`, "'' or 'Memory' (kplus.EmptyDirMedium)", o.medium) : undefined,
          o.sizeLimit !== undefined && !isPositiveSize(o.sizeLimit) ? problem(`${prop}.sizeLimit`, 'a positive cdk8s Size, such as Size.mebibytes(64)', o.sizeLimit) : undefined,
        ));
        break;
      case 'configMap':
      case 'secret':
        problems.push(
          ...defined(checkDns1123Subdomain(`${prop}.${this.kind}Name`, o[`${this.kind}Name`])),
          ...itemsProblems(`${prop}.items`, o.items),
          ...defined(o.defaultMode !== undefined ? checkWhole(`${prop}.defaultMode`, o.defaultMode) : undefined),
          ...defined(o.optional !== undefined && typeof o.optional !== 'boolean' ? problem(`${prop}.optional`, 'a boolean', o.optional) : undefined),
        );
        break;
      default: {
        const sources = o.sources;
        if (!Array.isArray(sources) || sources.length === 0 || !sources.every((s) => s instanceof ProjectedSource)) {
          problems.push(problem(`${prop}.sources`, 'a non-empty array of ProjectedSource (ProjectedSource.serviceAccountToken(...), .downwardApi(...), .configMap(...), .secret(...))', sources));
        } else {
          sources.forEach((s: ProjectedSource, i) => problems.push(...s.problems(`${prop}.sources[${i}]`)));
        }
        problems.push(...defined(o.defaultMode !== undefined ? checkWhole(`${prop}.defaultMode`, o.defaultMode) : undefined));
      }
    }
    // The API server's rules only once the shapes are right: a volume of wrong shapes does not render.
    return problems.length > 0 ? problems : volumeApiProblems(prop, this);
  }

  /** @internal the L1 volume */
  public _toKube(): kplus.k8s.Volume {
    const o = this.options as Record<string, never>;
    switch (this.kind) {
      case 'hostPath':
        return { name: this.name, hostPath: { path: o.path, type: o.type || undefined } };
      case 'emptyDir': {
        const size = o.sizeLimit as Size | undefined;
        return {
          name: this.name,
          emptyDir: {
            medium: o.medium || undefined,
            sizeLimit: size ? kplus.k8s.Quantity.fromString(canonicalQuantity(`${size.toMebibytes({ rounding: SizeRoundingBehavior.NONE })}Mi`)) : undefined,
          },
        };
      }
      case 'configMap':
        return { name: this.name, configMap: { name: o.configMapName, items: keyToPaths(o.items), defaultMode: o.defaultMode, optional: o.optional } };
      case 'secret':
        return { name: this.name, secret: { secretName: o.secretName, items: keyToPaths(o.items), defaultMode: o.defaultMode, optional: o.optional } };
      default:
        return { name: this.name, projected: { sources: (o.sources as ProjectedSource[]).map((s) => s._toKube()), defaultMode: o.defaultMode } };
    }
  }
}

/** A container's mount of one of the agent's volumes. */
export interface AgentMount {
  /** The volume's name, as declared in `volumes` (or `hostPaths`, or `config` for the config). */
  readonly volume: string;

  /** Where the container sees it, absolute. */
  readonly path: string;

  /**
   * Whether the container may only read it.
   * @default - true, but false for an emptyDir
   */
  readonly readOnly?: boolean;

  /**
   * How mounts made below the path propagate: `HostToContainer` lets the
   * container see mounts the node makes later; `Bidirectional` (privileged
   * containers only, as the API server requires) lets the node see the
   * container's mounts too, as CSI node plugins need.
   * @default kplus.MountPropagation.NONE
   */
  readonly propagation?: kplus.MountPropagation;

  /**
   * A path within the volume to mount instead of its root, relative and without '..'.
   * @default - the volume's root
   */
  readonly subPath?: string;
}

/** A host path mounted read-only into every container: the shorthand of a hostPath volume and its mounts. */
export interface HostPathMount {
  /** The volume's name, a DNS-1123 label. */
  readonly name: string;
  /** The path on the node, absolute. */
  readonly hostPath: string;
  /** Where the containers see it, absolute. */
  readonly mountPath: string;
  /**
   * What the kubelet checks at the path before it starts the pod.
   * @default kplus.HostPathVolumeType.DEFAULT - no check
   */
  readonly type?: kplus.HostPathVolumeType;
  /**
   * How mounts made below the path on the node later propagate into the containers.
   * @default kplus.MountPropagation.NONE
   */
  readonly propagation?: kplus.MountPropagation;
}

const EMPTY_DIR_MEDIA: string[] = Object.values(kplus.EmptyDirMedium);

function isPositiveSize(value: unknown): boolean {
  return typeof (value as Partial<Size>)?.toMebibytes === 'function' && (value as Size).toMebibytes({ rounding: SizeRoundingBehavior.NONE }) > 0;
}

function keyToPaths(items: KeyToPath[] | undefined): kplus.k8s.KeyToPath[] | undefined {
  return items?.map((i) => ({ key: i.key, path: i.path, mode: i.mode }));
}

function itemsProblems(prop: string, items: unknown): Problem[] {
  if (items === undefined) {
    return [];
  }
  if (!Array.isArray(items) || items.length === 0) {
    return [problem(prop, 'a non-empty array of { key, path, mode? }', items)];
  }
  return items.flatMap((item, i) => (isRecord(item) ? defined(
    checkConfigKey(`${prop}[${i}].key`, item.key),
    checkPathText(`${prop}[${i}].path`, item.path),
    item.mode !== undefined ? checkWhole(`${prop}[${i}].mode`, item.mode) : undefined,
  ) : [problem(`${prop}[${i}]`, 'an object { key, path, mode? }', item)]));
}

const WINDOWS_ABSOLUTE = /^([A-Za-z]:\\|\\\\)/;

/**
 * @internal
 * An absolute path without '..' or control characters (pkg/apis/core/validation:
 * validatePathNoBacksteps); on Windows, a drive or UNC path (`C:\...`, `\\.\pipe\...`).
 */
export function checkAbsolutePath(prop: string, value: unknown, windows = false, backsteps = true): Problem | undefined {
  // A host path's '..' is the API server's rule (validatePathNoBacksteps), asked of the checks with the volume; elsewhere it is the library's.
  const ok = typeof value === 'string' && !/[\u0000-\u001f\u007f]/.test(value) && !(backsteps && value.split(/[\\/]/).includes('..'))
    && (value.startsWith('/') || (windows && WINDOWS_ABSOLUTE.test(value)));
  return ok ? undefined : problem(prop, `an absolute path${windows ? ' (/..., C:\\... or \\\\.\\pipe\\...)' : ''}${backsteps ? " without '..' or" : ' without'} control characters`, value);
}

/** @internal A file name or path in a volume: a non-empty string without control characters; that it is relative and has no '..' is the API server's rule (validateLocalNonReservedPath), asked of the checks. */
export function checkPathText(prop: string, value: unknown): Problem | undefined {
  return typeof value === 'string' && value !== '' && !/[\u0000-\u001f\u007f]/.test(value) ? undefined : problem(prop, 'a non-empty path without control characters', value);
}

/** A whole number; its range is the API server's, asked of the checks. */
function checkWhole(prop: string, value: unknown): Problem | undefined {
  return Number.isInteger(value) ? undefined : problem(prop, 'an integer', value);
}

/**
 * @internal
 * The problems of one mount, named by `prop`.
 * @param prop the prop that holds it, e.g. `containers[0].mounts[1]`
 * @param mount the mount
 * @param windows whether the agent runs on Windows nodes
 */
export function mountProblems(prop: string, mount: unknown, windows: boolean): Problem[] {
  if (!isRecord(mount)) {
    return [problem(prop, 'an AgentMount { volume, path, readOnly?, propagation?, subPath? }', mount)];
  }
  // The volume's existence, the propagation and the subPath's '..' are the API server's rules: the container asks the checks (mountsApiProblems).
  return defined(
    typeof mount.volume === 'string' ? undefined : problem(`${prop}.volume`, 'the name of a declared volume', mount.volume),
    checkAbsolutePath(`${prop}.path`, mount.path, windows),
    mount.readOnly !== undefined && typeof mount.readOnly !== 'boolean' ? problem(`${prop}.readOnly`, 'a boolean', mount.readOnly) : undefined,
    mount.propagation !== undefined && typeof mount.propagation !== 'string' ? problem(`${prop}.propagation`, 'a kplus.MountPropagation', mount.propagation) : undefined,
    mount.subPath !== undefined ? checkPathText(`${prop}.subPath`, mount.subPath) : undefined,
  ).concat(unknownKeys(prop, mount, { known: ['volume', 'path', 'readOnly', 'propagation', 'subPath'] }));
}

/** @internal The L1 volume mount, with the volume's read-only default (only `readOnly: true` is written). */
export function renderMount(mount: AgentMount, volume: { readonly readOnlyByDefault: boolean }): kplus.k8s.VolumeMount {
  return {
    name: mount.volume,
    mountPath: mount.path,
    // false is the API's default, which it does not store: rendered, every apply would report a change.
    readOnly: (mount.readOnly ?? volume.readOnlyByDefault) || undefined,
    mountPropagation: mount.propagation,
    subPath: mount.subPath,
  };
}
