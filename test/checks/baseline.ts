import { KubeObject } from '../../lib/checks';

/**
 * A DaemonSet that passes every check, written by hand (the checks judge
 * manifests, not constructs). Each test breaks one thing in a copy.
 */
export function cleanDaemonSet(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'monitoring', labels: { app: 'agent' } },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [{
            name: 'main',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'sleep 3600'],
            resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
          }],
        },
      },
    },
  };
}

/** The pod spec of a DaemonSet. */
export function podOf(obj: KubeObject): KubeObject {
  return obj.spec.template.spec;
}
