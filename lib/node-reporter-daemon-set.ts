import { ApiObject, Chart, Duration, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  CONTAINER_NAME,
  DEFAULT_IMAGE,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_NAME,
  DEFAULT_RUN_AS_ID,
  SELECTOR_LABEL_KEY,
} from './defaults';
import { LabeledNodePolicy } from './labeled-node-policy';
import {
  validateAnnotations,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateImage,
  validateInteger,
  validateLabels,
  validateProps,
  validateResources,
  validateRollingUpdate,
  validateSingleLine,
  validateVersion,
} from './validate-props';

/**
 * Props for {@link NodeReporterDaemonSet}.
 */
export interface NodeReporterDaemonSetProps {
  /**
   * Which nodes run the reporter: rendered as the pod `nodeSelector`, plus the
   * policy's tolerations.
   */
  readonly policy: LabeledNodePolicy;

  /**
   * The version the reporter prints (`version=<version>`), a plain token
   * matching `/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/`.
   */
  readonly version: string;

  /**
   * The DaemonSet's name, a DNS-1123 label; also the value of its selector label `app`.
   * @default 'node-reporter'
   */
  readonly name?: string;

  /**
   * The container image, with a tag or a digest. It must provide `sh`,
   * `echo` and `sleep`, and run as uid 65534.
   * @default 'busybox:1.36'
   */
  readonly image?: string;

  /**
   * Seconds between two reports, an integer from 1 to 86400.
   * @default 15
   */
  readonly intervalSeconds?: number;

  /**
   * Resource requests and limits of the reporter container. The agent runs on
   * every eligible node, so its cost multiplies by the node count.
   * @default - cpu request 10m, memory request 16Mi, memory limit 32Mi, no cpu limit
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * The `kubernetes.io/change-cause` annotation of the DaemonSet, which
   * `kubectl rollout history` shows for each revision.
   * @default - '<name> <version>', e.g. 'node-reporter v1'
   */
  readonly changeCause?: string;

  /**
   * Extra labels on the DaemonSet and its pods, such as `app.kubernetes.io/part-of`.
   * They are never part of the selector, and may not set the selector's key `app`.
   * @default - none
   */
  readonly labels?: Record<string, string>;

  /**
   * Extra annotations on the DaemonSet and its pods. Changing one rolls every pod.
   * @default - none
   */
  readonly annotations?: Record<string, string>;

  /**
   * The pods' PriorityClass, for example `system-node-critical` so that the
   * agent is not the first to be evicted under node pressure.
   * @default - none: the cluster's default priority
   */
  readonly priorityClassName?: string;

  /**
   * How many eligible nodes may be without a ready reporter during an update.
   * @default PercentOrAbsolute.absolute(1)
   */
  readonly maxUnavailable?: kplus.PercentOrAbsolute;

  /**
   * How many nodes may run an old and a new reporter at once during an update.
   * @default PercentOrAbsolute.absolute(0)
   */
  readonly maxSurge?: kplus.PercentOrAbsolute;

  /**
   * Seconds a new pod must be ready before it counts as available, an integer from 0 to 86400.
   * @default 0
   */
  readonly minReadySeconds?: number;

  /**
   * Seconds a pod may take to stop, an integer from 0 to 86400. The reporter's
   * shell runs as PID 1 and ignores SIGTERM, so every stop waits this long;
   * it keeps no state, so a short grace keeps rollouts fast.
   * @default 5
   */
  readonly terminationGracePeriodSeconds?: number;

  /**
   * How many old ControllerRevisions to keep for `kubectl rollout undo`, an integer from 0 to 1000.
   * @default 10
   */
  readonly revisionHistoryLimit?: number;
}

/** The default resources: small, because the agent runs on every node. */
const DEFAULT_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(10) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) },
};

/**
 * The node-reporter agent: a DaemonSet that runs one pod on every node its
 * {@link LabeledNodePolicy} makes eligible. Each pod prints
 * `node=<node name> version=<version>` every `intervalSeconds`.
 *
 * The DaemonSet lands in the enclosing Chart's namespace. Its selector is
 * `app: <name>`, independent of where the construct sits in the tree, so
 * moving it keeps the (immutable) selector and does not roll any pod. The pod
 * passes Pod Security "restricted" and runs as uid/gid 65534.
 *
 * @example
 * const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'practice-tier', value: 'operations' });
 * new NodeReporterDaemonSet(chart, 'NodeReporter', { policy, version: 'v1' });
 */
