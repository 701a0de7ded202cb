/**
 * The hostport-clash rule (lib/checks/host-port-clashes.ts): two DaemonSets
 * that bind the same host port on nodes they can share are an error naming
 * both and the port: on such a node the second pod never starts. Node sets
 * that cannot meet (Linux and Windows, disjoint waves) pass.
 */
import { checkObjects, KubeObject } from '../../lib/checks';
import { AGENT_LABEL, WAVE_LABEL } from '../../lib/k8s/waves';
import { cleanDaemonSet, podOf } from './baseline';

/** A clean DaemonSet named `name` binding `hostPort` (or, on the host network, the container port). */
function daemonSet(name: string, port: { hostPort?: number; containerPort: number; protocol?: string }, pod: Record<string, unknown> = {}): KubeObject {
  const ds = cleanDaemonSet();
  ds.metadata.name = name;
  ds.spec.selector.matchLabels = { app: name };
  ds.spec.template.metadata.labels = { ...ds.spec.template.metadata.labels, app: name };
  Object.assign(podOf(ds), pod);
  podOf(ds).containers[0].ports = [port];
  return ds;
}

const clashes = (objects: KubeObject[]) => checkObjects(objects).filter((f) => f.rule.id === 'hostport-clash');

describe('check: hostport-clash', () => {
  test('two DaemonSets with one hostPort on every Linux node are an error on the second, naming both and the port', () => {
    // GIVEN
    const linux = { nodeSelector: { 'kubernetes.io/os': 'linux' } };
    const a = daemonSet('node-exporter', { containerPort: 9100, hostPort: 9100 }, linux);
    const b = daemonSet('other-exporter', { containerPort: 8080, hostPort: 9100 }, linux);
    // WHEN
    const findings = clashes([a, b]);
    // THEN
    expect(findings.map((f) => [f.object, f.severity, f.path])).toEqual([['DaemonSet/other-exporter', 'error', 'spec.template.spec.containers[0].ports[0].hostPort']]);
    expect(findings[0].message).toMatch(/^host port 9100\/TCP of DaemonSet "other-exporter" is bound by DaemonSet "node-exporter" too, on nodes both select \(a node labelled kubernetes\.io\/os=linux\): only one of them can run there$/);
  });

  test('a host-network pod binds its container port', () => {
    // GIVEN
    const a = daemonSet('a', { containerPort: 9100 }, { hostNetwork: true });
    const b = daemonSet('b', { containerPort: 9100, hostPort: 9100 });
    // WHEN / THEN
    expect(clashes([a, b]).map((f) => f.object)).toEqual(['DaemonSet/b']);
  });

  test('other protocols, other ports, and nodes that cannot meet (Linux and Windows) pass', () => {
    // GIVEN
    const a = daemonSet('a', { containerPort: 53, hostPort: 53 }, { nodeSelector: { 'kubernetes.io/os': 'linux' } });
    const udp = daemonSet('udp', { containerPort: 53, hostPort: 53, protocol: 'UDP' }, { nodeSelector: { 'kubernetes.io/os': 'linux' } });
    const other = daemonSet('other', { containerPort: 54, hostPort: 54 });
    const windows = daemonSet('windows', { containerPort: 53, hostPort: 53 }, { nodeSelector: { 'kubernetes.io/os': 'windows' } });
    // WHEN / THEN
    expect(clashes([a, udp, other, windows])).toEqual([]);
  });

  test('two waves of one agent share their ports by design and pass (wave-overlap judges whether they meet)', () => {
    // GIVEN two waves of one agent that, wrongly, meet
    const waveOf = (wave: string) => {
      const ds = daemonSet(`agent-${wave}`, { containerPort: 9100, hostPort: 9100 });
      ds.metadata.labels = { ...ds.metadata.labels, [AGENT_LABEL]: 'agent', [WAVE_LABEL]: wave };
      return ds;
    };
    // WHEN / THEN
    expect(clashes([waveOf('canary'), waveOf('main')])).toEqual([]);
  });
});
