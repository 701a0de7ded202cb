import { App, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AgentUpdateStrategy,
  CONFIG_CHECKSUM_ANNOTATION,
  DownwardApi,
  NodeAgent,
  NodeAgentProps,
  NodePolicy,
  PodSecurityLevel,
  PodSecurityNamespace,
  RestrictedNamespace,
} from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { Manifest, only, synth } from '../util';

function agentIn(chart: Chart, props: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'Policy', { operatingSystem: 'linux' }),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1.0' }],
    ...props,
  });
}

function daemonSetOf(props: Partial<NodeAgentProps> = {}, namespace = 'agents'): Manifest {
  const chart = new Chart(Testing.app(), 'test', { namespace });
  agentIn(chart, props);
  return only(synth(chart), 'DaemonSet');
}

describe('NodeAgent defaults', () => {
  test('is restricted: uid 65534, non-root, read-only root, no escalation, drop ALL, seccomp, no token, small requests and no memory limit', () => {
    // WHEN
    const ds = daemonSetOf();

    // THEN
    const pod = ds.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true,
      runAsGroup: 65534, runAsNonRoot: true, runAsUser: 65534,
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    // No guessed limit: the upstream agents set none, and a guessed one OOM-kills an agent that needs more.
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' } });
    expect(pod.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(pod.terminationGracePeriodSeconds).toBe(30);
    expect(ds.spec.selector).toEqual({ matchLabels: { app: 'agent' } });
    expect(ds.spec.template.metadata.labels).toEqual({
      'app': 'agent',
      'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/instance': 'agent', 'app.kubernetes.io/version': '1.0',
      'app.kubernetes.io/component': 'node-agent', 'app.kubernetes.io/part-of': 'agent', 'app.kubernetes.io/managed-by': 'node-reporter',
    });
  });

  test('passes the manifest checks with one finding, the resources warning, until the agent is sized', () => {
    // GIVEN
    const unsized = Testing.chart();
    agentIn(unsized);
    const sized = Testing.chart();
    agentIn(sized, { containers: [{ name: 'agent', image: 'example.com/agent:1.0', resources: { memory: { request: Size.mebibytes(64), limit: Size.mebibytes(128) }, cpu: { request: kplus.Cpu.millis(20) } } }] });

    // WHEN
    const unsizedFindings = synth(unsized).flatMap((o) => checkObject(o));
    const sizedFindings = synth(sized).flatMap((o) => checkObject(o));

    // THEN
    expect(unsizedFindings.map((f) => [f.rule.id, f.severity, f.message])).toEqual([['resources', 'warning', 'container "agent" has no limits.memory']]);
    expect(sizedFindings).toEqual([]);
  });
});

describe('NodeAgent options', () => {
  test('renders image, command, args, env from the Downward API, ports and probes', () => {
    const ds = daemonSetOf({
      containers: [{
        name: 'exporter', image: 'example.com/exporter:2.0', command: ['/bin/exporter'], args: ['--port=9100'],
        env: { NODE_NAME: DownwardApi.nodeName(), POD_NAME: DownwardApi.podName(), POD_NAMESPACE: DownwardApi.podNamespace(), POD_IP: DownwardApi.podIp(), HOST_IP: DownwardApi.hostIp(), MEM: DownwardApi.memoryLimit() },
        ports: [{ number: 9100, name: 'metrics' }],
        readiness: kplus.Probe.fromHttpGet('/health', { port: 9100 }),
      }],
    });
    const c = ds.spec.template.spec.containers[0];
    expect(c).toMatchObject({ name: 'exporter', image: 'example.com/exporter:2.0', command: ['/bin/exporter'], args: ['--port=9100'], ports: [{ containerPort: 9100, name: 'metrics' }] });
    expect(c.ports[0]).not.toHaveProperty('hostPort');
    expect(c.readinessProbe.httpGet).toMatchObject({ path: '/health', port: 9100 });
    expect(Object.fromEntries(c.env.map((e: Manifest) => [e.name, e.valueFrom.fieldRef?.fieldPath ?? e.valueFrom.resourceFieldRef?.resource]))).toEqual({
      NODE_NAME: 'spec.nodeName', POD_NAME: 'metadata.name', POD_NAMESPACE: 'metadata.namespace', POD_IP: 'status.podIP', HOST_IP: 'status.hostIP', MEM: 'limits.memory',
    });
  });

  test('sets ClusterFirstWithHostNet and the host ports with host network, and hostPID', () => {
    const ds = daemonSetOf({
      hostNetwork: true, hostPID: true, containers: [{ name: 'a', image: 'example.com/a:1', ports: [{ number: 9100 }] }],
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' },
    });
    const pod = ds.spec.template.spec;
    expect(pod).toMatchObject({ hostNetwork: true, hostPID: true, dnsPolicy: 'ClusterFirstWithHostNet' });
    expect(pod.containers[0].ports).toEqual([{ containerPort: 9100, hostPort: 9100 }]);
  });

  test('mounts host paths read-only into every container', () => {
    const ds = daemonSetOf({
      containers: [{ name: 'a', image: 'example.com/a:1' }, { name: 'b', image: 'example.com/b:1' }],
      hostPaths: [{ name: 'varlog', hostPath: '/var/log', mountPath: '/host/var/log' }],
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'tails the node logs' },
    });
    expect(ds.spec.template.spec.volumes).toEqual([{ name: 'varlog', hostPath: { path: '/var/log' } }]);
    for (const c of ds.spec.template.spec.containers) {
      expect(c.volumeMounts).toEqual([{ name: 'varlog', mountPath: '/host/var/log', readOnly: true }]);
    }
  });

  test('creates a ServiceAccount bound to a ClusterRole, and mounts a token only then', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'team', { namespace: 'logging' });
    agentIn(chart, { serviceAccount: { rules: [{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }] } });

    // WHEN
    const objects = synth(chart);

    // THEN
    expect(only(objects, 'ServiceAccount').metadata).toMatchObject({ name: 'node-agent-agent', namespace: 'logging' });
    const role = only(objects, 'ClusterRole');
    expect(role.metadata).toMatchObject({ name: 'node-agent:logging:agent', labels: { 'app': 'agent', 'app.kubernetes.io/instance': 'agent', 'app.kubernetes.io/managed-by': 'node-reporter' } });
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.metadata).not.toHaveProperty('namespace');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-agent:logging:agent' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'node-agent-agent', namespace: 'logging' }]);
    expect(only(objects, 'DaemonSet').spec.template.spec).toMatchObject({ serviceAccountName: 'node-agent-agent', automountServiceAccountToken: true });
    expect(objects.flatMap((o) => checkObject(o)).filter(isBlocking)).toEqual([]);
  });

  test('mounts its config read-only, and the checksum on the pod template changes with the config only', () => {
    const make = (content: string) => daemonSetOf({ config: { data: { 'agent.conf': content }, mountPath: '/etc/agent' } });
    const a = make('level=info');
    const b = make('level=debug');
    expect(a.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/agent', readOnly: true }]);
    expect(a.spec.template.spec.volumes).toEqual([{ name: 'config', configMap: { name: 'node-agent-agent' } }]);
    expect(a.spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION]).toMatch(/^[0-9a-f]{64}$/);
    expect(a.spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION]).not.toBe(b.spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION]);
    expect(make('level=info').spec.template.metadata.annotations).toEqual(a.spec.template.metadata.annotations);
    expect(a.metadata.annotations ?? {}).not.toHaveProperty(CONFIG_CHECKSUM_ANNOTATION);
  });

  test('renders OnDelete and surge strategies', () => {
    expect(daemonSetOf({ updateStrategy: AgentUpdateStrategy.onDelete() }).spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(daemonSetOf({ updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.percent(25) }) }).spec.updateStrategy)
      .toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } });
  });

  test('names a bad rolling update by the updateStrategy prop it was given in', () => {
    // GIVEN both values zero, and a negative one
    const both = () => daemonSetOf({ updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(0), maxSurge: kplus.PercentOrAbsolute.absolute(0) }) });
    const negative = () => daemonSetOf({ updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(-1) }) });

    // THEN
    expect(both).toThrow(/'updateStrategy\.maxUnavailable' may not be 0 when `maxSurge` is 0 but got 0: the rollout could never replace a pod/);
    expect(negative).toThrow(/'updateStrategy\.maxUnavailable' must be greater than or equal to 0 but got -1/);
  });

  test('keeps ClusterFirstWithHostNet with host network when dns sets other fields but no policy', () => {
    // WHEN
    const pod = daemonSetOf({
      hostNetwork: true, dns: { searches: ['agents.example.com'] }, containers: [{ name: 'a', image: 'example.com/a:1' }],
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'reads the node' },
    }).spec.template.spec;

    // THEN the documented default stays, and the searches are added
    expect(pod.dnsPolicy).toBe('ClusterFirstWithHostNet');
    expect(pod.dnsConfig).toEqual({ searches: ['agents.example.com'] });
  });
});

