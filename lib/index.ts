/**
 * Node agents as typed cdk8s constructs: the eligibility policy, the node
 * reporter DaemonSet, its chart and the pieces they are made of.
 *
 * This file is the package's public surface (`node-reporter`): the
 * constructs, their props interfaces and enums, and the Helm helpers a
 * cdk8s app needs. Each name is listed on purpose; everything else in lib/
 * (Kubernetes syntax helpers in k8s/, the agent's rendering and prop checks,
 * naming helpers, the app's variant plumbing) is internal and may change in
 * any release. test/public-api.test.ts pins this list.
 * @module node-reporter
 */
// The Kubernetes shapes the constructs' props and results are typed by (types only).
export type { Affinity, NodeAffinity, NodeSelector, NodeSelectorOperator, NodeSelectorRequirement, NodeSelectorTerm, Toleration } from './k8s/scheduling';
export { LabeledNodePolicy, LabeledNodePolicyProps } from './labeled-node-policy';
export {
  AdoptedRbacNames, AdoptedServiceNames, AgentAccountGrants, AgentAdoption,
  AgentConfig,   AgentContainer,   AgentEnvFrom, AgentEnvFromOptions,
  AgentExtraServiceAccount, AgentGrant,
  AgentHttpGetProbeOptions,   AgentMetrics,
  AgentMount,   AgentPodSecurity,
  AgentPolicyRule, AgentProbe,   AgentRollingUpdateOptions, AgentSecurityContext,   AgentService, AgentServiceAccount, AgentServicePort,
  AgentSubject,
  AgentUpdateStrategy,
  AgentVolume, AgentVolumeKind, AgentWave, CONFIG_CHECKSUM_ANNOTATION, ConfigChange,
  ContainerEnvFrom, ContainerHandler, ContainerLifecycle, ContainerProbe,
  DownwardApi,
  DownwardApiFile, EmptyDirOptions, HostPathMount, HostPathOptions, KeysVolumeOptions, KeyToPath,
  NodeAgent,
  NodeAgentProps,   NodeAgentTargetProps, PodAntiAffinityTerm,
  PodSecurityLevel,
  ProbeHttpHeader,
  ProjectedKeysOptions, ProjectedSource, ProjectedVolumeOptions, RecursiveReadOnly,
  SeLinuxOptions, ServiceAccountTokenOptions,
  TerminationMessagePolicy, WindowsSecurityOptions,
} from './node-agent';
export { NodePolicy, NodePolicyProps, NodePolicyScheduling, NodeRequirement } from './node-policy';
export { NodeReporterChart, NodeReporterChartProps } from './node-reporter-chart';
export { NodeReporterDaemonSet, NodeReporterDaemonSetProps, NodeReporterOptions } from './node-reporter-daemon-set';
export { CONTROL_PLANE_TAINT_KEY, NodeToleration, NodeTolerationOptions, TaintEffect } from './node-toleration';
export { PodSecurityNamespace, PodSecurityNamespaceProps } from './pod-security-namespace';
export { RestrictedNamespace, RestrictedNamespaceProps } from './restricted-namespace';
export { finishHelmChart, HelmChartOptions, synthesizesHelmChart } from './variants';
