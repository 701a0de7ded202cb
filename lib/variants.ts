import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument, Scalar } from 'yaml';

/** @internal How an app was asked to synthesize its variants. */
export interface VariantSelectionOptions {
  /**
   * Whether the output is a Helm chart's `templates/`: a Helm chart holds one
   * variant (two would be one release with two objects of one kind and name).
   * @default false
   */
  readonly helm?: boolean;
}

/**
 * The variants an app synthesizes: all of them, or those named in a
 * comma-separated selection such as the `NODE_REPORTER_VARIANTS` environment
 * variable (`v2`, or `v1,v2`). A Helm chart holds exactly one.
 *
 * @param all every variant the app knows, in order
 * @param selection the variants wanted; all when undefined or empty
 * @param options whether the output is a Helm chart
 * @returns the selected variants, in the order of `all`
 * @throws Error naming NODE_REPORTER_VARIANTS for an unknown variant, or for more than one in a Helm chart
 * @internal
 */
export function selectVariants(all: readonly string[], selection?: string, options: VariantSelectionOptions = {}): string[] {
  const chosen = selection === undefined || selection.trim() === '' ? [...all] : (() => {
    const wanted = selection.split(',').map((v) => v.trim());
    for (const variant of wanted) {
      if (!all.includes(variant)) {
        throw new Error(`'NODE_REPORTER_VARIANTS' must list variants among ${all.join(', ')} but got ${JSON.stringify(variant)}`);
      }
    }
    return all.filter((v) => wanted.includes(v));
  })();
  if (options.helm && chosen.length !== 1) {
    throw new Error(`a Helm chart holds one variant, but ${chosen.length} were selected (${chosen.join(', ')}): pick one with NODE_REPORTER_VARIANTS, e.g. NODE_REPORTER_VARIANTS=${all[all.length - 1]} npm run helm -- helm-chart --chart-version 1.0.0`);
  }
  return chosen;
}

/**
 * Whether `cdk8s synth --format helm` is running the app: the CLI writes the
 * chart's Chart.yaml first, then runs the app with CDK8S_OUTDIR set to the
 * chart's `templates/` folder.
 * @param outdir the app's output folder, `process.env.CDK8S_OUTDIR`
 */
export function synthesizesHelmChart(outdir: string | undefined): boolean {
  return outdir !== undefined && path.basename(outdir) === 'templates' && fs.existsSync(path.join(outdir, '..', 'Chart.yaml'));
}

/**
 * A manifest's text as a Helm template that renders exactly that text: every
 * `{{` becomes ``{{`{{`}}``, an action whose only pipeline is a raw string
 * constant (Go text/template), so Helm prints `{{` instead of evaluating what
 * follows (`{{ .Chart.Version }}` in a config file, or a parse error for
 * `{{ ToUpper .Value }}`). Backquotes, unlike `"`, are plain characters in
 * every YAML scalar style, so the file stays valid YAML for the checks.
 * @param text a synthesized manifest
 * @internal
 */
export function escapeHelmTemplate(text: string): string {
  return text.split('{{').join('{{`{{`}}');
}

/** How {@link finishHelmChart} completes a chart. */
export interface HelmChartOptions {
  /**
   * The chart's `appVersion` (Chart.yaml): the version of the software it
   * deploys, such as the agent's version. cdk8s writes none.
   * @default none
   */
  readonly appVersion?: string;
}

/**
 * Completes the Helm chart that `cdk8s synth --format helm` is writing, after
 * `app.synth()`: escapes `{{` in every manifest of `templates/` (see
 * `escapeHelmTemplate`) and sets the chart's `appVersion`.
 * @param templates the chart's `templates/` folder, i.e. `app.outdir`
 * @param options the chart's `appVersion`
 * @throws Error when `templates` is not a chart's templates folder (no `../Chart.yaml`)
 */
export function finishHelmChart(templates: string, options: HelmChartOptions = {}): void {
  const chartYaml = path.join(templates, '..', 'Chart.yaml');
  if (!synthesizesHelmChart(templates)) {
    throw new Error(`'templates' must be the templates folder of a Helm chart (with ../Chart.yaml) but got ${JSON.stringify(templates)}`);
  }
  for (const file of fs.readdirSync(templates).filter((f) => f.endsWith('.yaml')).sort()) {
    const target = path.join(templates, file);
    fs.writeFileSync(target, escapeHelmTemplate(fs.readFileSync(target, 'utf-8')));
  }
  if (options.appVersion !== undefined) {
    const chart = parseDocument(fs.readFileSync(chartYaml, 'utf-8'));
    // Quoted, as Helm advises: an unquoted 1.10 would be the number 1.1.
    const appVersion = new Scalar(options.appVersion);
    appVersion.type = Scalar.QUOTE_DOUBLE;
    chart.set('appVersion', appVersion);
    fs.writeFileSync(chartYaml, chart.toString());
  }
}

/**
 * A boolean setting from the environment, such as `NODE_REPORTER_CREATE_NAMESPACE`:
 * `true` or `false`, or the default when unset or empty.
 * @throws Error naming the variable when it is set to anything else
 * @internal
 */
export function booleanSetting(name: string, value: string | undefined, byDefault: boolean): boolean {
  if (value === undefined || value === '') {
    return byDefault;
  }
  if (value !== 'true' && value !== 'false') {
    throw new Error(`'${name}' must be true or false but got ${JSON.stringify(value)}`);
  }
  return value === 'true';
}
