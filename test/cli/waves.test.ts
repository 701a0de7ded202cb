/**
 * The CLI reads waves in any YAML that carries the wave labels (issue 35,
 * item 4): `check` and `eligible --manifest` on hand-written waves, one set
 * whose last wave forgets the canary label and one that is disjoint.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Io, main } from '../../lib/cli/node-reporter';

const fixtures = path.join(__dirname, '..', 'fixtures', 'waves');
const overlapping = path.join(fixtures, 'overlapping.yaml');
const disjoint = path.join(fixtures, 'disjoint.yaml');
const nodes = path.join(fixtures, 'nodes.json');

function run(args: string[]) {
  let out = '';
  let err = '';
  const io: Io = { readFile: (file) => fs.readFileSync(file), out: (t) => { out += t; }, err: (t) => { err += t; } };
  return { code: main(args, io), out, err };
}

describe('node-reporter check on waves', () => {
  test('fails overlapping waves, naming both DaemonSets and the node labels, with no node list', () => {
    const { code, out } = run(['check', overlapping]);
    expect(code).toBe(1);
    expect(out).toContain('DaemonSet/log-shipper: spec.template.spec: error [wave-overlap] wave "main" of agent "log-shipper" (DaemonSet "log-shipper") and wave "canary" (DaemonSet "log-shipper-canary") can both run on one node: a node labelled kubernetes.io/os=linux, node-reporter.dev/rollout-wave=canary is selected by both');
  });

  test('passes disjoint waves', () => {
    expect(run(['check', disjoint, '--strict']).code).toBe(0);
  });
});

describe('node-reporter eligible --manifest on waves', () => {
  test('JSON names each DaemonSet\'s agent and wave, and groups the agent\'s waves with their node counts', () => {
    // WHEN
    const { code, out, err } = run(['eligible', '--nodes', nodes, '--manifest', disjoint, '-o', 'json']);

    // THEN
    expect([code, err]).toEqual([0, '']);
    const json = JSON.parse(out);
    expect(json.daemonSets.map((d: Record<string, unknown>) => [d.name, d.agent, d.wave, d.desired])).toEqual([
      ['log-shipper-canary', 'log-shipper', 'canary', 1], ['log-shipper-early', 'log-shipper', 'early', 2], ['log-shipper', 'log-shipper', 'main', 2],
    ]);
    expect(json.agents).toEqual([{
      agent: 'log-shipper', namespace: 'monitoring', nodes: 5, of: 6,
      waves: [{ wave: 'canary', daemonSet: 'log-shipper-canary', desired: 1 }, { wave: 'early', daemonSet: 'log-shipper-early', desired: 2 }, { wave: 'main', daemonSet: 'log-shipper', desired: 2 }],
      overlaps: [],
    }]);
  });

  test('text leads with the agent\'s waves, and each report names its agent and wave', () => {
    const { code, out } = run(['eligible', '--nodes', nodes, '--manifest', disjoint, '--strict']);
    expect(code).toBe(0);
    expect(out.split('\n').slice(0, 5)).toEqual([
      'agent log-shipper (namespace monitoring): 5 of 6 nodes in 3 waves',
      '  wave canary  1 node (DaemonSet log-shipper-canary)',
      '  wave early   2 nodes (DaemonSet log-shipper-early)',
      '  wave main    2 nodes (DaemonSet log-shipper)',
      '',
    ]);
    expect(out).toContain('DaemonSet monitoring/log-shipper-canary (agent log-shipper, wave canary)\ndesired: 1 (1 of 6 nodes eligible, 5 skipped)');
  });

  test('a node in two waves is an overlap naming the node and both waves; --strict exits 1', () => {
    // WHEN
    const loose = run(['eligible', '--nodes', nodes, '--manifest', overlapping]);
    const strict = run(['eligible', '--nodes', nodes, '--manifest', overlapping, '--strict', '-o', 'json']);
    const markdown = run(['eligible', '--nodes', nodes, '--manifest', overlapping, '-o', 'markdown']);

    // THEN
    const line = 'node node-1 is eligible for 2 waves of agent log-shipper (namespace monitoring): canary (DaemonSet log-shipper-canary) and main (DaemonSet log-shipper); it would run the agent twice';
    expect(loose.code).toBe(0);
    expect(loose.out).toContain(`  overlap: ${line}\n`);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out).agents[0].overlaps).toEqual([{ node: 'node-1', waves: ['canary', 'main'], daemonSets: ['log-shipper-canary', 'log-shipper'] }]);
    expect(markdown.out).toContain(`**1 node in more than one wave:**\n\n- ${line}`);
  });

  test('a manifest without wave labels prints no agents', () => {
    const plain = fs.readFileSync(disjoint, 'utf-8').replace(/^ {4}node-reporter\.dev\/(agent|wave): .*\n/gm, '');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waves-'));
    try {
      fs.writeFileSync(path.join(dir, 'plain.yaml'), plain);
      const json = JSON.parse(run(['eligible', '--nodes', nodes, '--manifest', path.join(dir, 'plain.yaml'), '-o', 'json']).out);
      expect(json.agents).toBeUndefined();
      expect(json.daemonSets.map((d: Record<string, unknown>) => ['agent' in d, 'wave' in d])).toEqual([[false, false], [false, false], [false, false]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/waves.md', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'waves.md'), 'utf-8');
  const relative = (file: string) => path.relative(path.join(__dirname, '..', '..'), file);

  test('shows what check and eligible print for the hand-written waves', () => {
    // GIVEN the commands the page shows, run from the repository's root as it shows them
    const check = run(['check', overlapping]).out.split('\n')[0].replace(overlapping, relative(overlapping));
    const eligible = run(['eligible', '--nodes', nodes, '--manifest', overlapping]).out.split('\n').slice(0, 8).join('\n');

    // THEN the page holds the same lines
    expect(doc).toContain(`$ npx node-reporter check test/fixtures/waves/overlapping.yaml\n${check}\n`);
    expect(doc).toContain(`$ npx node-reporter eligible --nodes test/fixtures/waves/nodes.json --manifest test/fixtures/waves/overlapping.yaml\n${eligible}\n`);
  });
});
