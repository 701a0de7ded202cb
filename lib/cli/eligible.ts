/** `node-reporter eligible`: which nodes a DaemonSet runs on, and why not on the others. */
import { compareEligibility, DaemonSetEligibility, daemonSetsOfManifest, EligibilityReport, evaluateNodes, formatEligibilityChange, formatEligibilityMarkdown, formatEligibilityText, KubeNode, NodeListError, PodScheduling, summarize } from '../eligibility';
import { printable, printableJson } from '../eligibility/printable';
import { agentWaves, formatAgentWavesMarkdown, formatAgentWavesText } from '../eligibility/waves';
import { TAINT_EFFECTS, Toleration } from '../k8s/scheduling';
import { checkLabelValue, checkQualifiedName } from '../k8s/syntax';
import { CONTROL_PLANE_TAINT_KEY } from '../node-toleration';
import { COMMON_OPTIONS, commonUsage, failOnWarnings, Format, formatOf, parse, UsageError } from './args';
import { Io, ManifestObject, readNodes, readObjects } from './io';
import { answerHelpOrVersion } from './version';

const FORMATS: readonly Format[] = ['text', 'json', 'markdown'];

/** The usage of `node-reporter eligible`, printed by `node-reporter eligible --help`. */
const ELIGIBLE_USAGE = `Usage: node-reporter eligible --nodes FILE [--selector KEY=VALUE]... [--toleration KEY[=VALUE]:EFFECT]... [--tolerate-control-plane] [OPTIONS]
       node-reporter eligible --nodes FILE --manifest FILE|DIR|-... [--before FILE|DIR|-...] [OPTIONS]

Shows which nodes a DaemonSet will run on, and why the others are skipped, as the DaemonSet controller decides:
the summary first (DESIRED, eligible, skipped by reason), then one row per node.

  --nodes FILE              kubectl get nodes -o json|yaml, kubectl get node NAME -o json, or kubectl get --raw /api/v1/nodes; - reads stdin
  --selector KEY=VALUE      the nodeSelector, repeatable; without one, every node matches the selector (only taints
                            and tolerations decide) and the report says so
  --toleration KEY[=VALUE]:EFFECT
                            a toleration (Equal with a value, else Exists), repeatable; EFFECT is NoSchedule, PreferNoSchedule or NoExecute
  --tolerate-control-plane  tolerate node-role.kubernetes.io/control-plane:NoSchedule
  --manifest FILE|DIR|-     judge every DaemonSet in these manifests (files, folders of *.yaml, or stdin; repeatable) by its own
                            nodeSelector, node affinity, tolerations, nodeName and host network, one report each;
                            not with --selector or --toleration
  --before FILE|DIR|-       with --manifest: the manifests before a change (repeatable); each DaemonSet's nodes gained and lost
  --show-nodes              print every node's row (by default only up to 20 nodes)
${commonUsage(FORMATS, 'exit 1 when a DaemonSet runs on no node, or a node is in two waves of one agent')}

Waves: DaemonSets labelled node-reporter.dev/agent and node-reporter.dev/wave are the waves of one agent (per
namespace); --manifest groups them with each wave's node count, and reports every node eligible for two waves.

JSON: {"desired": N, "summary": {...}, "nodes": [{"name", "eligible", "reasons"}]}; with --manifest
{"daemonSets": [{"name", "namespace", "agent"?, "wave"?, "desired", "summary", "nodes", "change"?}],
 "agents"?: [{"agent", "namespace", "nodes", "of", "waves": [{"wave", "daemonSet", "desired"}], "overlaps": [{"node", "waves", "daemonSets"}]}]}.

Kubernetes versions: the answer is the same at every supported Kubernetes version (1.28 to 1.36), so eligible takes
no --kubernetes-version: the DaemonSet controller picks nodes by nodeSelector, required node affinity, nodeName and
taints against its tolerations (pkg/controller/daemon: predicates) alike in each (taint comparison operators, alpha in
1.35, are off by default).

Exit codes: 0 done, 1 with --fail-on-warnings: a DaemonSet runs on no node or a node is in two waves, 2 bad usage or input.`;

function parseSelector(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at < 0) {
    throw new UsageError(`--selector must be KEY=VALUE but got ${printable(text, true)}`, 'eligible');
  }
  const [key, value] = [text.slice(0, at), text.slice(at + 1)];
  const bad = checkQualifiedName('--selector key', key) ?? checkLabelValue('--selector value', value);
  if (bad !== undefined) {
    throw new UsageError(bad, 'eligible');
  }
  return [key, value];
}

