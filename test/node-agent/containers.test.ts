/**
 * Containers, sidecars and init containers with one set of secure defaults,
 * a security context merged field by field, and every container field real
 * agents use (startup probes, lifecycle hooks, envFrom, termination messages).
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AgentContainer, AgentUpdateStrategy, NodeAgent, NodeAgentProps, NodePolicy, PodSecurityLevel, TerminationMessagePolicy } from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { Manifest, only, synth } from '../util';

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'manages the node' };

function chartIn(): Chart {
  return new Chart(Testing.app(), 'test', { namespace: 'agents' });
}

function build(props: Partial<NodeAgentProps>, chart = chartIn()): () => NodeAgent {
  return () => new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
}

function podOf(props: Partial<NodeAgentProps>): Manifest {
  const chart = chartIn();
  build(props, chart)();
  const ds = only(synth(chart), 'DaemonSet');
  expect(checkObject(ds).filter(isBlocking)).toEqual([]);
  return ds.spec.template.spec;
}

const c = (name: string, extra: Partial<AgentContainer> = {}): AgentContainer => ({ name, image: `example.com/${name}:1`, ...extra });

describe('init containers and sidecars', () => {
  test('get the same defaults as the main container', () => {
    const pod = podOf({ containers: [c('main'), c('sidecar')], initContainers: [c('prepare', { command: ['sh', '-c', 'true'] })] });
    const defaults = { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, privileged: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
    for (const container of [...pod.containers, ...pod.initContainers]) {
      expect(container.securityContext).toEqual(defaults);
      expect(container.resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' } });
      expect(container.imagePullPolicy).toBe('IfNotPresent');
    }
    expect(pod.initContainers.map((i: Manifest) => i.name)).toEqual(['prepare']);
  });

  test('a root init container that prepares a host path keeps drop ALL and adds only what it needs', () => {
    const pod = podOf({
      initContainers: [c('chown', { command: ['chown', '65534', '/state'], securityContext: { user: 0, capabilities: { add: [kplus.Capability.CHOWN] } } })],
      podSecurity: { level: PodSecurityLevel.BASELINE, reason: 'the init container chowns the state directory' },
    });
    expect(pod.initContainers[0].securityContext).toMatchObject({ runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['CHOWN'] } });
  });

  test('names are unique across containers and init containers', () => {
    expect(build({ containers: [c('a')], initContainers: [c('a')] })).toThrow(/'initContainers\[0\]\.name' must be unique among the containers and init containers but got "a"/);
  });
});

describe('container fields', () => {
  test('renders startup probes, lifecycle hooks, envFrom, env from Secret keys, termination messages and the working directory', () => {
    // GIVEN
    const chart = chartIn();
    const secret = kplus.Secret.fromSecretName(chart, 'Token', 'agent-token');
    build({
      containers: [c('agent', {
        workingDir: '/work',
        startup: kplus.Probe.fromHttpGet('/healthz', { port: 9876, failureThreshold: 20 }),
        lifecycle: { preStop: kplus.Handler.fromCommand(['/bin/agent', 'drain']) },
        envFrom: [kplus.Env.fromSecret(secret)],
        env: { TOKEN: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }) },
        terminationMessagePolicy: TerminationMessagePolicy.FALLBACK_TO_LOGS_ON_ERROR,
      })],
    }, chart)();

    // WHEN
    const container = only(synth(chart), 'DaemonSet').spec.template.spec.containers[0];

    // THEN
    expect(container).toMatchObject({
      workingDir: '/work',
      startupProbe: { httpGet: { path: '/healthz', port: 9876 }, failureThreshold: 20 },
      lifecycle: { preStop: { exec: { command: ['/bin/agent', 'drain'] } } },
      envFrom: [{ secretRef: { name: 'agent-token' } }],
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'agent-token', key: 'token' } } }],
      terminationMessagePolicy: 'FallbackToLogsOnError',
    });
  });

  test('SELinux labels stay on the container; an AppArmor profile becomes the pod annotation of 1.28', () => {
    const chart = chartIn();
    build({ containers: [c('agent', { securityContext: { seLinuxOptions: { type: 'spc_t', level: 's0' }, appArmorProfile: 'unconfined' } })], podSecurity: privileged }, chart)();
    const ds = only(synth(chart), 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].securityContext.seLinuxOptions).toEqual({ type: 'spc_t', level: 's0' });
    expect(ds.spec.template.metadata.annotations).toEqual({ 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' });
    // spc_t is not a type "baseline" allows, and unconfined is not a profile it allows: both are waived.
    expect(Object.keys(ds.metadata.annotations).sort()).toEqual(['checks.node-reporter.dev/waive-pss-apparmor', 'checks.node-reporter.dev/waive-pss-selinux']);
  });
});

describe('security contexts that could never run are refused at construction', () => {
  test.each([
    ['runAsNonRoot with uid 0', { user: 0, ensureNonRoot: true }, /'containers\[0\]\.securityContext\.ensureNonRoot' must be false or unset with user 0/],
    ['privileged without privilege escalation', { privileged: true, allowPrivilegeEscalation: false }, /'containers\[0\]\.securityContext' cannot set `allowPrivilegeEscalation` to false and `privileged` to true/],
    ['a Localhost seccomp profile without its path', { seccompProfile: { type: kplus.SeccompProfileType.LOCALHOST } }, /'containers\[0\]\.securityContext\.seccompProfile\.localhostProfile' must be set when seccomp type is Localhost/],
    ['a capability with the CAP_ prefix', { capabilities: { add: ['CAP_NET_ADMIN'] } }, /'containers\[0\]\.securityContext\.capabilities\.add' must be an array of kplus\.Capability values \(capability names without the CAP_ prefix/],
    ['an unknown field', { runAsUser: 0 }, /'containers\[0\]\.securityContext' key "runAsUser" is not a prop here: it is user here/],
  ])('%s', (_, securityContext, message) => {
    expect(build({ containers: [c('agent', { securityContext: securityContext as never })], podSecurity: privileged })).toThrow(message);
  });
});

describe('ports', () => {
  test('a host port that differs from the port, with host networking, is refused naming the prop', () => {
    expect(build({ hostNetwork: true, containers: [c('agent', { ports: [{ number: 9100, hostPort: 9101 }] })], podSecurity: privileged }))
      .toThrow(/'containers\[0\]\.ports\[0\]\.hostPort' must match `containerPort` when `hostNetwork` is true but got 9101/);
  });

  test('duplicate names or numbers in a container, and one host port in two containers, name the prop', () => {
    expect(build({ containers: [c('agent', { ports: [{ number: 80, name: 'http' }, { number: 81, name: 'http' }] })] })).toThrow(/'containers\[0\]\.ports\[1\]\.name' must be unique but got "http"/);
    expect(build({ containers: [c('agent', { ports: [{ number: 80 }, { number: 80 }] })] })).toThrow(/'containers\[0\]\.ports\[1\]\.number' must be unique among the container's TCP ports but got 80/);
    expect(build({ hostNetwork: true, containers: [c('a', { ports: [{ number: 80 }] }), c('b', { ports: [{ number: 80 }] })], podSecurity: privileged }))
      .toThrow(/'containers\[1\]\.ports\[0\]\.hostPort' must be a host port no other container binds too \(with hostNetwork every port is a host port\) but got 80/);
  });

  test('maxSurge with host ports is refused at construction: the surge pod could never bind the port', () => {
    expect(build({
      hostNetwork: true, containers: [c('a', { ports: [{ number: 9100 }] })], podSecurity: privileged,
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }),
    })).toThrow(/'updateStrategy' must be a rolling update without surge \(maxSurge 0\) for an agent that binds host ports.* but got 1$/m);
  });

  test('a hostport-surge waiver lets maxSurge with host ports through, as it does in the checks', () => {
    // GIVEN an agent whose ports are left free before the surge pod starts, and says so
    const agent = build({
      hostNetwork: true, containers: [c('a', { ports: [{ number: 9100 }] })], podSecurity: privileged,
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }),
      waivers: { 'hostport-surge': 'the agent releases its port on SIGTERM before the new pod binds it' },
    });

    // WHEN
    const chart = Chart.of(agent());

    // THEN the DaemonSet surges, and the checks' own pass over it blocks nothing
    const ds = only(synth(chart), 'DaemonSet');
    expect(ds.spec.updateStrategy.rollingUpdate.maxSurge).toBe(1);
    expect(checkObject(ds).filter(isBlocking)).toEqual([]);
  });
});

describe('what only the checks knew is refused at construction, naming the prop', () => {
  test('a liveness probe with successThreshold 2', () => {
    expect(build({ containers: [c('agent', { liveness: kplus.Probe.fromHttpGet('/', { port: 80, successThreshold: 2 }) })] }))
      .toThrow(/'containers\[0\]\.liveness\.successThreshold' is refused by the manifest checks: DaemonSet\/agent spec\.template\.spec\.containers\[0\]\.livenessProbe\.successThreshold: Invalid value: 2: must be 1 \[api-probes\]/);
  });

  test('a plain string as a CPU request, which cdk8s-plus would drop', () => {
    expect(build({ containers: [c('agent', { resources: { cpu: { request: '100m' as never }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } } })] }))
      .toThrow(/'containers\[0\]\.resources\.cpu\.request' must be a cdk8s-plus Cpu, such as Cpu\.millis\(100\)/);
  });
});