describe('NodeAgent pod security', () => {
  test('refuses an agent that breaks "restricted" without a podSecurity reason, naming what it breaks', () => {
    expect(() => agentIn(Testing.chart(), { hostNetwork: true, hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host' }] }))
      .toThrow("test/Agent: 'podSecurity' must be set to { level: 'privileged', reason: '...' } because the agent's pod breaks Pod Security \"restricted\": pss-host-namespaces (spec.template.spec.hostNetwork), pss-volume-types (spec.template.spec.volumes[0].hostPath); say why, and deploy it into a namespace that enforces 'privileged'");
  });

  test('refuses a podSecurity level stricter than what the agent needs, and one it does not need', () => {
    expect(() => agentIn(Testing.chart(), { hostPID: true, podSecurity: { level: PodSecurityLevel.BASELINE, reason: 'x' } }))
      .toThrow(/'podSecurity.level' must be 'privileged', because the agent's pod breaks pss-host-namespaces \(spec.template.spec.hostPID\) but got "baseline"/);
    expect(() => agentIn(Testing.chart(), { podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'x' } }))
      .toThrow(/'podSecurity' must be unset: the agent's pod meets Pod Security "restricted"/);
    expect(() => agentIn(Testing.chart(), { hostPID: true, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: '' } }))
      .toThrow(/'podSecurity.reason' must be a non-empty single line/);
  });

  test('writes a waiver with the reason for each check it breaks, so synth passes and reports them', () => {
    // GIVEN
    const chart = Testing.chart();
    agentIn(chart, { hostPID: true, runAsUser: 0, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'inspects node processes' } });

    // WHEN
    const findings = synth(chart).flatMap((o) => checkObject(o)).filter((f) => f.rule.id.startsWith('pss-'));

    // THEN
    expect(findings.filter(isBlocking)).toEqual([]);
    expect(new Set(findings.map((f) => f.rule.id))).toEqual(new Set(['pss-host-namespaces', 'pss-run-as-non-root', 'pss-run-as-user']));
    expect(findings.every((f) => f.waived === 'inspects node processes')).toBe(true);
  });

  test('gives its namespace the level it needs, never a stricter one', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'monitoring', { namespace: 'monitoring' });
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'monitoring' });
    const agent = agentIn(chart, { hostNetwork: true, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'programs the node network' } });

    // WHEN
    ns.admit(agent);

    // THEN
    expect(only(synth(chart), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
    expect(() => new RestrictedNamespace(chart, 'Strict', { name: 'monitoring' }).admit(agent)).toThrow(/a RestrictedNamespace admits only "restricted" agents but monitoring\/Agent needs "privileged"/);
  });
});

