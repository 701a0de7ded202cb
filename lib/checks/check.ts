/**
 * The checks' pipeline: take the objects ./input read as kubectl does (YAML
 * 1.1, Lists expanded, files that are no manifests set aside with a note),
 * see each object as the API server does (./normalize), judge it by every
 * rule and by the rules across objects, and attach waivers and positions.
 * Only judging is here; the rules live in the modules it imports.
 */
import { ANNOTATIONS_SIZE_LIMIT, annotationsSizeAfterApply, LAST_APPLIED_ANNOTATION, lastAppliedSize } from '../k8s/apply';
import { isRecord } from '../k8s/syntax';
import { checkMeta } from './api/meta';
import { checkApiValidation } from './api-validation';
import { checkCustomResource, checkCustomResourceDefinition, CrdIndex, crdIndex, groupOf, isCustomGroup } from './crds';
import { checkDaemonSetRules, checkPdbsAgainstDaemonSets } from './daemonset';
import { checkObjectsTwice } from './duplicates';
import { FieldProblem, Finding, KubeObject, show } from './finding';
import { checkWritableHostPaths } from './host-paths';
import { checkHostPortClashes } from './host-port-clashes';
import { readFiles } from './input/files';
import { Entry, Note, prefixed, readManifests, TextInput } from './input/manifests';
import { JudgedVersion, judgedVersion } from './judged-version';
import { checkMetadata } from './metadata';
import { checkNamespaceLabels, namespacePolicies, NamespacePolicy, podSecurityVersion } from './namespaces';
import { normalize } from './normalize';
import { checkPodSecurity, isAtLeastAsStrict, PodSecurityLevel } from './pod-security';
import { PodTemplate, podTemplateOf } from './pod-templates';
import { checkRbacPolicy } from './rbac-policy';
import { Rule, RULES, Severity } from './rules';
import { checkSchema, isBuiltInGroup } from './schema';
import { KubernetesVersion, minorOf, validates } from './versions';
import { waiversOf } from './waivers';
import { checkWaveOverlaps } from './wave-overlaps';
import { checkWorkload } from './workload';

/** How to judge the input. */
export interface CheckOptions {
  /**
   * The Pod Security level of namespaces the input does not hold (a Namespace
   * in the input is judged at its own `pod-security.kubernetes.io/enforce`
   * and `warn` labels).
   * @default 'restricted'
   */
  readonly podSecurity?: 'privileged' | 'baseline' | 'restricted';
  /**
   * Kinds not to check at all: `Kind` (every apiVersion) or `apiVersion/Kind`
   * (`monitoring.coreos.com/v1/ServiceMonitor`). Each skip is reported as a note.
   * @default none
   */
  readonly skipKinds?: readonly string[];
  /**
   * How the manifests are applied: `client-side` (kubectl apply's default,
   * which stores the object in an annotation) or `server-side`
   * (`kubectl apply --server-side`).
   * @default 'client-side'
   */
  readonly apply?: 'client-side' | 'server-side';
  /**
   * The Kubernetes version to judge by: `1.28` or `1.31` to `1.36` (`v1.35`
   * and `1.35.6` name the same minor). Its schema, the API versions it
   * serves, its validation rules and the Pod Security controls of
   * `enforce-version: latest` follow it. An unsupported version throws.
   * @default DEFAULT_KUBERNETES_VERSION ('1.28')
   */
  readonly kubernetesVersion?: string;
}

/** Everything a run of the checks found. */
export interface CheckReport {
  /** The findings, in input order. */
  readonly findings: Finding[];
  /** What was set aside, and why. */
  readonly notes: Note[];
  /** How many inputs (files, stdin) were read. */
  readonly files: number;
  /** How many Kubernetes objects they held (List items counted one by one), skipped kinds included. */
  readonly objects: number;
  /** The Kubernetes version the input was judged by, and why that one. */
  readonly kubernetesVersion: JudgedVersion;
}

function describe(obj: KubeObject): string {
  const kind = typeof obj?.kind === 'string' ? obj.kind : '(no kind)';
  const name = typeof obj?.metadata?.name === 'string' ? obj.metadata.name : '(no name)';
  return `${kind}/${name}`;
}

/** The pod-spec rules the API server applies to Pods and templates, but not to a StatefulSet's template. */
const POD_SPEC_RULES: ReadonlySet<Rule> = new Set<Rule>([
  RULES.apiPodSpec, RULES.apiContainer, RULES.apiPorts, RULES.apiEnv, RULES.apiResources, RULES.apiProbes, RULES.apiVolumes,
  RULES.apiSecurityContext, RULES.apiTolerations, RULES.apiAffinity, RULES.apiTopologySpread, RULES.apiDns,
]);

