/**
 * node-reporter check as a CI linter for other people's YAML (issue 17,
 * items 3-7): Pod Security levels, custom resources, files that are no
 * manifests, honest exits, SARIF that code scanning can place.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { Io, main } from '../../lib/cli/node-reporter';
import { cleanDaemonSet, podOf } from '../checks/baseline';

function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => (file === '-' ? stdin : fs.readFileSync(file)), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

const yaml = (...objects: object[]) => objects.map((o) => stringify(o)).join('---\n');
const hostPid = () => {
  const ds = cleanDaemonSet();
  podOf(ds).hostPID = true;
  return ds;
};

describe('node-reporter check', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-cli-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };

  test('--help prints the check options only', () => {
    const { code, out } = run(['check', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: node-reporter check FILE\|DIR\|-\.\.\./);
    for (const flag of ['--format', '--pod-security', '--skip-kind', '--server-side']) expect(out).toContain(flag);
    expect(out).not.toContain('--nodes');
  });

  test('--pod-security sets the level of namespaces the input does not hold; a Namespace in the input keeps its own', () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
    expect(run(['check', '-'], yaml(hostPid())).code).toBe(1);
    expect(run(['check', '-', '--pod-security', 'privileged'], yaml(hostPid())).code).toBe(0);
    // The namespace in the input enforces baseline, whatever --pod-security says.
    expect(run(['check', '-', '--pod-security', 'privileged'], yaml(namespace, hostPid())).code).toBe(1);
  });

  test('a custom resource without its CRD is a warning; --skip-kind leaves it out, with a note', () => {
    const monitor = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'm' }, spec: {} };
    const warned = run(['check', '-'], yaml(monitor));
    expect(warned.code).toBe(0);
    expect(warned.out).toContain('warning [crd-not-in-input] not checked: its CustomResourceDefinition (kind "ServiceMonitor" of "monitoring.coreos.com") is not in the input');
    const skipped = run(['check', '-', '--skip-kind', 'ServiceMonitor'], yaml(monitor, cleanDaemonSet()));
    expect(skipped.out).toBe('note: stdin: not checked: 1 object(s) of kind ServiceMonitor, skipped on request\nchecked 1 file, 2 objects at Kubernetes 1.28 (the default): 0 error(s), 0 warning(s), 0 waived\n');
    expect(run(['check', '-', '--skip-kind', 'monitoring.coreos.com/v1/ServiceMonitor'], yaml(monitor)).out).toContain('skipped on request');
  });

  test('kustomization files, Chart.yaml, values files and chart templates are set aside with a note, never findings', () => {
    // GIVEN a repository as teams keep it
    write('kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [agent.yaml]\n');
    write('chart/Chart.yaml', 'apiVersion: v2\nname: agent\nversion: 1.0.0\n');
    write('chart/values.yaml', 'image: {tag: "1.0"}\n');
    write('chart/templates/daemonset.yaml', 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {{ .Release.Name }}\n');
    write('agent.yaml', yaml(cleanDaemonSet()));

    // WHEN
    const { code, out } = run(['check', dir]);

    // THEN
    expect(code).toBe(0);
    expect(out.split('\n').filter((l) => l.startsWith('note: ')).map((l) => l.replace(dir, 'DIR'))).toEqual([
      "note: DIR/chart/Chart.yaml: a Helm chart's Chart.yaml, not a manifest: check the output of `helm template` instead",
      'note: DIR/chart/templates/daemonset.yaml: a template of a Helm chart, not a manifest: check the output of `helm template` instead',
      'note: DIR/chart/values.yaml: a Helm values file, not a manifest',
      'note: DIR/kustomization.yaml: a kustomization file, not a manifest: check the output of `kubectl kustomize` instead',
    ]);
    expect(out).toMatch(/checked 5 files, 1 object at Kubernetes 1\.28 \(the default\): 0 error\(s\), 0 warning\(s\), 0 waived\n$/);
  });

  test('kind: List is expanded, each item checked with its index in the path', () => {
    // Two objects (one object twice is object-twice, test/checks/duplicates.test.ts)
    const list = { apiVersion: 'v1', kind: 'List', items: [cleanDaemonSet(), { ...hostPid(), metadata: { ...hostPid().metadata, name: 'other' } }] };
    const { code, out } = run(['check', '-', '--format', 'json'], yaml(list));
    const report = JSON.parse(out);
    expect(code).toBe(1);
    expect(report.objects).toBe(2);
    expect(report.findings.map((f: { path: string; line: number }) => [f.path, f.line])).toEqual([['items[1].spec.template.spec.hostPID', expect.any(Number)]]);
  });

  test('SARIF: the tool version, URIs relative to the working folder, the line and column of each field, the notes', () => {
    // GIVEN a file in the working folder's tree
    const file = write('deploy/agent.yaml', yaml(hostPid()));
    write('deploy/values.yaml', 'replicas: 1\n');
    const cwd = process.cwd();
    process.chdir(dir);
    let out: string;
    try {
      out = run(['check', 'deploy', '--format', 'sarif']).out;
    } finally {
      process.chdir(cwd);
    }

    // THEN
    const { runs: [sarif] } = JSON.parse(out);
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf-8'));
    expect(sarif.tool.driver).toMatchObject({ name: 'node-reporter checks', version, semanticVersion: version });
    const line = fs.readFileSync(file, 'utf-8').split('\n').findIndex((l) => l.includes('hostPID')) + 1;
    expect(sarif.results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'deploy/agent.yaml' }, region: { startLine: line, startColumn: 7 } });
    expect(sarif.invocations[0].toolExecutionNotifications).toEqual([{ level: 'note', message: { text: 'a Helm values file, not a manifest' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'deploy/values.yaml' } } }] }]);
  });

  test('--server-side lifts the 256 KiB limit of client-side apply', () => {
    const big = yaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(300_000) } });
    expect(run(['check', '-'], big).code).toBe(1);
    expect(run(['check', '-', '--server-side'], big).code).toBe(0);
  });

  test('the real bin: --version, exit 2 with one line on empty stdin, no stack trace', () => {
    const bin = [path.join(__dirname, '..', '..', 'lib', 'cli', 'bin.ts')];
    const node = (args: string[], input = '') => spawnSync(process.execPath, ['--require', 'tsx/cjs', ...bin, ...args], { encoding: 'utf-8', input });
    expect(node(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+/);
    const empty = node(['check', '-']);
    expect([empty.status, empty.stdout, empty.stderr]).toEqual([2, '', 'node-reporter: no Kubernetes objects in the input (1 file(s) read)\n']);
  });
});