export class NodeReporterDaemonSet extends Construct {
  /** The eligibility policy. */
  public readonly policy: LabeledNodePolicy;

  /** The version the reporter prints. */
  public readonly version: string;

  /** The DaemonSet's name. */
  public readonly name: string;

  /** The container image. */
  public readonly image: string;

  /** Seconds between two reports. */
  public readonly intervalSeconds: number;

  /** The reporter container's resource requests and limits. */
  public readonly resources: kplus.ContainerResources;

  /** The `kubernetes.io/change-cause` annotation. */
  public readonly changeCause: string;

  /** The container's command: `sh -c <loop>`. */
  public readonly command: string[];

  /** The selector's labels, `{ app: <name> }`; every pod carries them. */
  public readonly selectorLabels: Record<string, string>;

  /** The rolling update's maxUnavailable. */
  public readonly maxUnavailable: kplus.PercentOrAbsolute;

  /** The rolling update's maxSurge. */
  public readonly maxSurge: kplus.PercentOrAbsolute;

  /** Seconds a new pod must be ready before it counts as available. */
  public readonly minReadySeconds: number;

  /** Seconds a pod may take to stop. */
  public readonly terminationGracePeriodSeconds: number;

  /** How many old ControllerRevisions are kept. */
  public readonly revisionHistoryLimit: number;

  /** The pods' PriorityClass, if any. */
  public readonly priorityClassName?: string;

  /** The cdk8s-plus DaemonSet underneath, for further customisation. */
  public readonly daemonSet: kplus.DaemonSet;

