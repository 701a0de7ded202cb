import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_RULES, checkFiles, checkObject, checkObjects, checkYaml, Finding, formatReport, isBlocking, KubeObject, Severity, WAIVER_PREFIX } from '../../lib/checks';
import { cleanDaemonSet, podOf } from './baseline';

/** The findings of an object, as `rule path` lines, for exact comparison. */
function found(obj: KubeObject): string[] {
  return checkObject(obj).map((f) => `${f.rule.id} ${f.path}`);
}

function broken(change: (ds: KubeObject, pod: KubeObject, container: KubeObject) => void): KubeObject {
  const ds = cleanDaemonSet();
  change(ds, podOf(ds), podOf(ds).containers[0]);
  return ds;
}

const C = 'spec.template.spec.containers[0]';

describe('manifest checks: the baseline', () => {
  test('a restricted, well-formed DaemonSet has no finding', () => {
    expect(checkObject(cleanDaemonSet())).toEqual([]);
  });

  test("the project's own dist/ passes with no findings", () => {
    const dist = path.join(__dirname, '..', '..', 'dist');
    const files = fs.readdirSync(dist).filter((f) => f.endsWith('.k8s.yaml')).map((f) => path.join(dist, f));
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(checkFiles(files)).toEqual([]);
  });
});

describe('manifest checks: each rule, broken alone', () => {
  test.each<[string, (ds: KubeObject, pod: KubeObject, c: KubeObject) => void, string[]]>([
    // schema, strict
    ['a misspelt field', (_, pod) => { pod.nodeSelektor = { tier: 'a' }; }, ['schema spec.template.spec.nodeSelektor']],
    ['an unknown field deep in a container', (_, __, c) => { c.securityContext.runAsRoot = false; }, [`schema ${C}.securityContext.runAsRoot`]],
    ['a quantity like 32MB', (_, __, c) => { c.resources.limits.memory = '32MB'; }, [`schema ${C}.resources.limits.memory`]],
    ['a string where an integer belongs', (ds) => { ds.spec.minReadySeconds = '5'; }, ['schema spec.minReadySeconds']],
    ['a missing required field', (_, __, c) => { delete c.name; }, [`schema ${C}.name`]],
    ['an enum value that does not exist', (_, __, c) => { c.imagePullPolicy = 'Sometimes'; }, [`api-container ${C}.imagePullPolicy`]],
    // Pod Security restricted
    ['hostNetwork', (_, pod) => { pod.hostNetwork = true; pod.dnsPolicy = 'ClusterFirstWithHostNet'; }, ['pss-host-namespaces spec.template.spec.hostNetwork']],
    ['hostNetwork with the default dnsPolicy', (_, pod) => { pod.hostNetwork = true; }, ['pss-host-namespaces spec.template.spec.hostNetwork', 'hostnetwork-dns spec.template.spec.dnsPolicy']],
    ['hostPID and hostIPC', (_, pod) => { pod.hostPID = true; pod.hostIPC = true; }, ['pss-host-namespaces spec.template.spec.hostPID', 'pss-host-namespaces spec.template.spec.hostIPC']],
    // validateWindowsHostProcessPod: host process containers need the host network.
    ['a Windows host process', (_, pod) => { pod.securityContext.windowsOptions = { hostProcess: true }; }, ['pss-host-process spec.template.spec.securityContext.windowsOptions.hostProcess', 'api-security-context spec.template.spec.hostNetwork']],
    // privileged with allowPrivilegeEscalation: false is also refused by the API server's ValidateSecurityContext.
    ['a privileged container', (_, __, c) => { c.securityContext.privileged = true; }, [`pss-privileged ${C}.securityContext.privileged`, `api-security-context ${C}.securityContext`]],
    ['an added capability', (_, __, c) => { c.securityContext.capabilities.add = ['NET_ADMIN', 'NET_BIND_SERVICE']; }, [`pss-capabilities ${C}.securityContext.capabilities.add`]],
    ['CAP_SYS_ADMIN without privilege escalation', (_, __, c) => { c.securityContext.capabilities.add = ['CAP_SYS_ADMIN']; }, [`pss-capabilities ${C}.securityContext.capabilities.add`, `api-security-context ${C}.securityContext`]],
    // ValidateSecurityContext compares the literal "CAP_SYS_ADMIN": SYS_ADMIN passes the API server (not Pod Security).
    ['SYS_ADMIN without privilege escalation', (_, __, c) => { c.securityContext.capabilities.add = ['SYS_ADMIN']; }, [`pss-capabilities ${C}.securityContext.capabilities.add`]],
    ['capabilities not dropped', (_, __, c) => { delete c.securityContext.capabilities; }, [`pss-capabilities ${C}.securityContext.capabilities.drop`]],
    ['a hostPath volume', (_, pod) => { pod.volumes = [{ name: 'logs', hostPath: { path: '/var/log' } }]; }, ['pss-volume-types spec.template.spec.volumes[0].hostPath']],
    ['a host port', (_, __, c) => { c.ports = [{ containerPort: 9100, hostPort: 9100 }]; }, [`pss-host-ports ${C}.ports[0].hostPort`]],
    ['an unconfined AppArmor profile', (ds) => { ds.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/main': 'unconfined' }; }, ['pss-apparmor spec.template.metadata.annotations["container.apparmor.security.beta.kubernetes.io/main"]']],
    ['an SELinux type', (_, __, c) => { c.securityContext.seLinuxOptions = { type: 'spc_t' }; }, [`pss-selinux ${C}.securityContext.seLinuxOptions.type`]],
    ['an SELinux user on the pod', (_, pod) => { pod.securityContext.seLinuxOptions = { user: 'system_u' }; }, ['pss-selinux spec.template.spec.securityContext.seLinuxOptions.user']],
    // ProcMountType is alpha in 1.28: the server drops the field before validation and Pod Security see it.
    ['an unmasked /proc, which the server drops', (_, __, c) => { c.securityContext.procMount = 'Unmasked'; }, [`dropped-field ${C}.securityContext.procMount`]],
    ['an unsafe sysctl', (_, pod) => { pod.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '65536' }]; }, ['pss-sysctls spec.template.spec.securityContext.sysctls[0].name']],
    ['runAsNonRoot false on a container', (_, __, c) => { c.securityContext.runAsNonRoot = false; }, [`pss-run-as-non-root ${C}.securityContext.runAsNonRoot`]],
    ['no runAsNonRoot anywhere', (_, pod) => { delete pod.securityContext.runAsNonRoot; }, [`pss-run-as-non-root ${C}.securityContext.runAsNonRoot`]],
    ['uid 0 on a container', (_, __, c) => { c.securityContext.runAsUser = 0; }, [`pss-run-as-user ${C}.securityContext.runAsUser`]],
    ['an unconfined seccomp profile', (_, __, c) => { c.securityContext.seccompProfile = { type: 'Unconfined' }; }, [`pss-seccomp ${C}.securityContext.seccompProfile.type`]],
    ['no seccomp profile anywhere', (_, pod) => { delete pod.securityContext.seccompProfile; }, [`pss-seccomp ${C}.securityContext.seccompProfile.type`]],
    ['privilege escalation left unset', (_, __, c) => { delete c.securityContext.allowPrivilegeEscalation; }, [`pss-privilege-escalation ${C}.securityContext.allowPrivilegeEscalation`]],
    ['a privileged init container', (_, pod, c) => { pod.initContainers = [{ ...structuredClone(c), name: 'init', securityContext: { ...c.securityContext, privileged: true } }]; }, ['pss-privileged spec.template.spec.initContainers[0].securityContext.privileged', 'api-security-context spec.template.spec.initContainers[0].securityContext']],
    // ValidatePodTemplateSpec: a template holds no ephemeral containers (Pod Security judges them too).
    ['an ephemeral container that keeps its capabilities', (_, pod, c) => { pod.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36', securityContext: { allowPrivilegeEscalation: false } }]; void c; }, ['pss-capabilities spec.template.spec.ephemeralContainers[0].securityContext.capabilities.drop', 'api-container spec.template.spec.ephemeralContainers']],
    // workload
    ['a selector that does not select the pods', (ds) => { ds.spec.selector.matchLabels = { app: 'other' }; }, ['selector-matches-template spec.selector']],
    ['an empty selector', (ds) => { ds.spec.selector = {}; }, ['selector-matches-template spec.selector']],
    ['a NotIn expression that excludes the pods', (ds) => { ds.spec.selector.matchExpressions = [{ key: 'app', operator: 'NotIn', values: ['agent'] }]; }, ['selector-matches-template spec.selector']],
    ['a Gt expression, which label selectors do not have', (ds) => { ds.spec.selector.matchExpressions = [{ key: 'app', operator: 'Gt', values: ['1'] }]; }, ['selector-matches-template spec.selector', 'api-label-selector spec.selector.matchExpressions[0].operator']],
    ['runAsNonRoot without a uid', (_, pod) => { delete pod.securityContext.runAsUser; }, [`run-as-non-root-without-uid ${C}.securityContext.runAsUser`]],
    ['no resources', (_, __, c) => { delete c.resources; }, [`resources ${C}.resources`]],
    ['no memory limit', (_, __, c) => { delete c.resources.limits; }, [`resources ${C}.resources`]],
    ['an image without a tag', (_, __, c) => { c.image = 'busybox'; }, [`image-tag ${C}.image`]],
    ['an image tagged latest', (_, __, c) => { c.image = 'registry.example.com:5000/busybox:latest'; }, [`image-tag ${C}.image`]],
    // metadata
    ['a name with capitals', (ds) => { ds.metadata.name = 'Agent'; }, ['api-object-meta metadata.name']],
    ['a namespace with a dot', (ds) => { ds.metadata.namespace = 'team.a'; }, ['metadata-syntax metadata.namespace']],
    ['a pod label value with a space', (ds) => { ds.spec.template.metadata.labels.team = 'a b'; }, ['metadata-syntax spec.template.metadata.labels.team']],
    ['an annotation key with two slashes', (ds) => { ds.metadata.annotations = { 'a/b/c': 'x' }; }, ['metadata-syntax metadata.annotations["a/b/c"]']],
  ])('finds %s, and nothing else', (_, change, expected) => {
    expect(found(broken(change))).toEqual(expected);
  });

  test('suggests the field a misspelt one was meant to be', () => {
    const [finding] = checkObject(broken((_, pod) => { pod.nodeSelektor = { tier: 'a' }; }));
    expect(finding.message).toBe('unknown field "nodeSelektor"; did you mean "nodeSelector"?');
  });

  test('a selector with In and Exists expressions that select the pods is fine', () => {
    expect(found(broken((ds) => { ds.spec.selector.matchExpressions = [{ key: 'app', operator: 'In', values: ['agent', 'x'] }, { key: 'app', operator: 'Exists' }]; }))).toEqual([]);
  });

  test('a digest-pinned image without a tag is fine', () => {
    expect(found(broken((_, __, c) => { c.image = `busybox@sha256:${'a'.repeat(64)}`; }))).toEqual([]);
  });

  test('windows pods are exempt from the seccomp, capabilities and privilege escalation controls', () => {
    expect(found(broken((_, pod, c) => { pod.os = { name: 'windows' }; pod.securityContext = { runAsNonRoot: true }; delete c.securityContext; }))).toEqual([]);
  });

  test('windows pods may not set Linux-only fields (the API server refuses them)', () => {
    expect(found(broken((_, pod) => { pod.os = { name: 'windows' }; pod.securityContext = { runAsNonRoot: true, runAsUser: 1000 }; }))).toEqual([
      'api-security-context spec.template.spec.securityContext.runAsUser',
      'api-security-context spec.template.spec.containers[0].securityContext.capabilities',
      'api-security-context spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem',
      'api-security-context spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation',
    ]);
  });

  test('a cluster-scoped object with a namespace', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring', namespace: 'default' } };
    expect(found(ns)).toEqual(['cluster-scoped-namespace metadata.namespace']);
  });

  test.each([
    ['apps/v1', 'Deploymint'],
    ['apps/v2', 'Deployment'],
    ['monitoring/v1', 'ServiceMonitor'],
    ['v1', 'namespace'],
    ['../../etc/v1', 'Passwd'],
  ])('an unknown apiVersion/kind %s %s', (apiVersion, kind) => {
    expect(found({ apiVersion, kind, metadata: { name: 'x' } })).toEqual(['unknown-kind apiVersion']);
  });

  test('duplicate keys in YAML warn: kubectl keeps the last one (go-yaml v2), and the checks judge that one', () => {
    // WHEN
    const findings = checkYaml('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: A\n  name: b\n', 'ns.yaml');

    // THEN the second name is the one judged (valid), and the repeat is a warning on its line
    expect(findings.map((f) => `${f.rule.id} ${f.severity} ${f.line}`)).toEqual(['yaml-duplicate-key warning 5']);
    expect(findings[0].message).toBe('the key "name" appears again in the same mapping: kubectl keeps this last one and drops the others');
  });
});

describe('manifest checks: every kind of pod template', () => {
  const privilegedPod = () => {
    const spec = structuredClone(podOf(cleanDaemonSet()));
    spec.containers[0].securityContext.privileged = true;
    // The API server refuses privileged with allowPrivilegeEscalation: false.
    delete spec.containers[0].securityContext.allowPrivilegeEscalation;
    return spec;
  };
  const template = () => ({ metadata: { labels: { app: 'agent' } }, spec: privilegedPod() });
  test.each<[string, KubeObject, string]>([
    ['Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: privilegedPod() }, 'spec.containers[0]'],
    ['Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template() } }, C],
    ['StatefulSet', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { serviceName: 's', selector: { matchLabels: { app: 'agent' } }, template: template() } }, C],
    ['ReplicaSet', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template() } }, C],
    ['Job', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { ...template(), spec: { ...privilegedPod(), restartPolicy: 'Never' } } } }, C],
    ['CronJob', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { ...template(), spec: { ...privilegedPod(), restartPolicy: 'Never' } } } } } }, 'spec.jobTemplate.spec.template.spec.containers[0]'],
  ])('checks the pod of a %s', (_, obj, container) => {
    expect(found(obj)).toEqual([`pss-privileged ${container}.securityContext.privileged`, `pss-privilege-escalation ${container}.securityContext.allowPrivilegeEscalation`]);
  });
});

