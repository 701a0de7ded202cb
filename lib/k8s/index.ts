/**
 * Kubernetes syntax and scheduling semantics shared by the constructs, the
 * manifest checks and eligibility: functions that return problems, never throw.
 * @module
 */
export * from './apply';
export * from './quantity';
export * from './scheduling';
export * from './syntax';
