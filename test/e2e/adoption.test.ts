/**
 * The pure parts of the adoption e2e (e2e/adoption-prune.ts,
 * e2e/adoption-calico.ts): which document a prune variant drops, how kubectl
 * names an object in its answers, and the replay of a pod watch against the
 * update strategy. The cluster runs are `npm run e2e:adoption`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkRoll } from '../../e2e/adoption-calico';
import { kubectlRef, withoutDocument } from '../../e2e/adoption-prune';
import { describe as describeObject, parseManifest } from '../../e2e/manifests';

const calicoNode = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'dist', 'calico-node.k8s.yaml'), 'utf-8');

describe('the prune variant', () => {
  test('drops exactly the named document and keeps every other object as it was', () => {
    // GIVEN the calico-node example's 10 objects
    const before = parseManifest(calicoNode, 'calico-node');
    // WHEN the tier getter's binding is dropped
    const after = parseManifest(withoutDocument(calicoNode, 'ClusterRoleBinding/calico-tier-getter'), 'variant');
    // THEN the other 9 remain, unchanged
    expect(after.map(describeObject)).toEqual(before.map(describeObject).filter((d) => d !== 'ClusterRoleBinding/calico-tier-getter'));
    expect(after).toEqual(before.filter((o) => describeObject(o) !== 'ClusterRoleBinding/calico-tier-getter'));
  });

  test('refuses to drop an object the file does not hold', () => {
    expect(() => withoutDocument(calicoNode, 'ClusterRoleBinding/nope')).toThrow('wanted one document of ClusterRoleBinding/nope to drop, found 0');
  });
});

describe("kubectl's names in its answers", () => {
  test('are the lower-case kind, the group when there is one, and the name', () => {
    const [sa, , crb] = parseManifest(calicoNode, 'calico-node');
    expect(kubectlRef(sa)).toBe('serviceaccount/calico-node');
    expect(kubectlRef(crb)).toBe('clusterrolebinding.rbac.authorization.k8s.io/calico-node');
    expect(kubectlRef(parseManifest(calicoNode, 'calico-node').find((o) => o.kind === 'DaemonSet')!)).toBe('daemonset.apps/calico-node');
  });
});

describe('the replay of a pod watch', () => {
  // The lines of `kubectl get pods --watch --output-watch-events -o jsonpath=...`: type, name, hash, deletionTimestamp, node.
  const replace = [
    'ADDED calico-node-a 5bcdcc64f  node1',
    'MODIFIED calico-node-a 5bcdcc64f 2026-12-04T02:10:00Z node1',
    'DELETED calico-node-a 5bcdcc64f 2026-12-04T02:10:00Z node1',
    'ADDED calico-node-b 5dff6b566b  ',
    'MODIFIED calico-node-b 5dff6b566b  node1',
  ];

  test('passes a roll that deletes the old pod before it creates the new one, and names the order', () => {
    expect(checkRoll(replace, 1, 0, 1)).toBe('ADDED calico-node-a (hash 5bcdcc64f) -> DELETING calico-node-a (hash 5bcdcc64f) -> DELETED calico-node-a (hash 5bcdcc64f) -> ADDED calico-node-b (hash 5dff6b566b); '
      + 'at most 1 pod(s) on 1 node(s) (maxSurge 0), at most 1 node(s) without one (maxUnavailable 1)');
  });

  test('fails a surge the strategy does not allow', () => {
    const surge = ['ADDED calico-node-a 5bcdcc64f  node1', 'ADDED calico-node-b 5dff6b566b  node1', 'DELETED calico-node-a 5bcdcc64f  node1'];
    expect(() => checkRoll(surge, 1, 0, 1)).toThrow('2 pods lived at once on 1 node(s) with maxSurge 0');
  });

  test('fails more nodes without a pod than maxUnavailable', () => {
    const both = ['ADDED a h1  n1', 'ADDED b h1  n2', 'MODIFIED a h1 t n1', 'MODIFIED b h1 t n2'];
    expect(() => checkRoll(both, 2, 0, 1)).toThrow('2 node(s) were without a pod at once, beyond maxUnavailable 1');
  });

  test('fails a line that is no watch event', () => {
    expect(() => checkRoll(['error: the server was unable to return a response'], 1, 0, 1)).toThrow('the pod watch printed a line that is no event');
  });
});
