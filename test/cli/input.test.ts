/**
 * diff and eligible read their manifests through the checks' input
 * (lib/checks/input), so a List means what it means to kubectl and to
 * `check`: a List with `items: null` holds nothing, and a List kubectl
 * refuses is one line naming the input.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

describe('diff and eligible read Lists as kubectl and check do', () => {
  test('diff sees no object in a List whose items are null (kubectl applies nothing, so nothing is pruned)', () => {
    // GIVEN an old manifest that is a List with items: null, and a new one with a ConfigMap
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'input-'));
    const old = path.join(dir, 'old.yaml');
    const next = path.join(dir, 'new.yaml');
    fs.writeFileSync(old, 'apiVersion: v1\nkind: List\nitems: null\n');
    fs.writeFileSync(next, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n');
    // WHEN they are compared
    const { code, out } = run(['diff', old, next]);
    fs.rmSync(dir, { recursive: true, force: true });
    // THEN only the ConfigMap is added, and no "List" object is removed
    expect(code).toBe(1);
    expect(out).toContain('1 object(s) differ: 1 added, 0 removed');
    expect(out).not.toContain('List');
  });

  test('eligible --manifest on a List item without apiVersion is one line naming the input and the item, exit 2', () => {
    // GIVEN a List whose item kubectl refuses ("Object 'apiVersion' is missing")
    const list = 'apiVersion: v1\nkind: List\nitems:\n- kind: DaemonSet\n  metadata: {name: a}\n';
    // WHEN eligible reads it
    const { code, err } = run(['eligible', '--manifest', '-', '--nodes', path.join(__dirname, '..', 'fixtures', 'nodes', 'kubeadm-three.json')], list);
    // THEN it says which item, as check does
    expect(code).toBe(2);
    expect(err).toBe('node-reporter: stdin: items[0]: a List item needs apiVersion and kind (kubectl: "Object \'apiVersion\' is missing")\n');
  });
});
