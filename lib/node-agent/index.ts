/**
 * NodeAgent, the DaemonSet for any node agent, and its parts.
 * @module
 */
export * from './adoption';
export * from './cdk8s-plus';
export * from './config';
export * from './containers';
export * from './custom-resources';
export * from './downward-api';
export * from './env-from';
export * from './grants';
export * from './metadata';
export * from './metrics';
export * from './node-agent';
export * from './pod-security';
export * from './probes';
export * from './props';
export * from './rbac';
export * from './services';
export * from './target';
export * from './update-strategy';
export * from './volumes';
