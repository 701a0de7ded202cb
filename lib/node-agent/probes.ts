/**
 * Probes cdk8s-plus cannot write: an HTTP GET with request headers (e.g.
 * Cilium's `brief: true` and `require-k8s-connectivity: false`), as a
 * cdk8s-plus Probe that any container takes like the others.
 */
import * as kplus from 'cdk8s-plus-28';
import { checkHttpHeaders } from '../checks/api/core-probes';
import { defined, isRecord, Problem, problem } from '../k8s/syntax';
import { askChecks } from '../prop-checks';
import { throwIfProblem } from '../validate-props';

/** A header of a probe's HTTP request. */
export interface ProbeHttpHeader {
  /** The header's name, e.g. `brief`. */
  readonly name: string;
  /** Its value, may be empty. */
  readonly value: string;
}

/** Options of {@link AgentProbe.httpGet}: cdk8s-plus' HTTP GET probe options, and headers. */
export interface AgentHttpGetProbeOptions extends kplus.HttpGetProbeOptions {
  /**
   * Headers of the request, in order.
   * @default - none
   */
  readonly headers?: ProbeHttpHeader[];
}

/**
 * What the API server refuses in a header's name (validateHTTPHeader:
 * IsHTTPHeaderName), asked of the checks. The server names the list, not
 * the entry, so each name is asked alone, in a fragment whose `httpHeaders`
 * is that name: the message quotes it and names `headers[i].name`.
 */
function headerNameProblems(prop: string, name: string): Problem[] {
  const fragment = { httpHeaders: name };
  return askChecks(prop, fragment, [[/^httpHeaders$/, '']], (add) => checkHttpHeaders(add, 'httpHeaders', [{ name }]));
}

function headerProblems(headers: unknown): Problem[] {
  if (!Array.isArray(headers)) {
    return [problem('headers', 'an array of { name, value }', headers)];
  }
  return headers.flatMap((h, i) => (isRecord(h) ? defined(
    ...(typeof h.name === 'string' ? headerNameProblems(`headers[${i}].name`, h.name) : [problem(`headers[${i}].name`, 'an HTTP header name (letters, digits and dashes)', h.name)]),
    typeof h.value === 'string' ? undefined : problem(`headers[${i}].value`, 'a string', h.value),
    ...Object.keys(h).filter((k) => k !== 'name' && k !== 'value').map((k) => problem(`headers[${i}][key]`, 'name or value', k)),
  ) : [problem(`headers[${i}]`, 'an object { name, value }', h)]));
}

/** Probes for node agents, beyond what cdk8s-plus' `Probe` writes. */
export class AgentProbe {
  /**
   * An HTTP GET probe, as `kplus.Probe.fromHttpGet`, that also sends
   * `headers`; a cdk8s-plus Probe, so any container (liveness, readiness,
   * startup) takes it.
   * @param path the URL path to get
   * @param options the port, host, scheme, timings and headers
   */
  public static httpGet(path: string, options: AgentHttpGetProbeOptions = {}): kplus.Probe {
    const { headers, ...probeOptions } = (isRecord(options) ? options : {}) as AgentHttpGetProbeOptions;
    throwIfProblem(
      isRecord(options) ? undefined : problem('options', 'an object of AgentHttpGetProbeOptions', options),
      ...(headers !== undefined ? headerProblems(headers) : []),
    );
    const probe = kplus.Probe.fromHttpGet(path, probeOptions);
    if (headers === undefined || headers.length === 0) {
      return probe;
    }
    const httpHeaders = headers.map((h) => ({ name: h.name, value: h.value }));
    // cdk8s-plus renders a probe through its `_toKube`; this one's adds the
    // headers there, so that every container renders them, in or out of a NodeAgent.
    const render = probe._toKube.bind(probe);
    Object.defineProperty(probe, '_toKube', {
      value: (container: kplus.Container): kplus.k8s.Probe => {
        const rendered = render(container);
        return { ...rendered, httpGet: { ...rendered.httpGet!, httpHeaders: httpHeaders.map((h) => ({ ...h })) } };
      },
    });
    return probe;
  }

  private constructor() {}
}
