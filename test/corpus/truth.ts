/**
 * Corpus cases of issue 33 ("diff and check tell the truth"): what `check`
 * judged wrong against the Kubernetes source. Each verdict is read from the
 * source of the release named beside it (CI asks the v1.32 and v1.35
 * servers).
 */
import { configMap, CorpusCase, ok } from './bases';

export const TRUTH: readonly CorpusCase[] = [
  // One object twice: kubectl apply creates it, then updates it; the server accepts both (check warns, object-twice).
  { id: 'input-object-twice', server: ok, objects: [configMap(), { ...configMap(), data: { 'agent.conf': 'level=debug' } }] },
];