/**
 * A StatefulSet's pod template is not validated on create (only its labels
 * and annotations are): what would refuse a Pod warns there, since every pod
 * the controller creates will be refused.
 */
function asStatefulSetTemplate(obj: KubeObject, version: KubernetesVersion, problems: FieldProblem[]): FieldProblem[] {
  if (obj.kind !== 'StatefulSet' || validates(version, 'StatefulSetPodTemplate')) return problems;
  return problems.map((p) => {
    const inSpec = p.path === 'spec.template.spec' || p.path.startsWith('spec.template.spec.') || p.path.startsWith('spec.template.spec[');
    const notValidated = POD_SPEC_RULES.has(p.rule) || (p.rule === RULES.schema && p.message.startsWith('must have required field'));
    return inSpec && notValidated
      ? { rule: RULES.statefulSetTemplate, path: p.path, message: `${p.message} [${p.rule.id}]: the API server accepts this in a StatefulSet's template, and refuses every pod made from it` }
      : p;
  });
}

/**
 * The problems of one object (already normalized) by every rule of one object
 * but Pod Security: those of its schema and metadata, and the rest (Pod
 * Security findings go between, so that a report reads from the object's
 * shape to its details).
 */
function problemsOf(obj: KubeObject, pod: PodTemplate | undefined, crds: CrdIndex, version: KubernetesVersion): { shape: FieldProblem[]; rest: FieldProblem[]; served: boolean } {
  const group = groupOf(obj.apiVersion);
  if (typeof obj.kind === 'string' && obj.kind !== '' && isCustomGroup(group) && !isBuiltInGroup(group, version)) {
    return { ...customResourceProblems(obj, crds), served: false };
  }
  const schema = checkSchema(obj, version);
  const shape = asStatefulSetTemplate(obj, version, [...schema, ...checkMetadata(obj), ...checkNamespaceLabels(obj)]);
  // The API server validates only kinds it serves; the workload rules need a served kind too.
  if (schema.some((p) => p.rule === RULES.removedApi || p.rule === RULES.unknownKind)) {
    return { shape, rest: [], served: false };
  }
  // A field the schema already refuses (a missing required one) is reported once.
  const withoutSchemaDuplicates = (list: FieldProblem[]) => list.filter((p) => !schema.some((s) => s.path === p.path));
  return {
    shape,
    rest: asStatefulSetTemplate(obj, version, [
      ...checkWorkload(obj, pod),
      ...withoutSchemaDuplicates(checkApiValidation(obj, pod, version)),
      ...checkDaemonSetRules(obj, pod),
      ...checkCustomResourceDefinition(obj),
      ...checkRbacPolicy(obj),
      ...checkWritableHostPaths(pod),
    ]),
    served: true,
  };
}

/**
 * Client-side `kubectl apply` stores the object, as JSON, in its
 * last-applied-configuration annotation, and the annotations of an object
 * may hold 256 KiB in all (ValidateAnnotationsSize): a larger object needs
 * `kubectl apply --server-side`.
 */
function checkLastApplied(obj: KubeObject): FieldProblem[] {
  const total = annotationsSizeAfterApply(obj);
  return total <= ANNOTATIONS_SIZE_LIMIT ? [] : [{
    rule: RULES.kubectlApply, path: 'metadata.annotations',
    message: `Too long: client-side kubectl apply stores this object (${lastAppliedSize(obj)} bytes of JSON) in the annotation ${LAST_APPLIED_ANNOTATION}, and annotations may hold at most ${ANNOTATIONS_SIZE_LIMIT} bytes in all (${total} here): apply it with kubectl apply --server-side`,
  }];
}

/** A custom resource: judged by its CRD when the input holds it, else only a warning that it is not judged. */
function customResourceProblems(obj: KubeObject, crds: CrdIndex): { shape: FieldProblem[]; rest: FieldProblem[] } {
  const found = checkCustomResource(obj, crds);
  if (found === undefined) {
    return { shape: [{ rule: RULES.crdNotInInput, path: 'apiVersion', message: `not checked: its CustomResourceDefinition (kind ${show(obj.kind)} of ${show(groupOf(obj.apiVersion))}) is not in the input` }], rest: [] };
  }
  const crd = crds.get(groupOf(obj.apiVersion), obj.kind)!;
  const together: FieldProblem = {
    rule: RULES.crdAppliedWithResource, path: 'apiVersion',
    message: `its CustomResourceDefinition ${crd.name} is in the same input: one kubectl apply -f of both fails ("no matches for kind ${show(obj.kind)} ... ensure CRDs are installed first"), as kubectl maps this object before the CRD exists; apply the CRD first and kubectl wait --for condition=established crd/${crd.name}`,
  };
  const scoped = crd.scope === 'Cluster' && obj.metadata?.namespace !== undefined
    ? [{ rule: RULES.clusterScopedNamespace, path: 'metadata.namespace', message: `${obj.kind} is cluster-scoped (CustomResourceDefinition ${crd.name}) but sets namespace ${show(obj.metadata.namespace)}; the API server ignores it` }]
    : [];
  const meta: FieldProblem[] = [];
  checkMeta((rule, path, message) => meta.push({ rule, path, message }), obj, true);
  return { shape: [...found, ...scoped, ...checkMetadata(obj)], rest: [...meta, together] };
}