describe('NodeAgent on Windows', () => {
  test('a host process runs with host networking, as the API server requires, and no Linux-only field', () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
    new NodeAgent(chart, 'Agent', {
      policy: new NodePolicy(chart, 'Windows', { operatingSystem: 'windows' }),
      name: 'agent', hostProcess: true,
      containers: [{ name: 'agent', image: 'example.com/agent:1.0', securityContext: { windowsOptions: { runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }],
      podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'manages the Windows node' },
    });

    // WHEN
    const ds = only(synth(chart), 'DaemonSet');

    // THEN
    const pod = ds.spec.template.spec;
    expect(pod).toMatchObject({ os: { name: 'windows' }, hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } } });
    expect(checkObject(ds).filter(isBlocking)).toEqual([]);
    expect(ds.metadata.annotations).toHaveProperty(['checks.node-reporter.dev/waive-pss-host-process']);
  });

  test('refuses a host process on Linux, one without host networking, and Linux-only props', () => {
    const windows = (chart: Chart) => new NodePolicy(chart, 'Windows', { operatingSystem: 'windows' });
    expect(() => agentIn(Testing.chart(), { hostProcess: true })).toThrow(/'hostProcess' must be false unless the policy's operatingSystem is 'windows'/);
    const chart = Testing.chart();
    expect(() => agentIn(chart, { policy: windows(chart), hostProcess: true, hostNetwork: false })).toThrow(/'hostNetwork' must be valid \(hostNetwork must be true if pod contains any hostProcess containers\) but got false/);
    const other = Testing.chart();
    expect(() => agentIn(other, { policy: windows(other), runAsUser: 1000, hostPID: true })).toThrow(/'runAsUser' must be unset \(cannot be set for a windows pod\) but got 1000[\s\S]*'hostPID' must be unset \(cannot be set for a windows pod\) but got true/);
    // hostPID, hostIPC and an AppArmor profile are the checks' validateWindows too (the servers: "Forbidden: cannot be set for a windows pod").
    const third = Testing.chart();
    expect(() => agentIn(third, { policy: windows(third), hostIPC: true, containers: [{ name: 'agent', image: 'example.com/agent:1', securityContext: { appArmorProfile: 'runtime/default' } }] }))
      .toThrow(/'hostIPC' must be unset \(cannot be set for a windows pod\) but got true[\s\S]*'containers\[0\]\.securityContext\.appArmorProfile' must be unset \(cannot be set for a windows pod\) but got "runtime\/default"/);
    const fourth = Testing.chart();
    expect(() => agentIn(fourth, { policy: windows(fourth), hostPID: false, hostIPC: false })).not.toThrow();
  });
});

