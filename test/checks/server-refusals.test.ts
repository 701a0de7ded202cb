/**
 * Issue 25, defect 4: objects `check` accepted and a real v1.32.13 API server
 * refused (`kubectl apply --dry-run=server --validate=strict`). Each case is
 * in the corpus (test/corpus/server-refusals.ts); here the checks must also
 * say what the server said, field and words.
 */
import { isBlocking } from '../../lib/checks';
import { checksVerdict, corpusYaml } from '../corpus/cases';
import { SERVER_REFUSALS } from '../corpus/server-refusals';

/** The server's answer to each case: the field (under the object) and its words. */
const SERVER_SAID: ReadonlyArray<[string, string, string]> = [
  ['hostpath-backsteps', 'volumes[0].hostPath.path', 'Invalid value: "/var/log/../../etc": must not contain \'..\''],
  ['configmap-item-path-backsteps', 'configMap.items[0].path', 'Invalid value: "a/../../b": must not contain \'..\''],
  ['configmap-item-path-absolute', 'configMap.items[0].path', 'Invalid value: "/etc/passwd": must be a relative path'],
  ['configmap-item-path-reserved', 'configMap.items[0].path', 'Invalid value: "..data": must not start with \'..\''],
  ['secret-item-path-backsteps', 'secret.items[0].path', 'Invalid value: "../k": must not contain \'..\''],
  ['projected-secret-item-path-absolute', 'sources[0].secret.items[0].path', 'Invalid value: "/k": must be a relative path'],
  ['downward-item-path-backsteps', 'downwardAPI.items[0].path', 'Invalid value: "../name": must not contain \'..\''],
  ['token-path-backsteps', 'serviceAccountToken.path', 'Invalid value: "../token": must not contain \'..\''],
  ['token-path-absolute', 'serviceAccountToken.path', 'Invalid value: "/token": must be a relative path'],
  ['subpathexpr-backsteps', 'volumeMounts[0].subPathExpr', 'Invalid value: "$(POD)/../..": must not contain \'..\''],
  ['subpathexpr-absolute', 'volumeMounts[0].subPathExpr', 'Invalid value: "/$(POD)": must be a relative path'],
  ['configmap-default-mode-too-big', 'configMap.defaultMode', 'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive'],
  ['secret-default-mode-negative', 'secret.defaultMode', 'Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive'],
  ['secret-item-mode-too-big', 'secret.items[0].mode', 'Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive'],
  ['projected-default-mode-too-big', 'projected.defaultMode', 'Invalid value: 4096: must be a number between 0 and 0777 (octal), both inclusive'],
  ['downward-item-mode-negative', 'downwardAPI.items[0].mode', 'Invalid value: -8: must be a number between 0 and 0777 (octal), both inclusive'],
  ['bidirectional-unprivileged', 'containers[0].volumeMounts[0].mountPropagation', 'Forbidden: Bidirectional mount propagation is available only to privileged containers'],
  ['bidirectional-unprivileged-init', 'initContainers[0].volumeMounts[0].mountPropagation', 'Forbidden: Bidirectional mount propagation is available only to privileged containers'],
  ['token-expiration-too-short', 'serviceAccountToken.expirationSeconds', 'Invalid value: 60: may not specify a duration less than 10 minutes'],
  ['downward-volume-node-name', 'downwardAPI.items[0].fieldRef.fieldPath', 'Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"'],
  ['finalizer-not-qualified', 'metadata.finalizers[0]', 'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified'],
  ['owner-reference-empty-uid', 'metadata.ownerReferences[0].uid', 'Invalid value: "": uid must not be empty'],
  ['owner-reference-two-controllers', 'metadata.ownerReferences', 'Invalid value: Only one reference can have Controller set to true'],
  ['namespace-finalizer-not-qualified', 'spec.finalizers', 'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified'],
  ['service-port-twice', 'spec.ports[1]', 'Duplicate value'],
  ['service-cluster-ip-not-an-ip', 'spec.clusterIPs[0]', 'Invalid value: "10.0.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  ['service-external-traffic-policy-cluster-ip', 'spec.externalTrafficPolicy', 'Invalid value: "Local": may only be set for externally-accessible services'],
  ['service-external-name-not-dns', 'spec.externalName', 'Invalid value: "not a host": '],
  ['service-external-ip-not-an-ip', 'spec.externalIPs[0]', 'Invalid value: "example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  ['statefulset-ordinals-negative', 'spec.ordinals.start', 'Invalid value: -1: must be greater than or equal to 0'],
  ['pvc-no-access-modes', 'spec.accessModes', 'Required value: at least 1 access mode is required'],
  ['pvc-no-storage-request', 'spec.resources[storage]', 'Required value'],
  ['resourcequota-negative', 'spec.hard[pods]', 'Invalid value: "-1": must be greater than or equal to 0'],
  ['limitrange-min-above-max', 'spec.limits[0].min[cpu]', 'min value 1 is greater than max value 500m'],
  ['networkpolicy-except-outside-cidr', 'spec.egress[0].to[0].ipBlock.except[0]', 'Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`'],
  ['clusterrole-aggregation-no-selector', 'aggregationRule.clusterRoleSelectors', 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
  ['secret-basic-auth-no-user', 'data[username]', 'Required value'],
  ['secret-dockerconfigjson-not-json', 'data[.dockerconfigjson]', 'Invalid value: "<secret contents redacted>": '],
  ['configmap-key-dot', 'data["."]', 'Invalid value: ".": must not be \'.\''],
  ['configmap-key-dot-dot', 'data[".."]', 'Invalid value: "..": must not be \'..\''],
  ['configmap-key-reserved', 'data["..data"]', 'Invalid value: "..data": must not start with \'..\''],
];

describe('what the v1.32 API server refused, the checks refuse with its words', () => {
  test('every refused case of the file has the server\'s answer here', () => {
    expect(SERVER_REFUSALS.filter((c) => c.server === 'refused').map((c) => c.id).sort()).toEqual(SERVER_SAID.map(([id]) => id).sort());
  });

  test.each(SERVER_SAID)('%s: %s: %s', (id, field, words) => {
    // GIVEN the case the server refused
    const c = SERVER_REFUSALS.find((x) => x.id === id)!;

    // WHEN the checks judge its file
    const { blocking } = checksVerdict(c, corpusYaml(c), `${id}.yaml`, '1.32');

    // THEN a blocking finding names the field and says what the server said
    expect(blocking.filter(isBlocking).map((f) => `${f.path}: ${f.message}`)).toContainEqual(expect.stringMatching(new RegExp(`${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (Invalid value: [^:]+: )?${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
  });
});

describe('a node-affinity term the DaemonSet controller cannot parse (issue 25, defect 6)', () => {
  test('is a warning: the v1.32 server accepted it, and its controller placed no pod (DESIRED 0)', () => {
    // GIVEN the corpus case the server accepted
    const c = SERVER_REFUSALS.find((x) => x.id === 'node-affinity-value-not-a-label-value')!;

    // WHEN
    const { verdict, warnings } = checksVerdict(c, corpusYaml(c), `${c.id}.yaml`, '1.32');

    // THEN accepted, with a warning that names the term and the value
    expect(verdict).toBe('accepted');
    expect(warnings.filter((f) => f.rule.id === 'unparsable-affinity-term').map((f) => `${f.path}: ${f.message}`)).toEqual([
      expect.stringMatching(/^spec\.template\.spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution\.nodeSelectorTerms\[0\]: .*"gpu nodes".*cannot parse this term, so it matches no node and no pod is placed$/),
    ]);
  });
});
