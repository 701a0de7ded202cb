import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { LabeledNodePolicy, NodeReporterDaemonSet, NodeReporterDaemonSetProps, NodeToleration, TaintEffect } from '../lib';
import { Manifest, only, synth } from './util';

function reporterIn(chart: Chart, props: Partial<NodeReporterDaemonSetProps> = {}, id = 'NodeReporter'): NodeReporterDaemonSet {
  const policy = props.policy ?? new LabeledNodePolicy(chart, `${id}Policy`, { key: 'practice-tier', value: 'operations' });
  return new NodeReporterDaemonSet(chart, id, { version: 'v1', ...props, policy });
}

function daemonSet(props: Partial<NodeReporterDaemonSetProps> = {}): Manifest {
  const chart = Testing.chart();
  reporterIn(chart, props);
  return only(synth(chart), 'DaemonSet');
}

describe('NodeReporterDaemonSet defaults', () => {
  test('exposes its resolved defaults', () => {
    // WHEN
    const reporter = reporterIn(Testing.chart());

    // THEN
    expect(reporter.name).toBe('node-reporter');
    expect(reporter.image).toBe('busybox:1.36');
    expect(reporter.intervalSeconds).toBe(15);
    expect(reporter.changeCause).toBe('node-reporter v1');
    expect(reporter.selectorLabels).toEqual({ app: 'node-reporter' });
    expect(reporter.terminationGracePeriodSeconds).toBe(5);
    expect(reporter.revisionHistoryLimit).toBe(10);
  });

  test('selects exactly app=<name>, and every pod carries it', () => {
    const ds = daemonSet();
    expect(ds.spec.selector).toEqual({ matchLabels: { app: 'node-reporter' } });
    expect(ds.spec.template.metadata.labels).toMatchObject(ds.spec.selector.matchLabels);
  });

  test('adds no label that depends on the construct path', () => {
    const ds = daemonSet();
    expect(JSON.stringify(ds)).not.toContain('cdk8s.io/metadata.addr');
  });

  test('keeps its selector and pod template when the construct moves in the tree', () => {
    // GIVEN the same reporter at two places in the tree
    const flat = Testing.chart();
    reporterIn(flat);
    const nested = Testing.chart();
    reporterIn(new Construct(new Construct(nested, 'Team'), 'Agents') as Chart);

    // THEN
    expect(only(synth(nested), 'DaemonSet').spec).toEqual(only(synth(flat), 'DaemonSet').spec);
  });

  test('runs one container reporter from busybox:1.36, pulled if not present', () => {
    const { containers } = daemonSet().spec.template.spec;
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({ name: 'reporter', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' });
  });

  test('passes Pod Security restricted as the fixed non-root uid and gid 65534', () => {
    const pod = daemonSet().spec.template.spec;
    // seccomp at the pod, so that every container (a `kubectl debug` one too) inherits it.
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsGroup: 65534,
      runAsNonRoot: true,
      runAsUser: 65534,
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    // false and 0 are the API's defaults; rendered, every `kubectl apply` would report the DaemonSet configured.
    expect(pod).not.toHaveProperty('hostNetwork');
  });

  test('requests little (the agent runs on every node) and limits memory', () => {
    const { resources } = daemonSet().spec.template.spec.containers[0];
    expect(resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } });
  });

  test('rolls one node at a time and keeps ten revisions', () => {
    const ds = daemonSet();
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(ds.spec).not.toHaveProperty('minReadySeconds');
    expect(ds.spec.template.spec.terminationGracePeriodSeconds).toBe(5);
  });

  test('takes the enclosing chart\'s namespace, and none when the chart has none', () => {
    const withNs = Testing.chart();
    const chart = new Chart(Testing.app(), 'agents', { namespace: 'monitoring' });
    reporterIn(chart);
    reporterIn(withNs);
    expect(only(synth(chart), 'DaemonSet').metadata.namespace).toBe('monitoring');
    expect(only(synth(withNs), 'DaemonSet').metadata).not.toHaveProperty('namespace');
  });
});

