/**
 * networking.k8s.io/v1 (pkg/apis/networking/validation, release-1.28):
 * Ingress and NetworkPolicy, the parts charts get wrong.
 */
import { isIP } from 'node:net';
import { checkDns1123Subdomain, DNS1035_LABEL, portNameProblem } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { RULES } from '../rules';
import { Add, checkLabelSelector, invalid, isInt, isRecord, list, unsupported } from './common';
import { PROTOCOLS } from './core-pod';

/** IsWildcardDNS1123Subdomain or IsDNS1123Subdomain (validateIngressTLS); a rule's host may not be an IP either (validateIngressRules). */
function hostProblem(host: string, { rule }: { rule: boolean }): string | undefined {
  if (rule && (/^(\d{1,3}\.){3}\d{1,3}$/.test(host) || host.includes(':'))) return 'must be a DNS name, not an IP address';
  const name = host.startsWith('*.') ? host.slice(2) : host;
  return checkDns1123Subdomain('host', name) === undefined ? undefined : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (a wildcard '*.' may lead)";
}

/** validateIngressBackend: exactly one of service and resource; a service by DNS-1035 name and one port, by number or name. */
function checkBackend(add: Add, path: string, backend: KubeObject): void {
  const kinds = ['service', 'resource'].filter((k) => isRecord(backend[k]));
  if (kinds.length !== 1) {
    add(RULES.apiNetworking, path, kinds.length === 0 ? 'Invalid value: "": one backend (`service` or `resource`) must be specified' : 'Invalid value: "": cannot set both service and resource backends');
    return;
  }
  if (!isRecord(backend.service)) return;
  const service = backend.service;
  const at = join(path, 'service');
  if (typeof service.name !== 'string' || service.name === '') {
    add(RULES.apiNetworking, join(at, 'name'), 'Required value');
  } else if (service.name.length > 63 || !DNS1035_LABEL.test(service.name)) {
    add(RULES.apiNetworking, join(at, 'name'), `Invalid value: ${show(service.name)}: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character`);
  }
  const port = isRecord(service.port) ? service.port : {};
  const hasNumber = port.number !== undefined && port.number !== 0;
  const hasName = typeof port.name === 'string' && port.name !== '';
  if (hasNumber === hasName) {
    add(RULES.apiNetworking, join(at, 'port'), hasNumber ? 'Invalid value: "": cannot set both port name & port number' : 'Required value: port name or number is required');
  } else if (hasNumber && isInt(port.number) && (port.number < 1 || port.number > 65535)) {
    add(RULES.apiNetworking, join(at, 'port', 'number'), `Invalid value: ${port.number}: must be between 1 and 65535, inclusive`);
  } else if (hasName) {
    const problem = portNameProblem(port.name);
    if (problem) add(RULES.apiNetworking, join(at, 'port', 'name'), `Invalid value: ${show(port.name)}: ${problem}`);
  }
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_PARTS = ['//', '/./', '/../', '%2f', '%2F'];

/** validateHTTPIngressPath: a path type, and for Exact and Prefix an absolute, normal path. */
function checkPath(add: Add, path: string, p: KubeObject): void {
  if (p.pathType === undefined) {
    add(RULES.apiNetworking, join(path, 'pathType'), 'Required value: pathType must be specified');
  } else if (!PATH_TYPES.includes(p.pathType)) {
    add(RULES.apiNetworking, join(path, 'pathType'), unsupported(p.pathType, PATH_TYPES));
  } else if (typeof p.path === 'string') {
    if (p.pathType !== 'ImplementationSpecific' || p.path !== '') {
      if (!p.path.startsWith('/')) add(RULES.apiNetworking, join(path, 'path'), `Invalid value: ${show(p.path)}: must be an absolute path`);
      else if (p.pathType !== 'ImplementationSpecific') {
        const bad = INVALID_PATH_PARTS.find((part) => p.path.includes(part)) ?? ['/..', '/.'].find((end) => p.path.endsWith(end));
        if (bad) add(RULES.apiNetworking, join(path, 'path'), `Invalid value: ${show(p.path)}: must not contain '${bad}'`);
      }
    }
  } else if (p.pathType !== 'ImplementationSpecific') {
    add(RULES.apiNetworking, join(path, 'path'), 'Invalid value: "": must be an absolute path');
  }
  if (isRecord(p.backend)) checkBackend(add, join(path, 'backend'), p.backend);
  else add(RULES.apiNetworking, join(path, 'backend'), 'Required value');
}

/** ValidateIngressSpec: a default backend or rules; hosts, paths and backends as the server takes them. */
export function checkIngress(add: Add, obj: KubeObject): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  const rules = list(spec.rules);
  if (!isRecord(spec.defaultBackend) && rules.length === 0) {
    add(RULES.apiNetworking, 'spec', 'Invalid value: "": either `defaultBackend` or `rules` must be specified');
  }
  if (isRecord(spec.defaultBackend)) checkBackend(add, 'spec.defaultBackend', spec.defaultBackend);
  if (typeof spec.ingressClassName === 'string') {
    const problem = checkDns1123Subdomain('ingressClassName', spec.ingressClassName);
    if (problem) add(RULES.apiNetworking, 'spec.ingressClassName', invalid(spec.ingressClassName, problem)!);
  }
  rules.forEach((r, i) => {
    const at = join('spec', 'rules', i);
    if (typeof r.host === 'string' && r.host !== '') {
      const problem = hostProblem(r.host, { rule: true });
      if (problem) add(RULES.apiNetworking, join(at, 'host'), `Invalid value: ${show(r.host)}: ${problem}`);
    }
    if (isRecord(r.http)) {
      const paths = list(r.http.paths);
      if (paths.length === 0) add(RULES.apiNetworking, join(at, 'http', 'paths'), 'Required value');
      paths.forEach((p, j) => checkPath(add, join(at, 'http', 'paths', j), p));
    }
  });
  list(spec.tls).forEach((t, i) => {
    (Array.isArray(t.hosts) ? t.hosts : []).forEach((host: unknown, j: number) => {
      const problem = typeof host === 'string' ? hostProblem(host, { rule: false }) : undefined;
      if (problem) add(RULES.apiNetworking, join('spec', 'tls', i, 'hosts', j), `Invalid value: ${show(host)}: ${problem}`);
    });
  });
}

