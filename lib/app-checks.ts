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
 * Whether the app is the same is known without a walk in the usual case.
 * Every construct added anywhere under the app asks its parent whether the
 * tree is `locked` (constructs' `Node.addChild`), and the question climbs to
 * the app's own node: an accessor on that one node instance (never on
 * constructs' `Node.prototype`, shared by every tree in the process) counts
 * the additions and answers as before. A probe child added at the start
 * proves the count works; if a release of constructs stopped asking, every
 * pass walks the tree as it did before. Removal (`tryRemoveChild`) is not
 * counted, and need not be while the last results were clean: every check
 * reports pairs or members of constructs that are present (two objects of
 * one name, two agents on one node, an agent and its namespace), so removing
 * constructs cannot make a problem appear. Results that hold a problem are
 * reused only after the walk finds the tree unchanged (the walk costs about
 * 1 ms per pass over 1000 charts, as much as cdk8s' own findAll).
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
  /** The app's {@link AppChecks.additions} when the checks ran or last found the tree unchanged. */
  readonly additions?: number;
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
  /** Constructs added under the app since it was registered, when counted ({@link countAdditions}); else undefined. */
  additions?: number;
}

const registered = new WeakMap<IConstruct, AppChecks>();

/** How many times a construct said that state a check reads changed ({@link appChanged}). */
let changes = 0;

/** How many times the app checks ran afresh, over every app: a seam for tests of how often they run. */
let runs = 0;

/** How many times a pass walked the tree to find it unchanged: a seam for tests of when it walks. */
let walks = 0;

/** How many times a validation pass walked the app to find it unchanged, in this process. */
export function appTreeWalks(): number {
  return walks;
}

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
  walks++;
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
  if (last !== undefined && last.changes === changes && (unchangedClean(app, last) || holds(root, last.constructs))) {
    app.results = { ...last, unserved, additions: app.additions };
    return last.errors.get(id) ?? [];
  }
  runs++;
  const constructs = root.node.findAll();
  const errors = new Map([...app.checks].map(([key, check]) => [key, check(constructs)]));
  app.results = { constructs, changes, errors, unserved, additions: app.additions };
  return errors.get(id) ?? [];
}

/** Whether no construct was added since `last`, which reported no problem: then removals alone cannot have made one. */
function unchangedClean(app: AppChecks, last: AppResults): boolean {
  return app.additions !== undefined && last.additions === app.additions && [...last.errors.values()].every((e) => e.length === 0);
}

/** The apps whose additions are counted, by their root's node. */
const counted = new WeakMap<object, AppChecks>();

/**
 * The getter of `locked` on a node's prototype chain, by prototype (one per
 * copy of constructs in the process).
 */
const lockedOf = new WeakMap<object, (this: unknown) => boolean>();

/**
 * The accessor for `locked` on a counted root's node: counts the question,
 * answers as constructs does. One function for every root's node, so that
 * they all keep one shape (a closure per root made each a shape of its own,
 * which slowed cdk8s' walks of every tree in the process).
 */
function countingLocked(this: object): boolean {
  const app = counted.get(this);
  if (app?.additions !== undefined) app.additions++;
  return lockedOf.get(Object.getPrototypeOf(this))!.call(this);
}
const COUNTING_LOCKED: PropertyDescriptor = { configurable: true, enumerable: false, get: countingLocked };

/**
 * Counts the constructs added under `root` from now on in `app.additions`,
 * through an accessor for `locked` on the root's node instance, which every
 * addition anywhere in the tree reads; proved by a probe child of `under`,
 * removed at once. Leaves `app.additions` undefined (walk every pass) when
 * the probe is not counted.
 */
function countAdditions(root: IConstruct, app: AppChecks, under: Construct): void {
  const node = root.node;
  const nodeProto: object | null = Object.getPrototypeOf(node);
  let proto = nodeProto;
  let read: ((this: unknown) => boolean) | undefined;
  while (proto !== null && read === undefined) {
    read = Object.getOwnPropertyDescriptor(proto, 'locked')?.get;
    proto = Object.getPrototypeOf(proto);
  }
  if (nodeProto === null || read === undefined || Object.prototype.hasOwnProperty.call(node, 'locked')) {
    return;
  }
  lockedOf.set(nodeProto, read);
  app.additions = 0;
  counted.set(node, app);
  Object.defineProperty(node, 'locked', COUNTING_LOCKED);
  new Construct(under, 'Probe');
  under.node.tryRemoveChild('Probe');
  if (app.additions === 0) {
    app.additions = undefined;
    counted.delete(node);
    delete (node as unknown as Record<string, unknown>).locked;
  }
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
    const reporter = new Construct(root as Construct, id);
    reporter.node.addValidation({ validate: () => errorsOf(root, app, id) });
    if (app.checks.size === 1) {
      countAdditions(root, app, reporter);
    }
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
