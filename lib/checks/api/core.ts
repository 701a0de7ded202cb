/**
 * Core objects other than pods (pkg/apis/core/validation, validation.go):
 * Service, ConfigMap, Secret, ReplicationController, Namespace.
 */
import { isIP } from 'node:net';
import { checkDns1123Label, checkDns1123Subdomain, checkQualifiedName, configKeyReason } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, checkLabels, checkNonNegative, invalid, isInt, isRecord, list, unsupported } from './common';
import { checkTemplateRestartPolicy, PROTOCOLS } from './core-pod';
import { checkPortNumOrName } from './core-probes';
import { checkFinalizers } from './meta';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

/** ValidateService and validateServicePort. */
export function checkService(add: Add, obj: KubeObject): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  const type = spec.type ?? 'ClusterIP';
  if (!SERVICE_TYPES.includes(type)) {
    add(RULES.apiService, 'spec.type', unsupported(type, SERVICE_TYPES));
    return;
  }
  const ports = list(spec.ports);
  if (type !== 'ExternalName' && ports.length === 0 && spec.clusterIP !== 'None') {
    add(RULES.apiService, 'spec.ports', 'Required value');
  }
  if (type === 'ExternalName' && (typeof spec.externalName !== 'string' || spec.externalName === '')) {
    add(RULES.apiService, 'spec.externalName', 'Required value');
  }
  const names = new Set<string>();
  const portsSeen = new Set<string>();
  ports.forEach((p, i) => {
    const at = join('spec', 'ports', i);
    // ValidateService: each port and protocol once.
    const key = `${String(p.port)}/${String(p.protocol ?? 'TCP')}`;
    if (isInt(p.port) && portsSeen.has(key)) add(RULES.apiService, at, `Duplicate value: port ${p.port} with protocol ${String(p.protocol ?? 'TCP')}`);
    portsSeen.add(key);
    if (ports.length > 1 && (typeof p.name !== 'string' || p.name === '')) add(RULES.apiService, join(at, 'name'), 'Required value');
    if (typeof p.name === 'string' && p.name !== '') {
      const problem = checkDns1123Label('name', p.name);
      if (problem) add(RULES.apiService, join(at, 'name'), invalid(p.name, problem)!);
      if (names.has(p.name)) add(RULES.apiService, join(at, 'name'), `Duplicate value: ${show(p.name)}`);
      names.add(p.name);
    }
    if (p.port === undefined) add(RULES.apiService, join(at, 'port'), 'Required value');
    else if (isInt(p.port) && (p.port < 1 || p.port > 65535)) add(RULES.apiService, join(at, 'port'), `Invalid value: ${p.port}: must be between 1 and 65535, inclusive`);
    if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol)) add(RULES.apiService, join(at, 'protocol'), unsupported(p.protocol, PROTOCOLS));
    // validateServicePort (v1.28): appProtocol is a qualified name (ValidateQualifiedName): an IANA service name or a prefixed one.
    if (p.appProtocol !== undefined) {
      const problem = checkQualifiedName('appProtocol', p.appProtocol);
      if (problem) add(RULES.apiService, join(at, 'appProtocol'), invalid(p.appProtocol, problem)!);
    }
    if (p.targetPort !== undefined && p.targetPort !== 0) checkPortNumOrName(add, RULES.apiService, join(at, 'targetPort'), p.targetPort);
    if (p.nodePort !== undefined && p.nodePort !== 0) {
      if (!['NodePort', 'LoadBalancer'].includes(type)) add(RULES.apiService, join(at, 'nodePort'), `Forbidden: may not be used when \`type\` is '${type}'`);
      else if (isInt(p.nodePort) && (p.nodePort < 1 || p.nodePort > 65535)) add(RULES.apiService, join(at, 'nodePort'), `Invalid value: ${p.nodePort}: must be between 1 and 65535, inclusive`);
    }
  });
  checkServiceAddresses(add, spec, type);
  // ValidateService (v1.28 to v1.36): a headless Service is no NodePort or LoadBalancer.
  const headless = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs[0] : spec.clusterIP) === 'None';
  if (headless && (type === 'NodePort' || type === 'LoadBalancer')) {
    add(RULES.apiService, join('spec', 'clusterIPs', 0), `Invalid value: "None": may not be set to 'None' for ${type} services`);
  }
  // validateServiceIPFamily: SingleStack takes one family.
  if (spec.ipFamilyPolicy === 'SingleStack' && Array.isArray(spec.ipFamilies) && spec.ipFamilies.length > 1) {
    add(RULES.apiService, 'spec.ipFamilies', `Invalid value: ${show(spec.ipFamilies)}: when ipFamilyPolicy is SingleStack, only one ipFamily may be specified`);
  }
  if (spec.sessionAffinity !== undefined && !['ClientIP', 'None'].includes(spec.sessionAffinity)) {
    add(RULES.apiService, 'spec.sessionAffinity', unsupported(spec.sessionAffinity, ['ClientIP', 'None']));
  }
  checkLabels(add, RULES.apiService, 'spec.selector', spec.selector);
}

