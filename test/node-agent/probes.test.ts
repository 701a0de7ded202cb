import { Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentProbe, NodeAgent, NodePolicy } from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { only, synth } from '../util';

function containerWith(probes: { liveness?: kplus.Probe; readiness?: kplus.Probe; startup?: kplus.Probe }) {
  const chart = Testing.chart();
  new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'Policy', { operatingSystem: 'linux' }),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1.0', ports: [{ number: 9879, name: 'health' }], ...probes }],
  });
  const ds = only(synth(chart), 'DaemonSet');
  return { ds, container: ds.spec.template.spec.containers[0] };
}

describe('AgentProbe.httpGet', () => {
  test('sends its request headers, in order, with the host, port, scheme and timings cdk8s-plus renders', () => {
    // GIVEN Cilium's liveness probe: brief output, and no failure while the API server is away
    const liveness = AgentProbe.httpGet('/healthz', {
      host: '127.0.0.1', port: 9879, periodSeconds: Duration.seconds(30), successThreshold: 1, failureThreshold: 10, timeoutSeconds: Duration.seconds(5),
      headers: [{ name: 'brief', value: 'true' }, { name: 'require-k8s-connectivity', value: 'false' }],
    });

    // WHEN
    const { ds, container } = containerWith({ liveness });

    // THEN
    expect(container.livenessProbe).toEqual({
      httpGet: {
        host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP',
        httpHeaders: [{ name: 'brief', value: 'true' }, { name: 'require-k8s-connectivity', value: 'false' }],
      },
      periodSeconds: 30, successThreshold: 1, failureThreshold: 10, timeoutSeconds: 5,
    });
    expect(checkObject(ds).filter(isBlocking)).toEqual([]);
  });

  test('is a cdk8s-plus probe like any other, for readiness and startup too, and without headers renders as Probe.fromHttpGet', () => {
    // WHEN
    const { container } = containerWith({
      readiness: AgentProbe.httpGet('/ready', { port: 9879 }),
      startup: AgentProbe.httpGet('/healthz', { port: 9879, headers: [{ name: 'X-Probe', value: '' }] }),
    });

    // THEN
    expect(container.readinessProbe).toEqual({ httpGet: { path: '/ready', port: 9879, scheme: 'HTTP' }, failureThreshold: 3 });
    expect(container.startupProbe.httpGet.httpHeaders).toEqual([{ name: 'X-Probe', value: '' }]);
    expect(kplus.Probe.fromHttpGet('/ready', { port: 9879 })).toBeInstanceOf(kplus.Probe);
    expect(AgentProbe.httpGet('/ready')).toBeInstanceOf(kplus.Probe);
  });

  test.each([
    ['a header name with a space', [{ name: 'require k8s', value: 'false' }], /'headers\[0\]\.name' must be valid \(a valid HTTP header must consist of alphanumeric characters or '-'.*\) but got "require k8s"/],
    ['a header name that is not a string', [{ name: 7, value: 'x' }], /'headers\[0\]\.name' must be an HTTP header name \(letters, digits and dashes\) but got 7/],
    ['a header value that is not a string', [{ name: 'brief', value: true }], /'headers\[0\]\.value' must be a string but got true/],
    ['a header with an unknown key', [{ name: 'brief', value: 'true', values: ['x'] }], /'headers\[0\]' key must be name or value but got "values"/],
    ['headers that are not an array', { brief: 'true' }, /'headers' must be an array of \{ name, value \}/],
  ])('refuses %s, as the API server would', (_, headers, message) => {
    expect(() => AgentProbe.httpGet('/healthz', { headers: headers as never })).toThrow(message);
  });

  test('gives the verdict of the checks (validateHTTPHeader), whose rule a header name is: both refuse a name with a space, both take letters, digits and dashes', () => {
    // GIVEN a manifest whose probe sends a header named with a space
    const { ds } = containerWith({ readiness: AgentProbe.httpGet('/healthz', { port: 9879, headers: [{ name: 'X-Require-K8s-9', value: '' }] }) });
    const bad = JSON.parse(JSON.stringify(ds));
    bad.spec.template.spec.containers[0].readinessProbe.httpGet.httpHeaders[0].name = 'bad name';

    // WHEN the construct and the checks judge the two names
    const refused = () => AgentProbe.httpGet('/healthz', { port: 9879, headers: [{ name: 'bad name', value: '' }] });

    // THEN both take the dashed one and both refuse the spaced one, the checks at the list's path as the servers say
    expect(checkObject(ds).filter(isBlocking)).toEqual([]);
    expect(refused).toThrow(/'headers\[0\]\.name' must be valid/);
    expect(checkObject(bad).filter(isBlocking).map((f) => f.path)).toEqual(['spec.template.spec.containers[0].readinessProbe.httpGet.httpHeaders']);
  });
});
