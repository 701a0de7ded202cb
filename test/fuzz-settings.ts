/**
 * The fuzz tests' run settings: FUZZ_RUNS cases per target (250 in
 * `npm test`; `.ci/run` runs 5000) from the seed FUZZ_SEED, so that every run
 * sees the same cases and a failure can be replayed.
 */

/** Cases per target. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

/** The seed every generator starts from. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