describe('manifest checks: waivers and the report', () => {
  const hostNetwork = (annotations: Record<string, string>) => broken((ds, pod) => {
    pod.hostNetwork = true;
    pod.dnsPolicy = 'ClusterFirstWithHostNet';
    ds.metadata.annotations = annotations;
  });

  test('an annotation with a reason waives one rule for one object, and the report shows it', () => {
    // WHEN
    const findings = checkObject(hostNetwork({ [`${WAIVER_PREFIX}pss-host-namespaces`]: 'the CNI agent must see the node network' }));

    // THEN
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.ERROR, waived: 'the CNI agent must see the node network' });
    expect(isBlocking(findings[0])).toBe(false);
    expect(formatReport(findings)).toContain('waived: the CNI agent must see the node network');
  });

  test('a waiver without a reason waives nothing and is itself an error', () => {
    const findings = checkObject(hostNetwork({ [`${WAIVER_PREFIX}pss-host-namespaces`]: ' ' }));
    expect(findings.map((f) => [f.rule.id, isBlocking(f)])).toEqual([['waiver', true], ['pss-host-namespaces', true]]);
  });

  test('a waiver of a rule that does not exist is an error', () => {
    const findings = checkObject(hostNetwork({ [`${WAIVER_PREFIX}host-network`]: 'typo' }));
    expect(findings.map((f) => f.rule.id)).toEqual(['waiver', 'pss-host-namespaces']);
    expect(findings[0].message).toMatch(/cannot waive "host-network": no rule has this id; rules that can be waived: pss-\*, .*hostnetwork-dns/);
  });

  test.each([
    ['schema', { data: { retries: 3 } }, 'the OpenAPI definitions of the Kubernetes version judged by'],
    ['api-config', { data: { 'a b': 'x' } }, 'Kubernetes API server validation'],
    ['metadata-syntax', { metadata: { labels: { tier: 'a b' } } }, 'ValidateObjectMeta'],
    ['kubectl-apply', { metadata: { name: undefined, generateName: 'cfg-' } }, 'kubectl apply'],
  ])('a waiver of %s, a rule of the API server or kubectl, waives nothing and is an error that names the rule and says why', (rule, change, source) => {
    // GIVEN a ConfigMap the server refuses, which waives the rule it breaks (issue 25: check exited 0 on it)
    const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', annotations: { [`${WAIVER_PREFIX}${rule}`]: 'the server will take it' } }, data: { a: 'b' } };
    const { metadata, ...rest } = change as { metadata?: Record<string, unknown> };
    const obj = JSON.parse(JSON.stringify({ ...base, ...rest, metadata: { ...base.metadata, ...metadata } }));

    // WHEN
    const findings = checkObject(obj);

    // THEN the waiver is an error, and the finding it names still blocks
    expect(findings.filter((f) => f.rule.id === 'waiver').map((f) => f.message)).toEqual([
      expect.stringMatching(new RegExp(`^cannot waive "${rule}": it is a rule of the API server or kubectl \\(${source}\\), which refuses the object whatever its annotations say, so it cannot be waived; only policy and recommendations can \\(pss-\\*, `)),
    ]);
    expect(findings.filter((f) => f.rule.id === rule).map((f) => [isBlocking(f), f.waived])).toEqual([[true, undefined]]);
  });

  test('every rule is waivable or not by what it is: Pod Security and recommendations only', () => {
    const waivable = ALL_RULES.filter((r) => r.waivable).map((r) => r.id);
    expect(waivable.filter((id) => !id.startsWith('pss-'))).toEqual([
      'crd-not-in-input', 'run-as-non-root-without-uid', 'cluster-scoped-namespace', 'resources', 'image-tag', 'hostport-surge', 'hostport-clash', 'hostpath-writable', 'pdb-selects-daemonset', 'wave-overlap', 'crd-applied-with-resource', 'hostnetwork-dns', 'ondelete-strategy', 'rbac-dangerous', 'rbac-role-ref', 'projected-api-token',
    ]);
    expect(ALL_RULES.filter((r) => r.id.startsWith('pss-') && !r.waivable)).toEqual([]);
    expect(ALL_RULES.filter((r) => /^(api-|yaml-|schema$|kubectl-apply$|removed-api$|unknown-kind$|crd-schema$)/.test(r.id) && r.waivable)).toEqual([]);
  });

  test('a waiver covers only its own rule', () => {
    const findings = checkObject(broken((ds, pod, c) => {
      pod.hostNetwork = true;
      pod.dnsPolicy = 'ClusterFirstWithHostNet';
      c.securityContext.capabilities.add = ['NET_ADMIN'];
      ds.metadata.annotations = { [`${WAIVER_PREFIX}pss-host-namespaces`]: 'needs the node network' };
    }));
    expect(findings.filter(isBlocking).map((f) => f.rule.id)).toEqual(['pss-capabilities']);
  });

  test('each finding names the file, the object, the field, the rule with its citation, and the fix', () => {
    // GIVEN
    const yaml = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n      hostPID: true\n      containers: []\n';

    // WHEN
    const findings: Finding[] = checkYaml(yaml, 'dist/agent.k8s.yaml');
    const report = formatReport(findings);

    // THEN
    expect(report).toContain('dist/agent.k8s.yaml:12:7: DaemonSet/agent: spec.template.spec.hostPID: error [pss-host-namespaces] hostPID: true shares the node\'s namespace with the pod');
    expect(report).toContain('rule: Pod Security Standards "baseline" (pod-security-admission policy/check_hostNamespaces.go, at the namespace\'s policy version), control "Host Namespaces"');
    expect(report).toContain('fix: Remove hostNetwork, hostPID and hostIPC');
    // containers: [] is refused by the API server too (validateContainers: Required value).
    expect(report).toContain('dist/agent.k8s.yaml:13:7: DaemonSet/agent: spec.template.spec.containers: error [api-container] Required value');
    expect(report).toMatch(/\n2 error\(s\), 0 warning\(s\), 0 waived$/);
  });

  test('warnings do not block', () => {
    const findings = checkObject(broken((_, __, c) => { c.image = 'busybox'; }));
    expect(findings.map((f) => [f.severity, isBlocking(f)])).toEqual([[Severity.WARNING, false]]);
  });
});

