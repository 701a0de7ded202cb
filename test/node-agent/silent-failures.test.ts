/**
 * Each silent failure that issue 15 found when eleven real agents were built
 * with NodeAgent, as a test: each failed before the redesign (the escape
 * hatch or the prop did the wrong thing without a word) and passes now.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AgentVolume,
  NodeAgent,
  NodeAgentProps,
  NodePolicy,
  NodeToleration,
  PodSecurityLevel,
  TaintEffect,
} from '../../lib';
import { checkObject, isBlocking } from '../../lib/checks';
import { only, synth } from '../util';

function chartIn(namespace = 'agents'): Chart {
  return new Chart(Testing.app(), 'test', { namespace });
}

function agentIn(chart: Chart, props: Partial<NodeAgentProps> = {}): NodeAgent {
  return new NodeAgent(chart, 'Agent', {
    policy: new NodePolicy(chart, 'Policy', { operatingSystem: 'linux' }),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1.0', ports: [{ number: 9100, name: 'metrics' }] }],
    ...props,
  } as NodeAgentProps);
}

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: 'manages the node' };

describe('cdk8s-plus selection through agent.daemonSet', () => {
  test('a kplus Service with selector: agent.daemonSet selects the labels the pods carry', () => {
    // GIVEN
    const chart = chartIn();
    const agent = agentIn(chart);

    // WHEN
    new kplus.Service(chart, 'Metrics', { selector: agent.daemonSet, ports: [{ port: 9100 }] });

    // THEN
    const objects = synth(chart);
    const pods = only(objects, 'DaemonSet').spec.template.metadata.labels;
    const selector = only(objects, 'Service').spec.selector;
    expect(selector).toEqual({ app: 'agent' });
    expect(Object.entries(selector).every(([k, v]) => pods[k] === v)).toBe(true);
  });

  test('scheduling.separate(agent.daemonSet) keeps pods away from the agent\'s real pods', () => {
    // GIVEN
    const chart = chartIn();
    const agent = agentIn(chart);
    const other = new kplus.Deployment(chart, 'Other', { containers: [{ image: 'example.com/other:1' }] });

    // WHEN
    other.scheduling.separate(agent.daemonSet);

    // THEN
    const deployment = only(synth(chart), 'Deployment');
    expect(deployment.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector).toEqual({ matchLabels: { app: 'agent' } });
  });
});

describe('cdk8s-plus network policies through agent.daemonSet', () => {
  test('connections.allowFrom(agent.daemonSet) admits the pods the agent really runs', () => {
    // GIVEN a server that lets the agent in
    const chart = chartIn();
    const agent = agentIn(chart);
    const server = new kplus.Deployment(chart, 'Server', { containers: [{ image: 'example.com/server:1', portNumber: 8080 }] });

    // WHEN
    server.connections.allowFrom(agent.daemonSet);

    // THEN the NetworkPolicy's peer is the agent's pod labels
    const policies = synth(chart).filter((o) => o.kind === 'NetworkPolicy');
    const peers = policies.flatMap((p) => p.spec.ingress ?? []).flatMap((i: { from: unknown[] }) => i.from);
    expect(peers).toContainEqual(expect.objectContaining({ podSelector: { matchLabels: { app: 'agent' } } }));
  });
});

describe('RBAC rules', () => {
  test('resourceNames are rendered, never dropped', () => {
    // GIVEN
    const chart = chartIn('kube-system');
    agentIn(chart, { serviceAccount: { namespacedRules: [{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] }] } });

    // THEN
    expect(only(synth(chart), 'Role').rules).toEqual([{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] }]);
  });

  test('a nonResourceURLs rule is accepted and rendered', () => {
    // GIVEN
    const chart = chartIn();
    agentIn(chart, { serviceAccount: { rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] } });

    // THEN
    expect(only(synth(chart), 'ClusterRole').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });

  test('an unknown key in a rule is refused, not dropped', () => {
    expect(() => agentIn(chartIn(), { serviceAccount: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceName: ['x'] } as never] } }))
      .toThrow(/'serviceAccount.rules\[0\]' key must be one of apiGroups, resources, verbs, resourceNames, nonResourceURLs but got "resourceName"/);
  });
});

describe('security contexts', () => {
  const containerWith = (securityContext: object, podSecurity?: object) => {
    const chart = chartIn();
    agentIn(chart, { containers: [{ name: 'agent', image: 'example.com/agent:1.0', securityContext }], ...(podSecurity ? { podSecurity } : {}) } as never);
    return only(synth(chart), 'DaemonSet').spec.template.spec.containers[0].securityContext;
  };

  test('capabilities.add keeps the default drop ALL', () => {
    expect(containerWith({ capabilities: { add: [kplus.Capability.NET_ADMIN] } }, privileged).capabilities).toEqual({ drop: ['ALL'], add: ['NET_ADMIN'] });
  });

  test('restating the default drop ALL, or adding NET_BIND_SERVICE, keeps the agent restricted', () => {
    expect(() => containerWith({ capabilities: { drop: [kplus.Capability.ALL] } })).not.toThrow();
    expect(containerWith({ capabilities: { add: [kplus.Capability.NET_BIND_SERVICE] } }).capabilities).toEqual({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] });
  });

  test('privileged or SYS_ADMIN turn allowPrivilegeEscalation on, so the API server accepts them', () => {
    expect(containerWith({ privileged: true }, privileged)).toMatchObject({ privileged: true, allowPrivilegeEscalation: true });
    expect(containerWith({ capabilities: { add: [kplus.Capability.SYS_ADMIN] } }, privileged)).toMatchObject({ allowPrivilegeEscalation: true });
  });

  test('a container running as uid 0 is not runAsNonRoot (which the kubelet would never start)', () => {
    expect(containerWith({ user: 0 }, { level: PodSecurityLevel.BASELINE, reason: 'root' })).toMatchObject({ runAsUser: 0, runAsNonRoot: false });
  });
});

describe('containers added through cdk8s-plus', () => {
  test('are refused, pointing to agent.addContainer', () => {
    const agent = agentIn(chartIn());
    expect(() => agent.daemonSet.addContainer({ image: 'example.com/sidecar:1' })).toThrow(/daemonSet\.addContainer\(\) would give the container cdk8s-plus' defaults instead of the agent's; use agent\.addContainer/);
    expect(() => agent.daemonSet.addInitContainer({ image: 'example.com/init:1' })).toThrow(/daemonSet\.addInitContainer\(\)/);
  });

  test('agent.addContainer and addInitContainer give the agent\'s defaults: small requests, no escalation, drop ALL, its mounts', () => {
    // GIVEN
    const chart = chartIn();
    const agent = agentIn(chart, { hostPaths: [{ name: 'logs', hostPath: '/var/log', mountPath: '/var/log' }], podSecurity: privileged });

    // WHEN
    agent.addContainer({ name: 'sidecar', image: 'example.com/sidecar:1' });
    agent.addInitContainer({ name: 'init', image: 'example.com/init:1' });

    // THEN
    const pod = only(synth(chart), 'DaemonSet').spec.template.spec;
    for (const c of [pod.containers[1], pod.initContainers[0]]) {
      expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' } });
      expect(c.securityContext).toMatchObject({ runAsUser: 65534, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expect(c.volumeMounts).toEqual([{ name: 'logs', mountPath: '/var/log', readOnly: true }]);
      expect(c.imagePullPolicy).toBe('IfNotPresent');
    }
    expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
  });

  test('agent.addContainer of a container that needs a laxer level says which, and what to do', () => {
    const agent = agentIn(chartIn());
    expect(() => agent.addContainer({ name: 'debug', image: 'example.com/debug:1', securityContext: { privileged: true } }))
      .toThrow(/test\/Agent: containers\[1\] makes the agent's pod need Pod Security 'privileged' \(pss-privileged .*\) but it was built for 'restricted'; declare it in the props and set podSecurity to match/);
  });
});

describe('Pod Security from the rendered pod', () => {
  test('a host path added through the escape hatch is waived with the agent\'s reason, as the checks judge the pod', () => {
    // GIVEN a privileged agent
    const chart = chartIn();
    const agent = agentIn(chart, { hostNetwork: true, podSecurity: privileged });

    // WHEN a host path is added through cdk8s-plus
    agent.daemonSet.addVolume(kplus.Volume.fromHostPath(chart, 'Extra', 'extra', { path: '/run' }));

    // THEN synth passes: the waivers are those of the pod as rendered
    const ds = only(synth(chart), 'DaemonSet');
    expect(checkObject(ds).filter(isBlocking)).toEqual([]);
    expect(ds.metadata.annotations['checks.node-reporter.dev/waive-pss-volume-types']).toBe('manages the node');
  });

  test('a host path that would make a restricted agent privileged after construction fails synth, naming what changed', () => {
    const chart = chartIn();
    const agent = agentIn(chart);
    agent.daemonSet.addVolume(kplus.Volume.fromHostPath(chart, 'Extra', 'extra', { path: '/run' }));
    expect(() => synth(chart)).toThrow(/the DaemonSet's pod now needs Pod Security 'privileged' \(pss-volume-types .*\) but the agent was built for 'restricted'/);
  });

  test('Bidirectional propagation added through the escape hatch to an unprivileged container fails synth, as the API server refuses it', () => {
    // GIVEN a privileged agent whose container is not privileged (issue 25: this synthesized; the v1.32 server answered
    // "volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers")
    const chart = chartIn();
    const agent = agentIn(chart, { volumes: [AgentVolume.hostPath('mnt', '/mnt')], podSecurity: privileged });

    // WHEN the mount is made Bidirectional through cdk8s-plus
    const volume = kplus.Volume.fromHostPath(chart, 'Shared', 'shared', { path: '/mnt/shared' });
    agent.daemonSet.containers[0].mount('/shared', volume, { propagation: kplus.MountPropagation.BIDIRECTIONAL });

    // THEN the final pod is judged by the API server's rules too
    expect(() => synth(chart)).toThrow(/mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers \[api-volumes\]/);
  });

  test('BASELINE is refused for a host-path agent: its namespace would refuse its pods', () => {
    expect(() => agentIn(chartIn(), { volumes: [AgentVolume.hostPath('logs', '/var/log')], podSecurity: { level: PodSecurityLevel.BASELINE, reason: 'x' } }))
      .toThrow(/'podSecurity.level' must be 'privileged', because the agent's pod breaks pss-volume-types/);
  });
});

describe('props that cdk8s-plus patches could only reach by their TypeScript names', () => {
  test('hostIPC is a prop, rendered as hostIPC', () => {
    const chart = chartIn();
    agentIn(chart, { hostIPC: true, podSecurity: privileged });
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.hostIPC).toBe(true);
  });
});

describe('Windows', () => {
  test("operatingSystem: 'windows' renders what the API server accepts for a Windows pod: os windows, no Linux-only field", () => {
    // GIVEN
    const chart = chartIn();
    new NodeAgent(chart, 'Agent', {
      policy: new NodePolicy(chart, 'Windows', { operatingSystem: 'windows' }),
      name: 'agent',
      containers: [{ name: 'agent', image: 'example.com/agent:1.0', securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }],
    });

    // WHEN
    const ds = only(synth(chart), 'DaemonSet');

    // THEN
    const pod = ds.spec.template.spec;
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.securityContext).toEqual({ runAsNonRoot: true });
    expect(pod.containers[0].securityContext).toEqual({ windowsOptions: { runAsUserName: 'ContainerUser' } });
    expect(checkObject(ds).filter((f) => f.rule.id.startsWith('api-'))).toEqual([]);
  });
});

describe('tolerations', () => {
  test('NodeToleration.everything(NoSchedule) is the effect-only toleration of node-exporter\'s chart', () => {
    expect(NodeToleration.everything(TaintEffect.NO_SCHEDULE).toKube()).toEqual({ operator: 'Exists', effect: 'NoSchedule' });
    expect(NodeToleration.everything().toKube()).toEqual({ operator: 'Exists' });
  });
});

