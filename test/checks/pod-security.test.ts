/**
 * Pod Security by level, as pod-security-admission judges a pod: baseline
 * runs the baseline checks, restricted runs every check with its restricted
 * checks replacing the baseline ones they override.
 */
import { KubeObject } from '../../lib/checks';
import { checkPodSecurity, PodSecurityLevel,podSecurityNeeds } from '../../lib/checks/pod-security';
import { podTemplateOf } from '../../lib/checks/pod-templates';
import { cleanDaemonSet, podOf } from './baseline';

/** A clean DaemonSet changed by `change`, as a pod template. */
function podWith(change: (pod: KubeObject) => void) {
  const ds = cleanDaemonSet();
  change(podOf(ds));
  return podTemplateOf(ds)!;
}

const ids = (level: PodSecurityLevel, change: (pod: KubeObject) => void) => checkPodSecurity(podWith(change), level).map((p) => p.rule.id);

describe('Pod Security at a level', () => {
  test('a restricted pod needs nothing and breaks nothing', () => {
    // GIVEN the clean DaemonSet
    const needs = podSecurityNeeds(podWith(() => undefined));

    // THEN
    expect(needs).toEqual({ level: PodSecurityLevel.RESTRICTED, problems: [] });
  });

  test('a host path breaks baseline as hostPathVolumes and restricted as restrictedVolumes, never both at once', () => {
    // GIVEN a pod with a hostPath volume
    const hostPath = (pod: KubeObject) => { pod.volumes = [{ name: 'root', hostPath: { path: '/' } }]; };

    // THEN
    expect(ids(PodSecurityLevel.BASELINE, hostPath)).toEqual(['pss-host-path-volumes']);
    expect(ids(PodSecurityLevel.RESTRICTED, hostPath)).toEqual(['pss-volume-types']);
    expect(podSecurityNeeds(podWith(hostPath)).level).toBe(PodSecurityLevel.PRIVILEGED);
  });

  test('a capability of the runtime default set is baseline; any other is privileged', () => {
    // GIVEN CHOWN (in the default set) and NET_ADMIN (not)
    const add = (cap: string) => (pod: KubeObject) => { pod.containers[0].securityContext.capabilities = { drop: ['ALL'], add: [cap] }; };

    // THEN
    expect(ids(PodSecurityLevel.BASELINE, add('CHOWN'))).toEqual([]);
    expect(ids(PodSecurityLevel.RESTRICTED, add('CHOWN'))).toEqual(['pss-capabilities']);
    expect(podSecurityNeeds(podWith(add('CHOWN'))).level).toBe(PodSecurityLevel.BASELINE);
    expect(ids(PodSecurityLevel.BASELINE, add('NET_ADMIN'))).toEqual(['pss-capabilities-baseline']);
    expect(podSecurityNeeds(podWith(add('NET_ADMIN'))).level).toBe(PodSecurityLevel.PRIVILEGED);
    // NET_BIND_SERVICE is the one capability "restricted" allows.
    expect(podSecurityNeeds(podWith(add('NET_BIND_SERVICE'))).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('no seccomp profile is baseline; Unconfined is privileged', () => {
    // GIVEN a pod without a profile, and one that sets Unconfined
    const none = (pod: KubeObject) => { delete pod.securityContext.seccompProfile; };
    const unconfined = (pod: KubeObject) => { pod.securityContext.seccompProfile = { type: 'Unconfined' }; };

    // THEN
    expect(ids(PodSecurityLevel.BASELINE, none)).toEqual([]);
    expect(ids(PodSecurityLevel.RESTRICTED, none)).toEqual(['pss-seccomp']);
    expect(ids(PodSecurityLevel.BASELINE, unconfined)).toEqual(['pss-seccomp-baseline']);
    // The pod's profile, and the container that inherits it.
    expect(ids(PodSecurityLevel.RESTRICTED, unconfined)).toEqual(['pss-seccomp', 'pss-seccomp']);
  });

  test('root is baseline: runAsNonRoot and runAsUser are restricted controls', () => {
    // GIVEN a pod that runs as uid 0
    const root = (pod: KubeObject) => { pod.securityContext.runAsUser = 0; pod.securityContext.runAsNonRoot = false; };

    // THEN
    const needs = podSecurityNeeds(podWith(root));
    expect(needs.level).toBe(PodSecurityLevel.BASELINE);
    expect([...new Set(needs.problems.map((p) => p.rule.id))]).toEqual(['pss-run-as-non-root', 'pss-run-as-user']);
  });

  test('host namespaces, privileged containers and host ports are privileged, listed in the problems at restricted', () => {
    // GIVEN a pod with host PID, a privileged container and a host port
    const lax = (pod: KubeObject) => {
      pod.hostPID = true;
      pod.containers[0].securityContext = { privileged: true };
      pod.containers[0].ports = [{ containerPort: 9100, hostPort: 9100 }];
    };

    // THEN
    const needs = podSecurityNeeds(podWith(lax));
    expect(needs.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(needs.problems.map((p) => p.rule.id)).toEqual(expect.arrayContaining(['pss-host-namespaces', 'pss-privileged', 'pss-host-ports', 'pss-privilege-escalation']));
  });

  test('"privileged" admits everything', () => {
    expect(ids(PodSecurityLevel.PRIVILEGED, (pod) => { pod.hostNetwork = true; })).toEqual([]);
  });

  test('init containers are judged like the others', () => {
    // GIVEN an init container that adds SYS_ADMIN
    const init = (pod: KubeObject) => { pod.initContainers = [{ ...pod.containers[0], name: 'init', securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }]; };

    // THEN
    expect(ids(PodSecurityLevel.BASELINE, init)).toEqual(['pss-capabilities-baseline']);
  });
});
