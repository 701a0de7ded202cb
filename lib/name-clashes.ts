/**
 * Two objects of one kind with one name (in one namespace, or cluster-wide
 * for cluster-scoped kinds) anywhere in an app: each `kubectl apply` would
 * overwrite the other. Checked once per validation pass over the whole app,
 * plain cdk8s objects included.
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { appCheck } from './app-checks';
import { CLUSTER_SCOPED_KINDS } from './checks/metadata';

/**
 * A chart's variant group, when it has one: charts of one group are
 * alternatives (variants of one deployable, applied one instead of the
 * other) whose objects may share names. `NodeReporterChart` has one.
 * @internal
 */
export function groupOf(chart: IConstruct): string | undefined {
  const group = (chart as { variantGroup?: unknown }).variantGroup;
  return typeof group === 'string' ? group : undefined;
}

/** The identity the API server keys an object by: group, kind, namespace (none when cluster-scoped) and name. */
function objectKey(o: ApiObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  const namespace = CLUSTER_SCOPED_KINDS.has(o.kind) ? '' : o.metadata.namespace ?? '';
  return `${group}/${o.kind}/${namespace}/${o.name}`;
}

function describe(o: ApiObject): string {
  const namespace = CLUSTER_SCOPED_KINDS.has(o.kind) ? undefined : o.metadata.namespace;
  return `${o.kind} "${o.name}"${namespace ? ` in namespace "${namespace}"` : ''}`;
}

/**
 * Every clash in the app, one message per object that clashes with an
 * earlier one, naming both construct paths. Linear in the app's size: one
 * index per pass (cdk8s validates the whole app again for every chart in
 * Chart.toJson, so a pairwise scan would cost O(N²) per chart).
 */
export function nameClashes(constructs: readonly IConstruct[]): string[] {
  // key -> token (the variant group, or the chart itself) -> chart -> objects
  const index = new Map<string, Map<unknown, Map<Chart, ApiObject[]>>>();
  for (const c of constructs) {
    if (!ApiObject.isApiObject(c)) {
      continue;
    }
    const chart = Chart.of(c);
    const token = groupOf(chart) ?? chart;
    const key = objectKey(c);
    const byToken = index.get(key) ?? new Map<unknown, Map<Chart, ApiObject[]>>();
    const byChart = byToken.get(token) ?? new Map<Chart, ApiObject[]>();
    const objects = byChart.get(chart) ?? [];
    objects.push(c);
    byChart.set(chart, objects);
    byToken.set(token, byChart);
    index.set(key, byToken);
  }
  const errors: string[] = [];
  const clash = (a: ApiObject, b: ApiObject) => errors.push(`${describe(a)} is defined by both ${a.node.path} and ${b.node.path}: each apply would overwrite the other; give one of them another name`);
  for (const byToken of index.values()) {
    const groups = [...byToken.values()];
    const first = groups[0].values().next().value![0];
    // Charts of one variant group are alternatives: within a group, only objects of one chart clash.
    for (const byChart of groups) {
      for (const objects of byChart.values()) {
        objects.slice(1).forEach((o) => clash(objects[0], o));
      }
    }
    for (const byChart of groups.slice(1)) {
      clash(first, byChart.values().next().value![0]);
    }
  }
  return errors;
}

/** The id of the construct under the app that reports its name clashes. */
const NAME_CLASHES_ID = 'NameClashes';

/** Makes the app that holds `scope` check its name clashes when it validates, once however many constructs ask. */
export function watchNameClashes(scope: IConstruct): void {
  appCheck(scope, NAME_CLASHES_ID, nameClashes);
}
