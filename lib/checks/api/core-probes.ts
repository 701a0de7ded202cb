/**
 * Probes and lifecycle handlers as the API server validates them
 * (pkg/apis/core/validation, validation.go: validateProbe, validateHandler,
 * validateHTTPGetAction, validatePortNumOrName), apart from the rest of the
 * pod spec (core-pod) so that each file stays small.
 */
import { portNameProblem } from '../../k8s/syntax';
import { join, KubeObject, show } from '../finding';
import { Rule, RULES } from '../rules';
import { KubernetesVersion } from '../versions';
import { Add, isInt, isRecord, list, unsupported } from './common';
import { lifecycleHandlers } from './versioned';

/** validatePortNumOrName: 1-65535, or an IANA name. */
export function checkPortNumOrName(add: Add, rule: Rule, path: string, port: unknown): void {
  if (isInt(port)) {
    if (port < 1 || port > 65535) add(rule, path, `Invalid value: ${port}: must be between 1 and 65535, inclusive`);
  } else if (typeof port === 'string') {
    if (/^\d+$/.test(port)) {
      // The API server refuses numeric strings for ports ("must contain at least one letter").
      add(rule, path, `Invalid value: ${show(port)}: must contain at least one letter (a-z)`);
    } else {
      const problem = portNameProblem(port);
      if (problem) add(rule, path, `Invalid value: ${show(port)}: ${problem}`);
    }
  }
}

/**
 * validateHTTPGetAction's validateHTTPHeader: each header name IsHTTPHeaderName
 * (letters, digits and dashes). The server names the list, not the entry; the
 * constructs (AgentProbe.httpGet) ask it too.
 */
export function checkHttpHeaders(add: Add, path: string, headers: unknown): void {
  for (const h of list(headers)) {
    if (typeof h.name === 'string' && !/^[-A-Za-z0-9]+$/.test(h.name)) {
      add(RULES.apiProbes, path, `Invalid value: ${show(h.name)}: a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`);
    }
  }
}

/** validateHandler: exactly one of the handler fields. */
function checkHandler(add: Add, path: string, handler: KubeObject, kinds: readonly string[]): void {
  const set = kinds.filter((k) => isRecord(handler[k]));
  if (set.length === 0) {
    add(RULES.apiProbes, path, 'Required value: must specify a handler type');
  } else if (set.length > 1) {
    add(RULES.apiProbes, join(path, set[1]), 'Forbidden: may not specify more than 1 handler type');
  }
  if (isRecord(handler.httpGet)) {
    if (handler.httpGet.port === undefined) add(RULES.apiProbes, join(path, 'httpGet', 'port'), 'Required value');
    else checkPortNumOrName(add, RULES.apiProbes, join(path, 'httpGet', 'port'), handler.httpGet.port);
    if (handler.httpGet.scheme !== undefined && !['HTTP', 'HTTPS'].includes(handler.httpGet.scheme)) {
      add(RULES.apiProbes, join(path, 'httpGet', 'scheme'), unsupported(handler.httpGet.scheme, ['HTTP', 'HTTPS']));
    }
    checkHttpHeaders(add, join(path, 'httpGet', 'httpHeaders'), handler.httpGet.httpHeaders);
  }
  if (isRecord(handler.tcpSocket)) {
    if (handler.tcpSocket.port === undefined) add(RULES.apiProbes, join(path, 'tcpSocket', 'port'), 'Required value');
    else checkPortNumOrName(add, RULES.apiProbes, join(path, 'tcpSocket', 'port'), handler.tcpSocket.port);
  }
  if (isRecord(handler.exec) && (!Array.isArray(handler.exec.command) || handler.exec.command.length === 0)) {
    add(RULES.apiProbes, join(path, 'exec', 'command'), 'Required value');
  }
  if (isRecord(handler.grpc) && isInt(handler.grpc.port) && (handler.grpc.port < 1 || handler.grpc.port > 65535)) {
    add(RULES.apiProbes, join(path, 'grpc', 'port'), `Invalid value: ${handler.grpc.port}: must be between 1 and 65535, inclusive`);
  }
}

/** validateProbe and the lifecycle handlers: one handler each, non-negative timings, a liveness or startup successThreshold of 1. */
export function checkProbes(add: Add, path: string, c: KubeObject, init: boolean, version: KubernetesVersion): void {
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = c[probe];
    if (!isRecord(p)) continue;
    const at = join(path, probe);
    if (init && !c.restartPolicy) {
      add(RULES.apiProbes, at, 'Forbidden: may not be set for init containers without restartPolicy=Always');
      continue;
    }
    checkHandler(add, at, p, ['exec', 'httpGet', 'tcpSocket', 'grpc']);
    for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds']) {
      if (isInt(p[field]) && p[field] < 0) add(RULES.apiProbes, join(at, field), `Invalid value: ${p[field]}: must be greater than or equal to 0`);
    }
    if (probe !== 'readinessProbe' && isInt(p.successThreshold) && p.successThreshold !== 1) {
      add(RULES.apiProbes, join(at, 'successThreshold'), `Invalid value: ${p.successThreshold}: must be 1`);
    }
    if (probe === 'readinessProbe' && p.terminationGracePeriodSeconds !== undefined) {
      add(RULES.apiProbes, join(at, 'terminationGracePeriodSeconds'), 'Invalid value: must not be set for readinessProbes');
    }
  }
  if (isRecord(c.lifecycle)) {
    for (const hook of ['postStart', 'preStop']) {
      if (isRecord(c.lifecycle[hook])) {
        checkHandler(add, join(path, 'lifecycle', hook), c.lifecycle[hook], lifecycleHandlers(version));
      }
    }
  }
}