describe('NodeReporterDaemonSet options', () => {
  test('renders name, image, interval, change-cause and resources as given', () => {
    // WHEN
    const ds = daemonSet({
      name: 'agent',
      image: 'registry.example.com/tools/busybox:1.36.1',
      intervalSeconds: 60,
      changeCause: 'roll out the agent',
      resources: { cpu: { request: kplus.Cpu.millis(50), limit: kplus.Cpu.units(1) }, memory: { request: Size.mebibytes(64), limit: Size.mebibytes(128) } },
    });

    // THEN
    const [container] = ds.spec.template.spec.containers;
    expect(ds.metadata.name).toBe('agent');
    expect(ds.spec.selector.matchLabels).toEqual({ app: 'agent' });
    expect(container.image).toBe('registry.example.com/tools/busybox:1.36.1');
    expect(container.command[2]).toBe('while true; do echo node=${NODE_NAME} version=v1; sleep 60; done');
    expect(container.resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } });
    expect(ds.metadata.annotations['kubernetes.io/change-cause']).toBe('roll out the agent');
  });

  test('puts extra labels and annotations on the DaemonSet and its pods, never in the selector', () => {
    // WHEN
    const ds = daemonSet({
      labels: { 'app.kubernetes.io/name': 'node-reporter', 'app.kubernetes.io/part-of': 'observability' },
      annotations: { 'example.com/owner': 'platform team' },
    });

    // THEN
    for (const metadata of [ds.metadata, ds.spec.template.metadata]) {
      expect(metadata.labels).toEqual({
        'app': 'node-reporter',
        'app.kubernetes.io/name': 'node-reporter',
        'app.kubernetes.io/instance': 'node-reporter',
        'app.kubernetes.io/version': 'v1',
        'app.kubernetes.io/component': 'node-agent',
        'app.kubernetes.io/part-of': 'observability',
        'app.kubernetes.io/managed-by': 'node-reporter',
      });
      expect(metadata.annotations['example.com/owner']).toBe('platform team');
    }
    expect(ds.spec.selector).toEqual({ matchLabels: { app: 'node-reporter' } });
    expect(ds.spec.template.metadata.annotations).not.toHaveProperty('kubernetes.io/change-cause');
  });

  test('renders priority class, surge, readiness and grace as given', () => {
    const ds = daemonSet({
      priorityClassName: 'system-node-critical',
      maxSurge: kplus.PercentOrAbsolute.absolute(1),
      minReadySeconds: 20,
      terminationGracePeriodSeconds: 30,
      revisionHistoryLimit: 3,
    });
    expect(ds.spec.template.spec.priorityClassName).toBe('system-node-critical');
    // maxSurge alone: maxUnavailable defaults to 0, as the API server requires one of them to be zero.
    expect(ds.spec.updateStrategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
    expect(ds.spec.minReadySeconds).toBe(20);
    expect(ds.spec.template.spec.terminationGracePeriodSeconds).toBe(30);
    expect(ds.spec.revisionHistoryLimit).toBe(3);
  });

  test('renders a percentage of unavailable nodes', () => {
    expect(daemonSet({ maxUnavailable: kplus.PercentOrAbsolute.percent(10) }).spec.updateStrategy.rollingUpdate).toEqual({ maxUnavailable: '10%', maxSurge: 0 });
  });
});

describe('NodeReporterDaemonSet tolerations', () => {
  test('tolerates no taint unless its policy does', () => {
    expect(daemonSet().spec.template.spec).not.toHaveProperty('tolerations');
  });

  test("renders its policy's tolerations, so the agent lands on the kubeadm control plane", () => {
    // GIVEN
    const chart = Testing.chart();
    const policy = new LabeledNodePolicy(chart, 'Policy', {
      key: 'practice-tier', value: 'operations',
      tolerations: [NodeToleration.controlPlane(), NodeToleration.equal('dedicated', 'agents', TaintEffect.NO_EXECUTE)],
    });

    // WHEN
    new NodeReporterDaemonSet(chart, 'Reporter', { policy, version: 'v1' });

    // THEN
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'agents', effect: 'NoExecute' },
    ]);
  });
});

