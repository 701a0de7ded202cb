/**
 * `node-reporter diff`: what a manifest change does to a cluster. Two
 * manifest sets -> the objects added, removed and changed, each with its
 * impacts (rollout, immutable, rbac-widened, rbac-narrowed, pod-security, duplicate, nodes-lost, config-in-place,
 * eligibility, resources, prune, image, all-waves). It asks lib/checks and
 * lib/eligibility for the rules and imports no construct.
 *
 * The public surface of `node-reporter/diff`, each name on purpose
 * (test/public-api.test.ts pins it); the formatters' line helpers are internal.
 *
 * @module node-reporter/diff
 */
export { diffManifests, DiffOptions, SourcedObject } from './diff';
export { formatDiffJson, formatDiffMarkdown, formatDiffText } from './format';
export { ChangeKind, DesiredChange, DiffReport, DiffSummary, Impact, IMPACT_KINDS, ImpactKind, ObjectDiff, WaveReach } from './types';
