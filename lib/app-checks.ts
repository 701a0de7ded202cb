/**
 * Checks across the whole app (name clashes, namespaces that refuse their
 * agents). A check per construct that scanned the app would cost O(N²); so
 * they run once per validation pass, all of them over one walk of the app.
 *
 * cdk8s validates the whole app again for every chart in `Chart.toJson`, so
 * even once per pass is O(N²) over an app of N charts rendered chart by
 * chart. Their result is therefore kept until the app changes, and it
 * changes only in ways that are seen: a construct added or removed anywhere
 * (constructs' `Node.addChild` and `tryRemoveChild`, counted), or a
 * construct whose state a check reads calling {@link appChanged} (a
 * namespace's `admit()`). A check may read nothing else that can change
 * after construction: the name, kind and namespace of an ApiObject, an
 * agent's Pod Security level and its chart's namespace are fixed.
 */
import { Construct, IConstruct, Node } from 'constructs';

/** A check over a set of constructs: one message per problem. */
type AppCheck = (constructs: readonly IConstruct[]) => string[];

/** The app's checks by id, and their results at the app's change count when they last ran. */
interface AppChecks {
  readonly checks: Map<string, AppCheck>;
  results?: { readonly changes: number; readonly errors: Map<string, string[]> };
}

const registered = new WeakMap<IConstruct, AppChecks>();

/**
 * The count of changes to any construct tree, shared by every copy of this
 * package (each patches the `constructs` it loads, once).
 */
interface ChangeCounter {
  changes: number;
  readonly patched: Set<unknown>;
}
const COUNTER = Symbol.for('node-reporter.appChanges');
const counter: ChangeCounter = ((globalThis as Record<symbol, unknown>)[COUNTER] as ChangeCounter | undefined) ?? { changes: 0, patched: new Set() };
(globalThis as Record<symbol, unknown>)[COUNTER] = counter;

/** Counts every construct added to or removed from a tree of this `constructs` copy. */
function countTreeChanges(): void {
  if (counter.patched.has(Node.prototype)) {
    return;
  }
  counter.patched.add(Node.prototype);
  const proto = Node.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['addChild', 'tryRemoveChild']) {
    const original = proto[method];
    if (typeof original !== 'function') {
      // Another constructs than the one this was written for: never keep a result.
      counter.patched.delete(Node.prototype);
      return;
    }
    proto[method] = function (this: unknown, ...args: unknown[]) {
      counter.changes++;
      return original.apply(this, args);
    };
  }
}
countTreeChanges();

/**
 * Says that a construct changed in a way an app check reads (a namespace's
 * enforced level): the next validation pass runs the checks again.
 */
export function appChanged(): void {
  counter.changes++;
}

/** Whether changes to this tree are counted: its nodes are of the patched `constructs`. */
function counted(root: IConstruct): boolean {
  return root.node instanceof Node && counter.patched.has(Node.prototype);
}

/** Every app check's errors, run afresh over one walk of the app unless nothing changed since they last ran. */
function resultsOf(root: IConstruct, app: AppChecks): Map<string, string[]> {
  const changes = counter.changes;
  if (app.results !== undefined && app.results.changes === changes && counted(root)) {
    return app.results.errors;
  }
  const constructs = root.node.findAll();
  const errors = new Map([...app.checks].map(([id, check]) => [id, check(constructs)]));
  app.results = { changes, errors };
  return errors;
}

/**
 * Makes the app that holds `scope` run `check` over all its constructs when
 * it validates (App.synth, Chart.toJson), once however many constructs ask
 * for the same `id`: a construct `id` under the app (it renders nothing)
 * reports what the check returns.
 */
export function appCheck(scope: IConstruct, id: string, check: AppCheck): void {
  const root = scope.node.root;
  const app = registered.get(root) ?? { checks: new Map<string, AppCheck>() };
  registered.set(root, app);
  if (!app.checks.has(id)) {
    app.checks.set(id, check);
    app.results = undefined;
    new Construct(root as Construct, id).node.addValidation({ validate: () => resultsOf(root, app).get(id) ?? [] });
  }
}

/**
 * What the app checks of `scope`'s app report on `constructs` alone, each
 * message prefixed with its check's id as a validation pass prints it: for a
 * chart rendered on its own, which must not skip them.
 */
export function appCheckErrors(scope: IConstruct, constructs: readonly IConstruct[]): string[] {
  const checks = registered.get(scope.node.root)?.checks ?? new Map<string, AppCheck>();
  return [...checks].flatMap(([id, check]) => check(constructs).map((error) => `[${id}] ${error}`));
}
