export * from './defaults';
export * from './labeled-node-policy';
export * from './node-reporter-chart';
export * from './node-reporter-daemon-set';
export * from './node-toleration';
