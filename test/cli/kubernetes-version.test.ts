/**
 * `node-reporter check --kubernetes-version V` (kubeconform's flag name):
 * the version judged by, never silent. Every output names it and where it
 * came from; an unsupported one is a usage error.
 */
import * as fs from 'node:fs';
import { stringify } from 'yaml';
import { Io, main } from '../../lib/cli/node-reporter';
import { cleanDaemonSet, podOf } from '../checks/baseline';

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

/** The clean DaemonSet with an appArmorProfile field: unknown at 1.28, valid from 1.30. */
function withAppArmorField(annotation?: string) {
  const ds = cleanDaemonSet();
  podOf(ds).containers[0].securityContext.appArmorProfile = { type: 'RuntimeDefault' };
  if (annotation !== undefined) ds.metadata.annotations = { 'node-reporter.dev/kubernetes-version': annotation };
  return stringify(ds);
}

describe('node-reporter check --kubernetes-version', () => {
  test('judges by the version chosen, and the summary line says which and why', () => {
    // GIVEN a field 1.30 added
    const text = withAppArmorField();

    // WHEN checked at the default and at 1.35
    const old = run(['check', '-'], text);
    const chosen = run(['check', '--kubernetes-version', '1.35', '-'], text);

    // THEN 1.28 refuses it, 1.35 accepts it, and each says so
    expect(old.code).toBe(1);
    expect(old.out).toMatch(/\nchecked 1 file, 1 object at Kubernetes 1\.28 \(the default\): 1 error\(s\), 0 warning\(s\), 0 waived\n$/);
    expect(chosen).toEqual({ code: 0, out: 'checked 1 file, 1 object at Kubernetes 1.35 (--kubernetes-version): 0 error(s), 0 warning(s), 0 waived\n', err: '' });
  });

  test('without the flag, judges by the version the input\'s annotation names, and says so', () => {
    const { code, out } = run(['check', '-'], withAppArmorField('1.35'));
    expect(code).toBe(0);
    expect(out).toBe('checked 1 file, 1 object at Kubernetes 1.35 (the input\'s node-reporter.dev/kubernetes-version annotation): 0 error(s), 0 warning(s), 0 waived\n');
  });

  test('a flag the annotation contradicts judges by the flag, with a warning', () => {
    const { code, out } = run(['check', '--kubernetes-version', '1.32', '-'], withAppArmorField('1.35'));
    expect(code).toBe(0);
    expect(out).toContain('warning [kubernetes-version] this object was written for Kubernetes 1.35, but the checks judge by 1.32 as chosen');
  });

  test('the JSON report and the SARIF run name the version and its source', () => {
    const json = JSON.parse(run(['check', '--format', 'json', '--kubernetes-version', 'v1.35.6', '-'], withAppArmorField()).out);
    expect(json).toMatchObject({ kubernetesVersion: '1.35', kubernetesVersionSource: '--kubernetes-version', errors: 0 });
    const sarif = JSON.parse(run(['check', '--format', 'sarif', '-'], withAppArmorField()).out);
    expect(sarif.runs[0].properties).toEqual({ kubernetesVersion: '1.28', kubernetesVersionSource: 'the default' });
  });

  test('an unsupported version is a usage error, exit 2, listing the supported ones', () => {
    for (const v of ['1.29', '1.30', '1.99', 'latest']) {
      const { code, out, err } = run(['check', '--kubernetes-version', v, '-'], withAppArmorField());
      expect({ code, out }).toEqual({ code: 2, out: '' });
      expect(err).toMatch(new RegExp(`^node-reporter check: --kubernetes-version "${v}" is .*; supported: 1\\.28, 1\\.31, 1\\.32, 1\\.33, 1\\.34, 1\\.35, 1\\.36 \\(see node-reporter check --help\\)\\n$`));
    }
  });

  test('--help names the flag, the supported versions and the default', () => {
    const { out } = run(['check', '--help']);
    expect(out).toContain('--kubernetes-version V    the Kubernetes version to judge by: 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36; default: the one the');
    expect(out).toContain('node-reporter.dev/kubernetes-version annotation names, else 1.28');
  });
});