describe('NodeReporterDaemonSet composed in a foreign chart', () => {
  test('two reporters share one policy in another namespace and never select each other\'s pods', () => {
    // GIVEN a team's own chart
    const chart = new Chart(Testing.app(), 'team', { namespace: 'monitoring' });
    const policy = new LabeledNodePolicy(chart, 'Agents', { key: 'node-role.example.com/agents', value: 'true' });

    // WHEN
    new NodeReporterDaemonSet(chart, 'Stable', { policy, version: 'v3' });
    new NodeReporterDaemonSet(chart, 'Canary', { policy, version: 'v4-rc.1', name: 'node-reporter-canary' });

    // THEN
    const manifests = synth(chart);
    expect(manifests.map((m) => m.kind)).toEqual(['DaemonSet', 'DaemonSet']);
    const stable = only(manifests, 'DaemonSet', 'node-reporter');
    const canary = only(manifests, 'DaemonSet', 'node-reporter-canary');
    for (const ds of [stable, canary]) {
      expect(ds.metadata.namespace).toBe('monitoring');
      expect(ds.spec.template.spec.nodeSelector).toEqual({ 'node-role.example.com/agents': 'true' });
    }
    expect(canary.metadata.annotations['kubernetes.io/change-cause']).toBe('node-reporter-canary v4-rc.1');
    expect(stable.spec.template.spec.containers[0].command[2]).toContain('version=v3;');
    expect(canary.spec.template.spec.containers[0].command[2]).toContain('version=v4-rc.1;');
    const selects = (ds: Manifest, pod: Manifest) =>
      Object.entries(ds.spec.selector.matchLabels).every(([k, v]) => pod.spec.template.metadata.labels[k] === v);
    expect(selects(stable, canary)).toBe(false);
    expect(selects(canary, stable)).toBe(false);
  });

  test('fails synth when two reporters share a name in one namespace', () => {
    // GIVEN
    const app = Testing.app();
    const chart = new Chart(app, 'team', { namespace: 'monitoring' });
    const policy = new LabeledNodePolicy(chart, 'Policy', { key: 'tier', value: 'edge' });
    new NodeReporterDaemonSet(chart, 'A', { policy, version: 'v1' });
    new NodeReporterDaemonSet(chart, 'B', { policy, version: 'v2' });

    // THEN
    expect(() => app.synth()).toThrow(/\[NameClashes\] DaemonSet "node-reporter" in namespace "monitoring" is defined by both team\/A\/Resource\/Resource and team\/B\/Resource\/Resource: each apply would overwrite the other/);
  });

  test('allows one name in two namespaces', () => {
    const app = Testing.app();
    for (const namespace of ['a', 'b']) {
      const chart = new Chart(app, namespace, { namespace });
      new NodeReporterDaemonSet(chart, 'Reporter', { policy: new LabeledNodePolicy(chart, 'Policy', { key: 'tier', value: 'edge' }), version: 'v1' });
    }
    expect(() => app.synth()).not.toThrow();
  });

  test('uses a policy defined in another chart', () => {
    const app = Testing.app();
    const shared = new Chart(app, 'shared');
    const policy = new LabeledNodePolicy(shared, 'Policy', { key: 'tier', value: 'edge' });
    const team = new Chart(app, 'team');
    new NodeReporterDaemonSet(team, 'Reporter', { policy, version: 'v1' });
    expect(synth(shared)).toEqual([]);
    expect(only(synth(team), 'DaemonSet').spec.template.spec.nodeSelector).toEqual({ tier: 'edge' });
  });
});