function parseToleration(text: string): Toleration {
  const colon = text.lastIndexOf(':');
  const effect = colon < 0 ? '' : text.slice(colon + 1);
  if (colon < 0 || !TAINT_EFFECTS.includes(effect)) {
    throw new UsageError(`--toleration must be KEY[=VALUE]:EFFECT with EFFECT one of ${TAINT_EFFECTS.join(', ')} but got ${printable(text, true)}`, 'eligible');
  }
  const head = text.slice(0, colon);
  const at = head.indexOf('=');
  const [key, value] = at < 0 ? [head, undefined] : [head.slice(0, at), head.slice(at + 1)];
  const bad = checkQualifiedName('--toleration key', key) ?? (value !== undefined ? checkLabelValue('--toleration value', value) : undefined);
  if (bad !== undefined) {
    throw new UsageError(bad, 'eligible');
  }
  return value === undefined ? { key, operator: 'Exists', effect } : { key, operator: 'Equal', value, effect };
}

const verdicts = (report: EligibilityReport) => report.nodes.map(({ name, eligible: ok, reasons }) => ({ name, eligible: ok, reasons }));

/** Every DaemonSet of the objects (file by file, so errors name the file), evaluated over the nodes. */
export function daemonSetReports(objects: readonly ManifestObject[], nodes: readonly KubeNode[]): DaemonSetEligibility[] {
  const byFile = new Map<string, unknown[]>();
  for (const { object, file } of objects) {
    const list = byFile.get(file);
    if (list) list.push(object);
    else byFile.set(file, [object]);
  }
  return [...byFile].flatMap(([file, list]) => daemonSetsOfManifest(list, printable(file)).map(({ scheduling, ...ds }) => ({ ...ds, ...evaluateNodes(nodes, scheduling) })));
}

const keyOf = (r: { namespace?: string; name: string }) => `${r.namespace ?? ''}/${r.name}`;
const titleOf = (r: { namespace?: string; name: string; agent?: string; wave?: string }) => `DaemonSet ${r.namespace ? `${printable(r.namespace)}/` : ''}${printable(r.name)}${r.agent !== undefined ? ` (agent ${printable(r.agent)}, wave ${printable(r.wave!)})` : ''}`;

/** --manifest: one report per DaemonSet, with the change from --before when given. */
function manifestReports(values: { manifest: string[]; before?: string[]; nodes: string }, io: Io) {
  const readDaemonSets = (paths: string[], flag: string) => {
    const objects = readObjects(io, paths);
    if (!objects.some(({ object }) => (object as { kind?: unknown }).kind === 'DaemonSet')) {
      const where = paths.length === 1 ? (paths[0] === '-' ? 'stdin' : printable(paths[0])) : `the ${flag} inputs`;
      throw new NodeListError(`${where}: has no DaemonSet`);
    }
    return objects;
  };
  const after = readDaemonSets(values.manifest, '--manifest');
  const before = values.before !== undefined ? readObjects(io, values.before) : undefined;
  const nodes = readNodes(io, values.nodes);
  const reports = daemonSetReports(after, nodes);
  if (before === undefined) return reports.map((report) => ({ report, change: undefined }));
  const old = new Map(daemonSetReports(before, nodes).map((r) => [keyOf(r), r]));
  return reports.map((report) => ({ report, change: compareEligibility(old.get(keyOf(report)), report) }));
}

