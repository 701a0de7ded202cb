/**
 * An agent rolled out in waves: one DaemonSet per wave through NodeAgent's
 * rendering, the last one the single agent's (name, selector, ConfigMap),
 * shared objects once, per-wave config, and waves that partition the agent's
 * nodes (a property test against eligibility's own evaluation).
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';
import { AgentUpdateStrategy, AgentWave, ConfigChange, NodeAgent, NodeAgentProps, NodePolicy, NodePolicyProps, NodeReporterChart, NodeReporterDaemonSet, NodeRequirement, NodeToleration, PodSecurityLevel } from '../../lib';
import { evaluateNode, KubeNode, schedulingOfPolicy, schedulingOfWorkload } from '../../lib/eligibility';
import { selectorMatches } from '../../lib/k8s/scheduling';
import { AGENT_LABEL, ROLLOUT_WAVE_NODE_LABEL, WAVE_LABEL } from '../../lib/k8s/waves';
import { Manifest, only, synth } from '../util';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20261204);

function chart(): Chart {
  return new Chart(Testing.app(), 'test', { namespace: 'agents' });
}

/** An agent with every shared object: ServiceAccount with rules, config, metrics Service, another Service, a CRD. */
function agentProps(c: Chart, extra: Partial<NodeAgentProps> = {}): NodeAgentProps {
  return {
    policy: new NodePolicy(c, `Policy-${extra.name ?? 'agent'}`, { operatingSystem: 'linux' }),
    name: 'agent',
    containers: [{ name: 'agent', image: 'example.com/agent:1.0', ports: [{ number: 9100, name: 'metrics' }], env: { LEVEL: kplus.EnvValue.fromValue('info') } }],
    serviceAccount: { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
    config: { data: { 'agent.yaml': 'level: info\n' }, mountPath: '/etc/agent' },
    metrics: { port: 'metrics' },
    services: [{ name: 'agent-headless', ports: [{ port: 'metrics' }], headless: true }],
    customResourceDefinitions: [{ group: 'example.com', names: { kind: 'Thing', plural: 'things' }, scope: 'Cluster', versions: [{ name: 'v1', served: true, storage: true, schema: { openApiv3Schema: { type: 'object' } } }] }],
    ...extra,
  };
}

const daemonSets = (manifests: Manifest[]) => manifests.filter((m) => m.kind === 'DaemonSet');

describe('an agent in waves', () => {
  test('each wave is a DaemonSet with the agent and wave labels on it and its pods; earlier waves are named <agent>-<wave>', () => {
    // GIVEN an agent in three waves
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, { waves: [{ name: 'canary' }, { name: 'early' }, { name: 'rest' }] }));

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN there is one DaemonSet per wave, each labelled with its agent and wave, its pods too
    expect(sets.map((d) => d.metadata.name).sort()).toEqual(['agent', 'agent-canary', 'agent-early']);
    for (const [name, wave] of [['agent-canary', 'canary'], ['agent-early', 'early'], ['agent', 'rest']]) {
      const ds = only(sets, 'DaemonSet', name);
      expect(ds.metadata.labels).toMatchObject({ [AGENT_LABEL]: 'agent', [WAVE_LABEL]: wave });
      expect(ds.spec.template.metadata.labels).toMatchObject({ [AGENT_LABEL]: 'agent', [WAVE_LABEL]: wave });
    }
    // AND the earlier waves select their nodes by the rollout-wave label, the last every other node
    expect(only(sets, 'DaemonSet', 'agent-canary').spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', [ROLLOUT_WAVE_NODE_LABEL]: 'canary' });
    expect(only(sets, 'DaemonSet', 'agent').spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms)
      .toEqual([{ matchExpressions: [{ key: ROLLOUT_WAVE_NODE_LABEL, operator: 'NotIn', values: ['canary', 'early'] }] }]);
  });

  test('no wave\'s selector selects the pods of another wave', () => {
    // GIVEN agents in waves, one with its default selector and one with an adopted selector
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, { waves: [{ name: 'canary' }, { name: 'early' }, { name: 'rest' }] }));
    new NodeAgent(c, 'Adopted', { ...agentProps(c, { name: 'kube-thing', waves: [{ name: 'canary' }, { name: 'rest' }] }), policy: new NodePolicy(c, 'P2'), adopt: { selector: { 'k8s-app': 'kube-thing' } }, metrics: undefined, services: undefined, customResourceDefinitions: undefined, serviceAccount: undefined });

    // WHEN each DaemonSet's selector is matched against every other DaemonSet's pod labels
    const sets = daemonSets(synth(c));

    // THEN a selector selects its own pods and no other's
    for (const a of sets) {
      for (const b of sets) {
        expect([a.metadata.name, b.metadata.name, selectorMatches(a.spec.selector.matchLabels, b.spec.template.metadata.labels)])
          .toEqual([a.metadata.name, b.metadata.name, a === b]);
      }
    }
  });

  test('shared objects render once, and its Services select every wave\'s pods by the agent label', () => {
    // GIVEN an agent in two waves with a ServiceAccount, a CRD and two Services
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, { waves: [{ name: 'canary' }, { name: 'rest' }] }));

    // WHEN it is synthesized
    const manifests = synth(c);

    // THEN each shared kind is there once, without a wave label
    for (const kind of ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']) {
      expect([kind, manifests.filter((m) => m.kind === kind).length]).toEqual([kind, 1]);
      expect(only(manifests, kind).metadata.labels[WAVE_LABEL]).toBeUndefined();
    }
    const services = manifests.filter((m) => m.kind === 'Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual(['agent-headless', 'node-agent-agent']);
    // AND every Service selects the pods of both waves
    for (const service of services) {
      expect(service.spec.selector).toEqual({ [AGENT_LABEL]: 'agent' });
      for (const ds of daemonSets(manifests)) {
        expect(selectorMatches(service.spec.selector, ds.spec.template.metadata.labels)).toBe(true);
      }
    }
    // AND every wave runs as the one ServiceAccount, with its token
    for (const ds of daemonSets(manifests)) {
      expect(ds.spec.template.spec.serviceAccountName).toBe('node-agent-agent');
      expect(ds.spec.template.spec.automountServiceAccountToken).toBe(true);
    }
  });

  test('a ServiceAccount without a token mounts none in any wave', () => {
    // GIVEN an agent whose ServiceAccount's token is not mounted
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, { serviceAccount: { automountToken: false }, waves: [{ name: 'canary' }, { name: 'rest' }] }));

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN no wave mounts it
    expect(sets.map((d) => d.spec.template.spec.automountServiceAccountToken)).toEqual([false, false]);
  });

  test('a wave overrides the main container\'s image, command, args and env, the version label, the change cause and the update strategy', () => {
    // GIVEN a canary wave with every override
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, {
      waves: [{
        name: 'canary', image: 'example.com/agent:2.0', command: ['/agent'], args: ['--new'], env: { NEW: kplus.EnvValue.fromValue('1') },
        changeCause: 'agent 2.0', updateStrategy: AgentUpdateStrategy.onDelete(),
      }, { name: 'rest' }],
    }));

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN the canary has them and the rest has the agent's own
    const canary = only(sets, 'DaemonSet', 'agent-canary');
    const container = canary.spec.template.spec.containers[0];
    expect([container.image, container.command, container.args, container.env]).toEqual(['example.com/agent:2.0', ['/agent'], ['--new'], [{ name: 'LEVEL', value: 'info' }, { name: 'NEW', value: '1' }]]);
    expect(canary.metadata.labels['app.kubernetes.io/version']).toBe('2.0');
    expect(canary.metadata.annotations['kubernetes.io/change-cause']).toBe('agent 2.0');
    expect(canary.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    const rest = only(sets, 'DaemonSet', 'agent');
    expect([rest.spec.template.spec.containers[0].image, rest.metadata.labels['app.kubernetes.io/version'], rest.spec.updateStrategy.type]).toEqual(['example.com/agent:1.0', '1.0', 'RollingUpdate']);
  });

  test.each([
    [ConfigChange.ROLL, ['ConfigMap/node-agent-agent-canary', 'DaemonSet/agent-canary']],
    [ConfigChange.IN_PLACE, ['ConfigMap/node-agent-agent-canary']],
  ])('a change to one wave\'s config changes no object of another wave (onChange %s)', (onChange, expected) => {
    // GIVEN the same agent twice, once with a new config for the canary
    const render = (canary: AgentWave) => {
      const c = chart();
      new NodeAgent(c, 'Agent', agentProps(c, { config: { data: { 'agent.yaml': 'level: info\n' }, mountPath: '/etc/agent', onChange }, waves: [canary, { name: 'early' }, { name: 'rest' }] }));
      return synth(c);
    };
    const before = render({ name: 'canary' });
    const after = render({ name: 'canary', configData: { 'agent.yaml': 'level: debug\n' } });

    // WHEN the two are compared object by object
    const changed = after.filter((m, i) => JSON.stringify(m) !== JSON.stringify(before[i])).map((m) => `${m.kind}/${m.metadata.name}`);

    // THEN only the canary's ConfigMap changed (and, when the config rolls the pods, its DaemonSet's checksum)
    expect(changed.sort()).toEqual(expected);
  });

  test('the last wave keeps the single agent\'s DaemonSet name, selector and ConfigMap name, with and without adopt', () => {
    for (const adopt of [undefined, { selector: { 'k8s-app': 'agent' }, configMapName: 'agent-config' }]) {
      // GIVEN the agent alone and in waves
      const single = chart();
      new NodeAgent(single, 'Agent', agentProps(single, { adopt }));
      const waved = chart();
      new NodeAgent(waved, 'Agent', agentProps(waved, { adopt, waves: [{ name: 'canary' }, { name: 'rest' }] }));

      // WHEN both are synthesized
      const one = only(synth(single), 'DaemonSet');
      const last = only(synth(waved), 'DaemonSet', 'agent');

      // THEN the last wave's DaemonSet has the single one's name, selector, pod selector labels and ConfigMap
      expect(last.metadata.name).toBe(one.metadata.name);
      expect(last.spec.selector).toEqual(one.spec.selector);
      expect(selectorMatches(one.spec.selector.matchLabels, last.spec.template.metadata.labels)).toBe(true);
      expect(last.spec.template.spec.volumes).toEqual(one.spec.template.spec.volumes);
      expect(only(synth(waved), 'ConfigMap', adopt?.configMapName ?? 'node-agent-agent')).toBeDefined();
    }
  });

  test('moving to waves with the last wave on OnDelete changes its template only by the wave labels and the canary exclusion', () => {
    // GIVEN the agent alone, then in waves with the last wave OnDelete (step 1 of the move)
    const single = chart();
    new NodeAgent(single, 'Agent', agentProps(single));
    const waved = chart();
    new NodeAgent(waved, 'Agent', agentProps(waved, { waves: [{ name: 'canary' }, { name: 'rest', updateStrategy: AgentUpdateStrategy.onDelete() }] }));

    // WHEN the two DaemonSets are compared
    const one = only(synth(single), 'DaemonSet');
    const last = only(synth(waved), 'DaemonSet', 'agent');

    // THEN the controller replaces no pod for being outdated, and only the labels and the affinity differ
    expect(last.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    const strip = (ds: Manifest) => ({ ...ds.spec.template, metadata: { ...ds.spec.template.metadata, labels: undefined }, spec: { ...ds.spec.template.spec, affinity: undefined } });
    expect(strip(last)).toEqual(strip(one));
    expect(Object.entries(last.spec.template.metadata.labels).filter(([k, v]) => one.spec.template.metadata.labels[k] !== v)).toEqual([[AGENT_LABEL, 'agent'], [WAVE_LABEL, 'rest']]);
  });

  test('the agent label added before the move to waves may stay in labels, with the agent\'s name', () => {
    // GIVEN an agent whose labels already carry the agent label (step 0 of the move), now in waves
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, { labels: { [AGENT_LABEL]: 'agent' }, waves: [{ name: 'canary' }, { name: 'rest' }] }));

    // WHEN it is synthesized THEN every wave's pods carry it once, and another value is refused
    expect(daemonSets(synth(c)).map((d) => d.spec.template.metadata.labels[AGENT_LABEL])).toEqual(['agent', 'agent']);
    const other = chart();
    expect(() => new NodeAgent(other, 'Agent', agentProps(other, { labels: { [AGENT_LABEL]: 'another' }, waves: [{ name: 'canary' }, { name: 'rest' }] })))
      .toThrow(/'labels' must not set 'node-reporter.dev\/agent' when the agent has waves/);
  });

  test('a container added after construction reaches every wave', () => {
    // GIVEN an agent in two waves
    const c = chart();
    const agent = new NodeAgent(c, 'Agent', agentProps(c, { waves: [{ name: 'canary' }, { name: 'rest' }] }));

    // WHEN a sidecar is added
    agent.addContainer({ name: 'sidecar', image: 'example.com/sidecar:1' });

    // THEN both waves run it
    expect(daemonSets(synth(c)).map((d) => d.spec.template.spec.containers.map((x: Manifest) => x.name))).toEqual([['agent', 'sidecar'], ['agent', 'sidecar']]);
    expect(agent.earlierWaves.map((w) => w.wave)).toEqual(['canary']);
    expect(agent.wave).toBe('rest');
  });

  test('waves with nodes of their own are ANDed with the agent\'s policy', () => {
    // GIVEN two waves by zone, on Linux nodes
    const c = chart();
    new NodeAgent(c, 'Agent', agentProps(c, {
      waves: [
        { name: 'zone-a', nodes: new NodePolicy(c, 'A', { matchLabels: { zone: 'a' } }) },
        { name: 'other', nodes: new NodePolicy(c, 'B', { matchExpressions: [NodeRequirement.notIn('zone', 'a')] }) },
      ],
    }));

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN each wave selects Linux nodes of its zone
    expect(only(sets, 'DaemonSet', 'agent-zone-a').spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', 'zone': 'a' });
    const other = only(sets, 'DaemonSet', 'agent').spec.template.spec;
    expect([other.nodeSelector, other.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms])
      .toEqual([{ 'kubernetes.io/os': 'linux' }, [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }]]);
  });
});