/** A Pod Security problem, with the severity and note its namespace gives it. */
interface PodSecurityProblem extends FieldProblem {
  /** Warning when the namespace only warns at this level. */
  readonly severity?: Severity;
  /** The namespace of the input that enforces it: a waiver does not admit the pod there. */
  readonly enforcedBy?: NamespacePolicy;
  /** The namespace of the input that admits it: reported only when waived, so that a waiver is counted whatever admits the pod. */
  readonly admittedBy?: NamespacePolicy;
}

/**
 * The Pod Security problems of a pod: at its namespace's enforce level when
 * the input holds the Namespace (and, as warnings, at its warn level), else
 * at the level for namespaces not in the input.
 */
function podSecurityOf(obj: KubeObject, pod: PodTemplate | undefined, policies: Map<string, NamespacePolicy>, fallback: PodSecurityLevel, version: KubernetesVersion): PodSecurityProblem[] {
  if (!pod) return [];
  const ns = obj.metadata?.namespace;
  const policy = typeof ns === 'string' ? policies.get(ns) : undefined;
  if (!policy) return checkPodSecurity(pod, fallback, minorOf(version));
  const enforced = checkPodSecurity(pod, policy.enforce, podSecurityVersion(policy.enforceVersion, version)).map((p) => ({ ...p, enforcedBy: policy }));
  const warn = policy.warn;
  const warned = warn === undefined || warn === policy.enforce || !isAtLeastAsStrict(warn, policy.enforce) ? []
    : checkPodSecurity(pod, warn, podSecurityVersion(policy.warnVersion, version)).filter((p) => !enforced.some((e) => e.path === p.path && e.rule === p.rule))
      .map((p) => ({ ...p, severity: Severity.WARNING, message: `${p.message} (namespace ${show(policy.name)} warns at "${warn}")` }));
  // What "restricted" would refuse and the namespace admits: the caller keeps the waived ones, so a waiver counts whatever admits the pod.
  const seen = [...enforced, ...warned];
  const admitted = checkPodSecurity(pod, PodSecurityLevel.RESTRICTED, podSecurityVersion(policy.enforceVersion, version)).filter((p) => !seen.some((e) => e.path === p.path && e.rule === p.rule))
    .map((p) => ({ ...p, admittedBy: policy, message: `${p.message} (namespace ${show(policy.name)} in the input enforces "${policy.enforce}", which admits it)` }));
  return [...seen, ...admitted];
}

/** The problems of the rules across objects, by object. */
function mergeProblems(...maps: Map<KubeObject, FieldProblem[]>[]): Map<KubeObject, FieldProblem[]> {
  const merged = new Map<KubeObject, FieldProblem[]>();
  for (const map of maps) for (const [obj, problems] of map) merged.set(obj, [...(merged.get(obj) ?? []), ...problems]);
  return merged;
}