/** `node-reporter eligible`. */
export function eligible(args: string[], io: Io): number {
  if (args.some((a) => a === '--kubernetes-version' || a.startsWith('--kubernetes-version='))) {
    throw new UsageError('--kubernetes-version changes no answer of eligible: the DaemonSet controller picks nodes alike at every supported version (1.28 to 1.36)', 'eligible');
  }
  const { values } = parse('eligible', {
    args,
    options: {
      'nodes': { type: 'string' },
      'selector': { type: 'string', multiple: true },
      'toleration': { type: 'string', multiple: true },
      'tolerate-control-plane': { type: 'boolean' },
      'manifest': { type: 'string', multiple: true },
      'before': { type: 'string', multiple: true },
      'show-nodes': { type: 'boolean' },
      'json': { type: 'boolean' },
      ...COMMON_OPTIONS,
    },
    strict: true,
    allowPositionals: false,
  });
  const answered = answerHelpOrVersion(values, ELIGIBLE_USAGE, io);
  if (answered !== undefined) return answered;
  // --json is what this command took before --format: kept, with a nudge.
  if (values.json) {
    if (values.format !== undefined && values.format !== 'json') {
      throw new UsageError(`--json and --format ${printable(values.format)} disagree: use --format only`, 'eligible');
    }
    io.err('node-reporter eligible: --json is deprecated; use --format json\n');
  }
  const format = values.json ? 'json' : formatOf('eligible', values.format, FORMATS);
  const showNodes = values['show-nodes'] === true;
  if (values.nodes === undefined) {
    throw new UsageError('--nodes FILE is required', 'eligible');
  }
  if (values.before !== undefined && values.manifest === undefined) {
    throw new UsageError('--before compares with --manifest: give the manifests after the change with --manifest', 'eligible');
  }
  if (values.manifest !== undefined) {
    const stdins = [...values.manifest, ...(values.before ?? []), values.nodes].filter((f) => f === '-').length;
    if (stdins > 1) {
      throw new UsageError('--nodes, --manifest and --before cannot read stdin (-) more than once: give all but one of them a file', 'eligible');
    }
    if (values.selector || values.toleration || values['tolerate-control-plane']) {
      throw new UsageError('--manifest judges each DaemonSet by its own scheduling fields; leave out --selector, --toleration and --tolerate-control-plane', 'eligible');
    }
    const results = manifestReports({ manifest: values.manifest, before: values.before, nodes: values.nodes }, io);
    // --manifest takes no --tolerate-control-plane: the fix belongs in the manifest.
    const controlPlaneHint = `Control-plane nodes are tainted; tolerate ${CONTROL_PLANE_TAINT_KEY}:NoSchedule in the DaemonSet's pod template (NodeToleration.controlPlane() in the policy) to run there.`;
    const agents = agentWaves(results.map(({ report }) => report));
    if (format === 'json') {
      const daemonSets = results.map(({ report: r, change }) => ({
        name: r.name, namespace: r.namespace, ...(r.agent !== undefined ? { agent: r.agent, wave: r.wave } : {}), desired: r.desired, summary: summarize(r), nodes: verdicts(r), ...(change ? { change } : {}),
      }));
      io.out(`${printableJson({ daemonSets, ...(agents.length > 0 ? { agents } : {}) })}\n`);
    } else if (format === 'markdown') {
      io.out((agents.length > 0 ? `${formatAgentWavesMarkdown(agents)}\n` : '')
        + results.map(({ report: r, change }) => formatEligibilityMarkdown(titleOf(r), r, { showNodes, note: change ? `change: ${formatEligibilityChange(change)}` : undefined })).join('\n'));
    } else {
      io.out((agents.length > 0 ? `${formatAgentWavesText(agents)}\n` : '')
        + results.map(({ report: r, change }) => `${titleOf(r)}\n${change ? `change: ${formatEligibilityChange(change)}\n` : ''}${formatEligibilityText(r, { showNodes, controlPlaneHint })}`).join('\n'));
    }
    // A node in two waves runs the agent twice: a warning, that --strict makes fail.
    if (failOnWarnings(values) && agents.some((a) => a.overlaps.length > 0)) return 1;
    return failOnWarnings(values) && results.some(({ report }) => report.desired === 0) ? 1 : 0;
  }
  const selectors = (values.selector ?? []).map(parseSelector);
  const seen = new Map<string, string>();
  for (const [key, value] of selectors) {
    if (seen.has(key)) {
      throw new UsageError(`--selector repeats the key ${printable(key, true)} (${printable(key)}=${printable(seen.get(key)!)} and ${printable(key)}=${printable(value)}): a node label has one value`, 'eligible');
    }
    seen.set(key, value);
  }
  const scheduling: PodScheduling = {
    nodeSelector: Object.fromEntries(selectors),
    tolerations: [
      ...(values['tolerate-control-plane'] ? [{ key: CONTROL_PLANE_TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' }] : []),
      ...(values.toleration ?? []).map(parseToleration),
    ],
  };
  const report = evaluateNodes(readNodes(io, values.nodes), scheduling);
  const note = selectors.length === 0 ? 'no --selector given: every node matches an empty nodeSelector, so only taints and tolerations decided (give --selector KEY=VALUE, or --manifest FILE to judge a DaemonSet by its own fields)' : undefined;
  const controlPlaneHint = 'Control-plane nodes are tainted; --tolerate-control-plane (NodeToleration.controlPlane() in the policy) lets the agent run there.';
  if (format === 'json') {
    io.out(`${printableJson({ desired: report.desired, selector: scheduling.nodeSelector, ...(note ? { note } : {}), summary: summarize(report), nodes: verdicts(report) })}\n`);
  } else if (format === 'markdown') {
    io.out(formatEligibilityMarkdown('Eligible nodes', report, { showNodes, note }));
  } else {
    io.out(formatEligibilityText(report, { showNodes, note, controlPlaneHint }));
  }
  return failOnWarnings(values) && report.desired === 0 ? 1 : 0;
}
