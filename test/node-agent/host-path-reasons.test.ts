/**
 * A writable mount of a sensitive host path (/, /etc, /var/lib/kubelet,
 * /proc, /sys, a container runtime's socket) needs a reason of its own, as
 * dangerous RBAC does; and a privileged agent's reason covers the Pod
 * Security controls it was written for, when it lists them.
 */
import { Chart, Testing } from 'cdk8s';
import { AgentContainer, AgentPodSecurity, AgentVolume, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel } from '../../lib';
import { sensitiveHostPath } from '../../lib/checks/host-paths';

function build(hostPath: string, readOnly: boolean | undefined, podSecurity: Partial<AgentPodSecurity>, container: Partial<AgentContainer> = {}): () => NodeAgent {
  return () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
    return new NodeAgent(chart, 'Agent', {
      policy: new NodePolicy(chart, 'Policy', { operatingSystem: 'linux' }),
      name: 'agent',
      volumes: [AgentVolume.hostPath('host', hostPath)],
      containers: [{ name: 'agent', image: 'example.com/agent:1', mounts: [{ volume: 'host', path: '/host', readOnly }], ...container }],
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node logs', ...podSecurity },
      runAsUser: 0,
    } as NodeAgentProps);
  };
}

describe('sensitiveHostPath', () => {
  test.each([
    ['/', true], ['/etc', true], ['/etc/', true], ['/etc/cni/net.d', true], ['/var/lib/kubelet', true], ['/var/lib/kubelet/plugins', true],
    ['/proc', true], ['/sys/fs/bpf', true], ['/run/containerd/containerd.sock', true], ['/var/run/crio/crio.sock', true], ['/var/run/docker.sock', true],
    ['/var', true], ['/var/lib', true], ['/run/containerd', true],
    ['/var/log', false], ['/var/lib/node-agent', false], ['/run/xtables.lock', false], ['/etcetera', false], ['/opt/cni/bin', false],
  ])('%s is sensitive to write: %s', (p, sensitive) => {
    // GIVEN / WHEN / THEN
    expect(sensitiveHostPath(p) !== undefined).toBe(sensitive);
  });
});

describe('a writable sensitive host path needs its own reason', () => {
  test.each(['/', '/etc', '/var/lib/kubelet', '/proc', '/sys', '/run/containerd/containerd.sock', '/var/run/crio/crio.sock', '/var/run/docker.sock'])('a writable %s without one is refused, naming the container, the volume and the path', (hostPath) => {
    // GIVEN / WHEN / THEN
    expect(build(hostPath, false, {})).toThrow(new RegExp(`'podSecurity.writableHostPathsReason' must say why the agent writes to the node's ${hostPath === '/' ? '' : ''}.*container "agent" mounts volume "host" \\(host path ${hostPath.replace(/[.]/g, '\\.')}, .*\\) writable at /host`));
  });

  test('a read-only mount of / needs no reason', () => {
    // GIVEN / WHEN / THEN
    expect(build('/', true, {})).not.toThrow();
    expect(build('/', undefined, {})).not.toThrow();
  });

  test('with a reason, a writable / is accepted', () => {
    // GIVEN / WHEN / THEN
    expect(build('/', false, { writableHostPathsReason: 'installs the CNI plugin into the node' })).not.toThrow();
  });

  test('a reason with nothing sensitive written is refused', () => {
    // GIVEN / WHEN / THEN
    expect(build('/var/log', false, { writableHostPathsReason: 'writes its position file' })).toThrow(/'podSecurity.writableHostPathsReason' must be unset: no container writes a sensitive host path but got "writes its position file"/);
  });
});

describe('a privileged reason covers the controls it lists', () => {
  test('a control the pod breaks beyond those listed is refused until acknowledged', () => {
    // GIVEN a v1 reason written for host paths and running as root
    const v1 = { controls: ['pss-volume-types', 'pss-run-as-non-root', 'pss-run-as-user'] };
    // WHEN v2 adds a host port
    const v2 = build('/var/log', true, v1, { ports: [{ number: 9100, hostPort: 9100 }] } as Partial<AgentContainer>);
    // THEN
    expect(v2).toThrow(/'podSecurity.controls' must list every control the reason covers: the pod also breaks pss-host-ports \(.*\); say why in the reason and add it/);
    expect(build('/var/log', true, { controls: [...v1.controls, 'pss-host-ports'] }, { ports: [{ number: 9100, hostPort: 9100 }] } as Partial<AgentContainer>)).not.toThrow();
  });

  test('a control listed that the pod no longer breaks is refused', () => {
    // GIVEN / WHEN
    const stale = build('/var/log', true, { controls: ['pss-volume-types', 'pss-run-as-non-root', 'pss-run-as-user', 'pss-privileged'] });
    // THEN
    expect(stale).toThrow(/'podSecurity.controls' must list only controls the pod breaks \(.*\) but got "pss-privileged"/);
  });

  test('without controls, the reason covers whatever the pod breaks, as before', () => {
    // GIVEN / WHEN / THEN
    expect(build('/var/log', true, {}, { ports: [{ number: 9100, hostPort: 9100 }] } as Partial<AgentContainer>)).not.toThrow();
  });
});
