/**
 * A NodeAgent's dangerous RBAC needs a reason, as its Pod Security exception
 * does: the checks' RBAC policy decides what is dangerous, the prop
 * `serviceAccount.dangerousGrantsReason` says why, and it is written as the
 * waiver of each object that grants it.
 */
import { Chart, Testing } from 'cdk8s';
import { AgentServiceAccount, NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { checkObject, isBlocking, WAIVER_PREFIX } from '../../lib/checks';
import { synth } from '../util';

function build(serviceAccount: AgentServiceAccount): () => Chart {
  return () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
    new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'Policy'), name: 'agent', containers: [{ name: 'agent', image: 'example.com/agent:1' }], serviceAccount } as NodeAgentProps);
    return chart;
  };
}

const WAIVER = `${WAIVER_PREFIX}rbac-dangerous`;

describe('dangerous RBAC needs a reason', () => {
  test.each<[string, AgentServiceAccount, RegExp]>([
    ['cluster-admin', { clusterRoles: ['cluster-admin'] }, /'serviceAccount\.clusterRoles\[0\]' binds the ClusterRole "cluster-admin"/],
    ['edit', { clusterRoles: ['view', 'edit'] }, /'serviceAccount\.clusterRoles\[1\]' binds the ClusterRole "edit"/],
    ['every verb', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] }, /'serviceAccount\.rules\[0\]\.verbs' grants every verb/],
    ['every resource in the namespace', { namespacedRules: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }] }, /'serviceAccount\.namespacedRules\[0\]\.resources' grants every resource/],
    ['every URL', { rules: [{ nonResourceURLs: ['*'], verbs: ['get'] }] }, /'serviceAccount\.rules\[0\]\.nonResourceURLs' grants every non-resource URL/],
    ['impersonate in another namespace', { rulesIn: { monitoring: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }] } }, /'serviceAccount\.rulesIn\.monitoring\[0\]\.verbs' grants "impersonate"/],
    ['secrets cluster-wide', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }] }, /'serviceAccount\.rules\[1\]\.resources' grants secrets in a ClusterRole/],
    ['nodes/proxy', { rules: [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }] }, /'serviceAccount\.rules\[0\]\.resources' grants nodes\/proxy/],
  ])('%s without a reason is refused, naming the prop and the one that says why', (_, account, message) => {
    expect(build(account)).toThrow(message);
    expect(build(account)).toThrow(/'serviceAccount\.dangerousGrantsReason' must say why the agent needs these grants \[rbac-dangerous\]/);
  });

  test('with a reason, each object that grants it carries the reason as its waiver, and the checks pass it', () => {
    // GIVEN
    const reason = 'reads the kubelet API of its own node for cAdvisor metrics';

    // WHEN
    const objects = synth(build({ rules: [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }], clusterRoles: ['view'], dangerousGrantsReason: reason })());

    // THEN
    const role = objects.find((o) => o.kind === 'ClusterRole');
    expect(role?.metadata.annotations).toEqual({ [WAIVER]: reason });
    // The bindings grant nothing dangerous themselves (the role does) and carry no waiver.
    expect(objects.filter((o) => o.kind === 'ClusterRoleBinding').map((o) => o.metadata.annotations)).toEqual([undefined, undefined]);
    expect(objects.flatMap((o) => checkObject(o)).filter(isBlocking)).toEqual([]);
  });

  test('a reason with nothing dangerous is refused', () => {
    expect(build({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], dangerousGrantsReason: 'just in case' }))
      .toThrow(/'serviceAccount\.dangerousGrantsReason' must be unset: no grant of the agent is dangerous \[rbac-dangerous\] but got "just in case"/);
  });

  test('a reason over two lines is refused', () => {
    expect(build({ clusterRoles: ['cluster-admin'], dangerousGrantsReason: 'one\ntwo' }))
      .toThrow(/'serviceAccount\.dangerousGrantsReason' must be a non-empty single line/);
  });

  test.each(['system:masters', 'system:nodes', 'system:serviceaccounts:kube-system'])('clusterRoles %s, a group and no ClusterRole, is refused at construction', (group) => {
    expect(build({ clusterRoles: [group] })).toThrow(new RegExp(`'serviceAccount\\.clusterRoles\\[0\\]' must be a ClusterRole name \\("${group}" is the name of a user or group.*\\[rbac-role-ref\\] but got "${group}"`));
  });

  test('every problem at once: a group and an undeclared dangerous grant', () => {
    let message = '';
    try {
      build({ clusterRoles: ['system:masters', 'cluster-admin'] })();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("'serviceAccount.clusterRoles[0]' must be a ClusterRole name");
    expect(message).toContain("'serviceAccount.dangerousGrantsReason' must say why");
  });
});
