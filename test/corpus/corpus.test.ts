/**
 * The checks at each version give every corpus manifest the verdict that
 * version's API server gives it (recorded in cases.ts, and confirmed against
 * real 1.32 and 1.35 servers in CI by e2e/agreement.ts), and the warnings it
 * gives; but for the pairs PENDING lists, which must still disagree.
 */
import { CHECKED_VERSIONS, checksVerdict, CORPUS, corpusYaml, expectedVerdict, mirroredWarningPaths, normalPath, PENDING, pendingKey, pendingReason, SERVER_VERSIONS } from './cases';

const pairs = CORPUS.flatMap((c) => CHECKED_VERSIONS.map((v) => [`${c.id} at ${v}`, c, v] as const));

describe('the corpus', () => {
  test('has at least 350 manifests, each with a unique id', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(350);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
  });

  test('records version-sensitive cases: some servers differ, some 1.28 answers differ, and some warn', () => {
    expect(CORPUS.filter((c) => SERVER_VERSIONS.some((v) => c.servers?.[v] !== undefined && c.servers[v] !== c.server)).length).toBeGreaterThanOrEqual(10);
    expect(CORPUS.filter((c) => c.at128 !== undefined && c.at128 !== c.server).length).toBeGreaterThanOrEqual(10);
    expect(CORPUS.filter((c) => c.warnings !== undefined).length).toBeGreaterThanOrEqual(2);
  });

  test('lists as pending only pairs of cases it holds', () => {
    const keys = new Set(CORPUS.flatMap((c) => CHECKED_VERSIONS.flatMap((v) => [pendingKey(c.id, v), pendingKey(c.id, v, 'warnings')])));
    expect(Object.keys(PENDING).filter((k) => !keys.has(k))).toEqual([]);
  });

  test.each(pairs)('%s: the checks at that version agree with its API server', (_, c, version) => {
    const { verdict, blocking } = checksVerdict(c, corpusYaml(c), `${c.id}.yaml`, version);
    const expected = expectedVerdict(c, version);
    const pending = pendingReason(c.id, version);
    if (pending !== undefined) {
      if (verdict === expected) {
        throw new Error(`${c.id}: the checks at ${version} now say ${verdict}, as the server does: remove '${pendingKey(c.id, version)}' from test/corpus/pending.ts`);
      }
      return;
    }
    if (verdict !== expected) {
      throw new Error(`${c.id}: the checks at ${version} say ${verdict}, the ${version === '1.28' ? '1.28 sources' : `${version} server`} ${expected}; blocking findings:\n${blocking.map((f) => `${f.rule.id} ${f.path}: ${f.message}`).join('\n') || '(none)'}`);
    }
  });

  const warned = CORPUS.filter((c) => CHECKED_VERSIONS.some((v) => (mirroredWarningPaths(c, v) ?? []).length > 0))
    .flatMap((c) => CHECKED_VERSIONS.filter((v) => mirroredWarningPaths(c, v) !== undefined).map((v) => [`${c.id} at ${v}`, c, v] as const));
  test.each(warned)('%s: the checks warn where that version\'s server warns, and only there', (_, c, version) => {
    const { warnings } = checksVerdict(c, corpusYaml(c), `${c.id}.yaml`, version);
    const paths = new Set(warnings.map((f) => normalPath(f.path)));
    const all = new Set(CHECKED_VERSIONS.flatMap((v) => mirroredWarningPaths(c, v) ?? []));
    const want = new Set(mirroredWarningPaths(c, version));
    const wrong = [...all].filter((p) => paths.has(p) !== want.has(p)).map((p) => `${p}: ${want.has(p) ? 'the server warns, the checks do not' : 'the checks warn, the server does not'}`);
    const pending = pendingReason(c.id, version, 'warnings');
    if (pending !== undefined) {
      if (wrong.length === 0) {
        throw new Error(`${c.id}: the checks at ${version} now warn as the server does: remove '${pendingKey(c.id, version, 'warnings')}' from test/corpus/pending.ts`);
      }
      return;
    }
    if (wrong.length > 0) {
      throw new Error(`${c.id} at ${version}:\n${wrong.join('\n')}\nthe checks' warnings:\n${warnings.map((f) => `${f.rule.id} ${f.path}: ${f.message}`).join('\n') || '(none)'}`);
    }
  });
});
