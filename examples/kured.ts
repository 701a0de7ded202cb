// kured, the Kubernetes reboot daemon, as its official chart deploys it by
// default (kubereboot/charts charts/kured 6.1.0, app 1.23.0; `helm template
// kured ... -n kube-system`), built with props alone. Where it differs from
// the chart, the library's defaults improve on it, or a comment says why the
// difference is forced.
import { Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AgentVolume, DownwardApi, NodeAgent, NodePolicy, NodeToleration, PodSecurityLevel, TaintEffect } from 'node-reporter';

/** The chart's app version, the image tag (kured's tags have no `v`). */
export const KURED_VERSION = '1.23.0';

/** The release's namespace; kured's `--ds-namespace` and its Role must name it. */
export const KURED_NAMESPACE = 'kube-system';

/** kured in kube-system on every Linux node, control planes included, rebooting one node at a time. */
export class KuredChart extends Chart {
  /** The reboot daemon. */
  public readonly kured: NodeAgent;

  constructor(scope: Construct, id: string) {
    // kube-system is the cluster's: the chart deploys into it and owns no Namespace.
    super(scope, id, { namespace: KURED_NAMESPACE });

    const linux = new NodePolicy(this, 'Linux', {
      operatingSystem: 'linux',
      // The chart's: key and effect, no operator (Equal with an empty value, as the taints have).
      tolerations: [
        NodeToleration.equal('node-role.kubernetes.io/control-plane', '', TaintEffect.NO_SCHEDULE),
        NodeToleration.equal('node-role.kubernetes.io/master', '', TaintEffect.NO_SCHEDULE),
      ],
    });

    const probe = () => kplus.Probe.fromHttpGet('/metrics', {
      port: 8080,
      initialDelaySeconds: Duration.seconds(10),
      periodSeconds: Duration.seconds(30),
      successThreshold: 1,
      timeoutSeconds: Duration.seconds(5),
      failureThreshold: 5,
    });
    this.kured = new NodeAgent(this, 'Kured', {
      policy: linux,
      // The lock is an annotation on this very DaemonSet: `--ds-name`, the Role's resourceNames and the name are one.
      name: 'kured',
      labels: { 'app.kubernetes.io/name': 'kured', 'app.kubernetes.io/instance': 'kured' },
      containers: [{
        name: 'kured',
        image: `ghcr.io/kubereboot/kured:${KURED_VERSION}`,
        command: ['/usr/bin/kured'],
        args: [
          '--ds-name=kured',
          `--ds-namespace=${KURED_NAMESPACE}`,
          '--metrics-port=8080',
          '--reboot-sentinel=/sentinel/reboot-required',
          // One argument with a space: kured splits the command itself.
          '--reboot-command=/bin/systemctl reboot',
          '--log-format=text',
          '--concurrency=1',
        ],
        // For drain, uncordon and the lock.
        env: { KURED_NODE_ID: DownwardApi.nodeName() },
        ports: [{ number: 8080, name: 'metrics', protocol: kplus.Protocol.TCP }],
        // The chart probes the port by name; cdk8s-plus probes take its number.
        liveness: probe(),
        readiness: probe(),
        // Improved: the chart sets none; kured is an idle Go binary between reboots.
        resources: { cpu: { request: kplus.Cpu.millis(10) }, memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) } },
        // The chart's: privileged (to nsenter PID 1's mount namespace and run
        // systemctl reboot on the host) with a read-only root. The library
        // keeps drop ALL (a privileged container gets every capability anyway)
        // and lets privilege escalation on, as the API server requires.
        securityContext: { privileged: true },
        mounts: [{ volume: 'sentinel', path: '/sentinel', readOnly: true }],
      }],
      // The sentinel file comes and goes on the host, so the chart mounts its
      // directory: /var/run whole, read-only (sockets there stay reachable to
      // a privileged root process; the chart accepts that, and so does this).
      volumes: [AgentVolume.hostPath('sentinel', '/var/run', { type: kplus.HostPathVolumeType.DIRECTORY })],
      // nsenter -m/proc/1/ns/mnt needs the host's PID 1.
      hostPID: true,
      // The image has no USER: kured runs as root, and systemctl reboot needs it.
      runAsUser: 0,
      // The chart's names of the objects the agent replaces, so that this applies over a Helm install in place.
      adopt: { serviceAccountName: 'kured', rbacNames: { clusterRole: 'kured', clusterRoleBinding: 'kured', role: 'kured', roleBinding: 'kured' } },
      serviceAccount: {
        // Drain (read pods, evict them, skip DaemonSet pods) and cordon (patch nodes).
        // The `extensions` rules are the chart's: dead since Kubernetes 1.16, and harmless.
        rules: [
          { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete', 'get'] },
          { apiGroups: ['extensions'], resources: ['daemonsets'], verbs: ['get'] },
          { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
          { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
        ],
        // The lock: update and patch on its own DaemonSet only, in its own namespace.
        namespacedRules: [
          { apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] },
          { apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update', 'patch'] },
        ],
      },
      // The library's default update strategy is the chart's: one node at a time (and maxSurge 0, the API's default).
      podSecurity: {
        level: PodSecurityLevel.PRIVILEGED,
        reason: "kured reboots the node: it enters the host's mount namespace (hostPID, privileged) and reads the reboot sentinel under /var/run",
      },
    });
  }
}
