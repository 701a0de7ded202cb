/**
 * The checks against a real API server: every corpus manifest
 * (test/corpus/cases.ts) is sent with `kubectl apply --dry-run=server
 * --validate=strict` into a namespace that enforces and warns Pod Security
 * "restricted" (a Pod Security warning on a workload counts as a refusal:
 * its pods would be refused), and checked by the manifest checks. Every file
 * must get the same verdict from both, but the few the corpus lists as
 * differing between 1.28 and 1.32. Prints the agreement as a figure.
 *
 * Usage: KUBECONFIG=... npm run --silent agreement
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkFiles, isBlocking } from '../lib/checks';
import { CORPUS, CORPUS_NAMESPACE, corpusFiles } from '../test/corpus/cases';

interface ServerVerdict { verdict: 'accepted' | 'refused'; said: string }

function apply(file: string): Promise<ServerVerdict> {
  return new Promise((resolve) => {
    const child = spawn('kubectl', ['apply', '--dry-run=server', '--validate=strict', '-n', CORPUS_NAMESPACE, '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => {
      const warned = /Warning: would violate PodSecurity/.test(out);
      resolve({ verdict: code === 0 && !warned ? 'accepted' : 'refused', said: out.trim().split('\n').find((l) => /error|Error|Warning|invalid|forbidden/i.test(l)) ?? out.trim().split('\n')[0] ?? '' });
    });
  });
}

async function main(): Promise<number> {
  const kubectl = (...args: string[]) => spawnSync('kubectl', args, { encoding: 'utf-8' });
  const version = kubectl('version', '-o', 'json');
  if (version.status !== 0) {
    console.error(`agreement: no cluster reachable: ${version.stderr.trim().split('\n').pop()}`);
    return 1;
  }
  const server = JSON.parse(version.stdout).serverVersion?.gitVersion;
  kubectl('delete', 'namespace', CORPUS_NAMESPACE, '--ignore-not-found', '--wait=true');
  const created = kubectl('create', 'namespace', CORPUS_NAMESPACE);
  if (created.status !== 0) {
    console.error(`agreement: cannot create namespace ${CORPUS_NAMESPACE}: ${created.stderr.trim()}`);
    return 1;
  }
  kubectl('label', 'namespace', CORPUS_NAMESPACE, 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/enforce-version=v1.28', 'pod-security.kubernetes.io/warn=restricted', 'pod-security.kubernetes.io/warn-version=v1.28');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
  try {
    const files = corpusFiles(dir);
    const results: Array<{ id: string; server: ServerVerdict; checks: 'accepted' | 'refused'; differs?: string; recorded: string }> = [];
    const queue = [...CORPUS];
    const workers = Array.from({ length: 6 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const file = files.get(c.id)!;
        const findings = checkFiles([file]);
        results.push({ id: c.id, server: await apply(file), checks: findings.some(isBlocking) ? 'refused' : 'accepted', differs: c.differs, recorded: c.server });
      }
    });
    await Promise.all(workers);
    results.sort((a, b) => a.id.localeCompare(b.id));
    const agree = results.filter((r) => r.server.verdict === r.checks);
    const problems: string[] = [];
    for (const r of results) {
      if (r.server.verdict !== r.recorded) {
        problems.push(`${r.id}: the corpus records "${r.recorded}" but ${server} says ${r.server.verdict}: ${r.server.said}`);
      }
      if (r.differs === undefined && r.server.verdict !== r.checks) {
        problems.push(`${r.id}: the server says ${r.server.verdict} (${r.server.said}), the checks say ${r.checks}`);
      }
      if (r.differs !== undefined && r.server.verdict === r.checks) {
        problems.push(`${r.id}: listed as differing (${r.differs}) but both say ${r.checks}`);
      }
    }
    for (const r of results.filter((x) => x.differs)) {
      console.log(`   differs on purpose: ${r.id}: server ${r.server.verdict}, checks ${r.checks}: ${r.differs}`);
    }
    const percent = (100 * agree.length / results.length).toFixed(1);
    console.log(`agreement with ${server}: ${agree.length}/${results.length} manifests (${percent}%), ${results.length - agree.length} listed differences (1.28 vs 1.32 or a rule stricter than the server), ${problems.length} unexplained`);
    for (const p of problems) {
      console.error(`   MISMATCH ${p}`);
    }
    return problems.length === 0 ? 0 : 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    kubectl('delete', 'namespace', CORPUS_NAMESPACE, '--wait=false');
  }
}

main().then((code) => { process.exitCode = code; }, (e) => { console.error(e); process.exitCode = 1; });
