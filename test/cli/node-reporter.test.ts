import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { FluentBitChart } from '../../examples/fluent-bit';
import { NodeExporterChart } from '../../examples/node-exporter';
import { Io, isUserLabel, main } from '../../lib/cli/node-reporter';

const fixtures = path.join(__dirname, '..', 'fixtures', 'nodes');

/** Runs the command in-process with files from the fixtures and a given stdin. */
function run(args: string[], stdin = '') {
  let out = '';
  let err = '';
  const io: Io = {
    readFile: (file) => (file === '-' ? stdin : fs.readFileSync(path.isAbsolute(file) ? file : path.join(fixtures, file))),
    out: (text) => { out += text; },
    err: (text) => { err += text; },
  };
  const code = main(args, io);
  return { code, out, err };
}

describe('node-reporter eligible', () => {
  test('prints the summary, a table, and the command that makes a label-only node eligible', () => {
    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', 'single-unlabelled.json', '--selector', 'practice-tier=operations']);

    // THEN the summary leads, then the rows
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toBe([
      'desired: 0 (0 of 1 node eligible, 1 skipped)',
      'skipped by reason:',
      '  1  missing label practice-tier',
      '',
      'NODE        ELIGIBLE  REASON',
      'labex-v135  no        missing label practice-tier',
      '',
      'Nodes whose only obstacle is the label become eligible with:',
      '  kubectl label node labex-v135 practice-tier=operations',
      '',
    ].join('\n'));
  });

  test('counts the labelled node: desired 1', () => {
    const { out } = run(['eligible', '--nodes', 'single-labelled.json', '--selector', 'practice-tier=operations']);
    expect(out).toContain('labex-v135  yes       -');
    expect(out).toContain('desired: 1 (1 of 1 node eligible, 0 skipped)\n');
    expect(out).not.toContain('kubectl label');
  });

  test('on a kubeadm cluster, names the control-plane taint and how to tolerate it', () => {
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'practice-tier=operations']);
    expect(out).toContain('cp-1      no        taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated');
    expect(out).toMatch(/^desired: 1 \(1 of 3 nodes eligible, 2 skipped\)\nskipped by reason:\n  1  missing label practice-tier\n  1  taint node-role.kubernetes.io\/control-plane:NoSchedule not tolerated\n/);
    expect(out).toContain('  kubectl label node worker-2 practice-tier=operations\n');
    expect(out).not.toContain('kubectl label node cp-1');
    expect(out).toContain('--tolerate-control-plane');
    expect(run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'practice-tier=operations', '--tolerate-control-plane']).out).toContain('desired: 2 (');
  });

  test('overwrites a label that has another value', () => {
    const { out } = run(['eligible', '--nodes', 'troubled.json', '--selector', 'practice-tier=operations']);
    expect(out).toContain('batch-1          no        label practice-tier=batch, want operations');
    expect(out).toContain('  kubectl label node batch-1 practice-tier=operations --overwrite\n');
    expect(out).toContain('desired: 2 (');
  });

  test('prints JSON with --format json (or -o json): the summary, the selector, the verdicts', () => {
    // WHEN
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'practice-tier=operations', '--format', 'json']);

    // THEN
    expect(JSON.parse(out)).toEqual({
      desired: 1,
      selector: { 'practice-tier': 'operations' },
      summary: {
        nodes: 3, desired: 1, skipped: 2,
        reasons: [{ reason: 'missing label practice-tier', nodes: 1 }, { reason: 'taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated', nodes: 1 }],
      },
      nodes: [
        { name: 'cp-1', eligible: false, reasons: ['taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated'] },
        { name: 'worker-1', eligible: true, reasons: [] },
        { name: 'worker-2', eligible: false, reasons: ['missing label practice-tier'] },
      ],
    });
    expect(run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'practice-tier=operations', '-o', 'json']).out).toBe(out);
  });

  test('still takes --json, the flag of earlier releases, with a note that --format json replaces it', () => {
    const { code, out, err } = run(['eligible', '--nodes', 'kubeadm-three.json', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).desired).toBe(2);
    expect(err).toBe('node-reporter eligible: --json is deprecated; use --format json\n');
  });

  test('without a selector says none was given, judges by taints alone, and suggests no label', () => {
    // WHEN
    const { code, out } = run(['eligible', '--nodes', 'kubeadm-three.json']);

    // THEN both workers are eligible: nothing selects them away
    expect(code).toBe(0);
    expect(out).toMatch(/^desired: 2 \(2 of 3 nodes eligible, 1 skipped\)\n/);
    expect(out).toContain('no --selector given: every node matches an empty nodeSelector, so only taints and tolerations decided');
    expect(out).not.toContain('practice-tier');
    expect(out).not.toContain('kubectl label');
    expect(JSON.parse(run(['eligible', '--nodes', 'kubeadm-three.json', '-o', 'json']).out)).toMatchObject({ desired: 2, selector: {}, note: expect.stringMatching(/^no --selector given/) });
  });

  test('takes other selectors, repeatable', () => {
    const { out } = run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'kubernetes.io/os=linux', '--selector', 'practice-tier=operations', '-o', 'json']);
    expect(JSON.parse(out).desired).toBe(1);
    expect(JSON.parse(run(['eligible', '--nodes', 'kubeadm-three.json', '--selector', 'kubernetes.io/os=linux', '-o', 'json']).out).desired).toBe(2);
  });

  test('reads stdin with --nodes -', () => {
    const { code, out } = run(['eligible', '--nodes', '-', '-o', 'json'], fs.readFileSync(path.join(fixtures, 'single-node-object.json'), 'utf-8'));
    expect(code).toBe(0);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test.each([
    ['a missing file', ['--nodes', '/no/such/nodes.json'], 'node-reporter: /no/such/nodes.json: cannot read (no such file)\n'],
    ['a file that is broken JSON', ['--nodes', '-'], /^node-reporter: stdin: not JSON \(.*\)\n$/, '{"kind": "List", '],
    ['a file that is neither JSON nor YAML', ['--nodes', '-'], /^node-reporter: stdin: neither JSON nor YAML \(.*\)\n$/, 'kind: [List\n'],
    ['a repeated key', ['--nodes', '-'], 'node-reporter: stdin: the key "kind" appears again in the same mapping: kubectl keeps this last one and drops the others at line 2\n', 'kind: List\nkind: List\n'],
    ['JSON that is neither a Node nor a List of Node', ['--nodes', '-'], 'node-reporter: stdin: expected a Node or a List of Node (kubectl get nodes -o json) but got kind "Pod"\n', '{"kind":"Pod"}'],
    ['an empty list', ['--nodes', '-'], 'node-reporter: stdin: the list has no nodes\n', '{"kind":"List","items":[]}'],
    ['a node without a name', ['--nodes', '-'], 'node-reporter: stdin: items[0] has no metadata.name\n', '{"kind":"List","items":[{"kind":"Node"}]}'],
  ])('refuses %s: one line naming the file and the problem, exit 2', (_, args, message, stdin = '') => {
    const { code, out, err } = run(['eligible', ...(args as string[])], stdin as string);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  test.each([
    ['an unknown flag', ['eligible', '--nodes', 'x', '--verbose'], 'node-reporter eligible: unknown option "--verbose" (see node-reporter eligible --help)'],
    ['a misspelt flag', ['eligible', '--node', 'x'], 'node-reporter eligible: unknown option "--node"; did you mean --nodes? (see node-reporter eligible --help)'],
    ['a Kubernetes version, which changes no answer', ['eligible', '--nodes', 'x', '--kubernetes-version', '1.30'], 'node-reporter eligible: --kubernetes-version changes no answer of eligible: the DaemonSet controller picks nodes alike at every supported version (1.28 to 1.36) (see node-reporter eligible --help)'],
    ['a missing --nodes', ['eligible'], 'node-reporter eligible: --nodes FILE is required (see node-reporter eligible --help)'],
    ['a selector without =', ['eligible', '--nodes', 'x', '--selector', 'tier'], 'node-reporter eligible: --selector must be KEY=VALUE but got "tier" (see node-reporter eligible --help)'],
    ['a flag without its value', ['eligible', '--nodes'], "node-reporter eligible: Option '--nodes <value>' argument missing (see node-reporter eligible --help)"],
    ['a misspelt command', ['eligibel'], 'node-reporter: unknown command "eligibel"; did you mean "eligible"? (see node-reporter --help)'],
    ['an unknown command', ['deploy'], 'node-reporter: unknown command "deploy": the commands are check, eligible, diff, version (see node-reporter --help)'],
    ['no command', [], 'node-reporter: a command is required: check, eligible, diff, version (see node-reporter --help)'],
  ])('on %s prints one short line, exit 2', (_, args, message) => {
    const { code, out, err } = run(args);
    expect([code, out, err]).toEqual([2, '', `${message}\n`]);
  });

  test('prints its own usage on --help, exit 0; the top level lists the commands', () => {
    const { code, out } = run(['eligible', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: node-reporter eligible --nodes FILE/);
    expect(out).not.toContain('--pod-security');
    expect(run(['--help']).out).toMatch(/^Usage: node-reporter COMMAND \[OPTIONS\]\n\n {2}check .*\n {2}eligible /);
  });

  test('prints the package version on --version, then the Kubernetes versions the checks judge by and the default', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf-8'));
    expect(run(['--version'])).toEqual({ code: 0, out: `${version}\nKubernetes versions: 1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36 (default 1.28)\n`, err: '' });
  });

  test('the real bin exits 2 with one line and no stack trace on bad input', () => {
    const result = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(__dirname, '..', '..', 'lib', 'cli', 'bin.ts'), 'eligible', '--nodes', '/no/such/file'], { encoding: 'utf-8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('node-reporter: /no/such/file: cannot read (no such file)\n');
  });
});

describe('node-reporter eligible reads what kubectl and the API give', () => {
  const list = (items: unknown[], kind = 'List') => JSON.stringify({ apiVersion: 'v1', kind, items });
  const node = (name: string, spec: unknown = {}, labels: Record<string, string> = { 'practice-tier': 'operations' }) => ({ metadata: { name, labels }, spec });

  test('reads kubectl get --raw /api/v1/nodes, whose items carry no kind', () => {
    const { code, out } = run(['eligible', '--nodes', '-', '--selector', 'practice-tier=operations', '-o', 'json'], list([node('a'), node('b', {}, {})], 'NodeList'));
    expect(code).toBe(0);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test('reads kubectl get nodes -o yaml', () => {
    const yaml = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n    labels:\n      practice-tier: operations\n';
    expect(JSON.parse(run(['eligible', '--nodes', '-', '-o', 'json'], yaml).out).desired).toBe(1);
  });

  test.each([
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(list([node('a')]))])],
    ['UTF-16LE with a BOM (a PowerShell redirect)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(list([node('a')]), 'utf16le')])],
    ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(list([node('a')]), 'utf16le').swap16()])],
    ['UTF-16LE without a BOM', Buffer.from(list([node('a')]), 'utf16le')],
  ])('reads %s', (_, bytes) => {
    let out = '';
    const code = main(['eligible', '--nodes', '-', '-o', 'json'], { readFile: () => new Uint8Array(bytes), out: (t) => { out += t; }, err: () => undefined });
    expect(code).toBe(0);
    expect(JSON.parse(out).desired).toBe(1);
  });

  test.each([
    ['taints that are an object', { taints: {} }, 'spec.taints must be an array of taints but got {}'],
    ['a null taint', { taints: [null] }, 'spec.taints[0] must be a taint { key, value?, effect } but got null'],
    ['taints that are a string', { taints: 'oops' }, 'spec.taints must be an array of taints but got "oops"'],
    ['a taint without an effect', { taints: [{ key: 'a' }] }, 'spec.taints[0].effect must be a string but got undefined'],
    ['unschedulable that is a string', { unschedulable: 'yes' }, 'spec.unschedulable must be a boolean but got "yes"'],
  ])('refuses a node with %s: one line naming the node and the field, exit 2', (_, spec, message) => {
    const { code, out, err } = run(['eligible', '--nodes', '-'], list([node('good'), node('bad-1', spec)]));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`node-reporter: stdin: items[1] (node "bad-1"): ${message}\n`);
  });

  test('refuses labels that are not strings', () => {
    const { code, err } = run(['eligible', '--nodes', '-'], list([{ metadata: { name: 'a', labels: { tier: 1 } } }]));
    expect(code).toBe(2);
    expect(err).toBe('node-reporter: stdin: items[0] (node "a"): metadata.labels["tier"] must be a string but got 1\n');
  });

  test('refuses a repeated selector key, naming both values', () => {
    const { code, err } = run(['eligible', '--nodes', '-', '--selector', 'a=b', '--selector', 'a=c'], list([node('a')]));
    expect(code).toBe(2);
    expect(err).toBe('node-reporter eligible: --selector repeats the key "a" (a=b and a=c): a node label has one value (see node-reporter eligible --help)\n');
  });

  test('shows an empty wanted value as ""', () => {
    const { out } = run(['eligible', '--nodes', '-', '--selector', 'a='], list([node('n1', {}, { a: 'x' })]));
    expect(out).toContain('n1    no        label a=x, want ""');
    expect(out).toContain('  kubectl label node n1 a= --overwrite\n');
  });

  test('never suggests labelling a node with a key the kubelet owns, and says what to do instead', () => {
    const { out } = run(['eligible', '--nodes', '-', '--selector', 'kubernetes.io/os=windows'], list([node('linux-1', {}, { 'kubernetes.io/os': 'linux' })]));
    expect(out).not.toContain('kubectl label');
    expect(out).toContain('(node linux-1: kubernetes.io/os is set by the kubelet or the cloud provider from the node itself and cannot be labelled by hand; select the nodes by a label of your own instead)');
  });

  test('says in its help that the Kubernetes version changes no answer', () => {
    // GIVEN / WHEN
    const { out } = run(['eligible', '--help']);
    // THEN
    expect(out).toContain('the answer is the same at every supported Kubernetes version (1.28 to 1.36)');
  });

  test("never suggests setting a label a known operator owns, and names the operator (nvidia.com/gpu.present: NVIDIA's GPU feature discovery)", () => {
    // GIVEN a node without the GPU label a GPU agent selects
    const { out } = run(['eligible', '--nodes', '-', '--selector', 'nvidia.com/gpu.present=true'], list([node('cpu-1', {}, {})]));
    // THEN no kubectl label line, and the owner named
    expect(out).not.toContain('kubectl label');
    expect(out).toContain("(node cpu-1: nvidia.com/gpu.present is set by NVIDIA's GPU feature discovery (the GPU Operator) from the node's hardware or its cloud; labelling it by hand would lie about the node: run that on the cluster, or select the nodes by a label of your own instead)");
  });

  test.each([
    ['nvidia.com/gpu.present', false], ['nvidia.com/gpu.product', false], ['feature.node.kubernetes.io/cpu-cpuid.AVX2', false], ['nvidia.com/gpu.deploy.dcgm-exporter', true],
    ['node-role.kubernetes.io/agents', true], ['node.kubernetes.io/exclude-from-external-load-balancers', true], ['example.com/tier', true], ['tier', true],
    ['kubernetes.io/os', false], ['node.kubernetes.io/instance-type', false], ['topology.kubernetes.io/zone', false], ['beta.kubernetes.io/arch', false],
  ])('treats %s as a label a person may set: %s', (key, user) => {
    expect(isUserLabel(key)).toBe(user);
  });

  test('escapes control and bidirectional characters in node names and values', () => {
    const { code, out } = run(['eligible', '--nodes', '-', '--selector', 'practice-tier=operations'], list([node('evil\u001b[2Jnode', {}, { 'practice-tier': 'x\u202e' })]));
    expect(code).toBe(0);
    expect(out).not.toMatch(/[\u001b\u202e]/);
    expect(out).toContain('"evil\\u001b[2Jnode"');
    expect(out).toContain('label practice-tier="x\\u202e", want operations');
    expect(out).toContain('(no command for node "evil\\u001b[2Jnode": not a valid node name)');
  });

  test('takes tolerations, repeatable, beside the selector', () => {
    const nodes = list([node('gpu', { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }, { key: 'dedicated', effect: 'NoExecute' }] })]);
    expect(JSON.parse(run(['eligible', '--nodes', '-', '-o', 'json', '--toleration', 'nvidia.com/gpu=present:NoSchedule'], nodes).out).desired).toBe(0);
    expect(JSON.parse(run(['eligible', '--nodes', '-', '-o', 'json', '--toleration', 'nvidia.com/gpu=present:NoSchedule', '--toleration', 'dedicated:NoExecute'], nodes).out).desired).toBe(1);
    const bad = run(['eligible', '--nodes', '-', '--toleration', 'dedicated:NoRun'], nodes);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--toleration must be KEY\[=VALUE\]:EFFECT with EFFECT one of NoSchedule, PreferNoSchedule, NoExecute but got "dedicated:NoRun"/);
  });
});