/** A CIDR as net.ParseCIDR reads it. */
function isCidr(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const [ip, bits, ...rest] = text.split('/');
  if (rest.length > 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(ip)) return ip.split('.').every((o) => Number(o) <= 255 && !(o.length > 1 && o.startsWith('0'))) && Number(bits) <= 32;
  return /^[0-9a-fA-F:.]+$/.test(ip) && ip.includes(':') && Number(bits) <= 128;
}

/** A CIDR's network: its address bits, masked, the address width and the prefix length; undefined for what isIP does not read. */
function network(cidr: string): { bits: bigint; width: number; prefix: number } | undefined {
  const [ip, length] = cidr.split('/');
  const prefix = Number(length);
  let bits = 0n;
  let width: number;
  if (isIP(ip) === 4) {
    width = 32;
    for (const octet of ip.split('.')) bits = (bits << 8n) | BigInt(Number(octet));
  } else if (isIP(ip) === 6 && !ip.includes('.')) {
    width = 128;
    const [head, tail = ''] = ip.split('::');
    const left = head === '' ? [] : head.split(':');
    const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
    const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
    for (const g of groups) bits = (bits << 16n) | BigInt(parseInt(g, 16));
  } else {
    return undefined;
  }
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { bits: bits & mask, width, prefix };
}

/** ValidateIPBlock: an except CIDR lies inside the cidr (net.IPNet.Contains of its network address) with a longer prefix. */
function strictSubset(except: string, cidr: string): boolean {
  const inner = network(except);
  const outer = network(cidr);
  if (!inner || !outer) return true;
  if (inner.width !== outer.width) return false;
  const mask = ((1n << BigInt(outer.prefix)) - 1n) << BigInt(outer.width - outer.prefix);
  return (inner.bits & mask) === outer.bits && inner.prefix > outer.prefix;
}

