/**
 * The checks judge by a Kubernetes version: its schema, the APIs it serves,
 * its validation with each feature gate at its default, and the Pod Security
 * controls of each namespace's policy version. Every expectation at 1.32 and
 * 1.35 is what a real v1.32.13 and v1.35.6 API server answered to the same
 * manifest (`kubectl apply --dry-run=server --validate=strict`, with Pod
 * Security admission), quoted beside it; 1.28 is what the checks said before
 * they took a version, unchanged.
 */
import { checkInputs, checkObjects, CheckOptions, isBlocking, KubeObject } from '../../lib/checks';
import { FEATURE_GATES, featureEnabled, FeatureGate, KUBERNETES_VERSIONS, parseKubernetesVersion } from '../../lib/checks/versions';
import { cleanDaemonSet, podOf } from './baseline';

type Change = (ds: KubeObject, pod: KubeObject, container: KubeObject) => void;

/** The clean DaemonSet, changed. */
function daemonSet(change: Change = () => undefined): KubeObject {
  const ds = cleanDaemonSet();
  change(ds, podOf(ds), podOf(ds).containers[0]);
  return ds;
}

/** A Namespace named as the clean DaemonSet's, with Pod Security labels. */
function namespace(level: string, version: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring', labels: { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': version } } };
}

/** The ids of the blocking findings for some objects at a version, sorted and unique. */
function refusals(objects: KubeObject[], kubernetesVersion: string, options: CheckOptions = {}): string[] {
  return [...new Set(checkObjects(objects, [], { kubernetesVersion, ...options }).filter(isBlocking).map((f) => f.rule.id))].sort();
}

/** The ids of the warnings (not blocking). */
function warnings(objects: KubeObject[], kubernetesVersion: string): string[] {
  return [...new Set(checkObjects(objects, [], { kubernetesVersion }).filter((f) => !isBlocking(f)).map((f) => f.rule.id))].sort();
}

/** The refusals at 1.28, 1.32 and 1.35. */
const at3 = (objects: KubeObject[], options: CheckOptions = {}) => ['1.28', '1.32', '1.35'].map((v) => refusals(objects, v, options));

const api = (apiVersion: string, kind: string, spec: KubeObject = {}): KubeObject => ({ apiVersion, kind, metadata: { name: 'x' }, ...spec });

