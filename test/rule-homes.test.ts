/**
 * One home per rule (docs/rule-homes.md): a rule of the Kubernetes API lives
 * in the checks, and NodeAgent asks them. So for every prop case of
 * test/fixtures/prop-refusals.ts, the construct and the checks give one
 * verdict: the construct refuses the props exactly when the checks refuse
 * the manifest those props make (the baseline agent's DaemonSet with the same
 * values), and the construct's message names the prop that the finding's
 * path maps back to. A copy of a rule in the constructs that drifts (another
 * port range, an older env-name syntax) fails the cases at its edges. The
 * library's own policy is refused by the construct and accepted by the
 * API rules, each with its reason.
 */
import { App, Chart, Testing } from 'cdk8s';
import { NodeAgent, NodeAgentProps, NodePolicy } from '../lib';
import { checkObject, Finding, isBlocking, KubernetesVersion } from '../lib/checks';
import { KUBERNETES_VERSION_CONTEXT } from '../lib/checks/versions';
import { subject } from '../lib/k8s/syntax';
import { propOfDaemonSetPath } from '../lib/node-agent/prop-paths';
import { Edit, PROP_CASES, PropCase, RuleClass } from './fixtures/prop-refusals';
import { Manifest, only } from './util';

const STEP = /^(?:\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;

/** Sets the value at a path (`containers[0].ports[1].name`, `metadata.labels["a/b"]`), making the objects and arrays on the way. */
function setAt(root: Record<string, unknown>, edit: Edit): void {
  const keys: (string | number)[] = [];
  for (let rest = edit.at; rest !== '';) {
    const m = STEP.exec(rest)!;
    keys.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]) as string));
    rest = rest.slice(m[0].length);
  }
  let node: Record<string | number, unknown> = root;
  keys.slice(0, -1).forEach((key, i) => {
    node[key] ??= typeof keys[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  node[keys[keys.length - 1]] = edit.value;
}

function appAt(version: KubernetesVersion | undefined): App {
  const app = Testing.app();
  if (version !== undefined) app.node.setContext(KUBERNETES_VERSION_CONTEXT, version);
  return app;
}

/** The baseline agent's props: two named ports, so that every case edits a field that is there. */
function baseProps(chart: Chart): Record<string, unknown> {
  return {
    policy: new NodePolicy(chart, 'Policy'),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1', ports: [{ number: 9100, name: 'metrics' }, { number: 9101, name: 'health' }] }],
    services: [{ name: 'agent-metrics', ports: [{ port: 'metrics' }] }],
  };
}

/** The case's edits of the baseline, copied: the case's own edits then change the copy, not the case. */
function baseEdits(c: PropCase): Edit[] {
  return (c.base ?? []).map((e) => ({ at: e.at, value: structuredClone(e.value) }));
}

/** The construct's verdict: the message of its error, or undefined when it builds. */
function constructVerdict(c: PropCase): string | undefined {
  const chart = new Chart(appAt(c.version), 'test', { namespace: 'agents' });
  const props = baseProps(chart);
  [...baseEdits(c), ...c.props].forEach((e) => setAt(props, e));
  try {
    new NodeAgent(chart, 'Agent', props as unknown as NodeAgentProps);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The case's manifest: the baseline agent's object with the case's values. */
function manifestOf(c: PropCase): Manifest {
  const chart = new Chart(appAt(c.version), 'test', { namespace: 'agents' });
  const props = baseProps(chart);
  baseEdits(c).forEach((e) => setAt(props, e));
  new NodeAgent(chart, 'Agent', props as unknown as NodeAgentProps);
  const obj: Manifest = only(Testing.synth(chart), c.kind ?? 'DaemonSet');
  (c.manifest ?? []).forEach((e) => setAt(obj, e));
  return obj;
}

/** The checks' verdict on the baseline agent's DaemonSet with the case's values: its blocking findings. */
function checksVerdict(c: PropCase): Finding[] {
  return checkObject(manifestOf(c), undefined, { kubernetesVersion: c.version ?? '1.28' }).filter(isBlocking);
}

/** The prop a manifest path of the case's object comes from: the DaemonSet's table, the baseline's one Service (`services[0]`), or the case's one ClusterRole or Role (`serviceAccount.rules`, `.namespacedRules`). */
function propOfCasePath(c: PropCase, path: string): string {
  if (c.kind === 'ClusterRoleBinding') {
    // The binding's first subject is the agent's ServiceAccount; serviceAccount.subjects follow.
    const subject = /^subjects\[(\d+)\]/.exec(path);
    return subject ? `serviceAccount.subjects[${Number(subject[1]) - 1}]${path.slice(subject[0].length)}` : path;
  }
  if (c.kind === 'ClusterRole' || c.kind === 'Role') {
    return path.replace(/^rules/, c.kind === 'Role' ? 'serviceAccount.namespacedRules' : 'serviceAccount.rules');
  }
  if (c.kind === 'Service') {
    return path.replace(/^metadata\.name$/, 'services[0].name').replace(/^spec\.ports\[(\d+)\]\.port/, 'services[0].ports[$1].servicePort').replace(/^spec\.ports\[(\d+)\]/, 'services[0].ports[$1]').replace(/^spec\./, 'services[0].');
  }
  return propOfDaemonSetPath(path, manifestOf(c)) ?? path;
}

/** The API server's own rules (field validation, metadata syntax, the schema): those no waiver can silence, as against Pod Security and recommendations. */
const isServerRule = (f: Finding) => f.rule.waivable !== true;

/** Whether the message names the prop, or a field of it (`'updateStrategy.maxSurge'` for `updateStrategy`). */
function namesProp(message: string | undefined, prop: string): boolean {
  return message !== undefined && (message.includes(subject(prop)) || message.includes(`'${prop}.`) || message.includes(`'${prop}[`));
}

/** Whether two props name one field or one holds the other (`labels` and `labels["a/b"]`; `x[key]` is `x`). */
function related(a: string, b: string): boolean {
  const [x, y] = [a.replace(/\[key\]$/, ''), b.replace(/\[key\]$/, '')];
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return within(x, y) || within(y, x);
}

describe('the baseline agent', () => {
  test('builds, and the checks refuse nothing of its DaemonSet, at every target the cases use', () => {
    for (const version of [undefined, ...new Set(PROP_CASES.map((c) => c.version))]) {
      const none: PropCase = { name: 'baseline', class: RuleClass.API, refused: false, props: [], prop: '', version };
      expect(constructVerdict(none)).toBeUndefined();
      expect(checksVerdict(none)).toEqual([]);
    }
  });
});

describe('a Kubernetes API rule: the construct and the checks give one verdict', () => {
  const cases = PROP_CASES.filter((c) => c.class === RuleClass.API);

  test.each(cases.filter((c) => c.refused).map((c) => [c.name, c] as const))('%s: both refuse, and the message names the prop the finding maps to', (_, c) => {
    // WHEN the construct is given the props, and the checks the manifest with the same values
    const message = constructVerdict(c);
    const refusals = checksVerdict(c).filter(isServerRule);

    // THEN both refuse: the construct naming the prop, the checks at a field that maps back to it
    expect([message, namesProp(message, c.prop)]).toEqual([message, true]);
    expect(refusals.map((f) => `${f.rule.id} ${f.path}`)).not.toEqual([]);
    expect(refusals.map((f) => propOfCasePath(c, f.path)).filter((p) => related(p, c.prop))).not.toEqual([]);
  });

  test.each(cases.filter((c) => !c.refused).map((c) => [c.name, c] as const))('%s: both accept', (_, c) => {
    expect(constructVerdict(c)).toBeUndefined();
    expect(checksVerdict(c).filter(isServerRule)).toEqual([]);
  });
});

describe("the library's policy: the construct refuses what the API rules accept, for a reason", () => {
  test.each(PROP_CASES.filter((c) => c.class === RuleClass.POLICY).map((c) => [c.name, c] as const))('%s', (_, c) => {
    // WHEN
    const message = constructVerdict(c);
    const findings = checksVerdict(c);

    // THEN the construct refuses it, naming the prop; the API server's rules accept the manifest; the reason is written down
    expect([message, namesProp(message, c.prop)]).toEqual([message, true]);
    expect(findings.filter(isServerRule)).toEqual([]);
    expect(c.reason).toMatch(/\w{3,}/);
    // Policy that the checks hold too (Pod Security) agrees.
    for (const rule of c.checksToo ?? []) {
      expect(findings.map((f) => f.rule.id)).toContain(rule);
    }
  });
});

describe('the cases', () => {
  test('cover both verdicts of the API rules and the policy, and every manifest edit maps back to its prop', () => {
    expect(PROP_CASES.filter((c) => c.class === RuleClass.API && c.refused).length).toBeGreaterThanOrEqual(20);
    expect(PROP_CASES.filter((c) => c.class === RuleClass.API && !c.refused).length).toBeGreaterThanOrEqual(10);
    for (const c of PROP_CASES.filter((p) => p.class === RuleClass.API)) {
      expect((c.manifest ?? []).some((e) => related(propOfCasePath(c, e.at), c.prop))).toBe(true);
    }
  });
});
