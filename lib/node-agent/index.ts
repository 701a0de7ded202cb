/**
 * NodeAgent, the DaemonSet for any node agent, and its parts: the names of
 * its public API (the construct, its props and their enums), which the
 * package's index re-exports. The parts' rendering and prop checks are
 * internal: lib/ imports them from their files.
 * @module
 */
export { AdoptedRbacNames, AdoptedServiceNames, AgentAdoption } from './adoption';
export { ContainerEnvFrom, ContainerHandler, ContainerLifecycle, ContainerProbe } from './cdk8s-plus';
export { AgentConfig, CONFIG_CHECKSUM_ANNOTATION, ConfigChange } from './config';
export { AgentContainer, AgentSecurityContext, SeLinuxOptions, TerminationMessagePolicy, WindowsSecurityOptions } from './containers';
export { DownwardApi } from './downward-api';
export { AgentEnvFrom, AgentEnvFromOptions } from './env-from';
export { AgentExtraServiceAccount, AgentGrant } from './grants';
export { AgentMetrics } from './metrics';
export { NodeAgent } from './node-agent';
export { AgentPodSecurity, PodSecurityLevel } from './pod-security';
export { AgentHttpGetProbeOptions, AgentProbe, ProbeHttpHeader } from './probes';
export { NodeAgentProps, PodAntiAffinityTerm } from './props';
export { AgentAccountGrants, AgentPolicyRule, AgentServiceAccount, AgentSubject } from './rbac';
export { AgentService, AgentServicePort } from './services';
export { NodeAgentTargetProps, RecursiveReadOnly } from './target';
export { AgentRollingUpdateOptions, AgentUpdateStrategy } from './update-strategy';
export { AgentMount, AgentVolume, AgentVolumeKind, DownwardApiFile, EmptyDirOptions, HostPathMount, HostPathOptions, KeysVolumeOptions, KeyToPath, ProjectedKeysOptions, ProjectedSource, ProjectedVolumeOptions, ServiceAccountTokenOptions } from './volumes';
export { AgentWave } from './wave';