describe('DaemonSet rules no linter has', () => {
  const ids = (findings: Finding[]) => findings.map((f) => `${f.rule.id} ${f.path}`);

  test('refuses a hostPort with maxSurge: the surge pod can never bind it (kubernetes/kubernetes#106417)', () => {
    const ds = broken((d, __, c) => {
      c.ports = [{ containerPort: 9100, hostPort: 9100 }];
      d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
      d.metadata.annotations = { [`${WAIVER_PREFIX}pss-host-ports`]: 'an exporter on the node port' };
    });
    const findings = checkObject(ds);
    expect(ids(findings.filter(isBlocking))).toEqual(['hostport-surge spec.updateStrategy.rollingUpdate.maxSurge']);
    expect(findings.find((f) => f.rule.id === 'hostport-surge')!.message).toMatch(/maxSurge 1 with hostPort 9100 .*: the surge pod can never bind the port the old pod holds/);
  });

  test('accepts a hostPort with maxUnavailable', () => {
    const ds = broken((d, __, c) => {
      c.ports = [{ containerPort: 9100, hostPort: 9100 }];
      d.metadata.annotations = { [`${WAIVER_PREFIX}pss-host-ports`]: 'an exporter on the node port' };
    });
    expect(checkObject(ds).filter((f) => f.rule.id === 'hostport-surge')).toEqual([]);
  });

  test('warns about a PodDisruptionBudget that selects a DaemonSet\'s pods, in the same namespace only', () => {
    const ds = cleanDaemonSet();
    const pdb = (namespace: string) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'agents', namespace }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'agent' } } } });
    const same = checkObjects([ds, pdb('monitoring')]);
    expect(same.filter((f) => f.rule.id === 'pdb-selects-daemonset').map((f) => [f.object, f.severity])).toEqual([['PodDisruptionBudget/agents', 'warning']]);
    expect(checkObjects([ds, pdb('other')]).filter((f) => f.rule.id === 'pdb-selects-daemonset')).toEqual([]);
  });

  test('warns about hostNetwork without ClusterFirstWithHostNet, and about OnDelete', () => {
    const findings = checkObject(broken((d, pod) => {
      pod.hostNetwork = true;
      d.spec.updateStrategy = { type: 'OnDelete' };
      d.metadata.annotations = { [`${WAIVER_PREFIX}pss-host-namespaces`]: 'a CNI agent' };
    }));
    expect(findings.filter((f) => f.waived === undefined).map((f) => `${f.rule.id} ${f.severity}`)).toEqual(['hostnetwork-dns warning', 'ondelete-strategy warning']);
  });
});