describe('NodeAgent waivers beyond Pod Security', () => {
  test('a rule the agent breaks on purpose is waived with its reason, so the checks report it and pass', () => {
    // GIVEN a host-network agent that keeps the cluster DNS policy on purpose
    const chart = Testing.chart();
    agentIn(chart, {
      hostNetwork: true, dns: { policy: kplus.DnsPolicy.CLUSTER_FIRST }, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'programs the node network' },
      waivers: { 'hostnetwork-dns': 'resolves no name: it reaches the API server by IP' },
    });

    // WHEN
    const findings = synth(chart).flatMap((o) => checkObject(o)).filter((f) => f.rule.id === 'hostnetwork-dns');

    // THEN
    expect(findings).toHaveLength(1);
    expect(findings[0].waived).toBe('resolves no name: it reaches the API server by IP');
  });

  test("refuses a waiver of a Pod Security control (podSecurity's) and of a rule that does not exist", () => {
    expect(() => agentIn(Testing.chart(), { waivers: { 'pss-host-namespaces': 'x' } })).toThrow(/'waivers' must not name "pss-host-namespaces": it is a Pod Security rule, whose waivers come from 'podSecurity'/);
    expect(() => agentIn(Testing.chart(), { waivers: { 'dns': 'x' } })).toThrow(/'waivers' must not name "dns": no rule has this id; rules that can be waived: pss-\*, .*hostnetwork-dns/);
  });

  test.each(['api-probes', 'schema', 'api-daemonset', 'kubectl-apply'])('refuses a waiver of %s, a rule of the API server: the server refuses what it finds whatever the annotation says', (rule) => {
    // GIVEN / WHEN / THEN (issue 25: waivers: { 'api-probes': ... } synthesized a DaemonSet the server refuses)
    expect(() => agentIn(Testing.chart(), { waivers: { [rule]: 'the probe needs two successes' } })).toThrow(
      new RegExp(`'waivers' must not name "${rule}": it is a rule of the API server or kubectl \\(.+\\), which refuses the object whatever its annotations say, so it cannot be waived`),
    );
  });
});

