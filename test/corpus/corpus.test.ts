/**
 * The checks give every corpus manifest the verdict the API server gives it
 * (recorded in cases.ts, and confirmed against a real server in CI by
 * e2e/agreement.ts), except the few listed where 1.28 and 1.32 differ.
 */
import { checksVerdict, CORPUS, corpusYaml } from './cases';

describe('the corpus', () => {
  test('has at least 350 manifests, each with a unique id', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(350);
    expect(new Set(CORPUS.map((c) => c.id)).size).toBe(CORPUS.length);
  });

  test.each(CORPUS.map((c) => [c.id, c] as const))('%s: the checks agree with the API server', (_, c) => {
    const { verdict, blocking } = checksVerdict(c, corpusYaml(c), `${c.id}.yaml`);
    const expected = c.differs ? (c.server === 'accepted' ? 'refused' : 'accepted') : c.server;
    if (verdict !== expected) {
      throw new Error(`${c.id}: the checks say ${verdict}, want ${expected}; blocking findings:\n${blocking.map((f) => `${f.rule.id} ${f.path}: ${f.message}`).join('\n') || '(none)'}`);
    }
  });
});
