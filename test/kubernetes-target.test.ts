/**
 * The app's Kubernetes target (the context `node-reporter:kubernetesVersion`):
 * resolved once per construct, written into the output where a version
 * changes it, and marked on what the library writes for an explicit one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { NodeAgent, NodeAgentProps, NodePolicy, NodeReporterChart, PodSecurityLevel, PodSecurityNamespace, RecursiveReadOnly } from '../lib';
import { checkYaml, KUBERNETES_VERSION_ANNOTATION, KUBERNETES_VERSION_CONTEXT } from '../lib/checks';
import { withTargetForms } from '../lib/node-agent/target';
import { hostRootAgentChart } from './fixtures/v1.35/host-root-agent';
import { Manifest, only, synth, synthYaml } from './util';

const privileged = { level: PodSecurityLevel.PRIVILEGED, reason: "reads the node's root" };

/** A Testing app with the target set, as an app sets it: before any construct. */
function appAt(version?: unknown): App {
  const app = Testing.app();
  if (version !== undefined) {
    app.node.setContext(KUBERNETES_VERSION_CONTEXT, version);
  }
  return app;
}

function agentIn(app: App, props: Partial<NodeAgentProps> = {}): { chart: Chart; agent: NodeAgent } {
  const chart = new Chart(app, 'agents', { namespace: 'agents' });
  const agent = new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Linux', { operatingSystem: 'linux' }), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], ...props } as NodeAgentProps);
  return { chart, agent };
}

describe('the target: one context key, resolved once per construct', () => {
  test('is 1.28 when the app sets none, on the agent, the namespace and the chart', () => {
    // GIVEN an app without the context
    const app = appAt();
    const { chart, agent } = agentIn(app);
    const ns = new PodSecurityNamespace(chart, 'Namespace', { name: 'agents' });
    const reporter = new NodeReporterChart(app, 'reporter', { version: 'v1', namespace: 'reporter' });

    // THEN
    expect([agent.kubernetesVersion, ns.kubernetesVersion, reporter.kubernetesVersion, reporter.ns!.kubernetesVersion, reporter.reporter.kubernetesVersion])
      .toEqual(['1.28', '1.28', '1.28', '1.28', '1.28']);
  });

  test.each([['1.35', '1.35'], ['v1.35', '1.35'], ['1.35.6', '1.35'], ['1.31', '1.31'], ['1.36', '1.36']])('the context %j targets %s', (value, version) => {
    const { agent } = agentIn(appAt(value));
    expect(agent.kubernetesVersion).toBe(version);
  });

  test.each(['1.29', '1.30', '1.99', 'latest', '', 135])('a bad context %j is one error naming the key, the value and the supported versions', (value) => {
    // GIVEN an app whose target names no supported version
    const app = appAt(value);

    // THEN its first construct fails, with one line
    const error = (() => {
      try {
        new NodeReporterChart(app, 'reporter', { version: 'v1' });
      } catch (e) {
        return (e as Error).message;
      }
      return undefined;
    })();
    expect(error).toBe(`reporter: the context 'node-reporter:kubernetesVersion' must be a supported Kubernetes version, one of 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36 ('v1.35' or '1.35.6' name 1.35), but got ${JSON.stringify(value)}`);
  });
});