describe('bad waves are refused at construction, naming the prop', () => {
  const refusal = (extra: (c: Chart) => Partial<NodeAgentProps>) => {
    const c = chart();
    try {
      new NodeAgent(c, 'Agent', agentProps(c, extra(c)));
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  test.each<[string, (c: Chart) => Partial<NodeAgentProps>, RegExp]>([
    ['an empty wave list', () => ({ waves: [] }), /'waves' must be a non-empty array of AgentWave/],
    ['duplicate names', () => ({ waves: [{ name: 'canary' }, { name: 'canary' }, { name: 'rest' }] }), /'waves\[1\]\.name' must be a name no other wave has \(waves\[0\] has it\) but got "canary"/],
    ['a name that is no label value', () => ({ waves: [{ name: 'can ary' }, { name: 'rest' }] }), /'waves\[0\]\.name' must be a label value .* but got "can ary"/],
    ['an empty name', () => ({ waves: [{ name: '' }, { name: 'rest' }] }), /'waves\[0\]\.name' must be a non-empty label value/],
    ['an earlier wave whose DaemonSet name is no DNS-1123 label', () => ({ waves: [{ name: 'Canary' }, { name: 'rest' }] }), /'waves\[0\]\.name' must be a name that makes its DaemonSet's name "agent-Canary" a DNS-1123 label/],
    ['a wave that matches no node of the policy', (c) => ({ waves: [{ name: 'win', nodes: new NodePolicy(c, 'W', { operatingSystem: 'windows' }) }, { name: 'rest', nodes: new NodePolicy(c, 'R') }] }), /'waves\[0\]\.nodes' must be a selection that matches some node of the agent's policy/],
    ['two waves with nodes of their own that can share a node', (c) => ({ waves: [{ name: 'a', nodes: new NodePolicy(c, 'A', { matchLabels: { zone: 'a' } }) }, { name: 'b', nodes: new NodePolicy(c, 'B', { matchLabels: { tier: 'b' } }) }] }),
      /'waves\[1\]\.nodes' must select no node that waves\[0\] \("a"\) selects, but a node labelled \{.*"zone":"a".*\} is in both "a" and "b"/],
    ['a default last wave after a wave with nodes of its own', (c) => ({ waves: [{ name: 'a', nodes: new NodePolicy(c, 'A', { matchLabels: { zone: 'a' } }) }, { name: 'rest' }] }), /'waves\[1\]\.nodes' must be a NodePolicy when an earlier wave selects its nodes with one/],
    ['a default wave that overlaps a last wave with nodes of its own', (c) => ({ waves: [{ name: 'canary' }, { name: 'rest', nodes: new NodePolicy(c, 'R') }] }), /'waves\[1\]\.nodes' must select no node that waves\[0\] \("canary"\) selects/],
    ['config files without a config', () => ({ config: undefined, waves: [{ name: 'canary', configData: { a: 'b' } }, { name: 'rest' }] }), /'waves\[0\]\.configData' must be unset/],
    ['a bad image', () => ({ waves: [{ name: 'canary', image: 'Bad Image' }, { name: 'rest' }] }), /'waves\[0\]\.image' must be/],
    ['a bad version', () => ({ waves: [{ name: 'canary', version: 'v 2' }, { name: 'rest' }] }), /'waves\[0\]\.version' must be a label value/],
    ['a bad update strategy', () => ({ waves: [{ name: 'canary', updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: kplus.PercentOrAbsolute.absolute(0) }) }, { name: 'rest' }] }), /'waves\[0\]\.updateStrategy\./],
    ['labels that set the wave label', () => ({ labels: { [WAVE_LABEL]: 'x' }, waves: [{ name: 'canary' }, { name: 'rest' }] }), /'labels' must not set 'node-reporter.dev\/wave' when the agent has waves/],
    ['an adopted selector that selects an earlier wave\'s pods', () => ({ adopt: { selector: { 'app.kubernetes.io/part-of': 'agent' } }, waves: [{ name: 'canary' }, { name: 'rest' }] }), /the selector \{"app.kubernetes.io\/part-of":"agent"\} of wave "rest" selects the pods of wave "canary"/],
    ['a wave that is no object', () => ({ waves: [null as unknown as AgentWave, { name: 'rest' }] }), /'waves\[0\]' must be an AgentWave \{ name, .* but got null/],
    ['config files that are no object', () => ({ waves: [{ name: 'canary', configData: 'x' as unknown as Record<string, string> }, { name: 'rest' }] }), /'waves\[0\]\.configData' must be a non-empty object of file names to contents but got "x"/],
    ['a bad config file name', () => ({ waves: [{ name: 'canary', configData: { 'bad/': 'x' } }, { name: 'rest' }] }), /'waves\[0\]\.configData' key must be a key of/],
    ['a bad env value', () => ({ waves: [{ name: 'canary', env: { A: 5 as unknown as kplus.EnvValue } }, { name: 'rest' }] }), /'waves\[0\]\.env\.A' must be an EnvValue/],
    ['a surge on a wave of a host-port agent', () => ({ hostNetwork: true, podSecurity: { level: PodSecurityLevel.PRIVILEGED, reason: 'host network' }, waves: [{ name: 'canary', updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxSurge: kplus.PercentOrAbsolute.absolute(1) }) }, { name: 'rest' }] }),
      /'waves\[0\]\.updateStrategy' must be a rolling update without surge/],
    ['labels that set app beside an adopted selector', () => ({ adopt: { selector: { 'k8s-app': 'agent' } }, labels: { app: 'x' }, waves: [{ name: 'canary' }, { name: 'rest' }] }),
      /'labels' must not set 'app' when the agent has waves: each earlier wave selects its pods by 'app: <name>-<wave>', but got "app: x"/],
    ['an unknown key', () => ({ waves: [{ name: 'canary', imag: 'x' } as AgentWave, { name: 'rest' }] }), /'waves\[0\]' key must be one of name, nodes, .* but got "imag"/],
  ])('%s', (_, extra, message) => {
    // GIVEN bad waves WHEN the agent is built THEN the error names the prop, the value and what is allowed
    expect(refusal(extra)).toMatch(message);
  });
});

describe('the reporter in waves', () => {
  test('each wave prints its own version and is labelled with it', () => {
    // GIVEN the reporter with the canary at v2 and the rest at v1
    const c = chart();
    new NodeReporterDaemonSet(c, 'Reporter', { policy: new NodePolicy(c, 'P'), version: 'v1', waves: [{ name: 'canary', version: 'v2' }, { name: 'rest' }] });

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN the canary prints and carries v2, the rest v1
    const summary = (name: string) => {
      const ds = only(sets, 'DaemonSet', name);
      return [ds.spec.template.spec.containers[0].command[2].match(/version=(\S+);/)[1], ds.metadata.labels['app.kubernetes.io/version'], ds.metadata.annotations['kubernetes.io/change-cause'], ds.metadata.labels[WAVE_LABEL]];
    };
    expect(summary('node-reporter-canary')).toEqual(['v2', 'v2', 'node-reporter v2', 'canary']);
    expect(summary('node-reporter')).toEqual(['v1', 'v1', 'node-reporter v1', 'rest']);
  });

  test('the reporter chart passes its waves to the reporter', () => {
    // GIVEN the seed's chart in waves
    const c = new NodeReporterChart(Testing.app(), 'node-reporter', { version: 'v1', waves: [{ name: 'canary', version: 'v2' }, { name: 'rest' }] });

    // WHEN it is synthesized
    const sets = daemonSets(synth(c));

    // THEN both waves are in its namespace, the canary at v2
    expect(sets.map((d) => [d.metadata.namespace, d.metadata.name, d.metadata.labels['app.kubernetes.io/version']])).toEqual([
      ['practice-daemon', 'node-reporter', 'v1'], ['practice-daemon', 'node-reporter-canary', 'v2'],
    ]);
  });

  test('a wave that is no object is refused naming it, not with a TypeError', () => {
    const c = chart();
    expect(() => new NodeReporterDaemonSet(c, 'Reporter', { policy: new NodePolicy(c, 'P'), version: 'v1', waves: [null as unknown as AgentWave, { name: 'rest' }] }))
      .toThrow(/'waves\[0\]' must be an AgentWave/);
  });

  test('a wave with its own image but no version prints and is labelled with the reporter\'s version', () => {
    // GIVEN a canary on another busybox
    const c = chart();
    new NodeReporterDaemonSet(c, 'Reporter', { policy: new NodePolicy(c, 'P'), version: 'v1', waves: [{ name: 'canary', image: 'busybox:1.37' }, { name: 'rest' }] });

    // WHEN it is synthesized THEN the canary runs that image, prints v1 and says v1
    const canary = only(synth(c), 'DaemonSet', 'node-reporter-canary');
    expect([canary.spec.template.spec.containers[0].image, canary.spec.template.spec.containers[0].command[2], canary.metadata.labels['app.kubernetes.io/version']])
      .toEqual(['busybox:1.37', expect.stringContaining('version=v1;'), 'v1']);
  });

  test('an agent wave\'s image without a tag leaves the wave without a version label rather than the agent\'s', () => {
    // GIVEN a canary on an image by digest
    const c = chart();
    const digest = `example.com/agent@sha256:${'a'.repeat(64)}`;
    new NodeAgent(c, 'Agent', agentProps(c, { waves: [{ name: 'canary', image: digest }, { name: 'rest' }] }));

    // WHEN it is synthesized THEN its DaemonSet has no version label, the rest the agent's
    const sets = daemonSets(synth(c));
    expect(only(sets, 'DaemonSet', 'agent-canary').metadata.labels['app.kubernetes.io/version']).toBeUndefined();
    expect(only(sets, 'DaemonSet', 'agent').metadata.labels['app.kubernetes.io/version']).toBe('1.0');
  });

  test('a wave version that is no reporter version token is refused before it reaches the script', () => {
    // GIVEN a wave version with a shell character
    const c = chart();
    // WHEN the reporter is built THEN it is refused, naming the prop
    expect(() => new NodeReporterDaemonSet(c, 'Reporter', { policy: new NodePolicy(c, 'P'), version: 'v1', waves: [{ name: 'canary', version: 'v2;rm' }, { name: 'rest' }] }))
      .toThrow(/'waves\[0\]\.version'/);
  });
});

describe(`waves partition the agent's nodes (seed ${SEED})`, () => {
  const policies: [string, (c: Chart) => NodePolicyProps][] = [
    ['any node', () => ({})],
    ['linux', () => ({ operatingSystem: 'linux' })],
    ['not tier b', () => ({ matchExpressions: [NodeRequirement.notIn('tier', 'b')] })],
    ['tier a or a gpu', () => ({ anyOf: [[NodeRequirement.in('tier', 'a')], [NodeRequirement.exists('gpu')]] })],
    ['tolerating dedicated', () => ({ tolerations: [NodeToleration.exists('dedicated')] })],
  ];
  const names = ['canary', 'early', 'late', 'rest'];
  const value = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
  const node = fc.record({
    wave: value([...names, 'unknown', '']),
    tier: value(['a', 'b']),
    gpu: value(['1']),
    os: value(['linux', 'windows']),
    tainted: fc.boolean(),
  });

  test('every node eligible for the agent\'s policy is eligible for exactly one wave, by eligibility\'s evaluation of the synthesized DaemonSets', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: policies.length - 1 }), fc.integer({ min: 1, max: names.length }), fc.array(node, { minLength: 1, maxLength: 30 }), (p, count, nodes) => {
      // GIVEN an agent of some policy in 1 to 4 waves
      const c = chart();
      const policy = new NodePolicy(c, 'Policy', policies[p][1](c));
      new NodeAgent(c, 'Agent', { policy, name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], waves: names.slice(names.length - count).map((name) => ({ name })) });
      const sets = daemonSets(synth(c));
      expect(sets.length).toBe(count);

      // WHEN random nodes are judged against the policy and each wave's DaemonSet
      for (const [i, n] of nodes.entries()) {
        const labels: Record<string, string> = {};
        if (n.wave !== undefined) labels[ROLLOUT_WAVE_NODE_LABEL] = n.wave;
        if (n.tier !== undefined) labels.tier = n.tier;
        if (n.gpu !== undefined) labels.gpu = n.gpu;
        if (n.os !== undefined) labels['kubernetes.io/os'] = n.os;
        const kubeNode: KubeNode = { metadata: { name: `node-${i}`, labels }, spec: n.tainted ? { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } : {} };
        const eligible = evaluateNode(kubeNode, schedulingOfPolicy(policy)).eligible;
        const waves = sets.filter((ds) => evaluateNode(kubeNode, schedulingOfWorkload(ds)).eligible);

        // THEN an eligible node is in exactly one wave, and another in none
        expect([labels, waves.length]).toEqual([labels, eligible ? 1 : 0]);
      }
    }), { numRuns: Math.max(10, Math.round(RUNS / 5)), seed: SEED });
  });
});