/** ValidateNetworkPolicySpec: selectors, ports, peers (ipBlock alone, with a valid CIDR), policy types. */
export function checkNetworkPolicy(add: Add, obj: KubeObject): void {
  const spec = isRecord(obj.spec) ? obj.spec : {};
  checkLabelSelector(add, 'spec.podSelector', spec.podSelector);
  for (const direction of ['ingress', 'egress'] as const) {
    list(spec[direction]).forEach((rule, i) => {
      const at = join('spec', direction, i);
      list(rule.ports).forEach((p, j) => {
        const pat = join(at, 'ports', j);
        if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol)) add(RULES.apiNetworking, join(pat, 'protocol'), unsupported(p.protocol, PROTOCOLS));
        if (isInt(p.port) && (p.port < 1 || p.port > 65535)) add(RULES.apiNetworking, join(pat, 'port'), `Invalid value: ${p.port}: must be between 1 and 65535, inclusive`);
        if (typeof p.port === 'string') {
          const problem = portNameProblem(p.port);
          if (problem) add(RULES.apiNetworking, join(pat, 'port'), `Invalid value: ${show(p.port)}: ${problem}`);
        }
        if (p.endPort !== undefined && !isInt(p.port)) add(RULES.apiNetworking, join(pat, 'endPort'), `Invalid value: ${show(p.endPort)}: may not be specified when \`port\` is ${p.port === undefined || p.port === null ? 'not specified' : 'non-numeric'}`);
        else if (isInt(p.endPort) && isInt(p.port) && p.endPort < p.port) add(RULES.apiNetworking, join(pat, 'endPort'), `Invalid value: ${p.endPort}: must be greater than or equal to \`port\``);
      });
      list(rule[direction === 'ingress' ? 'from' : 'to']).forEach((peer, j) => {
        const pat = join(at, direction === 'ingress' ? 'from' : 'to', j);
        const set = ['podSelector', 'namespaceSelector', 'ipBlock'].filter((k) => isRecord(peer[k]));
        if (set.length === 0) add(RULES.apiNetworking, pat, 'Required value: must specify a peer');
        else if (set.includes('ipBlock') && set.length > 1) add(RULES.apiNetworking, pat, 'Forbidden: may not specify more than 1 peer type');
        checkLabelSelector(add, join(pat, 'podSelector'), peer.podSelector);
        checkLabelSelector(add, join(pat, 'namespaceSelector'), peer.namespaceSelector);
        if (isRecord(peer.ipBlock)) {
          if (!isCidr(peer.ipBlock.cidr)) add(RULES.apiNetworking, join(pat, 'ipBlock', 'cidr'), `Invalid value: ${show(peer.ipBlock.cidr ?? '')}: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`);
          (Array.isArray(peer.ipBlock.except) ? peer.ipBlock.except : []).forEach((e: unknown, k: number) => {
            if (!isCidr(e)) add(RULES.apiNetworking, join(pat, 'ipBlock', 'except', k), `Invalid value: ${show(e)}: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`);
            else if (isCidr(peer.ipBlock.cidr) && !strictSubset(e as string, peer.ipBlock.cidr)) add(RULES.apiNetworking, join(pat, 'ipBlock', 'except', k), `Invalid value: ${show(e)}: must be a strict subset of \`cidr\``);
          });
        }
      });
    });
  }
  const types: unknown[] = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  types.forEach((t, i) => { if (t !== 'Ingress' && t !== 'Egress') add(RULES.apiNetworking, join('spec', 'policyTypes', i), unsupported(t, ['Ingress', 'Egress'])); });
  if (types.length > 2) add(RULES.apiNetworking, 'spec.policyTypes', `Invalid value: ${show(types)}: may not specify more than two policyTypes`);
}
