/**
 * Checks across the whole app (name clashes, namespaces that refuse their
 * agents). A check per construct that scanned the app would cost O(N²); so
 * they run once per validation pass, all of them over one walk of the app.
 *
 * cdk8s validates the whole app again for every chart in `Chart.toJson`, so
 * even once per pass is O(N²) over an app of N charts rendered chart by
 * chart. Their result is therefore kept while the app is the same: the same
 * constructs in the same order (one walk of the app per pass, as cdk8s' own
 * pass makes several, compared with the list the checks last ran on), and no
 * construct whose state a check reads has called {@link appChanged} (a
 * namespace's `admit()`). A check may read nothing else that can change
 * after construction: the name, kind and namespace of an ApiObject, an
 * agent's Pod Security level and its chart's namespace are fixed.
 *
 * The tree is compared, rather than its changes counted, because constructs
 * tells no one when a child is added or removed: counting them meant patching
 * its `Node.prototype.addChild` and `tryRemoveChild`, private methods of a
 * library the user also uses, for every construct tree in the process; had
 * constructs stopped calling them, changes would have gone unseen. The walk
 * costs about 1 ms of a 5 ms stock `Chart.toJson` pass over 1000 charts,
 * where cdk8s walks the app several times (issue 25).
 */
import { Construct, IConstruct } from 'constructs';

/** A check over a set of constructs: one message per problem. */
type AppCheck = (constructs: readonly IConstruct[]) => string[];

/** What the app's checks last reported, and what they ran on. */
interface AppResults {
  /** The app's constructs, in `findAll()` order, when the checks ran. */
  readonly constructs: readonly IConstruct[];
  /** {@link changes} when the checks ran. */
  readonly changes: number;
  readonly errors: Map<string, string[]>;
  /**
   * The checks whose validation has not yet been called since these results
   * were made or found current. A cdk8s validation pass validates each
   * construct once and adds none meanwhile: the first check validated in it
   * walks the app, the others take its results, and a check called again is
   * in the next pass, which walks again. (Only a check construct's
   * `node.validate()` called by hand, outside any pass, after another
   * check's and a change in the app since, would get the results from
   * before the change.)
   */
  readonly unserved: Set<string>;
}

/** The app's checks by id, and their last results. */
interface AppChecks {
  readonly checks: Map<string, AppCheck>;
  results?: AppResults;
}

const registered = new WeakMap<IConstruct, AppChecks>();

/** How many times a construct said that state a check reads changed ({@link appChanged}). */
let changes = 0;

/** How many times the app checks ran afresh, over every app: a seam for tests of how often they run. */
let runs = 0;

/**
 * Says that a construct changed in a way an app check reads (a namespace's
 * enforced level): the next validation pass runs the checks again.
 */
export function appChanged(): void {
  changes++;
}

/** How many times the app checks have run afresh in this process (a pass that reused their result does not count). */
export function appCheckRuns(): number {
  return runs;
}

/**
 * Whether the tree under `root` holds `constructs`, in `findAll()` order:
 * a walk like `findAll()`'s that builds no list and stops at the first
 * difference.
 */
function holds(root: IConstruct, constructs: readonly IConstruct[]): boolean {
  const stack: IConstruct[] = [root];
  let i = 0;
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (constructs[i++] !== c) {
      return false;
    }
    const children = c.node.children;
    for (let k = children.length - 1; k >= 0; k--) {
      stack.push(children[k]);
    }
  }
  return i === constructs.length;
}

/**
 * What the app check `id` reports: from the results of this validation pass
 * if another check made them, else from the last results if the app is as it
 * was when they were made, else from every app check run afresh over one
 * walk of the app.
 */
function errorsOf(root: IConstruct, app: AppChecks, id: string): string[] {
  const last = app.results;
  if (last !== undefined && last.changes === changes && last.unserved.delete(id)) {
    return last.errors.get(id) ?? [];
  }
  const unserved = new Set([...app.checks.keys()].filter((other) => other !== id));
  if (last !== undefined && last.changes === changes && holds(root, last.constructs)) {
    app.results = { ...last, unserved };
    return last.errors.get(id) ?? [];
  }
  runs++;
  const constructs = root.node.findAll();
  const errors = new Map([...app.checks].map(([key, check]) => [key, check(constructs)]));
  app.results = { constructs, changes, errors, unserved };
  return errors.get(id) ?? [];
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
    new Construct(root as Construct, id).node.addValidation({ validate: () => errorsOf(root, app, id) });
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