describe('node-reporter eligible --manifest', () => {
  let dir: string;
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-cli-'));
    // The example agents, synthesized as cdk8s would write them.
    write('agents.k8s.yaml', Yaml.stringify(...Testing.synth(new NodeExporterChart(Testing.app(), 'e')), ...Testing.synth(new FluentBitChart(Testing.app(), 'l'))));
    const nodes = JSON.parse(fs.readFileSync(path.join(fixtures, 'troubled.json'), 'utf-8'));
    const extra = (name: string, labels: Record<string, string>, taints: unknown[] = []) => ({ kind: 'Node', metadata: { name, labels }, spec: { taints } });
    nodes.items.push(
      extra('fargate-1', { 'kubernetes.io/os': 'linux', 'eks.amazonaws.com/compute-type': 'fargate' }),
      extra('windows-1', { 'kubernetes.io/os': 'windows' }),
      extra('no-cni-yet', { 'kubernetes.io/os': 'linux' }, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]),
    );
    write('nodes.json', JSON.stringify(nodes));
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('judges each DaemonSet by its own set-based affinity, tolerations and host network, one report each', () => {
    // WHEN
    const { code, out } = run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', path.join(dir, 'agents.k8s.yaml'), '-o', 'json']);

    // THEN
    expect(code).toBe(0);
    const reports = JSON.parse(out).daemonSets;
    const eligibleOf = (r: { nodes: Array<{ name: string; eligible: boolean }> }) => r.nodes.filter((n) => n.eligible).map((n) => n.name);
    expect(reports.map((r: { namespace: string; name: string }) => `${r.namespace}/${r.name}`)).toEqual(['monitoring/node-exporter', 'logging/fluent-bit']);
    // node-exporter tolerates every NoSchedule taint: not-ready and GPU nodes too; no Fargate, no Windows.
    expect(eligibleOf(reports[0])).toEqual(['cordoned', 'not-ready', 'memory-pressure', 'batch-1', 'gpu-1', 'no-cni-yet']);
    // fluent-bit tolerates none and selects no operating system: only what DaemonSet pods tolerate anyway.
    expect(eligibleOf(reports[1])).toEqual(['cordoned', 'memory-pressure', 'batch-1', 'fargate-1', 'windows-1']);
    expect(reports[0].nodes.find((n: { name: string }) => n.name === 'fargate-1').reasons).toEqual(['required node affinity does not match']);
  });

  test('gives the controller answer for the reporter manifest, and the host-network exception for network-unavailable', () => {
    write('hostnet.yaml', [
      'apiVersion: apps/v1', 'kind: DaemonSet', 'metadata: {name: cni}', 'spec:', '  template:', '    spec:', '      hostNetwork: true',
      '      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [no-cni-yet, batch-1]}]}]}}}', '',
    ].join('\n'));
    const reporter = run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', path.join(__dirname, '..', '..', 'dist', 'node-reporter-v1.k8s.yaml')]);
    expect(reporter.out).toMatch(/^DaemonSet practice-daemon\/node-reporter\n/);
    expect(reporter.out).toContain('desired: 2 (');
    const cni = JSON.parse(run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', path.join(dir, 'hostnet.yaml'), '-o', 'json']).out).daemonSets[0];
    expect(cni.nodes.filter((n: { eligible: boolean }) => n.eligible).map((n: { name: string }) => n.name)).toEqual(['batch-1', 'no-cni-yet']);
  });

  test('refuses --selector with --manifest, and a manifest without a DaemonSet', () => {
    expect(run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', path.join(dir, 'agents.k8s.yaml'), '--selector', 'a=b']).err)
      .toMatch(/--manifest judges each DaemonSet by its own scheduling fields; leave out --selector/);
    const none = run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', write('empty.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n')]);
    expect(none.code).toBe(2);
    expect(none.err).toBe(`node-reporter: ${path.join(dir, 'empty.yaml')}: has no DaemonSet\n`);
  });

  test('reads the manifest as kubectl and `check` do: a List\'s items, and the last of a repeated key', () => {
    // GIVEN what `kubectl get ds -o yaml` prints (a List), and a DaemonSet whose nodeSelector key repeats
    const ds = (name: string, selector: string) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name }, spec: { template: { spec: { nodeSelector: { 'kubernetes.io/hostname': selector } } } } });
    const list = write('list.yaml', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [ds('from-list', 'batch-1')] }));
    const repeated = write('repeated.yaml', [
      'apiVersion: apps/v1', 'kind: DaemonSet', 'metadata: {name: repeated}', 'spec:', '  template:', '    spec:',
      '      nodeSelector:', '        kubernetes.io/hostname: gpu-1', '        kubernetes.io/hostname: batch-1', '',
    ].join('\n'));

    // THEN kubectl applies the List's DaemonSet, and keeps the second hostname
    for (const [file, name] of [[list, 'from-list'], [repeated, 'repeated']]) {
      const { code, out, err } = run(['eligible', '--nodes', path.join(dir, 'nodes.json'), '--manifest', file, '-o', 'json']);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      const [report] = JSON.parse(out).daemonSets;
      expect(report.name).toBe(name);
      expect(report.nodes.filter((n: { eligible: boolean }) => n.eligible).map((n: { name: string }) => n.name)).toEqual(['batch-1']);
    }
    // and `check` reads it the same way: a warning, not a refusal
    expect(run(['check', repeated]).out).toContain('repeated.yaml:9:9: document 1: line 9: warning [yaml-duplicate-key] the key "kubernetes.io/hostname" appears again in the same mapping: kubectl keeps this last one');
  });

  test('refuses stdin for both the nodes and the manifest: one stream cannot be both', () => {
    const { code, err } = run(['eligible', '--nodes', '-', '--manifest', '-'], '{}');
    expect(code).toBe(2);
    expect(err).toMatch(/^node-reporter eligible: --nodes, --manifest and --before cannot read stdin \(-\) more than once/);
  });
});