const NOT_AN_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/**
 * ValidateService's addresses: clusterIP and clusterIPs are IPs, "None" or
 * empty (validateClusterIPFlags); externalIPs are IPs; externalName a DNS-1123
 * subdomain (a trailing dot allowed); externalTrafficPolicy only on a
 * NodePort or LoadBalancer Service (validateServiceExternalTrafficPolicy);
 * internalTrafficPolicy Cluster or Local.
 */
function checkServiceAddresses(add: Add, spec: KubeObject, type: string): void {
  const clusterIPs: unknown[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? [spec.clusterIP] : [];
  clusterIPs.forEach((ip, i) => {
    if (typeof ip === 'string' && ip !== 'None' && ip !== '' && isIP(ip) === 0) add(RULES.apiService, join('spec', 'clusterIPs', i), `Invalid value: ${show(ip)}: ${NOT_AN_IP}`);
  });
  (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).forEach((ip: unknown, i: number) => {
    if (typeof ip === 'string' && isIP(ip) === 0) add(RULES.apiService, join('spec', 'externalIPs', i), `Invalid value: ${show(ip)}: ${NOT_AN_IP}`);
  });
  if (type === 'ExternalName' && typeof spec.externalName === 'string' && spec.externalName !== '') {
    const problem = checkDns1123Subdomain('externalName', spec.externalName.replace(/\.$/, ''));
    if (problem) add(RULES.apiService, 'spec.externalName', invalid(spec.externalName, problem)!);
  }
  if (typeof spec.externalTrafficPolicy === 'string' && spec.externalTrafficPolicy !== '' && !['NodePort', 'LoadBalancer'].includes(type)) {
    add(RULES.apiService, 'spec.externalTrafficPolicy', `Invalid value: ${show(spec.externalTrafficPolicy)}: may only be set for externally-accessible services`);
  }
  checkInternalTrafficPolicy(add, spec);
}

/**
 * validateServiceInternalTrafficFieldsValue: internalTrafficPolicy is Cluster
 * or Local; only an unset one is defaulted (to Cluster), so "" is refused. The constructs ask it too.
 */
export function checkInternalTrafficPolicy(add: Add, spec: KubeObject): void {
  if (typeof spec.internalTrafficPolicy === 'string' && !['Cluster', 'Local'].includes(spec.internalTrafficPolicy)) {
    add(RULES.apiService, 'spec.internalTrafficPolicy', unsupported(spec.internalTrafficPolicy, ['Cluster', 'Local']));
  }
}

const SECRET_KEYS: Record<string, string[]> = {
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

/** A Secret key's bytes: stringData as written, else data decoded from base64. */
function secretValue(obj: KubeObject, key: string): string | undefined {
  if (isRecord(obj.stringData) && typeof obj.stringData[key] === 'string') return obj.stringData[key];
  if (isRecord(obj.data) && typeof obj.data[key] === 'string') return Buffer.from(obj.data[key], 'base64').toString('utf-8');
  return undefined;
}

/**
 * ValidateSecret by type: basic-auth holds a username or a password;
 * dockercfg and dockerconfigjson hold JSON objects (json.Unmarshal into a map).
 */
function checkSecretType(add: Add, obj: KubeObject, keys: Set<string>): void {
  if (obj.type === 'kubernetes.io/basic-auth' && !keys.has('username') && !keys.has('password')) {
    add(RULES.apiConfig, 'data[username]', 'Required value');
    add(RULES.apiConfig, 'data[password]', 'Required value');
  }
  const jsonKey = obj.type === 'kubernetes.io/dockerconfigjson' ? '.dockerconfigjson' : obj.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : undefined;
  const value = jsonKey === undefined ? undefined : secretValue(obj, jsonKey);
  if (jsonKey !== undefined && value !== undefined) {
    let problem: string | undefined;
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed !== null && !isRecord(parsed)) problem = `cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type map[string]interface {}`;
    } catch (e) {
      problem = `not JSON (${(e as Error).message})`;
    }
    if (problem) add(RULES.apiConfig, `data[${jsonKey}]`, `Invalid value: "<secret contents redacted>": ${problem}`);
  }
}