/** Judges the entries together: each one, and the rules across them, at the version chosen or named by the input. */
function judge(entries: readonly Entry[], options: CheckOptions): { findings: Finding[]; judged: JudgedVersion } {
  const { judged, problems: versionProblems } = judgedVersion(entries.map((e) => e.object), options.kubernetesVersion);
  const version: KubernetesVersion = judged.version;
  const clientSide = (options.apply ?? 'client-side') === 'client-side';
  const fallback = (options.podSecurity ?? PodSecurityLevel.RESTRICTED) as PodSecurityLevel;
  const normalized = entries.map((e) => (isRecord(e.object) ? normalize(e.object, version) : undefined));
  const objects = normalized.map((n) => n?.object).filter(isRecord);
  const across = mergeProblems(checkPdbsAgainstDaemonSets(objects), checkWaveOverlaps(objects), checkHostPortClashes(objects));
  const twice = checkObjectsTwice(normalized.map((n) => n?.object ?? {}), entries.map((e) => e.file));
  const policies = namespacePolicies(objects);
  const crds = crdIndex(objects);
  const findings: Finding[] = [];
  entries.forEach((entry, i) => {
    const object = describe(entry.object);
    const finding = (p: FieldProblem, waived?: string, severity: Severity = p.rule.severity): Finding => {
      const at = prefixed(entry.at, p.path);
      const position = entry.locate?.(at);
      return { rule: p.rule, path: at, message: p.message, severity, file: entry.file, object, ...(waived !== undefined ? { waived } : {}), ...(position ? { line: position.line, column: position.column } : {}) };
    };
    const n = normalized[i];
    if (n === undefined) {
      findings.push(finding({ rule: RULES.schema, path: '(document)', message: 'is not a Kubernetes object (a YAML mapping)' }));
      return;
    }
    const { waivers, problems: waiverProblems } = waiversOf(n.object);
    findings.push(...[...(versionProblems.get(i) ?? []), ...waiverProblems].map((p) => finding(p)));
    const pod = podTemplateOf(n.object);
    const applied = clientSide ? checkLastApplied(entry.object) : [];
    const { shape, rest, served } = problemsOf(n.object, pod, crds, version);
    for (const p of [...n.problems, ...shape]) findings.push(finding(p, waivers.get(p.rule.id)));
    for (const p of podSecurityOf(n.object, served ? pod : undefined, policies, fallback, version)) {
      const waiver = waivers.get(p.rule.id);
      if (p.admittedBy) {
        if (waiver !== undefined) findings.push(finding(p, waiver, p.severity));
      } else if (p.enforcedBy) {
        // The server refuses the pod whatever the annotation says.
        const note = `namespace ${show(p.enforcedBy.name)} in the input enforces "${p.enforcedBy.enforce}"${waiver !== undefined ? ', and a waiver does not admit the pod there' : ''}`;
        findings.push(finding({ ...p, message: `${p.message} (${note})` }, undefined, p.severity));
      } else {
        findings.push(finding(p, waiver, p.severity));
      }
    }
    for (const p of [...rest, ...applied, ...(across.get(n.object) ?? []), ...(twice.get(n.object) ?? [])]) findings.push(finding(p, waivers.get(p.rule.id)));
  });
  return { findings, judged };
}

/** Every finding (and note) for some YAML texts, a file's or stdin's, judged together. */
export function checkInputs(inputs: ReadonlyArray<{ readonly file: string; readonly text: string }>, options: CheckOptions = {}): CheckReport {
  return run(inputs, options);
}

/**
 * @param synthesized the inputs are what `cdk8s synth` just wrote: a file in
 * templates/ of a Helm chart is then a manifest (`--format helm`), not a
 * template to render first
 */
function run(inputs: readonly TextInput[], options: CheckOptions, synthesized = false): CheckReport {
  const read = readManifests(inputs, options.skipKinds, synthesized);
  const judged = judge(read.entries, options);
  return { findings: [...read.findings, ...judged.findings], notes: read.notes, files: inputs.length, objects: read.objects, kubernetesVersion: judged.judged };
}

/** Every finding for some YAML texts (a file's or stdin's), judged together. */
export function checkTexts(inputs: ReadonlyArray<{ readonly file: string; readonly text: string }>, options: CheckOptions = {}): Finding[] {
  return checkInputs(inputs, options).findings;
}

/** Every finding for a multi-document YAML text; duplicate keys and syntax errors are findings too. */
export function checkYaml(text: string, file?: string, options: CheckOptions = {}): Finding[] {
  return run([{ file, text }], options).findings;
}

/** Every finding for some manifest files, judged together (rules across objects span files). */
export function checkFiles(files: readonly string[], options: CheckOptions = {}): Finding[] {
  return checkTexts(readFiles(files), options);
}

/** @internal The report of the files `cdk8s synth` wrote (the validation plugin's input), a Helm chart's templates included. */
export function checkSynthesizedReport(files: readonly string[], options: CheckOptions = {}): CheckReport {
  return run(readFiles(files), options, true);
}

/** Every finding for one parsed object (rules across objects need {@link checkObjects}). */
export function checkObject(obj: KubeObject, file?: string, options: CheckOptions = {}): Finding[] {
  return checkObjects([obj], [file], options);
}

/** Every finding for a set of objects, including the rules across objects (a PodDisruptionBudget that selects a DaemonSet's pods). */
export function checkObjects(objects: readonly KubeObject[], files: readonly (string | undefined)[] = [], options: CheckOptions = {}): Finding[] {
  return judge(objects.map((object, i) => ({ object, file: files[i], at: '' })), options).findings;
}