  constructor(scope: Construct, id: string, props: NodeReporterDaemonSetProps) {
    super(scope, id);

    this.policy = props.policy;
    this.version = props.version;
    this.name = props.name ?? DEFAULT_NAME;
    this.image = props.image ?? DEFAULT_IMAGE;
    this.intervalSeconds = props.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS;
    this.resources = props.resources ?? DEFAULT_RESOURCES;
    this.changeCause = props.changeCause ?? `${this.name} ${props.version}`;
    this.maxUnavailable = props.maxUnavailable ?? kplus.PercentOrAbsolute.absolute(1);
    this.maxSurge = props.maxSurge ?? kplus.PercentOrAbsolute.absolute(0);
    this.minReadySeconds = props.minReadySeconds ?? 0;
    this.terminationGracePeriodSeconds = props.terminationGracePeriodSeconds ?? 5;
    this.revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
    this.priorityClassName = props.priorityClassName;
    const labels = props.labels ?? {};
    const annotations = props.annotations ?? {};

    validateProps(this, () => {
      if (!(props.policy instanceof LabeledNodePolicy)) {
        throw new Error(`'policy' must be a LabeledNodePolicy but got ${JSON.stringify(props.policy) ?? String(props.policy)}`);
      }
      validateVersion('version', this.version);
      validateDns1123Label('name', this.name);
      validateImage('image', this.image);
      validateInteger('intervalSeconds', this.intervalSeconds, 1, 86400);
      validateResources(this.resources);
      validateSingleLine('changeCause', this.changeCause, 1024);
      validateLabels('labels', labels);
      if (Object.prototype.hasOwnProperty.call(labels, SELECTOR_LABEL_KEY)) {
        throw new Error(`'labels' must not set '${SELECTOR_LABEL_KEY}', the selector label this construct owns, but got "${SELECTOR_LABEL_KEY}: ${labels[SELECTOR_LABEL_KEY]}"`);
      }
      validateAnnotations('annotations', annotations);
      if (this.priorityClassName !== undefined) {
        validateDns1123Subdomain('priorityClassName', this.priorityClassName);
      }
      validateRollingUpdate(this.maxUnavailable, this.maxSurge);
      validateInteger('minReadySeconds', this.minReadySeconds, 0, 86400);
      validateInteger('terminationGracePeriodSeconds', this.terminationGracePeriodSeconds, 0, 86400);
      validateInteger('revisionHistoryLimit', this.revisionHistoryLimit, 0, 1000);
    });

    this.selectorLabels = { [SELECTOR_LABEL_KEY]: this.name };
    // The version and interval are validated tokens, so they are safe in the
    // script as they are. `${NODE_NAME}` is for the shell, not TypeScript.
    this.command = ['sh', '-c', 'while true; do echo node=${NODE_NAME} version=' + this.version + '; sleep ' + this.intervalSeconds + '; done'];

    const runAs = { user: DEFAULT_RUN_AS_ID, group: DEFAULT_RUN_AS_ID, ensureNonRoot: true };
    this.daemonSet = new kplus.DaemonSet(this, 'Resource', {
      metadata: {
        name: this.name,
        labels: { ...labels, ...this.selectorLabels },
        annotations: { ...annotations, 'kubernetes.io/change-cause': this.changeCause },
      },
      podMetadata: {
        labels: { ...labels, ...this.selectorLabels },
        annotations,
      },
      // cdk8s-plus would select on a label derived from the construct path.
      select: false,
      minReadySeconds: this.minReadySeconds,
      terminationGracePeriod: Duration.seconds(this.terminationGracePeriodSeconds),
      automountServiceAccountToken: false,
      securityContext: runAs,
      containers: [{
        name: CONTAINER_NAME,
        image: this.image,
        imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command: this.command,
        envVariables: {
          NODE_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_NAME),
        },
        resources: this.resources,
        securityContext: {
          ...runAs,
          privileged: false,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: [kplus.Capability.ALL] },
          seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
        },
      }],
    });
    this.daemonSet.select(kplus.LabelSelector.of({ labels: this.selectorLabels }));

    this.renderWhatCdk8sPlusCannot();
    // Only at synth is the whole chart known: two reporters with one name in
    // one namespace would be one object, each apply overwriting the other.
    this.node.addValidation({ validate: () => this.validateUniqueName() });
  }

  private validateUniqueName(): string[] {
    const chart = Chart.of(this);
    const namespace = this.daemonSet.metadata.namespace;
    const same = chart.node.findAll().filter((c): c is NodeReporterDaemonSet =>
      c instanceof NodeReporterDaemonSet && c !== this && c.name === this.name && c.daemonSet.metadata.namespace === namespace);
    return same.map((other) => `'name' must be unique in its namespace but "${this.name}" is also the name of ${other.node.path}`);
  }

  /**
   * cdk8s-plus-28 has no API for these fields, so they are patched into the
   * rendered object. Patches apply before the L1 `toJson` filter, so values
   * use the L1 TypeScript names and IntOrString wrappers.
   */
  private renderWhatCdk8sPlusCannot(): void {
    const resource = ApiObject.of(this.daemonSet);
    // cdk8s-plus always labels pods with their construct address; a moved
    // construct would then roll every pod for nothing.
    resource.addJsonPatch(JsonPatch.remove('/spec/template/metadata/labels/cdk8s.io~1metadata.addr'));
    // A real nodeSelector (cdk8s-plus renders node affinity), so that
    // `kubectl get ds -o wide` shows NODE SELECTOR.
    resource.addJsonPatch(JsonPatch.add('/spec/template/spec/nodeSelector', this.policy.nodeSelector));
    if (this.policy.tolerations.length > 0) {
      resource.addJsonPatch(JsonPatch.add('/spec/template/spec/tolerations', this.policy.tolerations.map((t) => t.toKube())));
    }
    if (this.priorityClassName !== undefined) {
      resource.addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', this.priorityClassName));
    }
    resource.addJsonPatch(JsonPatch.add('/spec/updateStrategy', {
      type: 'RollingUpdate',
      rollingUpdate: {
        maxUnavailable: intOrString(this.maxUnavailable),
        maxSurge: intOrString(this.maxSurge),
      },
    }));
    resource.addJsonPatch(JsonPatch.add('/spec/revisionHistoryLimit', this.revisionHistoryLimit));
  }
}

function intOrString(value: kplus.PercentOrAbsolute): kplus.k8s.IntOrString {
  return typeof value.value === 'number' ? kplus.k8s.IntOrString.fromNumber(value.value) : kplus.k8s.IntOrString.fromString(value.value);
}