/** ValidateConfigMap and ValidateSecret. */
export function checkConfig(add: Add, obj: KubeObject): void {
  const seen = new Set<string>();
  // The bytes the server stores per key: base64 fields ([]byte) decoded, strings as UTF-8; a Secret's stringData replaces data.
  const sizes = new Map<string, number>();
  for (const field of ['data', 'binaryData', ...(obj.kind === 'Secret' ? ['stringData'] : [])]) {
    if (!isRecord(obj[field])) continue;
    for (const [key, value] of Object.entries(obj[field])) {
      const reason = configKeyReason(key);
      if (reason) add(RULES.apiConfig, join(field, key), `Invalid value: ${show(key)}: ${reason}`);
      if (seen.has(key) && !(obj.kind === 'Secret' && field === 'stringData')) add(RULES.apiConfig, join(field, key), `Invalid value: ${show(key)}: duplicate of key present in ${field === 'binaryData' ? 'data' : 'binaryData'}`);
      seen.add(key);
      const base64 = field === 'binaryData' || (field === 'data' && obj.kind === 'Secret');
      const bytes = typeof value !== 'string' ? 0 : base64 ? Buffer.from(value, 'base64').length : Buffer.byteLength(value);
      sizes.set(`${field === 'binaryData' ? 'binary:' : ''}${key}`, bytes);
    }
  }
  const size = [...sizes.values()].reduce((a, b) => a + b, 0);
  const limit = 1024 * 1024;
  if (size > limit) add(RULES.apiConfig, obj.kind === 'Secret' ? 'data' : '', `Too long: must have at most ${limit} bytes`);
  if (obj.kind === 'Secret' && typeof obj.type === 'string') {
    const required = SECRET_KEYS[obj.type] ?? [];
    for (const key of required) {
      if (!seen.has(key)) add(RULES.apiConfig, join('data', key), 'Required value');
    }
    checkSecretType(add, obj, seen);
    if (obj.type === 'kubernetes.io/service-account-token' && !(isRecord(obj.metadata?.annotations) && obj.metadata.annotations['kubernetes.io/service-account.name'])) {
      add(RULES.apiConfig, 'metadata.annotations["kubernetes.io/service-account.name"]', 'Required value');
    }
  }
}

/**
 * ValidateReplicationControllerSpec: a selector (SetDefaults_ReplicationController
 * takes the template's labels when it has none) that matches the template's
 * labels, a template when replicas are wanted, and restartPolicy Always.
 */
export function checkReplicationController(add: Add, obj: KubeObject, pod: PodTemplate | undefined): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  checkNonNegative(add, RULES.apiReplicationController, 'spec.replicas', spec.replicas);
  checkNonNegative(add, RULES.apiReplicationController, 'spec.minReadySeconds', spec.minReadySeconds);
  const labels: Record<string, unknown> = pod && isRecord(pod.metadata.labels) ? pod.metadata.labels : {};
  const selector: Record<string, unknown> = isRecord(spec.selector) && Object.keys(spec.selector).length > 0 ? spec.selector : labels;
  if (Object.keys(selector).length === 0) {
    add(RULES.apiReplicationController, 'spec.selector', 'Required value');
  } else if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    add(RULES.apiReplicationController, 'spec.template.metadata.labels', `Invalid value: ${show(labels)}: \`selector\` does not match template \`labels\``);
  }
  if (!isRecord(spec.template) && (spec.replicas === undefined || (isInt(spec.replicas) && spec.replicas > 0))) {
    add(RULES.apiReplicationController, 'spec.template', 'Required value');
  }
  if (pod) checkTemplateRestartPolicy(add, RULES.apiReplicationController, pod, ['Always']);
}

/** ValidateNamespace: spec.finalizers, each a standard finalizer or a qualified name with a domain (validateFinalizerName). */
export function checkNamespace(add: Add, obj: KubeObject): void {
  if (isRecord(obj.spec)) checkFinalizers(add, 'spec.finalizers', obj.spec.finalizers, true, false);
}
