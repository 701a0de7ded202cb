/**
 * A pod template as the API server stores it: the defaults it fills in
 * (pkg/apis/core/v1/defaults.go: SetDefaults_PodSpec, SetDefaults_Container,
 * SetDefaults_Probe, SetDefaults_ContainerPort, SetDefaults_HostPathVolumeSource,
 * SetDefaults_SecretVolumeSource, SetDefaults_ConfigMapVolumeSource,
 * SetDefaults_ObjectFieldSelector), quantities in their canonical form, and
 * empty lists and maps dropped (omitempty). Two templates that store the same
 * are one revision to the workload controllers (a DaemonSet's
 * ControllerRevision, a Deployment's pod-template-hash): a manifest that only
 * spells out a default does not restart anything.
 */
import { canonicalResourceQuantity } from '../k8s/quantity';
import { isRecord } from '../k8s/syntax';
import { KubeObject } from './finding';

const setDefault = (obj: KubeObject, key: string, value: unknown) => {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
};

/**
 * The tag the kubelet's parsers.ParseImageName gives an image: its tag (after
 * the last ':' past the last '/', before any '@digest'), else "latest" when it
 * has no digest either, else none. So `name:latest@sha256:...` is "latest"
 * (and defaults to pull Always) and `name@sha256:...` has none.
 */
function imageTag(image: string): string | undefined {
  const at = image.indexOf('@');
  const name = at < 0 ? image : image.slice(0, at);
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) return name.slice(colon + 1);
  return at < 0 ? 'latest' : undefined;
}

function defaultProbe(probe: unknown): void {
  if (!isRecord(probe)) return;
  setDefault(probe, 'timeoutSeconds', 1);
  setDefault(probe, 'periodSeconds', 10);
  setDefault(probe, 'successThreshold', 1);
  setDefault(probe, 'failureThreshold', 3);
  for (const handler of ['httpGet']) {
    if (isRecord(probe[handler])) setDefault(probe[handler], 'scheme', 'HTTP');
    if (isRecord(probe[handler])) setDefault(probe[handler], 'path', '/');
  }
}

function defaultContainer(c: KubeObject): void {
  if (typeof c.image === 'string') {
    const tag = imageTag(c.image);
    // SetDefaults_Container: Always for the tag latest, IfNotPresent otherwise.
    setDefault(c, 'imagePullPolicy', tag === 'latest' ? 'Always' : 'IfNotPresent');
  }
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  // ResourceRequirements is a struct, not a pointer: stored as {} when absent.
  setDefault(c, 'resources', {});
  setDefault(c, 'terminationMessagePolicy', 'File');
  for (const port of Array.isArray(c.ports) ? c.ports : []) {
    if (isRecord(port)) setDefault(port, 'protocol', 'TCP');
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[probe]);
  for (const env of Array.isArray(c.env) ? c.env : []) {
    if (isRecord(env) && isRecord(env.valueFrom) && isRecord(env.valueFrom.fieldRef)) setDefault(env.valueFrom.fieldRef, 'apiVersion', 'v1');
  }
  if (isRecord(c.resources)) {
    for (const kind of ['requests', 'limits']) {
      const list = c.resources[kind];
      if (isRecord(list)) {
        for (const [name, value] of Object.entries(list)) {
          if (typeof value === 'string' || typeof value === 'number') list[name] = canonicalResourceQuantity(String(value));
        }
      }
    }
  }
}

function defaultVolume(v: KubeObject): void {
  if (isRecord(v.hostPath)) setDefault(v.hostPath, 'type', '');
  for (const source of ['secret', 'configMap']) {
    if (isRecord(v[source])) setDefault(v[source], 'defaultMode', 0o644);
  }
  if (isRecord(v.projected)) setDefault(v.projected, 'defaultMode', 0o644);
  if (isRecord(v.downwardAPI)) setDefault(v.downwardAPI, 'defaultMode', 0o644);
}

/** Map-typed fields (Go maps with omitempty): empty, they are not stored, as if absent. */
const MAP_FIELDS = new Set(['labels', 'annotations', 'nodeSelector', 'requests', 'limits', 'overhead']);

/** Drops null, empty lists and empty maps of MAP_FIELDS (what omitempty leaves out), recursively; empty structs stay. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const list = value.map(compact);
    return list.length === 0 ? undefined : list;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([k, v]) => [k, compact(v)] as const)
      .filter(([k, v]) => v !== undefined && v !== null && !(MAP_FIELDS.has(k) && isRecord(v) && Object.keys(v).length === 0));
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return value === null ? undefined : value;
}

/**
 * The template as the server stores it, as sorted JSON: equal strings are
 * one revision. Takes `spec.template` (metadata and spec) of a workload.
 */
export function storedTemplate(template: unknown): string {
  const copy: KubeObject = isRecord(template) ? structuredClone(template) : {};
  const spec: KubeObject = isRecord(copy.spec) ? copy.spec : (copy.spec = {});
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  if (spec.serviceAccountName !== undefined) setDefault(spec, 'serviceAccount', spec.serviceAccountName);
  for (const field of ['containers', 'initContainers']) {
    for (const c of Array.isArray(spec[field]) ? spec[field] : []) if (isRecord(c)) defaultContainer(c);
  }
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) if (isRecord(v)) defaultVolume(v);
  // The pod-level securityContext is a struct: {} stays; keep it through compact.
  const compacted = compact(copy) as KubeObject;
  return JSON.stringify(compacted);
}
