/**
 * The checks against a real API server: every corpus manifest
 * (test/corpus/cases.ts) is sent with `kubectl apply --dry-run=server
 * --validate=strict` (`--server-side` where the case says so) and checked by
 * the manifest checks at the server's version (`--kubernetes-version 1.35`
 * for a 1.35 server; the corpus records 1.32's and 1.35's answers). Every
 * file must get the verdict the corpus records for that version from the
 * server, the server's warnings must be the ones recorded, and the checks
 * must give the server's verdict, but for the pairs test/corpus/pending.ts
 * lists (printed apart). Prints the agreement as a figure.
 *
 * The corpus namespace enforces and warns Pod Security "restricted" v1.28. A
 * Pod Security warning at the enforced level on a workload counts as a
 * refusal: its pods would be refused. A dry run cannot create what later
 * objects need, so the Namespaces and CustomResourceDefinitions that cases
 * hold are created for real first (and deleted at the end); their names carry
 * the corpus namespace, so that runs on a shared cluster do not meet.
 *
 * Usage: KUBECONFIG=... [CORPUS_NAMESPACE=...] npm run --silent agreement [-- --record FILE]
 * (--record writes each case's answers, as JSON, for updating the corpus)
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { checksVerdict, CORPUS, CORPUS_NAMESPACE, CorpusCase, corpusFiles, pendingReason, SERVER_VERSIONS, serverVerdict, ServerVersion, Verdict } from '../test/corpus/cases';

/** What the server answered: the verdict, the line that says why, and its warnings (not Pod Security's). */
interface ServerVerdict { verdict: Verdict; said: string; warnings: string[] }

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const kubectl = (...args: string[]) => spawnSync('kubectl', args, { encoding: 'utf-8' });

/** The Pod Security level a case's pods are enforced at: its own Namespace's, or the corpus namespace's. */
function enforcedLevel(c: CorpusCase): string {
  const namespaces = c.objects.filter((o) => o.kind === 'Namespace');
  const used = c.objects.map((o) => o.metadata?.namespace).find((n) => typeof n === 'string');
  const own = namespaces.find((n) => n.metadata?.name === used);
  return own ? own.metadata?.labels?.['pod-security.kubernetes.io/enforce'] ?? 'privileged' : 'restricted';
}

function apply(c: CorpusCase, file: string): Promise<ServerVerdict> {
  // Objects that name their namespace go there; kubectl refuses -n that differs from it.
  const namespaced = c.objects.some((o) => typeof o.metadata?.namespace === 'string');
  const args = ['apply', '--dry-run=server', '--validate=strict', ...(c.apply === 'server-side' ? ['--server-side', '--field-manager=corpus'] : []), ...(namespaced ? [] : ['-n', CORPUS_NAMESPACE]), '-f', file];
  const level = enforcedLevel(c);
  return new Promise((resolve) => {
    const child = spawn('kubectl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => {
      const warned = new RegExp(`Warning: would violate PodSecurity "${level}:`).test(out);
      const warnings = out.split('\n').filter((l) => l.startsWith('Warning: ') && !l.startsWith('Warning: would violate PodSecurity')).map((l) => l.slice('Warning: '.length).trim());
      resolve({ verdict: code === 0 && !warned ? 'accepted' : 'refused', said: out.trim().split('\n').find((l) => /error|Error|Warning|invalid|forbidden/i.test(l)) ?? out.trim().split('\n')[0] ?? '', warnings });
    });
  });
}

/** Creates for real the Namespaces and CRDs the cases hold; returns the file to delete them with. */
function createPrerequisites(dir: string): string | undefined {
  const seen = new Map<string, Obj>();
  for (const c of CORPUS) {
    // Only what other objects of the case need: a Namespace they are in, a CRD of their group.
    const namespaces = new Set(c.objects.map((o) => o.metadata?.namespace));
    const groups = new Set(c.objects.map((o) => String(o.apiVersion).split('/')[0]));
    for (const o of c.objects) {
      if ((o.kind === 'Namespace' && namespaces.has(o.metadata?.name)) || (o.kind === 'CustomResourceDefinition' && groups.has(o.spec?.group))) {
        seen.set(`${o.kind}/${o.metadata.name}`, o);
      }
    }
  }
  if (seen.size === 0) {
    return undefined;
  }
  const file = path.join(dir, 'prerequisites.yaml');
  fs.writeFileSync(file, [...seen.values()].map((o) => stringify(o)).join('---\n'));
  const created = kubectl('apply', '-f', file);
  if (created.status !== 0) {
    throw new Error(`cannot create the corpus' namespaces and CRDs: ${created.stderr.trim()}`);
  }
  const crds = [...seen.values()].filter((o) => o.kind === 'CustomResourceDefinition').map((o) => `crd/${o.metadata.name}`);
  if (crds.length > 0) {
    kubectl('wait', '--for=condition=Established', '--timeout=60s', ...crds);
  }
  return file;
}

/** The warnings recorded for this version that the server did not give, and those it gave that none recorded. */
function warningProblems(c: CorpusCase, version: ServerVersion, given: string[]): string[] {
  const recorded = c.warnings?.[version] ?? [];
  return [
    ...recorded.filter((r) => !given.some((g) => g.includes(r))).map((r) => `the corpus records the warning "${r}", the server gave none like it`),
    ...given.filter((g) => !recorded.some((r) => g.includes(r))).map((g) => `the server warns "${g}", the corpus records no such warning`),
  ];
}