describe('at no target the output is as before', () => {
  test('the namespace enforces Pod Security v1.28 and nothing carries the version annotation', () => {
    // GIVEN the node reporter's chart in an app without the context
    const chart = new NodeReporterChart(appAt(), 'reporter', { version: 'v1' });

    // THEN
    const [ns, ds] = synth(chart);
    expect(ns.metadata).toEqual({ name: 'practice-daemon', labels: { 'app.kubernetes.io/managed-by': 'node-reporter', 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.28' } });
    expect(ds.metadata.annotations).toEqual({ 'kubernetes.io/change-cause': 'node-reporter v1' });
  });

  test('an AppArmor profile is the pod annotation and a read-only host path is not recursive', () => {
    // GIVEN an agent that reads the host's root, with an AppArmor profile
    const { chart } = agentIn(appAt(), {
      containers: [{ name: 'agent', image: 'example.com/agent:1', securityContext: { appArmorProfile: 'localhost/agent' } }],
      hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host', type: kplus.HostPathVolumeType.DIRECTORY }],
      podSecurity: privileged,
    });

    // THEN
    const ds = only(synth(chart), 'DaemonSet');
    expect(ds.spec.template.metadata.annotations).toEqual({ 'container.apparmor.security.beta.kubernetes.io/agent': 'localhost/agent' });
    expect(ds.spec.template.spec.containers[0].securityContext).not.toHaveProperty('appArmorProfile');
    expect(ds.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'root', mountPath: '/host', readOnly: true }]);
  });

  test('setting the default explicitly changes only the marks: the version annotation on the DaemonSet and the Namespace', () => {
    // GIVEN the same chart with no target and with 1.28 set
    const yaml = (app: App) => synthYaml(new NodeReporterChart(app, 'reporter', { version: 'v1' }));
    const none = yaml(appAt());
    const explicit = yaml(appAt('1.28'));

    // THEN the only difference is the two annotations
    expect(explicit.replace(/\n *node-reporter\.dev\/kubernetes-version: "1\.28"/g, '').replace('metadata:\n  annotations:\n  labels', 'metadata:\n  labels')).toBe(none);
    expect(explicit.match(/node-reporter\.dev\/kubernetes-version: "1\.28"/g)).toHaveLength(2);
  });
});

describe('at a target, what the library writes is marked with it', () => {
  test('the namespace enforces the target\'s Pod Security version and the DaemonSet and Namespace carry the annotation', () => {
    // GIVEN the seed's cluster, 1.35
    const chart = new NodeReporterChart(appAt('1.35'), 'reporter', { version: 'v1' });

    // THEN
    const [ns, ds] = synth(chart);
    expect(ns.metadata.labels['pod-security.kubernetes.io/enforce-version']).toBe('v1.35');
    expect(ns.metadata.annotations).toEqual({ [KUBERNETES_VERSION_ANNOTATION]: '1.35' });
    expect(ds.metadata.annotations).toEqual({ 'kubernetes.io/change-cause': 'node-reporter v1', [KUBERNETES_VERSION_ANNOTATION]: '1.35' });
    // Not on the pods: a version mark alone does not roll them.
    expect(ds.spec.template.metadata).not.toHaveProperty('annotations');
  });

  test('the annotation is the library\'s: the annotations prop may not set it', () => {
    expect(() => agentIn(appAt(), { annotations: { [KUBERNETES_VERSION_ANNOTATION]: '1.35' } }))
      .toThrow('agents/Agent: \'annotations\' must not set "node-reporter.dev/kubernetes-version", which this construct owns (it marks the app\'s Kubernetes target: set the context \'node-reporter:kubernetesVersion\')');
  });
});

/** The agent of the issue: a read-only host root and an AppArmor profile, in a namespace that admits it. */
function hostRootAgent(app: App): Chart {
  const { chart, agent } = agentIn(app, {
    // Sized, so that the checks have nothing to warn of but what the target changes.
    containers: [{ name: 'agent', image: 'example.com/agent:1', securityContext: { appArmorProfile: 'runtime/default' }, resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(16), limit: Size.mebibytes(32) } } }],
    hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host', type: kplus.HostPathVolumeType.DIRECTORY }],
    podSecurity: privileged,
  });
  new PodSecurityNamespace(chart, 'Namespace', { name: 'agents' }).admit(agent);
  return chart;
}

