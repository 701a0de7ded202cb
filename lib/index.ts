/**
 * Node agents as typed cdk8s constructs: the eligibility policy, the node
 * reporter DaemonSet, its chart and the pieces they are made of.
 * @module node-reporter
 */
export * from './cluster-scoped';
export * from './defaults';
export * from './k8s';
export * from './kubernetes-target';
export * from './labeled-node-policy';
export * from './node-agent';
export * from './node-policy';
export * from './node-reporter-chart';
export * from './node-reporter-daemon-set';
export * from './node-toleration';
export * from './pod-security-namespace';
export * from './restricted-namespace';
export * from './variants';
