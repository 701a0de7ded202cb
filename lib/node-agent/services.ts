/**
 * The Services of a node agent beyond its metrics Service: each named by the
 * user, selecting exactly the agent's pods, on ports of its containers
 * (a headless one for per-pod DNS, several ports, node-local traffic).
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkInternalTrafficPolicy, checkService } from '../checks/api/core';
import { checkAnnotations, defined, isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks, PropPath } from '../prop-checks';
import { unknownKeys } from '../prop-keys';
import { serviceNameProblem } from './adoption';
import { AgentContainer } from './containers';

/** A port of an agent's Service: one of its containers' ports. */
export interface AgentServicePort {
  /** The container port, by its name or number. */
  readonly port: string | number;
  /**
   * The Service's port number.
   * @default - the container port's number
   */
  readonly servicePort?: number;
  /**
   * The Service port's name.
   * @default - the container port's name
   */
  readonly name?: string;
  /**
   * The port's application protocol (`http`, `grpc`, `kubernetes.io/h2c`, a
   * prefixed name of your own), for meshes and gateways that read it.
   * @default - none
   */
  readonly appProtocol?: string;
}

/** A Service that selects the agent's pods. */
export interface AgentService {
  /** The Service's name, a DNS-1035 label (written, never derived: it may be an existing one's). */
  readonly name: string;
  /** Its ports, at least one; named when more than one (as the API server requires). */
  readonly ports: AgentServicePort[];
  /**
   * Headless (`clusterIP: None`): DNS answers with the pods' addresses.
   * @default false
   */
  readonly headless?: boolean;
  /**
   * `Local`: a client reaches the agent pod of its own node only.
   * @default - Cluster
   */
  readonly internalTrafficPolicy?: 'Cluster' | 'Local';
  /**
   * Annotations of the Service.
   * @default - none
   */
  readonly annotations?: Record<string, string>;
}

const SERVICE_KEYS = ['name', 'ports', 'headless', 'internalTrafficPolicy', 'annotations'];
const PORT_KEYS = ['port', 'servicePort', 'name', 'appProtocol'];

function containerPort(containers: readonly AgentContainer[], port: unknown): kplus.ContainerPort | undefined {
  return containers.flatMap((c) => (Array.isArray(c.ports) ? c.ports.filter(isRecord) as kplus.ContainerPort[] : []))
    .find((p) => (typeof port === 'number' ? p.number === port : p.name === port));
}

/** Where a refusal of a rendered Service port comes from in an AgentService. */
const SERVICE_PROP_PATHS: readonly PropPath[] = [
  [/^spec\.ports\[(\d+)\]\.port/, 'ports[$1].servicePort'],
  [/^spec\.ports\[(\d+)\]$/, 'ports[$1].servicePort'],
  [/^spec\.ports\[(\d+)\]\./, 'ports[$1].'],
];

/** @internal The problems of `services` (pkg/apis/core/validation: ValidateService, for what the props decide). */
export function servicesProblems(services: unknown, containers: readonly AgentContainer[]): Problem[] {
  if (!Array.isArray(services) || services.length === 0) {
    return [problem('services', 'a non-empty array of AgentService { name, ports, headless?, internalTrafficPolicy?, annotations? }', services)];
  }
  const problems: Problem[] = [];
  const names = new Set<unknown>();
  services.forEach((s: unknown, i: number) => {
    const at = `services[${i}]`;
    if (!isRecord(s)) {
      problems.push(problem(at, 'an AgentService { name, ports, ... }', s));
      return;
    }
    problems.push(...unknownKeys(`${at}`, s, { known: SERVICE_KEYS }));
    problems.push(...defined(
      serviceNameProblem(`${at}.name`, s.name),
      names.has(s.name) ? problem(`${at}.name`, "a name no other of 'services' has", s.name) : undefined,
      s.headless !== undefined && typeof s.headless !== 'boolean' ? problem(`${at}.headless`, 'a boolean', s.headless) : undefined,
      s.internalTrafficPolicy !== undefined && typeof s.internalTrafficPolicy !== 'string' ? problem(`${at}.internalTrafficPolicy`, 'Cluster or Local', s.internalTrafficPolicy) : undefined,
    ));
    // Which policies there are is the API server's (validateServiceInternalTrafficFieldsValue): asked of the checks.
    const policy = { spec: { internalTrafficPolicy: s.internalTrafficPolicy } };
    problems.push(...askChecks(at, policy, [[/^spec\./, '']], (add) => checkInternalTrafficPolicy(add, policy.spec)));
    names.add(s.name);
    if (s.annotations !== undefined) problems.push(...checkAnnotations(`${at}.annotations`, s.annotations));
    if (!Array.isArray(s.ports) || s.ports.length === 0) {
      problems.push(problem(`${at}.ports`, 'a non-empty array of { port, servicePort?, name? }', s.ports));
      return;
    }
    const rendered: Record<string, unknown>[] = [];
    s.ports.forEach((p: unknown, j: number) => {
      const pat = `${at}.ports[${j}]`;
      if (!isRecord(p)) {
        problems.push(problem(pat, 'an object { port, servicePort?, name? }', p));
        return;
      }
      const target = containerPort(containers, p.port);
      problems.push(...defined(
        ...unknownKeys(`${pat}`, p, { known: PORT_KEYS }),
        target === undefined ? problem(`${pat}.port`, 'the name or number of a container port of the agent', p.port) : undefined,
        p.servicePort !== undefined && !Number.isInteger(p.servicePort) ? problem(`${pat}.servicePort`, 'an integer', p.servicePort) : undefined,
        p.name !== undefined && typeof p.name !== 'string' ? problem(`${pat}.name`, 'a string', p.name) : undefined,
      ));
      if (target !== undefined) rendered.push({ name: p.name ?? target.name, port: p.servicePort ?? target.number, protocol: target.protocol ?? kplus.Protocol.TCP, appProtocol: p.appProtocol });
    });
    // The ports' numbers, names and uniqueness are the API server's (ValidateService): asked of the checks on the Service's ports as rendered.
    if (rendered.length === s.ports.length) {
      const fragment = { spec: { ports: rendered } };
      const named = (p: Problem) => (/\.name' must be set$/.test(p) ? `${p} (every port of a Service with several is named: give it a name, or name the container port)` : p);
      problems.push(...askChecks(at, fragment, SERVICE_PROP_PATHS, (add) => checkService(add, fragment)).map(named));
    }
  });
  return problems;
}

/** @internal Creates the Services under `scope`, each selecting the agent's pods by `selector`. */
export function createServices(scope: Construct, services: readonly AgentService[], containers: readonly AgentContainer[], selector: Record<string, string>, labels: Record<string, string>): kplus.k8s.KubeService[] {
  return services.map((s) => new kplus.k8s.KubeService(scope, `Service-${s.name}`, {
    metadata: { name: s.name, labels, ...(s.annotations !== undefined ? { annotations: { ...s.annotations } } : {}) },
    spec: {
      type: 'ClusterIP',
      ...(s.headless ? { clusterIp: 'None' } : {}),
      ...(s.internalTrafficPolicy !== undefined ? { internalTrafficPolicy: s.internalTrafficPolicy } : {}),
      selector: { ...selector },
      ports: s.ports.map((p) => {
        const target = containerPort(containers, p.port)!;
        return {
          name: p.name ?? target.name,
          port: p.servicePort ?? target.number,
          targetPort: target.name !== undefined ? kplus.k8s.IntOrString.fromString(target.name) : kplus.k8s.IntOrString.fromNumber(target.number),
          protocol: target.protocol ?? 'TCP',
          ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
        };
      }),
    },
  }));
}
