/**
 * `node-reporter diff`: what a manifest change does to a cluster. Two
 * manifest sets -> the objects added, removed and changed, each with its
 * impacts (rollout, immutable, rbac-widened, rbac-narrowed, pod-security,
 * eligibility, resources, prune, image). It asks lib/checks and
 * lib/eligibility for the rules and imports no construct.
 *
 * @module node-reporter/diff
 */
export * from './diff';
export * from './format';
export * from './types';