describe('the version judged by: fields added after 1.28', () => {
  test('securityContext.appArmorProfile is unknown at 1.28 and accepted from 1.30 (v1.32, v1.35: "pod/aa created")', () => {
    const field = daemonSet((_, __, c) => { c.securityContext.appArmorProfile = { type: 'RuntimeDefault' }; });
    expect(at3([field])).toEqual([['schema'], [], []]);
  });

  test('an appArmorProfile of type Localhost needs its localhostProfile (validateAppArmorProfileField)', () => {
    const local = daemonSet((_, __, c) => { c.securityContext.appArmorProfile = { type: 'Localhost' }; });
    expect(refusals([local], '1.35')).toEqual(['api-security-context']);
  });

  test('an Unconfined appArmorProfile breaks baseline at every policy version (v1.32 and v1.35 at "baseline:v1.28": forbidden AppArmor profile)', () => {
    const unconfined = daemonSet((_, __, c) => { c.securityContext.appArmorProfile = { type: 'Unconfined' }; });
    expect(refusals([namespace('baseline', 'v1.28'), unconfined], '1.32')).toEqual(['pss-apparmor']);
    expect(refusals([namespace('baseline', 'latest'), unconfined], '1.35')).toEqual(['pss-apparmor']);
  });

  test('the AppArmor annotation is accepted with a warning from 1.30 ("deprecated since v1.30; use the "appArmorProfile" field instead")', () => {
    const annotated = daemonSet((ds) => { ds.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/main': 'runtime/default' }; });
    expect(warnings([annotated], '1.28')).toEqual([]);
    expect(warnings([annotated], '1.32')).toEqual(['deprecated-field']);
    expect(warnings([annotated], '1.35')).toEqual(['deprecated-field']);
    expect(at3([annotated])).toEqual([[], [], []]);
  });

  test('a preStop sleep is unknown at 1.28, accepted from 1.30; sleep 0 only from 1.33 (v1.32: "must be greater than 0"; v1.35: created)', () => {
    const sleep = (seconds: number) => daemonSet((_, __, c) => { c.lifecycle = { preStop: { sleep: { seconds } } }; });
    expect(at3([sleep(5)])).toEqual([['api-probes', 'schema'], [], []]);
    expect(at3([sleep(0)])).toEqual([['api-probes', 'schema'], ['api-probes'], []]);
    expect(refusals([sleep(31)], '1.35')).toEqual(['api-probes']);
  });

  test('recursiveReadOnly is unknown at 1.28; from 1.31 it needs readOnly (v1.32, v1.35: "may only be specified when readOnly is true")', () => {
    const mount = (readOnly: boolean, recursiveReadOnly: string) => daemonSet((_, p, c) => {
      p.volumes = [{ name: 'v', emptyDir: {} }];
      c.volumeMounts = [{ name: 'v', mountPath: '/v', readOnly, recursiveReadOnly }];
    });
    expect(at3([mount(true, 'Enabled')])).toEqual([['schema'], [], []]);
    expect(at3([mount(false, 'Enabled')])).toEqual([['schema'], ['api-volumes'], ['api-volumes']]);
    expect(refusals([mount(true, 'Bogus')], '1.35')).toEqual(['api-volumes']);
  });

  test('a relaxed environment variable name is refused until 1.32 (v1.32 and v1.35: created); "=" never is allowed', () => {
    const env = (name: string) => daemonSet((_, __, c) => { c.env = [{ name, value: 'x' }]; });
    expect(at3([env('1my var!')])).toEqual([['api-env'], [], []]);
    expect(at3([env('a=b')])).toEqual([['api-env'], ['api-env'], ['api-env']]);
    expect(refusals([env('1my var!')], '1.31')).toEqual(['api-env']);
  });

  test('Service trafficDistribution: unknown at 1.28, PreferClose from 1.31, PreferSameZone from 1.34 (v1.32: supported values: "PreferClose")', () => {
    const service = (trafficDistribution: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'monitoring' }, spec: { selector: { app: 'agent' }, ports: [{ port: 80 }], trafficDistribution } });
    expect(at3([service('PreferClose')])).toEqual([['schema'], [], []]);
    expect(at3([service('PreferSameZone')])).toEqual([['schema'], ['api-service'], []]);
    expect(at3([service('Bogus')])).toEqual([['schema'], ['api-service'], ['api-service']]);
  });

  test('trafficDistribution PreferClose is deprecated once PreferSameZone exists (v1.35: ""PreferClose" is deprecated; use "PreferSameZone"")', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'monitoring' }, spec: { selector: { app: 'agent' }, ports: [{ port: 80 }], trafficDistribution: 'PreferClose' } };
    expect(warnings([service], '1.32')).toEqual([]);
    expect(warnings([service], '1.35')).toEqual(['deprecated-field']);
  });

  const job = (spec: KubeObject): KubeObject => ({
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'monitoring' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } }, ...spec },
  });

  test('Job podReplacementPolicy is dropped at 1.28 (its gate is alpha) and validated from 1.29 (v1.32: supported values: "Failed", "TerminatingOrFailed")', () => {
    expect(at3([job({ podReplacementPolicy: 'Failed' })], { podSecurity: 'privileged' })).toEqual([[], [], []]);
    expect(warnings([job({ podReplacementPolicy: 'Failed' })], '1.28')).toContain('dropped-field');
    expect(at3([job({ podReplacementPolicy: 'Bogus' })], { podSecurity: 'privileged' })).toEqual([[], ['api-job'], ['api-job']]);
  });

  test('Job successPolicy is unknown at 1.28 and needs an Indexed Job from 1.31 (v1.32: created)', () => {
    const indexed = job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    expect(at3([indexed], { podSecurity: 'privileged' })).toEqual([['schema'], [], []]);
    const nonIndexed = job({ successPolicy: { rules: [{ succeededCount: 1 }] } });
    expect(refusals([nonIndexed], '1.32', { podSecurity: 'privileged' })).toEqual(['api-job']);
  });
});

