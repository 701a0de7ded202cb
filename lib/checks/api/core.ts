/**
 * Core objects other than pods (pkg/apis/core/validation, validation.go):
 * Service, ConfigMap, Secret, ReplicationController.
 */
import { checkDns1123Label } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { Add, checkLabels, checkNonNegative, invalid, isInt, isObject, list, unsupported } from './common';
import { checkPortNumOrName, checkTemplateRestartPolicy, CONFIG_KEY, PROTOCOLS } from './core-pod';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

/** ValidateService and validateServicePort. */
export function checkService(add: Add, obj: KubeObject): void {
  const spec = isObject(obj.spec) ? obj.spec : {};
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
  ports.forEach((p, i) => {
    const at = join('spec', 'ports', i);
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
    if (p.targetPort !== undefined && p.targetPort !== 0) checkPortNumOrName(add, RULES.apiService, join(at, 'targetPort'), p.targetPort);
    if (p.nodePort !== undefined && p.nodePort !== 0) {
      if (!['NodePort', 'LoadBalancer'].includes(type)) add(RULES.apiService, join(at, 'nodePort'), `Forbidden: may not be used when \`type\` is '${type}'`);
      else if (isInt(p.nodePort) && (p.nodePort < 1 || p.nodePort > 65535)) add(RULES.apiService, join(at, 'nodePort'), `Invalid value: ${p.nodePort}: must be between 1 and 65535, inclusive`);
    }
  });
  if (spec.sessionAffinity !== undefined && !['ClientIP', 'None'].includes(spec.sessionAffinity)) {
    add(RULES.apiService, 'spec.sessionAffinity', unsupported(spec.sessionAffinity, ['ClientIP', 'None']));
  }
  checkLabels(add, RULES.apiService, 'spec.selector', spec.selector);
}

const SECRET_KEYS: Record<string, string[]> = {
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

/** ValidateConfigMap and ValidateSecret. */
export function checkConfig(add: Add, obj: KubeObject): void {
  const seen = new Set<string>();
  // The bytes the server stores per key: base64 fields ([]byte) decoded, strings as UTF-8; a Secret's stringData replaces data.
  const sizes = new Map<string, number>();
  for (const field of ['data', 'binaryData', ...(obj.kind === 'Secret' ? ['stringData'] : [])]) {
    if (!isObject(obj[field])) continue;
    for (const [key, value] of Object.entries(obj[field])) {
      if (!CONFIG_KEY.test(key) || key.length > 253) {
        add(RULES.apiConfig, join(field, key), `Invalid value: ${show(key)}: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`);
      }
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
    if (obj.type === 'kubernetes.io/service-account-token' && !(isObject(obj.metadata?.annotations) && obj.metadata.annotations['kubernetes.io/service-account.name'])) {
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
  const spec = isObject(obj.spec) ? obj.spec : {};
  checkNonNegative(add, RULES.apiReplicationController, 'spec.replicas', spec.replicas);
  checkNonNegative(add, RULES.apiReplicationController, 'spec.minReadySeconds', spec.minReadySeconds);
  const labels: Record<string, unknown> = pod && isObject(pod.metadata.labels) ? pod.metadata.labels : {};
  const selector: Record<string, unknown> = isObject(spec.selector) && Object.keys(spec.selector).length > 0 ? spec.selector : labels;
  if (Object.keys(selector).length === 0) {
    add(RULES.apiReplicationController, 'spec.selector', 'Required value');
  } else if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    add(RULES.apiReplicationController, 'spec.template.metadata.labels', `Invalid value: ${show(labels)}: \`selector\` does not match template \`labels\``);
  }
  if (!isObject(spec.template) && (spec.replicas === undefined || (isInt(spec.replicas) && spec.replicas > 0))) {
    add(RULES.apiReplicationController, 'spec.template', 'Required value');
  }
  if (pod) checkTemplateRestartPolicy(add, RULES.apiReplicationController, pod, ['Always']);
}
