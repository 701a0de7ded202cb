import { ApiObject, Chart, DependencyGraph } from 'cdk8s';
import { Construct } from 'constructs';
import { appCheckErrors } from './app-checks';
import { KubernetesVersion } from './checks/versions';
import { DEFAULT_NAMESPACE, DEFAULT_POLICY_KEY, DEFAULT_POLICY_VALUE, DEFAULT_VARIANT_GROUP } from './defaults';
import { checkDns1123Label, defined, isRecord, problem } from './k8s/syntax';
import { kubernetesTarget } from './kubernetes-target';
import { LabeledNodePolicy } from './labeled-node-policy';
import { PodSecurityLevel } from './node-agent';
import { NodeReporterDaemonSet, NodeReporterOptions, REPORTER_KEYS } from './node-reporter-daemon-set';
import { NodeToleration } from './node-toleration';
import { checkOwnableNamespace } from './pod-security-namespace';
import { unknownKeys } from './prop-keys';
import { RestrictedNamespace } from './restricted-namespace';
import { reportProblems } from './validate-props';

/** The chart's own props; the rest are the reporter's. */
const CHART_KEYS = ['namespace', 'createNamespace', 'variantGroup', 'policyKey', 'policyValue', 'tolerations'];

/**
 * Props for {@link NodeReporterChart}.
 */
export interface NodeReporterChartProps extends NodeReporterOptions {
  /**
   * The namespace the chart deploys the DaemonSet into, a DNS-1123 label.
   * When the chart creates it, it is labelled
   * `pod-security.kubernetes.io/enforce: restricted`, and it may not be one
   * the cluster owns (`default`, `kube-system`, `kube-public`, `kube-node-lease`).
   * @default 'practice-daemon'
   */
  readonly namespace?: string;

  /**
   * Whether the chart creates (and so owns: `kubectl delete -f` deletes it)
   * the Namespace object. `false` deploys into an existing namespace, which
   * must admit Pod Security "restricted" pods (see `podSecurityLevel`).
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * Charts of one variant group are alternatives (v1 or v2 of one
   * deployable, applied one instead of the other), so their objects may share
   * names; objects of other charts in the app may not.
   * @default 'node-reporter'
   */
  readonly variantGroup?: string;

  /**
   * The node label key that makes a node eligible.
   * @default 'practice-tier'
   */
  readonly policyKey?: string;

  /**
   * The node label value that makes a node eligible.
   * @default 'operations'
   */
  readonly policyValue?: string;

  /**
   * Taints the reporter may run on, e.g. `[NodeToleration.controlPlane()]`
   * where the labelled node is a kubeadm control plane that keeps its taint.
   * @default - none
   */
  readonly tolerations?: NodeToleration[];
}

/**
 * One deployable variant of the node reporter: the Namespace (first), the
 * eligibility policy and the DaemonSet. `cdk8s synth` writes each chart to its
 * own self-contained file, `dist/<chart id>.k8s.yaml`.
 *
 * @example
 * new NodeReporterChart(app, 'node-reporter-v1', { version: 'v1' });
 */
export class NodeReporterChart extends Chart {
  /** The Namespace, cluster-scoped and restricted; undefined when `createNamespace` is false. */
  public readonly ns?: RestrictedNamespace;

  /** The Pod Security level the namespace must admit: the reporter is "restricted". */
  public readonly podSecurityLevel = PodSecurityLevel.RESTRICTED;

  /** The chart's variant group: charts of one group are alternatives whose objects may share names. */
  public readonly variantGroup: string;

  /** The eligibility policy. */
  public readonly policy: LabeledNodePolicy;

  /** The node reporter. */
  public readonly reporter: NodeReporterDaemonSet;

  /** The Kubernetes version the chart is written for: the app's context `node-reporter:kubernetesVersion`, 1.28 when unset. */
  public readonly kubernetesVersion: KubernetesVersion;

  constructor(scope: Construct, id: string, props: NodeReporterChartProps) {
    const namespace = isRecord(props) ? props.namespace ?? DEFAULT_NAMESPACE : undefined;
    super(scope, id, { namespace });
    this.kubernetesVersion = kubernetesTarget(this).version;
    const createNamespace = isRecord(props) ? props.createNamespace ?? true : true;
    reportProblems(this, isRecord(props) ? [
      ...(createNamespace ? checkOwnableNamespace('namespace', namespace) : defined(checkDns1123Label('namespace', namespace))),
      typeof createNamespace === 'boolean' ? undefined : problem('createNamespace', 'a boolean', createNamespace),
      props.variantGroup !== undefined && (typeof props.variantGroup !== 'string' || props.variantGroup === '') ? problem('variantGroup', 'a non-empty string', props.variantGroup) : undefined,
      ...unknownKeys('props', props, { known: [...REPORTER_KEYS.filter((k) => k !== 'policy'), ...CHART_KEYS], what: 'NodeReporterChartProps', elsewhere: { policy: 'is made by the chart: set policyKey, policyValue and tolerations' } }),
    ] : [problem('props', 'an object of NodeReporterChartProps { version, ... }', props)]);
    this.variantGroup = props.variantGroup ?? DEFAULT_VARIANT_GROUP;
    if (createNamespace) {
      this.ns = new RestrictedNamespace(this, 'Namespace', { name: namespace! });
    }

    this.policy = new LabeledNodePolicy(this, 'Policy', {
      key: props.policyKey ?? DEFAULT_POLICY_KEY,
      value: props.policyValue ?? DEFAULT_POLICY_VALUE,
      tolerations: props.tolerations,
    });
    const reporterProps = Object.fromEntries(Object.entries(props).filter(([k]) => !CHART_KEYS.includes(k))) as unknown as NodeReporterOptions;
    this.reporter = new NodeReporterDaemonSet(this, 'NodeReporter', { ...reporterProps, policy: this.policy });
  }

  /**
   * Renders this chart's objects, as `Chart.toJson()` does, in time linear in
   * the chart's size.
   *
   * cdk8s' `Chart.toJson()` re-resolves dependencies and re-validates the
   * whole app for every chart, so an app of N charts costs O(N²) (1000
   * variants: about 90x one, `npm run bench`). `App.synth()` has already
   * resolved and validated the whole app once before it renders any chart;
   * this repeats that work, app-wide checks included (name clashes, namespace
   * admission), for this chart's own subtree only (which is all a chart
   * alone, as in `Testing.synth(chart)`, needs), then orders and renders the
   * objects exactly as cdk8s does. The output is identical.
   */
  public override toJson(): unknown[] {
    const constructs = this.node.findAll();
    const errors = [
      ...constructs.flatMap((c) => c.node.validate().map((error) => `[${c.node.path}] ${error}`)),
      // The app-wide checks (name clashes, namespace admission) sit under the app, outside this subtree.
      ...appCheckErrors(this, constructs),
    ];
    if (errors.length > 0) {
      throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
    }
    // cdk8s turns a construct dependency into dependencies between the API
    // objects beneath its source and its target (app.ts, resolveDependencies).
    const apiObjectsOf = (c: Construct) => c.node.findAll().filter((x) => ApiObject.isApiObject(x) && Chart.of(x) === Chart.of(c));
    for (const source of constructs) {
      for (const target of source.node.dependencies) {
        const targets = apiObjectsOf(target);
        for (const from of apiObjectsOf(source)) {
          targets.filter((to) => to !== from).forEach((to) => from.node.addDependency(to));
        }
      }
    }
    return new DependencyGraph(this.node).topology()
      .filter((x): x is ApiObject => ApiObject.isApiObject(x) && Chart.of(x) === this)
      .map((obj) => obj.toJson());
  }
}
