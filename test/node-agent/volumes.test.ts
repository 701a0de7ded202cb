/**
 * Volumes declared once and mounted per container: typed host paths,
 * emptyDir, ConfigMap, Secret and projected volumes, readOnly, propagation
 * and subPath, and the API server's rules on them, at construction.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentContainer, AgentVolume, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel, ProjectedSource } from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { Manifest, only, synth } from '../util';

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' };

function daemonSetOf(props: Partial<NodeAgentProps>): Manifest {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'agents' });
  new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
  const ds = only(synth(chart), 'DaemonSet');
  expect(checkObject(ds).filter(isBlocking)).toEqual([]);
  return ds;
}

function build(props: Partial<NodeAgentProps>): () => NodeAgent {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'agents' });
  return () => new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
}

const container = (name: string, extra: Partial<AgentContainer> = {}): AgentContainer => ({ name, image: `example.com/${name}:1`, ...extra });

describe('volumes declared once, mounted per container', () => {
  test('a typed, writable host path is mounted only where a container asks for it', () => {
    // GIVEN a positions directory the kubelet creates, mounted writable by the main container only
    const ds = daemonSetOf({
      containers: [container('shipper', { mounts: [{ volume: 'state', path: '/var/lib/shipper', readOnly: false }] }), container('sidecar')],
      volumes: [AgentVolume.hostPath('state', '/var/lib/shipper', { type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE })],
      podSecurity: privileged,
    });

    // THEN
    const pod = ds.spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'state', hostPath: { path: '/var/lib/shipper', type: 'DirectoryOrCreate' } }]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'state', mountPath: '/var/lib/shipper' }]);
    expect(pod.containers[1]).not.toHaveProperty('volumeMounts');
  });

  test('mounts are read-only by default, but for an emptyDir', () => {
    const ds = daemonSetOf({
      containers: [container('agent', { mounts: [{ volume: 'logs', path: '/var/log' }, { volume: 'tmp', path: '/tmp' }] })],
      volumes: [AgentVolume.hostPath('logs', '/var/log'), AgentVolume.emptyDir('tmp', { medium: kplus.EmptyDirMedium.MEMORY, sizeLimit: Size.mebibytes(64) })],
      podSecurity: privileged,
    });
    const pod = ds.spec.template.spec;
    expect(pod.containers[0].volumeMounts).toEqual([
      { name: 'logs', mountPath: '/var/log', readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
    expect(pod.volumes[1]).toEqual({ name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } });
  });

  test('writes an emptyDir size limit as the API server stores it, so a re-apply changes nothing', () => {
    // GIVEN sizes that are not whole mebibytes, or not whole gibibytes
    const ds = daemonSetOf({
      containers: [container('agent', { mounts: [{ volume: 'a', path: '/a' }, { volume: 'b', path: '/b' }] })],
      volumes: [AgentVolume.emptyDir('a', { sizeLimit: Size.kibibytes(1536) }), AgentVolume.emptyDir('b', { sizeLimit: Size.mebibytes(2048) })],
    });

    // THEN each reads as the server's `kubectl get -o yaml` would (measured on v1.32)
    expect(ds.spec.template.spec.volumes.map((v: { emptyDir: { sizeLimit: string } }) => v.emptyDir.sizeLimit)).toEqual(['1536Ki', '2Gi']);
  });

  test('renders ConfigMap, Secret and projected volumes (a bound token with audience and expiry, Downward API files), and subPath', () => {
    // GIVEN
    const ds = daemonSetOf({
      containers: [container('agent', {
        mounts: [
          { volume: 'rules', path: '/etc/agent/rules.yaml', subPath: 'rules.yaml' },
          { volume: 'tls', path: '/etc/agent/tls' },
          { volume: 'identity', path: '/var/run/agent' },
        ],
      })],
      volumes: [
        AgentVolume.configMap('rules', 'agent-rules', { items: [{ key: 'rules.yaml', path: 'rules.yaml' }] }),
        AgentVolume.secret('tls', 'agent-tls', { defaultMode: 0o400, optional: true }),
        AgentVolume.projected('identity', [
          ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault', expirationSeconds: 3600 }),
          ProjectedSource.downwardApi([{ path: 'labels', fieldPath: 'metadata.labels' }]),
        ]),
      ],
    });

    // THEN
    const pod = ds.spec.template.spec;
    expect(pod.volumes).toEqual([
      { name: 'rules', configMap: { name: 'agent-rules', items: [{ key: 'rules.yaml', path: 'rules.yaml' }] } },
      { name: 'tls', secret: { secretName: 'agent-tls', defaultMode: 256, optional: true } },
      { name: 'identity', projected: { sources: [
        { serviceAccountToken: { path: 'token', audience: 'vault', expirationSeconds: 3600 } },
        { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      ] } },
    ]);
    expect(pod.containers[0].volumeMounts[0]).toEqual({ name: 'rules', mountPath: '/etc/agent/rules.yaml', subPath: 'rules.yaml', readOnly: true });
    // Only host paths leave "restricted".
    expect(ds.metadata.annotations ?? {}).toEqual({});
  });

  test('Bidirectional propagation is for privileged containers only, as the API server requires', () => {
    const volumes = [AgentVolume.hostPath('kubelet', '/var/lib/kubelet', { type: kplus.HostPathVolumeType.DIRECTORY })];
    const mounts = [{ volume: 'kubelet', path: '/var/lib/kubelet', readOnly: false, propagation: kplus.MountPropagation.BIDIRECTIONAL }];
    expect(build({ containers: [container('plugin', { mounts })], volumes, podSecurity: privileged }))
      .toThrow(/'containers\[0\]\.mounts\[0\]\.propagation' must be unset \(Bidirectional mount propagation is available only to privileged containers\) but got "Bidirectional"/);
    const ds = daemonSetOf({ containers: [container('plugin', { mounts, securityContext: { privileged: true } })], volumes, podSecurity: { ...privileged, writableHostPathsReason: 'a CSI node plugin shares its mounts with the kubelet' } });
    expect(ds.spec.template.spec.containers[0].volumeMounts[0]).toMatchObject({ mountPropagation: 'Bidirectional' });
  });

  test('refuses a mount of an undeclared volume, a subPath with .., two mounts at one path, and two volumes of one name', () => {
    expect(build({ containers: [container('a', { mounts: [{ volume: 'nope', path: '/x' }] })] }))
      .toThrow(/'containers\[0\]\.mounts\[0\]\.volume' must name one that exists but got "nope"/);
    expect(build({ containers: [container('a', { mounts: [{ volume: 't', path: '/x', subPath: '../etc' }] })], volumes: [AgentVolume.emptyDir('t')] }))
      .toThrow(/'containers\[0\]\.mounts\[0\]\.subPath' must be a relative path without '\.\.'/);
    expect(build({ containers: [container('a', { mounts: [{ volume: 't', path: '/x' }, { volume: 't', path: '/x' }] })], volumes: [AgentVolume.emptyDir('t')] }))
      .toThrow(/'containers\[0\]\.mounts\[1\]\.path' must be unique but got "\/x"/);
    expect(build({ volumes: [AgentVolume.emptyDir('t'), AgentVolume.emptyDir('t')] })).toThrow(/'volumes\[1\]\.name' must be a volume name no other volume uses but got "t"/);
  });

  test('a volume of wrong shapes is refused by its shapes alone: the API server\'s rules are asked only of one that renders', () => {
    // GIVEN a ConfigMap volume whose optional is no boolean and whose mode is out of range
    const volumes = [AgentVolume.configMap('c', 'cm', { optional: 'yes' as never, defaultMode: 0o7777 })];
    // WHEN / THEN the shape is named, and no API rule follows it until the shape is right
    expect(build({ volumes })).toThrow(/^test\/Agent: 'volumes\[0\]\.optional' must be a boolean but got "yes"$/);
    expect(build({ volumes })).not.toThrow(/defaultMode/);
  });

  test('refuses bad sources at construction, each naming its prop', () => {
    expect(build({ volumes: [AgentVolume.hostPath('h', 'var/log')], podSecurity: privileged })).toThrow(/'volumes\[0\]\.path' must be an absolute path/);
    expect(build({ volumes: [AgentVolume.hostPath('h', '/x', { type: 'Dir' as kplus.HostPathVolumeType })], podSecurity: privileged })).toThrow(/'volumes\[0\]\.type' must be one of "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate"/);
    expect(build({ volumes: [AgentVolume.projected('p', [ProjectedSource.serviceAccountToken({ path: 'token', expirationSeconds: 60 })])] }))
      .toThrow(/'volumes\[0\]\.sources\[0\]\.expirationSeconds' may not specify a duration less than 10 minutes but got 60/);
    expect(build({ volumes: [AgentVolume.configMap('c', 'cm', { items: [{ key: '..data', path: 'x' }] })] })).toThrow(/'volumes\[0\]\.items\[0\]\.key' must be a key/);
    expect(build({ volumes: [{ name: 'raw', hostPath: { path: '/' } } as never] })).toThrow(/'volumes\[0\]' must be an AgentVolume/);
  });

  test('Windows host paths are drive or pipe paths', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'agents' });
    new NodeAgent(chart, 'Agent', {
      policy: new NodePolicy(chart, 'Windows', { operatingSystem: 'windows' }),
      name: 'agent',
      containers: [container('agent', { mounts: [{ volume: 'pipe', path: '\\\\.\\pipe\\csi-proxy-v1' }, { volume: 'kubelet', path: 'C:\\var\\lib\\kubelet', readOnly: false }] })],
      volumes: [AgentVolume.hostPath('pipe', '\\\\.\\pipe\\csi-proxy-v1'), AgentVolume.hostPath('kubelet', 'C:\\var\\lib\\kubelet', { type: kplus.HostPathVolumeType.DIRECTORY })],
      podSecurity: privileged,
    });
    const pod = only(synth(chart), 'DaemonSet').spec.template.spec;
    expect(pod.volumes.map((v: Manifest) => v.hostPath.path)).toEqual(['\\\\.\\pipe\\csi-proxy-v1', 'C:\\var\\lib\\kubelet']);
  });
});

describe('a volume read back from Python, Java and Go (jsii)', () => {
  test('path answers what hostPath answers, where the static factory takes the name hostPath', () => {
    // GIVEN a host path and an emptyDir
    const host = AgentVolume.hostPath('logs', '/var/log');
    const scratch = AgentVolume.emptyDir('tmp');

    // THEN `path` (other languages) and `hostPath` (TypeScript) agree
    expect([host.path, host.hostPath]).toEqual(['/var/log', '/var/log']);
    expect([scratch.path, scratch.hostPath]).toEqual([undefined, undefined]);
  });
});
