/**
 * "Which nodes are eligible?": the DaemonSet controller's decision over node
 * objects, node-list reading, and the kubectl commands that fix a node.
 *
 * @module node-reporter/eligibility
 */
export * from './evaluate';
export * from './format';
export * from './kubectl';
export * from './manifest';
export * from './node-list';
export * from './printable';
