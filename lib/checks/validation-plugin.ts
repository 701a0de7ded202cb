/**
 * The cdk8s validation plugin: `cdk8s synth` runs it on every manifest it
 * writes when cdk8s.yaml lists it under `validations:`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckOptions } from './check';
import { Finding } from './finding';
import { KUBERNETES_VERSIONS, parseKubernetesVersion } from './versions';

/**
 * The file cdk8s writes beside the manifests, only so that the validation
 * report can name construct paths. The CLI has read it before plugins run.
 */
const CONSTRUCT_METADATA_FILE = 'construct-metadata.json';

/** The part of cdk8s-cli's ValidationContext this plugin uses. */
export interface ValidationContextLike {
  /** The synthesized manifest files. */
  readonly manifests: readonly string[];
  /** The report that cdk8s prints, and whose status decides synth's exit code. */
  readonly report: {
    /** Adds one rule's findings. */
    addViolation(violation: {
      ruleName: string;
      recommendation: string;
      fix: string;
      violatingResources: Array<{ resourceName: string; locations: string[]; manifestPath: string }>;
    }): void;
    /** Closes the report with its status and counts. */
    submit(status: 'success' | 'failure', metadata?: Record<string, string>): void;
  };
}

/** Options of {@link NodeAgentChecks}, from `properties:` in cdk8s.yaml. */
export interface NodeAgentChecksProps {
  /**
   * Whether warnings fail synth too.
   * @default false
   */
  readonly warningsAsErrors?: boolean;
  /**
   * The Pod Security level of namespaces the manifests do not hold:
   * `restricted`, `baseline` or `privileged` (a Namespace among the
   * manifests is judged at its own labels).
   * @default 'restricted'
   */
  readonly podSecurity?: 'privileged' | 'baseline' | 'restricted';
  /**
   * Kinds not to check: `Kind` or `apiVersion/Kind`.
   * @default none
   */
  readonly skipKinds?: readonly string[];
  /**
   * How the manifests are applied: `client-side` (kubectl apply, which
   * keeps a 256 KiB last-applied annotation) or `server-side`.
   * @default 'client-side'
   */
  readonly apply?: 'client-side' | 'server-side';
  /**
   * The Kubernetes version to judge by: 1.28 or 1.31 to 1.36.
   * @default the app's target: the version its manifests name in their `node-reporter.dev/kubernetes-version` annotation (the construct context `node-reporter:kubernetesVersion`), else 1.28
   */
  readonly kubernetesVersion?: string;
}

const LEVELS = ['restricted', 'baseline', 'privileged'];

/** The props as cdk8s.yaml gives them, checked: an error names the property, the value and what is allowed. */
function checkProps(props: NodeAgentChecksProps): void {
  const fail = (prop: string, allowed: string, value: unknown) => {
    throw new Error(`NodeAgentChecks: the property '${prop}' in cdk8s.yaml must be ${allowed} but got ${JSON.stringify(value)}`);
  };
  if (props.warningsAsErrors !== undefined && typeof props.warningsAsErrors !== 'boolean') fail('warningsAsErrors', 'true or false', props.warningsAsErrors);
  if (props.podSecurity !== undefined && !LEVELS.includes(props.podSecurity)) fail('podSecurity', 'restricted, baseline or privileged', props.podSecurity);
  if (props.skipKinds !== undefined && (!Array.isArray(props.skipKinds) || props.skipKinds.some((k) => typeof k !== 'string'))) fail('skipKinds', 'a list of kinds (Kind or apiVersion/Kind)', props.skipKinds);
  if (props.apply !== undefined && !['client-side', 'server-side'].includes(props.apply)) fail('apply', 'client-side or server-side', props.apply);
  const version = props.kubernetesVersion === undefined ? undefined : parseKubernetesVersion(props.kubernetesVersion);
  if (version !== undefined && 'error' in version) fail('kubernetesVersion', `a supported Kubernetes version (${KUBERNETES_VERSIONS.join(', ')})`, props.kubernetesVersion);
}

/**
 * The manifest checks (schema, API-server validation, Pod Security at the
 * namespace's level, workload and DaemonSet rules) as a cdk8s validation
 * plugin. Errors make `cdk8s synth` exit non-zero; warnings and waived
 * findings are reported. Its properties (cdk8s.yaml `properties:`) are
 * {@link NodeAgentChecksProps}.
 */
export class NodeAgentChecks {
  private readonly warningsAsErrors: boolean;
  private readonly options: CheckOptions;

  constructor(props: NodeAgentChecksProps = {}) {
    checkProps(props ?? {});
    this.warningsAsErrors = props?.warningsAsErrors ?? false;
    this.options = { podSecurity: props?.podSecurity, skipKinds: props?.skipKinds, apply: props?.apply, kubernetesVersion: props?.kubernetesVersion === undefined ? undefined : String(props.kubernetesVersion) };
  }

  /**
   * Checks the synthesized manifests and fills the report. Then removes
   * `construct-metadata.json` from beside them (the CLI has read it already),
   * so that dist/ and a Helm chart's templates/ hold only manifests.
   */
  public async validate(context: ValidationContextLike): Promise<void> {
    try {
      this.check(context);
    } finally {
      for (const dir of new Set(context.manifests.map((m) => path.dirname(m)))) {
        fs.rmSync(path.join(dir, CONSTRUCT_METADATA_FILE), { force: true });
      }
    }
  }

  private check(context: ValidationContextLike): void {
    // Loaded here, not at the top, so that cdk8s can construct the plugin cheaply.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { checkSynthesizedReport } = require('./check') as typeof import('./check');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { describeVersionSource } = require('./judged-version') as typeof import('./judged-version');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { isBlocking } = require('./report') as typeof import('./report');
    const report = checkSynthesizedReport(context.manifests, this.options);
    const findings = report.findings;
    const byRule = new Map<string, Finding[]>();
    for (const f of findings) {
      const status = f.waived !== undefined ? 'waived' : f.severity;
      const key = `${status} [${f.rule.id}] ${f.rule.citation}`;
      byRule.set(key, [...(byRule.get(key) ?? []), f]);
    }
    for (const [ruleName, list] of byRule) {
      const waived = list[0].waived !== undefined;
      context.report.addViolation({
        ruleName,
        recommendation: list.map((f) => `${f.object} ${f.path}: ${f.message}${waived ? ` (waived: ${f.waived})` : ''}`).join('; '),
        fix: list[0].rule.fix,
        // cdk8s finds the construct path by the object's name (construct-metadata.json).
        violatingResources: list.map((f) => ({ resourceName: f.object.slice(f.object.lastIndexOf('/') + 1), locations: [`${f.object} ${f.path}: ${f.message}`], manifestPath: f.file ?? '' })),
      });
    }
    const failed = findings.some((f) => isBlocking(f) || (this.warningsAsErrors && f.waived === undefined));
    const count = (pred: (f: Finding) => boolean) => String(findings.filter(pred).length);
    context.report.submit(failed ? 'failure' : 'success', {
      errors: count(isBlocking),
      warnings: count((f) => !isBlocking(f) && f.waived === undefined),
      waived: count((f) => f.waived !== undefined),
      kubernetesVersion: `${report.kubernetesVersion.version} (${describeVersionSource(report.kubernetesVersion.source, 'the kubernetesVersion property')})`,
    });
  }
}
