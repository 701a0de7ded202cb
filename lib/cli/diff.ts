/** `node-reporter diff OLD NEW`: what a manifest change does to a cluster. */
import { parseKubernetesVersion } from '../checks/versions';
import { diffManifests, formatDiffJson, formatDiffMarkdown, formatDiffText, IMPACT_KINDS, ImpactKind } from '../diff';
import { printable } from '../eligibility/printable';
import { COMMON_OPTIONS, commonUsage, failOnWarnings, Format, formatOf, parse, UsageError } from './args';
import { Io, readNodes, readObjects } from './io';
import { answerHelpOrVersion } from './version';

const FORMATS: readonly Format[] = ['text', 'json', 'markdown'];

/** The usage of `node-reporter diff`, printed by `node-reporter diff --help`. */
const DIFF_USAGE = `Usage: node-reporter diff OLD NEW [--nodes FILE|-] [--format text|json|markdown] [--kubernetes-version V] [--fail-on KIND[,KIND]]

Tells what replacing the manifests OLD with NEW does to a cluster, without one. OLD and NEW are files or folders
of manifests (folders are searched for *.yaml and *.yml); - reads stdin, for one side only. Objects are matched by
API group, kind, namespace and name, and each is reported as added, removed or changed, with its impacts:

  immutable      a change the API server refuses on update (a selector, a Service's clusterIP, a Job's template,
                 a binding's roleRef, ...), with the recipe
  rbac-widened   grants or subjects added, the dangerous ones marked (secrets, *, escalate, bind, impersonate, nodes/proxy)
  rbac-narrowed  grants or subjects removed
  pod-security   a Namespace's enforce level or version, or a workload's needed level or waivers, changed
  prune          an object removed; a removed Namespace with what it holds
  duplicate      NEW holds one object more than once: kubectl apply applies each copy, the last wins
  config-in-place a mounted ConfigMap or Secret changed: every pod reads it at once, no rollout paces it
  nodes-lost     with --nodes, a DaemonSet runs on fewer nodes: their pods are deleted at once, unpaced by
                 maxUnavailable; a warning when it runs on none or loses more than half
  eligibility    a DaemonSet's node selector, affinity or tolerations changed; with --nodes, the nodes gained and lost
  rollout        the pod template changed (as the server stores it): the pods restart; the fields, the strategy,
                 and with --nodes the rounds
  image          an image or tag changed
  resources      requests or limits changed; with --nodes, the cluster-wide change of the requests
  all-waves      the pod template of every wave of an agent changes at once (DaemonSets labelled node-reporter.dev/agent
                 and node-reporter.dev/wave): the canary is skipped; a warning

A wave's DaemonSet is named with its agent and wave, and with --nodes how many of the agent's nodes it runs on.

  --nodes FILE              kubectl get nodes -o json|yaml (- reads stdin): eligibility, rounds and totals over these nodes
  --kubernetes-version V    the version to judge by (default: the one NEW is annotated for, else 1.28)
  --fail-on KIND[,KIND]     exit 3 when an impact of these kinds is present (repeatable), e.g. immutable,rbac-widened
${commonUsage(FORMATS, 'exit 3 when an impact is a warning (marked !)')}

JSON: {"objects": [{"kind", "apiVersion", "namespace", "name", "agent"?, "wave"?, "reach"?, "change", "impacts": [{"kind", "message", "warning", ...}]}],
"summary": {"added", "removed", "changed", "unchanged", "impacts", "warnings", "kubernetesVersion", "kubernetesVersionSource"}}.

Exit codes (as kubectl diff): 0 no change, 1 changes, 2 or more bad usage or input, 3 an impact named by --fail-on
(or a warning, with --fail-on-warnings).`;

/** `node-reporter diff`. */
export function diff(args: string[], io: Io): number {
  const { values, positionals } = parse('diff', {
    args,
    options: {
      'nodes': { type: 'string' },
      'kubernetes-version': { type: 'string' },
      'fail-on': { type: 'string', multiple: true },
      ...COMMON_OPTIONS,
    },
    strict: true,
    allowPositionals: true,
  });
  const answered = answerHelpOrVersion(values, DIFF_USAGE, io);
  if (answered !== undefined) return answered;
  const format = formatOf('diff', values.format, FORMATS);
  const failOn = (values['fail-on'] ?? []).flatMap((v) => v.split(',')).map((k) => k.trim()).filter((k) => k !== '');
  const unknown = failOn.find((k) => !(IMPACT_KINDS as readonly string[]).includes(k));
  if (unknown !== undefined) {
    throw new UsageError(`--fail-on takes impact kinds (${IMPACT_KINDS.join(', ')}) but got ${printable(unknown, true)}`, 'diff');
  }
  let kubernetesVersion: string | undefined;
  if (values['kubernetes-version'] !== undefined) {
    const parsed = parseKubernetesVersion(values['kubernetes-version']);
    if ('error' in parsed) throw new UsageError(parsed.error, 'diff');
    kubernetesVersion = parsed.version;
  }
  if (positionals.length !== 2) {
    throw new UsageError(`diff takes OLD and NEW (files or folders, or - for one of them) but got ${positionals.length} argument(s)`, 'diff');
  }
  const stdins = [...positionals, values.nodes].filter((p) => p === '-').length;
  if (stdins > 1) {
    throw new UsageError('only one of OLD, NEW and --nodes can read stdin (-)', 'diff');
  }
  const [old, next] = positionals.map((p) => readObjects(io, [p]));
  const nodes = values.nodes !== undefined ? readNodes(io, values.nodes) : undefined;
  const report = diffManifests(old, next, { nodes, kubernetesVersion });
  io.out(format === 'json' ? formatDiffJson(report) : format === 'markdown' ? formatDiffMarkdown(report) : formatDiffText(report));
  const impacts = report.objects.flatMap((o) => o.impacts);
  if (impacts.some((i) => failOn.includes(i.kind as ImpactKind)) || (failOnWarnings(values) && report.summary.warnings > 0)) return 3;
  return report.objects.length > 0 ? 1 : 0;
}