describe('the shipped 1.28 schema', () => {
  test('is exactly what scripts/generate-schema.js makes of the 1.28 definitions', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate, source, out } = require('../../scripts/generate-schema.js') as { generate(text: string): string; source: string; out: string };
    expect(fs.readFileSync(out, 'utf-8')).toBe(generate(fs.readFileSync(source, 'utf-8')));
  });

  test('reports removed and deprecated apiVersions with their replacement', () => {
    const cron = { apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'c' }, spec: {} };
    expect(checkObject(cron).map((f) => `${f.rule.id}: ${f.message}`)).toEqual(['removed-api: CronJob batch/v1beta1 was removed in Kubernetes 1.25; use batch/v1']);
    const flow = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'FlowSchema', metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'x' } } };
    expect(checkObject(flow).filter((f) => f.rule.id === 'deprecated-api').map((f) => [f.severity, f.message])).toEqual([['warning', 'FlowSchema flowcontrol.apiserver.k8s.io/v1beta2 is deprecated and removed in Kubernetes 1.29; use flowcontrol.apiserver.k8s.io/v1']]);
  });

  test('accepts a CRD schema with x-kubernetes extensions', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'agents.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'agents', kind: 'Agent' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'self.size() > 0' }] } } }] },
    };
    expect(checkObject(crd)).toEqual([]);
  });
});