interface Result { id: string; server: ServerVerdict; checks: Verdict; recorded: Verdict; pending?: string; checksWarnings: string[] }

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const record = args[0] === '--record' ? args[1] : undefined;
  if (args.length > 0 && (record === undefined || args.length !== 2)) {
    console.error(`agreement: unknown arguments "${args.join(' ')}"; usage: npm run agreement [-- --record FILE]`);
    return 2;
  }
  const version = kubectl('version', '-o', 'json');
  if (version.status !== 0) {
    console.error(`agreement: no cluster reachable: ${version.stderr.trim().split('\n').pop()}`);
    return 1;
  }
  const serverVersion = JSON.parse(version.stdout).serverVersion;
  const server: string = serverVersion?.gitVersion;
  const minor = `${serverVersion?.major}.${String(serverVersion?.minor).replace(/\D+$/, '')}`;
  if (!(SERVER_VERSIONS as readonly string[]).includes(minor)) {
    console.error(`agreement: the server is ${server}; the corpus records the answers of ${SERVER_VERSIONS.join(' and ')} only`);
    return 1;
  }
  const at = minor as ServerVersion;
  kubectl('delete', 'namespace', CORPUS_NAMESPACE, '--ignore-not-found', '--wait=true');
  const created = kubectl('create', 'namespace', CORPUS_NAMESPACE);
  if (created.status !== 0) {
    console.error(`agreement: cannot create namespace ${CORPUS_NAMESPACE}: ${created.stderr.trim()}`);
    return 1;
  }
  kubectl('label', 'namespace', CORPUS_NAMESPACE, 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/enforce-version=v1.28', 'pod-security.kubernetes.io/warn=restricted', 'pod-security.kubernetes.io/warn-version=v1.28');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
  let prerequisites: string | undefined;
  try {
    prerequisites = createPrerequisites(dir);
    const files = corpusFiles(path.join(dir, 'cases'));
    const results: Result[] = [];
    const queue = [...CORPUS];
    const workers = Array.from({ length: 6 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const file = files.get(c.id)!;
        const checks = checksVerdict(c, fs.readFileSync(file, 'utf-8'), file, at);
        results.push({ id: c.id, server: await apply(c, file), checks: checks.verdict, recorded: serverVerdict(c, at), pending: pendingReason(c.id, at), checksWarnings: checks.warnings.map((f) => `${f.rule.id} ${f.path}`) });
      }
    });
    await Promise.all(workers);
    results.sort((a, b) => a.id.localeCompare(b.id));
    if (record) {
      fs.writeFileSync(record, JSON.stringify({ server, version: at, cases: results }, null, 1));
    }
    const byId = new Map(CORPUS.map((c) => [c.id, c]));
    const agree = results.filter((r) => r.server.verdict === r.checks);
    const problems: string[] = [];
    for (const r of results) {
      if (r.server.verdict !== r.recorded) {
        problems.push(`${r.id}: the corpus records "${r.recorded}" at ${at} but ${server} says ${r.server.verdict}: ${r.server.said}`);
      }
      for (const w of warningProblems(byId.get(r.id)!, at, r.server.warnings)) {
        problems.push(`${r.id}: ${w}`);
      }
      if (r.pending === undefined && r.server.verdict !== r.checks) {
        problems.push(`${r.id}: the server says ${r.server.verdict} (${r.server.said}), the checks at ${at} say ${r.checks}`);
      }
      if (r.pending !== undefined && r.server.verdict === r.checks) {
        problems.push(`${r.id}: listed as pending at ${at} (${r.pending}) but both say ${r.checks}: remove it from test/corpus/pending.ts`);
      }
    }
    const pending = results.filter((r) => r.pending !== undefined && r.server.verdict !== r.checks);
    for (const r of pending) {
      console.log(`   pending at ${at}: ${r.id}: server ${r.server.verdict}, checks ${r.checks}: ${r.pending}`);
    }
    const warned = results.filter((r) => r.server.warnings.length > 0).length;
    const percent = (100 * agree.length / results.length).toFixed(1);
    const unexplained = results.length - agree.length - pending.length;
    console.log(`agreement with ${server} at --kubernetes-version ${at}: ${agree.length}/${results.length} manifests (${percent}%); ${results.length - agree.length} disagreement(s): ${pending.length} pending (test/corpus/pending.ts), ${unexplained} unexplained; ${warned} case(s) with server warnings; ${problems.length} problem(s)`);
    for (const p of problems) {
      console.error(`   MISMATCH ${p}`);
    }
    return problems.length === 0 ? 0 : 1;
  } finally {
    if (prerequisites) {
      kubectl('delete', '-f', prerequisites, '--ignore-not-found', '--wait=false');
    }
    fs.rmSync(dir, { recursive: true, force: true });
    kubectl('delete', 'namespace', CORPUS_NAMESPACE, '--wait=false');
  }
}

main().then((code) => { process.exitCode = code; }, (e) => { console.error(`agreement: ${(e as Error).message}`); process.exitCode = 1; });
