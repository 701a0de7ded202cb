/**
 * The agents in examples/, built with the library as a platform team would:
 * synthesized, snapshot-tested, and clean under the manifest checks (the
 * findings they break on purpose are waived, with their reasons).
 */
import { Chart, Testing } from 'cdk8s';
import { LogCollectorChart } from '../examples/log-collector';
import { NodeExporterChart } from '../examples/node-exporter';
import { checkObject, isBlocking } from '../lib/checks';
import { evaluateNodes, KubeNode, schedulingOfWorkload } from '../lib/eligibility';
import { Manifest, only, synth, synthYaml } from './util';

const NODES: KubeNode[] = [
  { metadata: { name: 'cp', labels: { 'kubernetes.io/os': 'linux' } }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } },
  { metadata: { name: 'worker', labels: { 'kubernetes.io/os': 'linux' } }, spec: {} },
  { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } }, spec: {} },
  { metadata: { name: 'fargate-ip-10-0-0-1', labels: { 'kubernetes.io/os': 'linux', 'eks.amazonaws.com/compute-type': 'fargate' } }, spec: {} },
];

function findingsOf(chart: Chart) {
  return synth(chart).flatMap((o) => checkObject(o));
}

describe('examples/node-exporter.ts', () => {
  const chart = () => new NodeExporterChart(Testing.app(), 'node-exporter');

  test('synthesizes the reviewed manifest', () => {
    expect(synthYaml(chart())).toMatchSnapshot();
  });

  test('passes the checks; host namespaces, host path and host port are waived with the reason', () => {
    const findings = findingsOf(chart());
    expect(findings.filter(isBlocking)).toEqual([]);
    expect([...new Set(findings.map((f) => f.rule.id))].sort()).toEqual(['pss-host-namespaces', 'pss-host-ports', 'pss-volume-types']);
    expect(findings.every((f) => f.waived?.startsWith('node-exporter reports'))).toBe(true);
  });

  test('runs on every Linux node but Fargate, control planes included, on host network and PID, port 9100', () => {
    const objects = synth(chart());
    const ds = only(objects, 'DaemonSet');
    expect(evaluateNodes(NODES, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'worker']);
    expect(ds.spec.template.spec).toMatchObject({ hostNetwork: true, hostPID: true, dnsPolicy: 'ClusterFirstWithHostNet', priorityClassName: 'system-node-critical' });
    expect(ds.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 9100, hostPort: 9100, name: 'metrics' }]);
    expect(only(objects, 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });
});

describe('examples/log-collector.ts', () => {
  const chart = (config?: string) => new LogCollectorChart(Testing.app(), 'log-collector', { config });

  test('synthesizes the reviewed manifest', () => {
    expect(synthYaml(chart())).toMatchSnapshot();
  });

  test('passes the checks; the host path and running as root are waived with the reason', () => {
    const findings = findingsOf(chart());
    expect(findings.filter(isBlocking)).toEqual([]);
    expect([...new Set(findings.map((f) => f.rule.id))].sort()).toEqual(['pss-run-as-non-root', 'pss-run-as-user', 'pss-volume-types']);
  });

  test('reads pods and namespaces through its own ServiceAccount, and rolls when its config changes', () => {
    const objects = synth(chart());
    const ds = only(objects, 'DaemonSet');
    expect(only(objects, 'ClusterRole').rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    expect(ds.spec.template.spec.serviceAccountName).toBe('fluent-bit');
    expect(ds.spec.template.spec.containers[0].volumeMounts).toContainEqual({ name: 'varlog', mountPath: '/var/log', readOnly: true });
    const checksum = (d: Manifest) => d.spec.template.metadata.annotations['node-reporter.dev/config-sha256'];
    expect(checksum(only(synth(chart('[SERVICE]\n')), 'DaemonSet'))).not.toBe(checksum(ds));
    expect(evaluateNodes(NODES, schedulingOfWorkload(ds)).nodes.filter((n) => n.eligible).map((n) => n.name)).toEqual(['cp', 'worker', 'fargate-ip-10-0-0-1']);
  });
});
