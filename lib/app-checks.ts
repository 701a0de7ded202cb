/**
 * Checks across the whole app (name clashes, namespaces that refuse their
 * agents), each run once per validation pass over every construct: a check
 * per construct that scanned the app would cost O(N²), and cdk8s validates
 * the whole app again for every chart in Chart.toJson.
 */
import { Construct, IConstruct } from 'constructs';

const registered = new WeakMap<IConstruct, Set<string>>();

/**
 * Makes the app that holds `scope` run `check` over all its constructs when
 * it validates (App.synth, Chart.toJson), once however many constructs ask
 * for the same `id`: a construct `id` under the app (it renders nothing)
 * reports what the check returns.
 */
export function appCheck(scope: IConstruct, id: string, check: (constructs: readonly IConstruct[]) => string[]): void {
  const root = scope.node.root;
  const ids = registered.get(root) ?? new Set<string>();
  registered.set(root, ids);
  if (!ids.has(id)) {
    ids.add(id);
    new Construct(root as Construct, id).node.addValidation({ validate: () => check(root.node.findAll()) });
  }
}