describe('as the API server judges, not stricter', () => {
  const sts = (change: (pod: KubeObject, c: KubeObject, s: KubeObject) => void) => {
    const s: KubeObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: structuredClone(cleanDaemonSet().spec.template) } };
    change(s.spec.template.spec, s.spec.template.spec.containers[0], s);
    return checkObject(s);
  };

  test("a StatefulSet's claim templates are volumes its containers may mount, and serviceName is optional", () => {
    const findings = sts((_, c, s) => {
      s.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
      c.volumeMounts = [{ name: 'data', mountPath: '/data' }];
    });
    expect(findings).toEqual([]);
  });

  test("a StatefulSet's pod template is not validated by the server: a warning that its pods will be refused", () => {
    // WHEN
    const findings = sts((_, c) => { c.imagePullPolicy = 'Sometimes'; delete c.name; });

    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.severity} ${f.path}`)).toEqual([
      `statefulset-template warning ${C}.name`,
      `statefulset-template warning ${C}.imagePullPolicy`,
    ]);
    expect(findings[1].message).toMatch(/^Unsupported value: "Sometimes": .* \[api-container\]: the API server accepts this in a StatefulSet's template, and refuses every pod made from it$/);
  });

  test('sizes binaryData and Secret data by their bytes, not their base64 text', () => {
    const blob = Buffer.alloc(900_000).toString('base64');
    const server = { apply: 'server-side' } as const;
    expect(checkObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { blob } }, undefined, server)).toEqual([]);
    expect(checkObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { blob } }, undefined, server)).toEqual([]);
    const over = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(checkObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { blob: over } }, undefined, server).map((f) => f.message)).toEqual(['Too long: must have at most 1048576 bytes']);
  });

  test('client-side kubectl apply refuses an object over 256 KiB (its last-applied annotation); server-side apply does not', () => {
    const big = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { big: 'x'.repeat(300_000) } };
    const [finding] = checkObject(big);
    expect(finding).toMatchObject({ path: 'metadata.annotations', severity: 'error' });
    expect(finding.rule.id).toBe('kubectl-apply');
    expect(finding.message).toMatch(/client-side kubectl apply stores this object \(300\d\d\d bytes of JSON\) .* apply it with kubectl apply --server-side$/);
    expect(checkObject(big, undefined, { apply: 'server-side' })).toEqual([]);
  });

  test('a DaemonSet may keep rollingUpdate with OnDelete: the server ignores it', () => {
    const findings = checkObject(broken((ds) => { ds.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } }; }));
    expect(findings.map((f) => f.rule.id)).toEqual(['ondelete-strategy']);
  });

  test('metadata.namespace on a cluster-scoped object is a warning: the server ignores it', () => {
    const [finding] = checkObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: 'team' }, rules: [] });
    expect([finding.rule.id, finding.severity, isBlocking(finding)]).toEqual(['cluster-scoped-namespace', 'warning', false]);
  });
});
