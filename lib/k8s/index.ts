/**
 * Kubernetes syntax and scheduling semantics shared by the constructs, the
 * manifest checks and eligibility: functions that return problems, never throw.
 * Internal to the package: no entry point exports these helpers (README,
 * "Constructs and their props"); the index serves lib/ and its tests.
 * @module
 */
export * from './apply';
export * from './quantity';
export * from './scheduling';
export * from './syntax';