describe('node-reporter check', () => {
  let dir: string;
  const clean = fs.readFileSync(path.join(__dirname, '..', '..', 'dist', 'node-reporter-v1.k8s.yaml'), 'utf-8');
  const broken = clean.replace('maxSurge: 0', 'maxSurge: 1');

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-reporter-check-'));
    fs.mkdirSync(path.join(dir, 'chart', 'templates'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'chart', 'templates', 'clean.yaml'), clean);
    fs.writeFileSync(path.join(dir, 'broken.yml'), broken);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a manifest');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('exits 0 on clean manifests, searching folders for *.yaml and *.yml, and says what it checked', () => {
    const { code, out } = run(['check', path.join(dir, 'chart')]);
    expect(code).toBe(0);
    // dist/ is written for main.ts's target, and says so in its annotations: the checks judge by it.
    expect(out).toBe(`checked 1 file, ${clean.split('\n---\n').length} objects at Kubernetes 1.35 (the input's node-reporter.dev/kubernetes-version annotation): 0 error(s), 0 warning(s), 0 waived\n`);
  });

  test('exits 1 with the findings on a blocking one: file, line and column, the API server rule, its source and the fix', () => {
    const line = broken.split('\n').findIndex((l) => l.includes('maxSurge: 1')) + 1;
    const { code, out } = run(['check', path.join(dir, 'broken.yml')]);
    expect(code).toBe(1);
    expect(out).toContain(`${path.join(dir, 'broken.yml')}:${line}:7: DaemonSet/node-reporter: spec.updateStrategy.rollingUpdate.maxSurge: error [api-daemonset] Invalid value: 1: may not be set when maxUnavailable is non-zero`);
    expect(out).toContain('rule: Kubernetes API server validation, pkg/apis/apps/validation: ValidateDaemonSetSpec');
    expect(out).toMatch(/\nchecked 1 file, \d+ objects at Kubernetes 1\.35 \(the input's node-reporter\.dev\/kubernetes-version annotation\): 1 error\(s\), 0 warning\(s\), 0 waived\n$/);
  });

  test('prints JSON with --format json: counts, notes and findings with their lines', () => {
    const { out } = run(['check', dir, '--format', 'json']);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ files: 2, errors: 1, warnings: 0, waived: 0, notes: [] });
    expect(report.findings[0]).toMatchObject({ object: 'DaemonSet/node-reporter', rule: 'api-daemonset', severity: 'error', path: 'spec.updateStrategy.rollingUpdate.maxSurge', line: expect.any(Number), column: 7 });
  });

  test('prints SARIF 2.1.0 with --format sarif, waived findings as suppressions', () => {
    // A recommendation (image-tag) can be waived; an API server rule cannot (test/checks/checks.test.ts).
    const waived = clean.replace('image: busybox:1.36', 'image: busybox').replace(/(kind: DaemonSet\nmetadata:\n {2}annotations:\n)/, '$1    checks.node-reporter.dev/waive-image-tag: "testing the report"\n');
    const { code, out } = run(['check', '-', '--format', 'sarif'], waived);
    const sarif = JSON.parse(out);
    expect(code).toBe(0);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['image-tag']);
    expect(sarif.runs[0].results[0]).toMatchObject({ ruleId: 'image-tag', level: 'warning', suppressions: [{ kind: 'inSource', justification: 'testing the report' }] });
  });

  test.each([
    ['a missing file', ['check', '/no/such.yaml'], 'node-reporter: /no/such.yaml: cannot read (no such file or folder)\n'],
    ['a folder without manifests', ['check', '/proc/self/fdinfo'], /no \*\.yaml or \*\.yml files/],
    ['an unknown format', ['check', '-', '--format', 'xml'], 'node-reporter check: --format must be text, json, markdown or sarif but got "xml" (see node-reporter check --help)\n'],
    ['an unknown level', ['check', '-', '--pod-security', 'strict'], 'node-reporter check: --pod-security must be restricted, baseline or privileged but got "strict" (see node-reporter check --help)\n'],
    ['a misspelt flag', ['check', '-', '--fromat', 'json'], 'node-reporter check: unknown option "--fromat"; did you mean --format? (see node-reporter check --help)\n'],
    ['no file', ['check'], 'node-reporter check: check needs at least one FILE, DIR or - (see node-reporter check --help)\n'],
    ['empty input (a failed helm template | node-reporter check -)', ['check', '-'], 'node-reporter: no Kubernetes objects in the input (1 file(s) read)\n'],
    ['input of only values files', ['check', '-'], /^node-reporter: no Kubernetes objects in the input \(1 file\(s\) read, 1 set aside: document 1 has neither apiVersion nor kind: not a Kubernetes object\)\n$/, 'replicas: 3\n'],
  ])('exits 2 on %s', (_, args, message, stdin = '') => {
    const { code, err } = run(args as string[], stdin as string);
    expect(code).toBe(2);
    expect(err).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });
});