describe('an agent with a read-only host root and an AppArmor profile, at 1.35', () => {
  test('holds the AppArmor field instead of the annotation and a recursively read-only root, in a namespace enforcing v1.35', () => {
    // GIVEN an app targeting 1.35
    const objects = synth(hostRootAgent(appAt('1.35')));

    // THEN
    const ns = only(objects, 'Namespace');
    expect(ns.metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'privileged', 'pod-security.kubernetes.io/enforce-version': 'v1.35' });
    expect(ns.metadata.annotations).toEqual({ [KUBERNETES_VERSION_ANNOTATION]: '1.35' });
    const ds = only(objects, 'DaemonSet');
    expect(ds.metadata.annotations[KUBERNETES_VERSION_ANNOTATION]).toBe('1.35');
    expect(ds.spec.template.metadata).not.toHaveProperty('annotations');
    const [c] = ds.spec.template.spec.containers;
    expect(c.securityContext.appArmorProfile).toEqual({ type: 'RuntimeDefault' });
    expect(c.volumeMounts).toEqual([{ name: 'root', mountPath: '/host', readOnly: true, recursiveReadOnly: 'IfPossible' }]);
  });

  test('is what the checks accept at 1.35, with no warning, judged by its annotation', () => {
    // GIVEN the output as cdk8s writes it
    const yaml = synthYaml(hostRootAgent(appAt('1.35')));

    // THEN the checks, given no version, judge it at 1.35 and find nothing to say but its waiver
    expect(checkYaml(yaml, 'agents.k8s.yaml').map((f) => [f.rule.id, f.waived])).toEqual([['pss-volume-types', "reads the node's root"]]);
    // and at 1.28 the fields are unknown: the output is for 1.35 only
    expect(checkYaml(yaml, 'agents.k8s.yaml', { kubernetesVersion: '1.28' }).map((f) => f.path)).toEqual(expect.arrayContaining([
      'spec.template.spec.containers[0].securityContext.appArmorProfile', 'spec.template.spec.containers[0].volumeMounts[0].recursiveReadOnly',
    ]));
  });

  test('is, byte for byte, what a v1.35.6 API server accepted with no warning and its node ran', () => {
    // GIVEN the output a real v1.35.6 server was asked of (2026-12-02, kubectl v1.35.6, the namespace created first):
    //   kubectl apply --dry-run=server --validate=strict -f test/fixtures/v1.35/host-root-agent.k8s.yaml
    //   -> namespace/host-root configured (server dry run), daemonset.apps/host-root created (server dry run), exit 0,
    //      no warning (kubectl apply of it for real: "namespace/host-root created", "daemonset.apps/host-root created",
    //      nothing else); the same DaemonSet with the AppArmor annotation instead of the field is accepted with
    //      "Warning: ...annotations[container.apparmor.security.beta.kubernetes.io/reader]: deprecated since v1.30;
    //      use the "appArmorProfile" field instead".
    // On the node (kubelet v1.35.6, containerd 1.6.20, no AppArmor in the kernel) the kubelet rejects the pod:
    // "Cannot enforce AppArmor: AppArmor is not enabled on the host". Without the profile it runs, the mount's status
    // is recursiveReadOnly: Disabled (IfPossible, not possible there), /host is read-only (touch: Read-only file
    // system) and /host/proc, a submount, is not; with recursiveReadOnly: Enabled the container stays in
    // CreateContainerConfigError ("requested recursive read-only mode, but it is not supported by the runtime").
    const recorded = fs.readFileSync(path.join(__dirname, 'fixtures', 'v1.35', 'host-root-agent.k8s.yaml'), 'utf-8');

    // THEN the library still writes exactly that (a change must be asked of the server again)
    expect(synthYaml(hostRootAgentChart(Testing.app()))).toBe(recorded);
  });

  test('Enabled is written where asked for', () => {
    const { chart } = agentIn(appAt('1.35'), { hostPaths: [{ name: 'root', hostPath: '/', mountPath: '/host' }], podSecurity: privileged, recursiveReadOnly: RecursiveReadOnly.ENABLED });
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.containers[0].volumeMounts[0].recursiveReadOnly).toBe('Enabled');
  });
});

