/**
 * config-in-place: a changed ConfigMap or Secret that pods mount as a volume.
 * The kubelet rewrites the mounted files of every running pod (its
 * configmap and secret volume plugins, pkg/volume/configmap and
 * pkg/volume/secret, re-sync each pod's volumes about once a minute), so the
 * change reaches every pod at once: no rollout paces it, maxUnavailable and
 * readiness do not apply. A subPath mount is never updated, and environment
 * variables are read at start, so those pods see it on their next restart only.
 */
import { KubeObject } from '../checks/finding';
import { sameValue, secretData } from '../checks/immutable';
import { podTemplateOf } from '../checks/pod-templates';
import { daemonSetsOfManifest, evaluateNodes, KubeNode } from '../eligibility';
import { nameList } from '../eligibility/format';
import { isRecord } from '../k8s/syntax';
import { Impact } from './types';

const namespaceOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '');
const nameOf = (o: KubeObject): string => (isRecord(o.metadata) && typeof o.metadata.name === 'string' ? o.metadata.name : '');
const list = (v: unknown): KubeObject[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** The data a pod reads from a ConfigMap or Secret. */
function dataOf(o: KubeObject): unknown {
  return o.kind === 'Secret' ? secretData(o) : { data: o.data, binaryData: o.binaryData };
}

/** Whether a volume takes its files from this ConfigMap or Secret (directly or projected). */
function volumeReads(volume: KubeObject, kind: string, name: string): boolean {
  if (kind === 'ConfigMap' && isRecord(volume.configMap) && volume.configMap.name === name) return true;
  if (kind === 'Secret' && isRecord(volume.secret) && volume.secret.secretName === name) return true;
  const sources = isRecord(volume.projected) ? list(volume.projected.sources) : [];
  return sources.some((s) => (kind === 'ConfigMap' ? isRecord(s.configMap) && s.configMap.name === name : isRecord(s.secret) && s.secret.name === name));
}

/** The containers of a pod spec that mount one of these volumes where the kubelet updates it (not by subPath). */
function readersIn(spec: KubeObject, volumes: readonly string[]): string[] {
  return [...list(spec.initContainers).filter((c) => c.restartPolicy === 'Always'), ...list(spec.containers)]
    .filter((c) => list(c.volumeMounts).some((m) => volumes.includes(String(m.name)) && (m.subPath ?? '') === '' && (m.subPathExpr ?? '') === ''))
    .map((c) => String(c.name));
}

/** config-in-place for a changed ConfigMap or Secret: the workloads of NEW that mount it, with their nodes over --nodes. */
export function configInPlaceImpact(old: KubeObject, next: KubeObject, objects: readonly KubeObject[], nodes: readonly KubeNode[] | undefined, source: string): Impact | undefined {
  if (next.apiVersion !== 'v1' || (next.kind !== 'ConfigMap' && next.kind !== 'Secret') || sameValue(dataOf(old), dataOf(next))) return undefined;
  const [kind, name, namespace] = [next.kind, nameOf(next), namespaceOf(next)];
  const readers: string[] = [];
  const names: string[] = [];
  let running = false;
  const nodeNames = new Set<string>();
  for (const o of objects) {
    const pod = podTemplateOf(o);
    if (pod === undefined || namespaceOf(o) !== namespace) continue;
    const volumes = list(pod.spec.volumes).filter((v) => volumeReads(v, kind, name)).map((v) => String(v.name));
    const containers = volumes.length > 0 ? readersIn(pod.spec, volumes) : [];
    if (containers.length === 0) continue;
    let where = '';
    if (o.kind === 'DaemonSet' && nodes !== undefined) {
      const report = evaluateNodes(nodes, daemonSetsOfManifest([o], source)[0].scheduling);
      const on = report.nodes.filter((n) => n.eligible).map((n) => n.name);
      on.forEach((n) => nodeNames.add(n));
      where = ` on ${on.length} node(s)${on.length > 0 ? `: ${nameList(on)}` : ''}`;
      running ||= on.length > 0;
    } else {
      running = true;
    }
    names.push(`${o.kind} ${namespace !== '' ? `${namespace}/` : ''}${nameOf(o)}`);
    readers.push(`${o.kind} ${namespace !== '' ? `${namespace}/` : ''}${nameOf(o)} (container ${containers.join(', ')})${where}`);
  }
  if (readers.length === 0) return undefined;
  return {
    // No warning when --nodes shows that no pod of theirs runs.
    kind: 'config-in-place', warning: running, source: 'the kubelet\'s configmap and secret volumes (pkg/volume/configmap, pkg/volume/secret): mounted files are updated in every running pod; subPath mounts are not',
    workloads: names, ...(nodes !== undefined ? { nodes: [...nodeNames] } : {}),
    message: `mounted and read in place by ${readers.join('; ')}: the kubelet updates the files in every pod at once (within about a minute), no rollout paces it (maxUnavailable and readiness do not apply)${nodeNames.size > 0 ? `; it reaches ${nodeNames.size} node(s) together` : ''}`,
  };
}