describe('NodeAgent bad input', () => {
  test('reports every bad prop at once, each with the construct path', () => {
    let message = '';
    try {
      agentIn(Testing.chart(), {
        name: 'Agent_1',
        containers: [{ name: 'a', image: 'busybox' }, { name: 'a', image: 'busybox:1.36', ports: [{ number: 70000 }] }],
        hostPaths: [{ name: 'logs', hostPath: 'var/log', mountPath: '/logs' }],
        annotations: { 'kubernetes.io/change-cause': 'x' },
        revisionHistoryLimit: -1,
      });
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines.every((l) => l.startsWith('test/Agent: '))).toBe(true);
    expect(lines.map((l) => l.replace(/^test\/Agent: '([^']+)'.*$/, '$1'))).toEqual([
      'name', 'revisionHistoryLimit', 'annotations', 'hostPaths[0].hostPath', 'containers[0].image', 'containers[1].ports[0].number', 'containers[1].name',
    ]);
  });

  test('refuses a service account in a chart without a namespace', () => {
    expect(() => agentIn(Testing.chart(), { serviceAccount: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } }))
      .toThrow(/'serviceAccount' needs the chart's namespace/);
  });

  test.each([
    ['no props at all', undefined, /'props' must be an object of NodeAgentProps/],
    ['containers that are not an array', { containers: 'busybox' }, /'containers' must be an array of at least one AgentContainer but got "busybox"/],
    ['a policy that is a plain object', { policy: { matchLabels: {} } }, /'policy' must be a NodePolicy/],
    ['an update strategy that is a plain object', { updateStrategy: { type: 'OnDelete' } }, /'updateStrategy' must be an AgentUpdateStrategy/],
  ])('gives JavaScript callers a clear error for %s, never a TypeError', (_, props, message) => {
    const chart = Testing.chart();
    const build = () => new NodeAgent(chart, 'Agent', props === undefined ? (undefined as unknown as NodeAgentProps) : {
      policy: new NodePolicy(chart, 'P'), name: 'agent', containers: [{ name: 'a', image: 'busybox:1.36' }], ...(props as object),
    } as NodeAgentProps);
    expect(build).toThrow(message);
    expect(build).not.toThrow(TypeError);
  });

  test('is recognised by its brand', () => {
    expect(NodeAgent.isNodeAgent(agentIn(Testing.chart()))).toBe(true);
    expect(NodeAgent.isNodeAgent({})).toBe(false);
  });
});

describe('NodeAgent names across the app', () => {
  test('fails synth when charts of one app define the same DaemonSet in one namespace, naming both paths', () => {
    // GIVEN
    const app = new App({ outdir: Testing.app().outdir });
    for (const id of ['one', 'two']) {
      agentIn(new Chart(app, id, { namespace: 'x' }));
    }

    // THEN
    expect(() => app.synth()).toThrow(/\[NameClashes\] DaemonSet "agent" in namespace "x" is defined by both one\/Agent\/Resource\/Resource and two\/Agent\/Resource\/Resource/);
  });
});

describe('pod-only labels', () => {
  test('podLabels are on the pods only: not on the DaemonSet, and never in the selector', () => {
    // GIVEN / WHEN
    const chart = new Chart(Testing.app(), 'test', { namespace: 'agents' });
    agentIn(chart, { podLabels: { 'sidecar.istio.io/inject': 'false' } });
    const objects = synth(chart);
    const ds = only(objects, 'DaemonSet');
    // THEN
    expect(ds.spec.template.metadata.labels).toMatchObject({ 'sidecar.istio.io/inject': 'false' });
    expect(ds.metadata.labels['sidecar.istio.io/inject']).toBeUndefined();
    expect(ds.spec.selector.matchLabels['sidecar.istio.io/inject']).toBeUndefined();
    expect(objects.filter((o) => o.kind !== 'DaemonSet' && o.metadata.labels?.['sidecar.istio.io/inject'] !== undefined)).toEqual([]);
  });

  test("podLabels may not set the selector's keys, and are label syntax", () => {
    // GIVEN / WHEN / THEN
    expect(() => daemonSetOf({ podLabels: { app: 'other' } })).toThrow(/'podLabels' must not set 'app', a label of the selector/);
    expect(() => daemonSetOf({ podLabels: { 'bad key!': 'x' } })).toThrow(/'podLabels' key must be a qualified name/);
  });
});
