import * as fs from 'node:fs';
import * as path from 'node:path';
import { labelNodeCommand, NodeListError, readNodeList, unlabelNodeCommand } from '../../lib/eligibility';

describe('readNodeList', () => {
  test('reads a List of Node (kubectl get nodes -o json)', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json'), 'utf-8');
    expect(readNodeList(text, 'nodes.json').map((n) => n.metadata?.name)).toEqual(['cp-1', 'worker-1', 'worker-2']);
  });

  test('reads one Node (kubectl get node NAME -o json)', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nodes', 'single-node-object.json'), 'utf-8');
    expect(readNodeList(text, 'node.json').map((n) => n.metadata?.name)).toEqual(['labex-v135']);
  });

  test('reads a NodeList (the API\'s own list kind)', () => {
    expect(readNodeList('{"kind":"NodeList","items":[{"kind":"Node","metadata":{"name":"a"}}]}', 'x')).toHaveLength(1);
  });

  test('reads a node list in YAML flow style, which starts with { but is not JSON, as kubectl 1.33 and later read it', () => {
    // GIVEN / WHEN / THEN (the checks' warning that kubectl 1.32 would refuse to apply such a file is no concern here)
    expect(readNodeList('{kind: List, items: [{kind: Node, metadata: {name: a}}]}\n', 'f.yaml').map((n) => n.metadata?.name)).toEqual(['a']);
  });

  test.each([
    ['broken JSON', '{"kind": "List",', /^f.json: not JSON \(/],
    ['YAML with a duplicate key', 'kind: List\nkind: Node\n', 'f.json: the key "kind" appears again in the same mapping: kubectl keeps this last one and drops the others at line 2'],
    ['JSON with a duplicate key (kubectl get nodes never writes one)', '{"kind": "List",\n "kind": "Node", "metadata": {"name": "a"}}', 'f.json: the key "kind" appears again in the same mapping: kubectl keeps this last one and drops the others at line 2'],
    ['a Pod', '{"kind":"Pod","metadata":{"name":"p"}}', 'f.json: expected a Node or a List of Node (kubectl get nodes -o json) but got kind "Pod"'],
    ['an array', '[]', 'f.json: expected a Node or a List of Node (kubectl get nodes -o json) but got an array'],
    ['an empty list', '{"kind":"List","items":[]}', 'f.json: the list has no nodes'],
    ['a list with a Pod', '{"kind":"List","items":[{"kind":"Pod"}]}', 'f.json: items[0] is not a Node but kind "Pod"'],
    ['a node without a name', '{"kind":"List","items":[{"kind":"Node","metadata":{}}]}', 'f.json: items[0] has no metadata.name'],
  ])('refuses %s with a one-line error naming the file', (_, text, message) => {
    expect(() => readNodeList(text, 'f.json')).toThrow(NodeListError);
    expect(() => readNodeList(text, 'f.json')).toThrow(message);
  });
});

describe('kubectl commands', () => {
  test('label a node with every missing label, overwriting when asked', () => {
    expect(labelNodeCommand('worker-2', { 'practice-tier': 'operations', 'zone': 'a' })).toBe('kubectl label node worker-2 practice-tier=operations zone=a');
    expect(labelNodeCommand('batch-1', { 'practice-tier': 'operations' }, true)).toBe('kubectl label node batch-1 practice-tier=operations --overwrite');
    expect(unlabelNodeCommand('worker-2', ['practice-tier'])).toBe('kubectl label node worker-2 practice-tier-');
  });

  test('never prints a node name or label that a shell would interpret', () => {
    expect(() => labelNodeCommand('n; rm -rf /', { a: 'b' })).toThrow(/'nodeName'/);
    expect(() => labelNodeCommand('n', { 'a$(id)': 'b' })).toThrow(/'label key'/);
    expect(() => labelNodeCommand('n', { a: 'b`id`' })).toThrow(/'label value'/);
  });
});
