import { Chart, Testing } from 'cdk8s';
import { AgentVolume, NodeAgent, NodeAgentProps, NodePolicy, ProjectedSource } from '../../lib';
import { only, synth } from '../util';

function projectedVolumeOf(sources: ProjectedSource[]) {
  const chart = Testing.chart();
  new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'Policy', { operatingSystem: 'linux' }),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1.0', mounts: [{ volume: 'certs', path: '/certs' }] }],
    volumes: [AgentVolume.projected('certs', sources, { defaultMode: 0o400 })],
  });
  return only(synth(chart), 'DaemonSet').spec.template.spec.volumes[0];
}

describe('ProjectedSource of ConfigMap and Secret keys', () => {
  test('may be optional, so that the pod starts before (or without) the Secret or ConfigMap', () => {
    // WHEN
    const volume = projectedVolumeOf([
      ProjectedSource.secret('peer-certs', undefined, { optional: true }),
      ProjectedSource.secret('server-certs', [{ key: 'tls.crt', path: 'server.crt' }], { optional: true }),
      ProjectedSource.configMap('ca', [{ key: 'ca.crt', path: 'ca.crt' }], { optional: false }),
    ]);

    // THEN
    expect(volume).toEqual({
      name: 'certs',
      projected: {
        defaultMode: 0o400,
        sources: [
          { secret: { name: 'peer-certs', optional: true } },
          { secret: { name: 'server-certs', items: [{ key: 'tls.crt', path: 'server.crt' }], optional: true } },
          { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], optional: false } },
        ],
      },
    });
  });

  test('is required unless it says otherwise, as the API server defaults it', () => {
    // WHEN
    const volume = projectedVolumeOf([ProjectedSource.secret('certs'), ProjectedSource.configMap('ca')]);

    // THEN
    expect(volume.projected.sources).toEqual([{ secret: { name: 'certs' } }, { configMap: { name: 'ca' } }]);
  });

  test('refuses an optional flag that is not a boolean, naming the source', () => {
    expect(() => projectedVolumeOf([ProjectedSource.secret('certs', undefined, { optional: 'yes' as unknown as boolean })]))
      .toThrow(/'volumes\[0\]\.sources\[0\]\.optional' must be a boolean but got "yes"/);
  });
});

describe('ProjectedSource options', () => {
  test.each([
    ['a misspelt key', { optinal: true }, /'volumes\[0\]\.sources\[0\]\.options' key must be optional \(the only option\) but got "optinal"/],
    ['options that are not an object', true, /'volumes\[0\]\.sources\[0\]\.options' must be an object \{ optional\? \} but got true/],
  ])('refuses %s rather than drop it', (_, options, message) => {
    expect(() => projectedVolumeOf([ProjectedSource.configMap('ca', undefined, options as never)])).toThrow(message);
  });
});

describe('a projected API token the agent was promised not to have', () => {
  function agentWith(props: Partial<NodeAgentProps>, audience?: string): () => void {
    return () => {
      const chart = new Chart(Testing.app(), 'test', { namespace: 'monitoring' });
      new NodeAgent(chart, 'Agent', {
        policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1', mounts: [{ volume: 'token', path: '/var/run/token', readOnly: true }] }],
        volumes: [AgentVolume.projected('token', [ProjectedSource.serviceAccountToken({ path: 'token', audience })])],
        ...props,
      });
    };
  }

  // The v1.35.6 server accepts such a pod, and the token the kubelet writes authenticates as system:serviceaccount:<ns>:default (TokenReview).
  test("with no ServiceAccount, a token with no audience (the namespace's default ServiceAccount's, for the API server) is refused", () => {
    expect(agentWith({})).toThrow(/'volumes' is refused by the manifest checks: DaemonSet\/agent spec\.template\.spec\.volumes\[0\]\.projected\.sources\[0\]\.serviceAccountToken\.audience: a serviceAccountToken with no audience is an API token, of the namespace's default ServiceAccount .*mounted though the pod sets automountServiceAccountToken: false \[projected-api-token\]: Set serviceAccountToken\.audience/);
  });

  test('with automountToken: false, a token with no audience is refused too', () => {
    expect(agentWith({ serviceAccount: { automountToken: false } })).toThrow(/of ServiceAccount "node-agent-agent", mounted though the pod sets automountServiceAccountToken: false \[projected-api-token\]/);
  });

  test('a token for another audience, or an API token of its own ServiceAccount, is fine', () => {
    expect(agentWith({}, 'vault')).not.toThrow();
    expect(agentWith({ serviceAccount: {} })).not.toThrow();
  });
});