describe(`waves with nodes of their own are refused exactly when they can share a node (seed ${SEED})`, () => {
  const requirements = [
    NodeRequirement.in('zone', 'a', 'b'), NodeRequirement.notIn('zone', 'a'), NodeRequirement.exists('gpu'), NodeRequirement.doesNotExist('gpu'),
    NodeRequirement.gt('cpu', 4), NodeRequirement.lt('cpu', 8),
  ];
  const selection = fc.record({
    zone: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
    expressions: fc.subarray(requirements, { maxLength: 2 }),
  });
  const node = fc.record({ zone: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }), gpu: fc.boolean(), cpu: fc.option(fc.constantFrom('2', '6', '10', 'x'), { nil: undefined }) });

  test('accepted waves share no node by eligibility\'s evaluation; a refusal\'s witness node is in both waves', () => {
    fc.assert(fc.property(fc.array(selection, { minLength: 2, maxLength: 3 }), fc.array(node, { minLength: 1, maxLength: 20 }), (selections, nodes) => {
      // GIVEN waves, each selecting with a NodePolicy of its own
      const c = chart();
      const policy = new NodePolicy(c, 'Policy', { operatingSystem: 'linux' });
      const policies = selections.map((s, i) => new NodePolicy(c, `Wave-${i}`, { matchLabels: s.zone !== undefined ? { zone: s.zone } : undefined, matchExpressions: s.expressions }));
      const waves = policies.map((nodes, i) => ({ name: `w${i}`, nodes }));

      // WHEN the agent is built
      let refusal: string | undefined;
      try {
        new NodeAgent(c, 'Agent', { policy, name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], waves });
      } catch (e) {
        refusal = (e as Error).message;
      }

      if (refusal === undefined) {
        // THEN no node is eligible for two of its DaemonSets
        const sets = daemonSets(synth(c));
        for (const n of nodes) {
          const labels: Record<string, string> = { 'kubernetes.io/os': 'linux', ...(n.zone !== undefined ? { zone: n.zone } : {}), ...(n.gpu ? { gpu: '' } : {}), ...(n.cpu !== undefined ? { cpu: n.cpu } : {}) };
          const kubeNode: KubeNode = { metadata: { name: 'n', labels } };
          expect([labels, sets.filter((ds) => evaluateNode(kubeNode, schedulingOfWorkload(ds)).eligible).length <= 1]).toEqual([labels, true]);
        }
      } else {
        // THEN the refusal names a node that both waves (and the agent's policy) accept, or a wave that matches none
        const shared = /a node labelled (\{.*?\}) is in both "w(\d)" and "w(\d)"/.exec(refusal);
        if (shared) {
          const labels = JSON.parse(shared[1]) as Record<string, string>;
          expect([refusal, policy.matches(labels) && policies[Number(shared[2])].matches(labels) && policies[Number(shared[3])].matches(labels)]).toEqual([refusal, true]);
        } else {
          expect(refusal).toMatch(/'waves\[\d\]\.nodes' must be a selection that matches some node of the agent's policy/);
        }
      }
    }), { numRuns: Math.max(10, Math.round(RUNS / 5)), seed: SEED });
  });
});
