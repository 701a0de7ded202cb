/**
 * The warnings the API server returns for a pod or template
 * (pkg/api/pod/warnings.go: warningsForPodSpecAndMeta, release-1.28), for
 * the container ports: the same port twice, overlapping or ambiguous host
 * bindings, a hostIP without a hostPort. Under the host network a template's
 * duplicate is worse than the warning says: each pod made from it binds its
 * ports on the node, and the API server refuses the second binding.
 */
import { join, KubeObject } from '../finding';
import { FieldProblem } from '../finding';
import { containersOf, PodTemplate } from '../pod-templates';
import { RULES } from '../rules';
import { isInt, list } from './common';

/** The port warnings of one pod (or template). */
export function portWarnings(pod: PodTemplate): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Map<string, Array<{ path: string; port: KubeObject; regular: boolean }>>();
  const hostNetwork = pod.spec.hostNetwork === true;
  for (const c of containersOf(pod)) {
    const regular = c.path.startsWith(join(pod.specPath, 'containers'));
    list(c.container.ports).forEach((port, i) => {
      const path = join(c.path, 'ports', i);
      const hostPort = isInt(port.hostPort) ? port.hostPort : 0;
      const hostIP = typeof port.hostIP === 'string' ? port.hostIP : '';
      if (hostIP !== '' && hostPort === 0) {
        problems.push({ rule: RULES.portConflict, path, message: 'hostIP set without hostPort' });
      }
      const key = `${port.containerPort}/${typeof port.protocol === 'string' && port.protocol !== '' ? port.protocol : 'TCP'}`;
      for (const other of seen.get(key) ?? []) {
        const otherHostPort = isInt(other.port.hostPort) ? other.port.hostPort : 0;
        const otherHostIP = typeof other.port.hostIP === 'string' ? other.port.hostIP : '';
        let message: string | undefined;
        if (hostIP === otherHostIP && hostPort === otherHostPort) {
          message = `duplicate port definition with ${other.path}`;
          if (hostNetwork && hostPort === 0 && regular && other.regular) {
            message += ': on the host network each pod binds this port on the node twice, and the API server refuses such pods';
          }
        } else if (hostPort === 0 || otherHostPort === 0) {
          message = `overlapping port definition with ${other.path}`;
        } else if (hostPort === otherHostPort && (hostIP === '') !== (otherHostIP === '')) {
          message = `dangerously ambiguous port definition with ${other.path}`;
        }
        if (message) problems.push({ rule: RULES.portConflict, path, message });
      }
      seen.set(key, [...(seen.get(key) ?? []), { path, port, regular }]);
    });
  }
  return problems;
}