describe('the version judged by: validation that changed after 1.28', () => {
  test('procMount is dropped until 1.33 and validated from it (v1.32: created; v1.35: supported values: "Default", "Unmasked")', () => {
    const procMount = (value: string, hostUsers?: boolean) => daemonSet((_, p, c) => {
      c.securityContext.procMount = value;
      if (hostUsers !== undefined) p.hostUsers = hostUsers;
    });
    expect(at3([procMount('Bogus')], { podSecurity: 'privileged' })).toEqual([[], [], ['api-security-context']]);
    expect(warnings([procMount('Bogus')], '1.32')).toContain('dropped-field');
    // v1.35: "`hostUsers` must be false to use `Unmasked`"; with hostUsers false PSA refuses it even at v1.28 ("procMount").
    expect(at3([procMount('Unmasked')], { podSecurity: 'privileged' })).toEqual([[], [], ['api-security-context']]);
    expect(refusals([namespace('baseline', 'v1.28'), procMount('Unmasked', false)], '1.35')).toEqual(['pss-proc-mount']);
    // Policy v1.35 relaxes baseline for a pod in a user namespace, not restricted (v1.35: "baseline:latest" created, "restricted:latest" procMount).
    expect(refusals([namespace('baseline', 'latest'), procMount('Unmasked', false)], '1.35')).toEqual([]);
    expect(refusals([namespace('restricted', 'latest'), procMount('Unmasked', false)], '1.35')).toEqual(['pss-proc-mount']);
  });

  test('resizePolicy is dropped until 1.33 and validated from it (v1.35: supported values: "cpu", "memory")', () => {
    const resize = daemonSet((_, __, c) => { c.resizePolicy = [{ resourceName: 'foo', restartPolicy: 'Sometimes' }]; });
    expect(at3([resize])).toEqual([[], [], ['api-resources']]);
  });

  test('restartPolicy on an app container is refused until 1.35 (v1.32: "may not be set for non-init containers"; v1.35: created)', () => {
    const restart = (restartPolicy: string) => daemonSet((_, __, c) => { c.restartPolicy = restartPolicy; });
    expect(at3([restart('Always')])).toEqual([['api-container'], ['api-container'], []]);
    expect(at3([restart('Sometimes')])).toEqual([['api-container'], ['api-container'], ['api-container']]);
  });

  test('a StatefulSet\'s pod template is validated from 1.34 (v1.32: created; v1.35: imagePullPolicy: Unsupported value)', () => {
    const statefulSet = (change: (c: KubeObject) => void) => {
      const ds = daemonSet((_, __, c) => change(c));
      return { ...ds, kind: 'StatefulSet', spec: { ...ds.spec, serviceName: 'x' } };
    };
    const pullPolicy = statefulSet((c) => { c.imagePullPolicy = 'Sometimes'; });
    expect(at3([pullPolicy])).toEqual([[], [], ['api-container']]);
    expect(warnings([pullPolicy], '1.32')).toContain('statefulset-template');
    const mount = statefulSet((c) => { c.volumeMounts = [{ name: 'nope', mountPath: '/x' }]; });
    expect(at3([mount])).toEqual([[], [], ['api-volumes']]);
    expect(refusals([mount], '1.33')).toEqual([]);
  });
});

describe('the version judged by: Pod Security of each namespace\'s enforce-version', () => {
  const sysctl = (name: string) => daemonSet((_, p) => { p.securityContext.sysctls = [{ name, value: '1' }]; });

  test('baseline at latest allows the sysctls added in v1.29 and v1.32; a namespace pinned to v1.28 does not (v1.32 and v1.35: "forbidden sysctls" only at v1.28)', () => {
    expect(at3([namespace('baseline', 'latest'), sysctl('net.ipv4.tcp_keepalive_time')])).toEqual([['pss-sysctls'], [], []]);
    expect(at3([namespace('baseline', 'latest'), sysctl('net.ipv4.tcp_rmem')])).toEqual([['pss-sysctls'], [], []]);
    expect(refusals([namespace('baseline', 'latest'), sysctl('net.ipv4.tcp_rmem')], '1.31')).toEqual(['pss-sysctls']);
    expect(at3([namespace('baseline', 'v1.28'), sysctl('net.ipv4.tcp_keepalive_time')])).toEqual([['pss-sysctls'], ['pss-sysctls'], ['pss-sysctls']]);
    expect(refusals([namespace('baseline', 'v1.29'), sysctl('net.ipv4.tcp_keepalive_time')], '1.35')).toEqual([]);
    expect(at3([namespace('baseline', 'latest'), sysctl('kernel.msgmax')])).toEqual([['pss-sysctls'], ['pss-sysctls'], ['pss-sysctls']]);
  });

  test('a probe host breaks baseline from policy v1.34 (v1.35 at latest: "probe or lifecycle host"; at v1.28: created)', () => {
    const probe = daemonSet((_, __, c) => { c.readinessProbe = { httpGet: { port: 80, host: '10.0.0.1' } }; });
    expect(at3([namespace('baseline', 'latest'), probe])).toEqual([[], [], ['pss-probe-host']]);
    expect(refusals([namespace('baseline', 'v1.28'), probe], '1.35')).toEqual([]);
  });

  test('namespaces the input does not hold are judged at the version judged by', () => {
    const keepalive = sysctl('net.ipv4.tcp_keepalive_time');
    expect(at3([keepalive], { podSecurity: 'baseline' })).toEqual([['pss-sysctls'], [], []]);
  });
});

