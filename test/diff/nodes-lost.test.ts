/**
 * `diff` on a DaemonSet that leaves nodes (issue 33): a warning when it runs
 * on none or loses most, and a rollout line that says what the DaemonSet
 * controller does with the pods of the nodes it leaves (podsShouldBeOnNode).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffManifests, IMPACT_KINDS } from '../../lib/diff';
import { NODES_LOST_WARNING_SHARE } from '../../lib/diff/nodes-lost';
import { readNodeList } from '../../lib/eligibility';

const nodes = readNodeList(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json')), 'nodes');
const sourced = (objects: readonly object[]) => objects.map((object) => ({ object, file: 'ds.yaml' }));
const ds = (spec: object = {}, strategy: object = {}) => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'x' },
  spec: { selector: { matchLabels: { app: 'a' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 }, ...strategy }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'a:1' }], ...spec } } },
});
/** The nodes without the control plane's taint: where the DaemonSet runs. */
const workers = nodes.filter((n) => !(n.spec?.taints ?? []).some((t) => t.key === 'node-role.kubernetes.io/control-plane')).map((n) => n.metadata!.name!);

describe('diff: a DaemonSet that leaves nodes', () => {
  test('nodes-lost is an impact kind --fail-on takes', () => {
    expect(IMPACT_KINDS).toContain('nodes-lost');
  });

  test('DESIRED going to 0 is a nodes-lost warning, and the rollout says the pods are deleted at once', () => {
    // GIVEN a DaemonSet on the workers, then selecting a label no node has
    // WHEN
    const [changed] = diffManifests(sourced([ds()]), sourced([ds({ nodeSelector: { 'example.com/none': 'true' } })]), { nodes }).objects;

    // THEN
    const lost = changed.impacts.find((i) => i.kind === 'nodes-lost')!;
    expect(lost).toMatchObject({ warning: true, desired: { before: workers.length, after: 0 }, lost: workers });
    expect(lost.message).toMatch(/^runs on no node any more: desired 2 -> 0; the 2 pod\(s\) on nodes it no longer fits are deleted at once, not paced by maxUnavailable \(podsShouldBeOnNode\)/);
    const rollout = changed.impacts.find((i) => i.kind === 'rollout')!;
    expect(rollout.message).toContain('no node runs it any more, nothing to roll; the 2 pod(s) on nodes it no longer fits are deleted at once, not paced by maxUnavailable');
    expect(rollout.message).not.toContain('0 round(s)');
  });

  test(`losing more than ${NODES_LOST_WARNING_SHARE * 100}% of the nodes is a warning; losing fewer is not`, () => {
    // GIVEN a DaemonSet on the workers that keeps one of them
    const [kept] = workers;
    const affinity = (names: string[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: names }] }] } } } });

    // WHEN it keeps one of two: half, not more
    const [half] = diffManifests(sourced([ds(affinity(workers))]), sourced([ds(affinity([kept]))]), { nodes }).objects;

    // THEN
    expect(half.impacts.find((i) => i.kind === 'nodes-lost')).toMatchObject({ warning: false, desired: { before: 2, after: 1 } });
    expect(half.impacts.find((i) => i.kind === 'rollout')!.message).toContain('the 1 pod(s) on nodes it no longer fits are deleted at once');
  });

  test('without --nodes, or gaining nodes, there is no nodes-lost', () => {
    const none = ds({ nodeSelector: { 'example.com/none': 'true' } });
    expect(diffManifests(sourced([ds()]), sourced([none])).objects[0].impacts.map((i) => i.kind)).not.toContain('nodes-lost');
    expect(diffManifests(sourced([none]), sourced([ds()]), { nodes }).objects[0].impacts.map((i) => i.kind)).not.toContain('nodes-lost');
  });
});