describe('NodeReporterDaemonSet bad input', () => {
  const cases: Array<[string, Partial<NodeReporterDaemonSetProps>, RegExp]> = [
    ['a policy that is not a NodePolicy', { policy: { key: 'a', value: 'b' } as unknown as LabeledNodePolicy }, /'policy' must be a NodePolicy \(or LabeledNodePolicy\) but got \{"key":"a","value":"b"\}/],
    ['a version with a shell command', { version: 'v1; rm -rf /' }, /'version' must be a plain token matching .* but got "v1; rm -rf \/"/],
    ['a version with a command substitution', { version: '$(id)' }, /'version' .* but got "\$\(id\)"/],
    ['a version with a backtick', { version: 'v1`id`' }, /'version' .* but got "v1`id`"/],
    ['an empty version', { version: '' }, /'version' .* but got ""/],
    ['a name that is not a DNS-1123 label', { name: 'Node_Reporter' }, /'name' must be a DNS-1123 label .* but got "Node_Reporter"/],
    ['a name longer than 63 characters', { name: 'a'.repeat(64) }, /'name' must be a DNS-1123 label/],
    ['an empty image', { image: '' }, /'image' must be an image reference with a tag or a digest.* but got ""$/],
    ['an image without a tag or digest', { image: 'busybox' }, /'image' .* but got "busybox"/],
    ['an image with whitespace', { image: 'busybox:1.36 ' }, /'image' .* but got "busybox:1.36 "/],
    ['an interval of zero', { intervalSeconds: 0 }, /'intervalSeconds' must be an integer from 1 to 86400 but got 0/],
    ['a fractional interval', { intervalSeconds: 1.5 }, /'intervalSeconds' must be an integer from 1 to 86400 but got 1.5/],
    ['an interval above a day', { intervalSeconds: 86401 }, /'intervalSeconds' .* but got 86401/],
    ['a cpu request that is not a quantity', { resources: { cpu: { request: kplus.Cpu.units(NaN) } } }, /'resources.cpu.request' must be a positive Kubernetes quantity .* but got "NaN"/],
    ['a negative cpu limit', { resources: { cpu: { limit: kplus.Cpu.millis(-5) } } }, /'resources.cpu.limit' .* but got "-5m"/],
    ['a memory request above its limit', { resources: { memory: { request: Size.mebibytes(64), limit: Size.mebibytes(32) } } }, /'resources.memory.request' must be less than or equal to memory limit of "32Mi" but got "64Mi"/],
    ['a memory size of a fraction of a MiB', { resources: { memory: { limit: Size.kibibytes(1500) } } }, /'resources.memory.limit' must be a positive whole number of MiB but got "1.46484375Mi"/],
    ['a multi-line change-cause', { changeCause: 'a\nb' }, /'changeCause' must be a non-empty single line/],
    ['a label that takes over the selector key', { labels: { app: 'other' } }, /'labels' must not set 'app'/],
    ['a label key with two slashes', { labels: { 'a/b/c': 'x' } }, /'labels' key must be a qualified name .* but got "a\/b\/c"/],
    ['a label value with a space', { labels: { team: 'a b' } }, /'labels.team' must be a label value .* but got "a b"/],
    ['an annotation key with a space', { annotations: { 'a b': 'x' } }, /'annotations' key must be a qualified name/],
    ['a priority class with capitals', { priorityClassName: 'Critical' }, /'priorityClassName' must be a DNS-1123 subdomain .* but got "Critical"/],
    ['zero maxUnavailable and zero maxSurge', { maxUnavailable: kplus.PercentOrAbsolute.absolute(0) }, /'maxUnavailable' may not be 0 when `maxSurge` is 0 but got 0: the rollout could never replace a pod/],
    ['non-zero maxUnavailable and maxSurge, which the API server refuses', { maxUnavailable: kplus.PercentOrAbsolute.percent(10), maxSurge: kplus.PercentOrAbsolute.absolute(1) }, /'maxSurge' may not be set when maxUnavailable is non-zero but got 1; set maxUnavailable to 0 to surge/],
    ['an annotation the construct owns', { annotations: { 'kubernetes.io/change-cause': 'x' } }, /'annotations' must not set "kubernetes.io\/change-cause", which this construct owns \(use 'changeCause'\)/],
    ['a percentage above 100', { maxUnavailable: kplus.PercentOrAbsolute.percent(150) }, /'maxUnavailable' must not be greater than 100% but got "150%"/],
    ['a negative minReadySeconds', { minReadySeconds: -1 }, /'minReadySeconds' must be an integer from 0 to 86400 but got -1/],
    ['a fractional grace period', { terminationGracePeriodSeconds: 0.5 }, /'terminationGracePeriodSeconds' .* but got 0.5/],
    ['a negative revisionHistoryLimit', { revisionHistoryLimit: -1 }, /'revisionHistoryLimit' .* but got -1/],
  ];

  test.each(cases)('throws on %s, naming the construct, the prop and the value', (_, props, message) => {
    const chart = Testing.chart();
    expect(() => reporterIn(chart, props)).toThrow(message);
    expect(() => reporterIn(Testing.chart(), props)).toThrow(/^test\/NodeReporter: /);
  });

  test('never writes a refused version into the script', () => {
    const chart = Testing.chart();
    expect(() => reporterIn(chart, { version: 'v1; rm -rf /' })).toThrow();
    expect(JSON.stringify(Testing.synth(chart))).not.toContain('rm -rf');
  });
});
