/**
 * A metrics Service that selects the agent's pods, and the Prometheus
 * Operator's ServiceMonitor or PodMonitor.
 */
import { Chart, Testing } from 'cdk8s';
import { AgentMetrics, NodeAgent, NodePolicy } from '../../lib';
import { checkObjects, isBlocking } from '../../lib/checks';
import { Manifest, only, synth } from '../util';

function objectsOf(metrics: AgentMetrics, name = 'exporter'): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'monitoring' });
  new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'P'), name, metrics,
    containers: [{ name: 'exporter', image: 'example.com/exporter:1', ports: [{ number: 9100, name: 'metrics' }, { number: 8080 }] }],
  });
  return synth(chart);
}

describe('metrics', () => {
  test('a ClusterIP Service on the named port selects exactly the pods of the agent', () => {
    // WHEN
    const objects = objectsOf({ port: 'metrics' });

    // THEN
    const service = only(objects, 'Service');
    const labels = only(objects, 'DaemonSet').spec.template.metadata.labels;
    expect(service.metadata.name).toBe('node-agent-exporter');
    expect(service.spec).toEqual({ type: 'ClusterIP', selector: { app: 'exporter' }, ports: [{ name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' }] });
    expect(Object.entries(service.spec.selector).every(([k, v]) => labels[k] === v)).toBe(true);
    expect(service.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
  });

  test('a port by number, and a path other than /metrics', () => {
    const service = only(objectsOf({ port: 8080, path: '/stats' }), 'Service');
    expect(service.spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 8080, protocol: 'TCP' }]);
    expect(service.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/stats' });
  });

  test('a ServiceMonitor and a PodMonitor select the agent; without their CRD in the input the checks leave them alone', () => {
    // WHEN
    const objects = objectsOf({ port: 'metrics', serviceMonitor: true, podMonitor: true });

    // THEN
    expect(only(objects, 'ServiceMonitor')).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', spec: { selector: { matchLabels: { app: 'exporter' } }, endpoints: [{ port: 'metrics', path: '/metrics' }] } });
    expect(only(objects, 'PodMonitor')).toMatchObject({ spec: { selector: { matchLabels: { app: 'exporter' } }, podMetricsEndpoints: [{ port: 'metrics', path: '/metrics' }] } });
    expect(checkObjects(objects.filter((o) => !o.apiVersion.startsWith('monitoring.coreos.com/'))).filter(isBlocking)).toEqual([]);
  });

  test('refuses a port the agent does not have, a monitor without a port name, and a Service name that is no DNS-1035 label', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'monitoring' });
    const agent = (id: string, name: string, metricsName?: string) => () => new NodeAgent(chart, id, {
      policy: new NodePolicy(chart, `${id}P`), name, metrics: { port: 'metrics' }, adopt: metricsName !== undefined ? { serviceNames: { metrics: metricsName } } : undefined,
      containers: [{ name: 'exporter', image: 'example.com/exporter:1', ports: [{ number: 9100, name: 'metrics' }] }],
    });
    // The derived name node-agent-<name> is a DNS-1035 label for any agent name of at most 52 characters.
    expect(agent('A', '9-exporter')).not.toThrow();
    expect(agent('B', 'x'.repeat(53))).toThrow(/'name' must be at most 52 characters when the agent has a metrics Service \(named node-agent-<name>, a DNS-1035 label of at most 63\), or name the Service with adopt\.serviceNames\.metrics/);
    expect(agent('C', 'x'.repeat(53), 'exporter')).not.toThrow();
    expect(agent('D', 'exporter', '9-exporter')).toThrow(/'adopt\.serviceNames\.metrics' must be a Service name \(a DNS-1035 label/);
    expect(() => objectsOf({ port: 'http' })).toThrow(/'metrics\.port' must be the name or number of a container port \("metrics", 8080\) but got "http"/);
    expect(() => objectsOf({ port: 8080, serviceMonitor: true })).toThrow(/'metrics\.port' must be a named container port for a ServiceMonitor or PodMonitor/);
    expect(() => objectsOf({ port: 'metrics', interval: '30s' } as never)).toThrow(/'metrics' key must be one of port, path, service, serviceMonitor, podMonitor but got "interval"/);
  });
});
