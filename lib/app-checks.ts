/**
 * Checks across the whole app (name clashes, namespaces that refuse their
 * agents), each run once per validation pass over every construct: a check
 * per construct that scanned the app would cost O(N²), and cdk8s validates
 * the whole app again for every chart in Chart.toJson.
 */
import { Construct, IConstruct } from 'constructs';

/** A check over a set of constructs: one message per problem. */
type AppCheck = (constructs: readonly IConstruct[]) => string[];

const registered = new WeakMap<IConstruct, Map<string, AppCheck>>();

/**
 * Makes the app that holds `scope` run `check` over all its constructs when
 * it validates (App.synth, Chart.toJson), once however many constructs ask
 * for the same `id`: a construct `id` under the app (it renders nothing)
 * reports what the check returns.
 */
export function appCheck(scope: IConstruct, id: string, check: AppCheck): void {
  const root = scope.node.root;
  const checks = registered.get(root) ?? new Map<string, AppCheck>();
  registered.set(root, checks);
  if (!checks.has(id)) {
    checks.set(id, check);
    new Construct(root as Construct, id).node.addValidation({ validate: () => check(root.node.findAll()) });
  }
}

/**
 * What the app checks of `scope`'s app report on `constructs` alone, each
 * message prefixed with its check's id as a validation pass prints it: for a
 * chart rendered on its own, which must not skip them.
 */
export function appCheckErrors(scope: IConstruct, constructs: readonly IConstruct[]): string[] {
  const checks = registered.get(scope.node.root) ?? new Map<string, AppCheck>();
  return [...checks].flatMap(([id, check]) => check(constructs).map((error) => `[${id}] ${error}`));
}