describe('the version judged by: the APIs it serves', () => {
  const flowSchema = (version: string) => api(`flowcontrol.apiserver.k8s.io/${version}`, 'FlowSchema', {
    spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 9000, rules: [{ subjects: [{ kind: 'User', user: { name: 'x' } }], resourceRules: [{ verbs: ['get'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }] },
  });

  test('FlowSchema v1beta3 is deprecated, naming the release that removes it, until 1.32 removes it (v1.32: no matches for kind)', () => {
    expect(at3([flowSchema('v1beta3')])).toEqual([[], ['removed-api'], ['removed-api']]);
    expect(warnings([flowSchema('v1beta3')], '1.31')).toEqual(['deprecated-api']);
    const [deprecated] = checkObjects([flowSchema('v1beta3')], [], { kubernetesVersion: '1.31' });
    expect(deprecated.message).toBe('FlowSchema flowcontrol.apiserver.k8s.io/v1beta3 is deprecated and removed in Kubernetes 1.32; use flowcontrol.apiserver.k8s.io/v1');
    const [removed] = checkObjects([flowSchema('v1beta3')], [], { kubernetesVersion: '1.32' });
    expect(removed.message).toBe('FlowSchema flowcontrol.apiserver.k8s.io/v1beta3 was removed in Kubernetes 1.32; use flowcontrol.apiserver.k8s.io/v1');
    expect(at3([flowSchema('v1beta2')])).toEqual([[], ['removed-api'], ['removed-api']]);
  });

  test('FlowSchema v1 is served from 1.29 (v1.32: created)', () => {
    expect(at3([flowSchema('v1')])).toEqual([['unknown-kind'], [], []]);
    const [unknown] = checkObjects([flowSchema('v1')], [], { kubernetesVersion: '1.28' });
    expect(unknown.message).toBe('no Kubernetes 1.28 API for apiVersion "flowcontrol.apiserver.k8s.io/v1" kind "FlowSchema": Kubernetes serves it from 1.29 on');
  });

  test('ValidatingAdmissionPolicy v1 from 1.30; its beta is not served by default (v1.32: v1 created, v1beta1 no matches for kind)', () => {
    const policy = (version: string) => api(`admissionregistration.k8s.io/${version}`, 'ValidatingAdmissionPolicy', {
      spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas <= 5' }] },
    });
    expect(at3([policy('v1')])).toEqual([['unknown-kind'], [], []]);
    expect(at3([policy('v1beta1')]).slice(1)).toEqual([['unknown-kind'], ['unknown-kind']]);
  });

  test('resource.k8s.io/v1, storage.k8s.io/v1 VolumeAttributesClass and networking.k8s.io/v1 ServiceCIDR from 1.34, 1.34 and 1.33 (v1.32: no matches; v1.35: created)', () => {
    const deviceClass = api('resource.k8s.io/v1', 'DeviceClass', { spec: { selectors: [{ cel: { expression: 'true' } }] } });
    const attributes = api('storage.k8s.io/v1', 'VolumeAttributesClass', { driverName: 'csi.example.com', parameters: { a: 'b' } });
    const cidr = api('networking.k8s.io/v1', 'ServiceCIDR', { spec: { cidrs: ['10.200.0.0/16'] } });
    for (const o of [deviceClass, attributes, cidr]) expect(at3([o])).toEqual([['unknown-kind'], ['unknown-kind'], []]);
    expect(refusals([deviceClass], '1.33')).toEqual(['unknown-kind']);
    expect(refusals([cidr], '1.33')).toEqual([]);
    expect(refusals([api('resource.k8s.io/v1beta1', 'DeviceClass', { spec: {} })], '1.35')).toEqual(['unknown-kind']);
  });

  test('v1 Endpoints is deprecated from 1.33, as the server warns', () => {
    const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e', namespace: 'monitoring' }, subsets: [] };
    expect(warnings([endpoints], '1.32')).toEqual([]);
    expect(checkObjects([endpoints], [], { kubernetesVersion: '1.35' }).map((f) => f.message)).toEqual(['v1 Endpoints is deprecated since Kubernetes 1.33; use discovery.k8s.io/v1 EndpointSlice']);
  });
});

describe('which version is judged by, and saying so', () => {
  const written = (version: string) => daemonSet((ds) => { ds.metadata.annotations = { 'node-reporter.dev/kubernetes-version': version }; });

  test('an unsupported version throws, naming it and the supported ones', () => {
    for (const v of ['1.29', '1.30', '1.99', 'v1; rm -rf /']) {
      expect(() => checkObjects([daemonSet()], [], { kubernetesVersion: v })).toThrow(`Kubernetes version ${JSON.stringify(v)} is `);
    }
    expect(() => checkInputs([{ file: 'x.yaml', text: '' }], { kubernetesVersion: '1.30' })).toThrow('"1.30" is not supported (no OpenAPI definitions ship for it); supported: 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36');
  });

  test('without a choice, the input\'s annotation names the version; else the default, and the report says which', () => {
    const text = (o: KubeObject) => [{ file: 'x.yaml', text: JSON.stringify(o) }];
    expect(checkInputs(text(daemonSet())).kubernetesVersion).toEqual({ version: '1.28', source: 'default' });
    expect(checkInputs(text(written('1.35'))).kubernetesVersion).toEqual({ version: '1.35', source: 'annotation' });
    expect(checkInputs(text(written('1.35')), { kubernetesVersion: 'v1.32.13' }).kubernetesVersion).toEqual({ version: '1.32', source: 'option' });
  });

  test('the annotation picks the rules: an appArmorProfile written for 1.35 passes without a choice', () => {
    const field = written('1.35');
    podOf(field).containers[0].securityContext.appArmorProfile = { type: 'RuntimeDefault' };
    expect(refusals([field], '1.35')).toEqual([]);
    expect(checkObjects([field]).filter(isBlocking)).toEqual([]);
  });

  test('a choice the annotation contradicts is a warning, and so are objects written for several versions', () => {
    const contradicted = checkObjects([written('1.35')], [], { kubernetesVersion: '1.32' }).filter((f) => f.rule.id === 'kubernetes-version');
    expect(contradicted.map((f) => [f.path, f.severity, f.message])).toEqual([[
      'metadata.annotations["node-reporter.dev/kubernetes-version"]', 'warning', 'this object was written for Kubernetes 1.35, but the checks judge by 1.32 as chosen',
    ]]);
    const mixed = checkInputs([{ file: 'x.yaml', text: [written('1.35'), written('1.32')].map((o) => JSON.stringify(o)).join('\n') }]);
    expect(mixed.kubernetesVersion).toEqual({ version: '1.28', source: 'default' });
    expect(mixed.findings.filter((f) => f.rule.id === 'kubernetes-version')).toHaveLength(2);
    expect(checkObjects([written('1.29')]).filter((f) => f.rule.id === 'kubernetes-version').map((f) => f.message)).toEqual([
      'names Kubernetes version "1.29" is not supported (no OpenAPI definitions ship for it); supported: 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36: it is not judged by it',
    ]);
  });
});

describe('the version data', () => {
  test('every feature gate turns on in a release of the range the checks know, and parses as one, or is off in all', () => {
    for (const [gate, since] of Object.entries(FEATURE_GATES)) {
      // `off`: alpha (or an off beta) in every supported version, as ContainerStopSignals
      if (since === 'off') {
        expect(KUBERNETES_VERSIONS.filter((v) => featureEnabled(v, gate as FeatureGate))).toEqual([]);
        continue;
      }
      expect([gate, Number(since.split('.')[1])]).toEqual([gate, expect.any(Number)]);
      expect(Number(since.split('.')[1])).toBeGreaterThanOrEqual(29);
      expect(Number(since.split('.')[1])).toBeLessThanOrEqual(36);
    }
    expect(KUBERNETES_VERSIONS.map((v) => parseKubernetesVersion(`v${v}.0`))).toEqual(KUBERNETES_VERSIONS.map((version) => ({ version })));
  });
});
