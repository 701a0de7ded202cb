/**
 * A node agent's metrics endpoint: a Service that selects the agent's pods,
 * and optionally a Prometheus Operator ServiceMonitor or PodMonitor.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { defined, isRecord, Problem, problem, show } from '../k8s/syntax';
import { unknownKeys } from '../prop-keys';
import { AgentContainer } from './containers';

/** How Prometheus finds a node agent's metrics. */
export interface AgentMetrics {
  /** The container port that serves them, by its name (e.g. `metrics`) or number. */
  readonly port: string | number;

  /**
   * The HTTP path.
   * @default '/metrics'
   */
  readonly path?: string;

  /**
   * A ClusterIP Service `node-agent-<name>` (or `adopt.serviceNames.metrics`) on the port that selects the agent's pods,
   * annotated `prometheus.io/scrape: "true"`.
   * @default true
   */
  readonly service?: boolean;

  /**
   * A ServiceMonitor named like the Service (monitoring.coreos.com/v1) for the Prometheus
   * Operator; needs the Service and a named port. The checks report it as a
   * custom resource unless its CustomResourceDefinition is in the input.
   * @default false
   */
  readonly serviceMonitor?: boolean;

  /**
   * A PodMonitor named like the Service (monitoring.coreos.com/v1) that scrapes the pods directly; needs a named port.
   * @default false
   */
  readonly podMonitor?: boolean;
}

const KEYS = ['port', 'path', 'service', 'serviceMonitor', 'podMonitor'];

/** The container port `metrics.port` names, if any. */
function findPort(containers: readonly AgentContainer[], port: unknown): kplus.ContainerPort | undefined {
  return portsOf(containers).find((p) => (typeof port === 'number' ? p.number === port : p.name === port));
}

/** The containers' ports that are ports (the containers' own checks report the others). */
function portsOf(containers: readonly AgentContainer[]): kplus.ContainerPort[] {
  return containers.flatMap((c) => (Array.isArray(c.ports) ? c.ports.filter(isRecord) as kplus.ContainerPort[] : []));
}

/** @internal The problems of the `metrics` prop. */
export function metricsProblems(metrics: unknown, containers: readonly AgentContainer[]): Problem[] {
  if (!isRecord(metrics)) {
    return [problem('metrics', 'an AgentMetrics { port, path?, service?, serviceMonitor?, podMonitor? }', metrics)];
  }
  const problems = unknownKeys('metrics', metrics, { known: KEYS });
  const port = findPort(containers, metrics.port);
  problems.push(...defined(
    port === undefined ? problem('metrics.port', `the name or number of a container port (${portsOf(containers).map((p) => show(p.name ?? p.number)).join(', ') || 'the agent has none'})`, metrics.port) : undefined,
    metrics.path !== undefined && (typeof metrics.path !== 'string' || !metrics.path.startsWith('/')) ? problem('metrics.path', "an HTTP path starting with '/'", metrics.path) : undefined,
    ...(['service', 'serviceMonitor', 'podMonitor'] as const).map((k) => (metrics[k] !== undefined && typeof metrics[k] !== 'boolean' ? problem(`metrics.${k}`, 'a boolean', metrics[k]) : undefined)),
    metrics.serviceMonitor === true && metrics.service === false ? problem('metrics.serviceMonitor', 'false when metrics.service is false (a ServiceMonitor selects the Service)', true) : undefined,
    (metrics.serviceMonitor === true || metrics.podMonitor === true) && port !== undefined && port.name === undefined
      ? problem('metrics.port', 'a named container port for a ServiceMonitor or PodMonitor (their endpoints name the port)', metrics.port) : undefined,
  ));
  return problems;
}

/** @internal Creates the Service and monitors `metrics` asks for, under `scope`. */
export function createMetrics(scope: Construct, metrics: AgentMetrics, name: string, containers: readonly AgentContainer[], selector: Record<string, string>, labels: Record<string, string>): kplus.k8s.KubeService | undefined {
  const port = findPort(containers, metrics.port)!;
  const path = metrics.path ?? '/metrics';
  let service: kplus.k8s.KubeService | undefined;
  if (metrics.service ?? true) {
    service = new kplus.k8s.KubeService(scope, 'MetricsService', {
      metadata: { name, labels, annotations: { 'prometheus.io/scrape': 'true', ...(path !== '/metrics' ? { 'prometheus.io/path': path } : {}) } },
      spec: {
        type: 'ClusterIP',
        selector: { ...selector },
        ports: [{
          name: port.name ?? 'metrics',
          port: port.number,
          targetPort: port.name !== undefined ? kplus.k8s.IntOrString.fromString(port.name) : kplus.k8s.IntOrString.fromNumber(port.number),
          protocol: 'TCP',
        }],
      },
    });
  }
  if (metrics.serviceMonitor) {
    new ApiObject(scope, 'ServiceMonitor', {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { name, labels },
      spec: { selector: { matchLabels: { ...selector } }, endpoints: [{ port: port.name ?? 'metrics', path }] },
    });
  }
  if (metrics.podMonitor) {
    new ApiObject(scope, 'PodMonitor', {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: { name, labels },
      spec: { selector: { matchLabels: { ...selector } }, podMetricsEndpoints: [{ port: port.name, path }] },
    });
  }
  return service;
}