describe('the agent\'s Pod Security level is the target\'s', () => {
  // A probe that names a host: allowed by every policy version before v1.34 (check_hostProbesAndHostLifecycle.go).
  const probing = { containers: [{ name: 'agent', image: 'example.com/agent:1', liveness: kplus.Probe.fromHttpGet('/healthz', { port: 8080, host: '127.0.0.1' }) }] };

  test('at 1.28 a probe host is "restricted"', () => {
    expect(agentIn(appAt(), probing).agent.podSecurityLevel).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('at 1.35 the same probe needs "privileged", and the agent must say why', () => {
    expect(() => agentIn(appAt('1.35'), probing)).toThrow(/^agents\/Agent: 'podSecurity' must be set to \{ level: 'privileged', reason: '...' \} because the agent's pod breaks Pod Security "restricted": pss-probe-host/);
    expect(agentIn(appAt('1.35'), { ...probing, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'probes its host-network listener' } }).agent.podSecurityLevel).toBe(PodSecurityLevel.PRIVILEGED);
  });
});

describe('recursiveReadOnly: the prop', () => {
  test('defaults to IfPossible', () => {
    expect(agentIn(appAt('1.35')).agent.recursiveReadOnly).toBe(RecursiveReadOnly.IF_POSSIBLE);
  });

  test('Enabled needs a target that has the field', () => {
    expect(() => agentIn(appAt(), { recursiveReadOnly: RecursiveReadOnly.ENABLED }))
      .toThrow("agents/Agent: 'recursiveReadOnly' must be IfPossible, Disabled or unset at Kubernetes 1.28, which has no recursiveReadOnly (1.31+: set the context 'node-reporter:kubernetesVersion') but got \"Enabled\"");
  });

  test('is one of the enum\'s values, reported with the other bad props', () => {
    expect(() => agentIn(appAt('1.35'), { recursiveReadOnly: 'Always' as RecursiveReadOnly, name: 'Bad_Name' }))
      .toThrow(/'name' must be [^\n]*\n.*'recursiveReadOnly' must be one of IfPossible, Enabled, Disabled \(RecursiveReadOnly\) but got "Always"/);
  });
});

describe('the target\'s forms of a DaemonSet manifest', () => {
  /** A DaemonSet manifest as cdk8s writes it (keys sorted), with a host root, a propagating host path, a ConfigMap and an init container. */
  const manifest = (): Manifest => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      template: {
        spec: {
          containers: [{
            image: 'example.com/agent:1',
            name: 'agent',
            securityContext: { readOnlyRootFilesystem: true, runAsUser: 65534 },
            volumeMounts: [
              { mountPath: '/host', name: 'root', readOnly: true },
              { mountPath: '/host/proc', mountPropagation: 'HostToContainer', name: 'proc', readOnly: true },
              { mountPath: '/state', name: 'state' },
              { mountPath: '/etc/agent', name: 'config', readOnly: true },
              { mountPath: '/var/log', mountPropagation: 'None', name: 'logs', readOnly: true },
            ],
          }],
          initContainers: [{ image: 'example.com/init:1', name: 'init', volumeMounts: [{ mountPath: '/host', name: 'root', readOnly: true }] }],
        },
      },
    },
  });
  const forms = (version: '1.28' | '1.30' | '1.31' | '1.35', recursiveReadOnly = RecursiveReadOnly.IF_POSSIBLE) => ({
    version: version as '1.35',
    appArmorProfile: (init: boolean, name: string) => (init ? undefined : { agent: 'localhost/agent-profile' }[name]),
    hostPathVolumes: new Set(['root', 'proc', 'state', 'logs']),
    recursiveReadOnly,
  });

  test('at 1.35: the AppArmor field, and recursiveReadOnly on each read-only, non-propagating host-path mount', () => {
    // WHEN
    const out = (withTargetForms(manifest(), forms('1.35')) as Manifest);

    // THEN
    const [agent] = out.spec.template.spec.containers;
    expect(agent.securityContext).toEqual({ appArmorProfile: { localhostProfile: 'agent-profile', type: 'Localhost' }, readOnlyRootFilesystem: true, runAsUser: 65534 });
    expect(Object.keys(agent.securityContext)).toEqual(['appArmorProfile', 'readOnlyRootFilesystem', 'runAsUser']);
    expect(agent.volumeMounts).toEqual([
      { mountPath: '/host', name: 'root', readOnly: true, recursiveReadOnly: 'IfPossible' },
      // The API server refuses recursiveReadOnly with a propagation other than None, or on a writable mount.
      { mountPath: '/host/proc', mountPropagation: 'HostToContainer', name: 'proc', readOnly: true },
      { mountPath: '/state', name: 'state' },
      // Not a host path: the kubelet's own tmpfs has no submounts.
      { mountPath: '/etc/agent', name: 'config', readOnly: true },
      { mountPath: '/var/log', mountPropagation: 'None', name: 'logs', readOnly: true, recursiveReadOnly: 'IfPossible' },
    ]);
    expect(Object.keys(agent.volumeMounts[0])).toEqual(['mountPath', 'name', 'readOnly', 'recursiveReadOnly']);
    expect(out.spec.template.spec.initContainers[0]).toEqual({ image: 'example.com/init:1', name: 'init', volumeMounts: [{ mountPath: '/host', name: 'root', readOnly: true, recursiveReadOnly: 'IfPossible' }] });
  });

  test('Enabled is written as Enabled, Disabled not at all', () => {
    expect((withTargetForms(manifest(), forms('1.35', RecursiveReadOnly.ENABLED)) as Manifest).spec.template.spec.containers[0].volumeMounts[0].recursiveReadOnly).toBe('Enabled');
    expect((withTargetForms(manifest(), forms('1.35', RecursiveReadOnly.DISABLED)) as Manifest).spec.template.spec.containers[0].volumeMounts).toEqual(manifest().spec.template.spec.containers[0].volumeMounts);
  });

  test.each([
    ['runtime/default', { type: 'RuntimeDefault' }],
    ['unconfined', { type: 'Unconfined' }],
    ['localhost/k8s-agent', { localhostProfile: 'k8s-agent', type: 'Localhost' }],
  ])('the profile %j is the field %j', (profile, field) => {
    const out = (withTargetForms(manifest(), { ...forms('1.35'), appArmorProfile: () => profile }) as Manifest);
    expect(out.spec.template.spec.containers[0].securityContext.appArmorProfile).toEqual(field);
    expect(out.spec.template.spec.initContainers[0].securityContext.appArmorProfile).toEqual(field);
  });

  test('each form from the version that has it: the field from 1.30, recursiveReadOnly from 1.31, neither at 1.28', () => {
    const at = (v: '1.28' | '1.30' | '1.31') => (withTargetForms(manifest(), forms(v)) as Manifest).spec.template.spec.containers[0];
    expect(at('1.28')).toEqual(manifest().spec.template.spec.containers[0]);
    expect([at('1.30').securityContext.appArmorProfile, at('1.30').volumeMounts[0].recursiveReadOnly]).toEqual([{ localhostProfile: 'agent-profile', type: 'Localhost' }, undefined]);
    expect([at('1.31').securityContext.appArmorProfile, at('1.31').volumeMounts[0].recursiveReadOnly]).toEqual([{ localhostProfile: 'agent-profile', type: 'Localhost' }, 'IfPossible']);
  });
});
