/**
 * Corpus cases for Pod Security at the namespace's level (issue 17, item 3):
 * the input holds the Namespace, whose labels the server enforces, and the
 * checks judge its workloads at that level, waivers or not.
 */
import { barePod, CorpusCase, daemonSet, deployment, make, makeIn, no, Obj, ok, podSecurityNamespace } from './bases';

const baseline = podSecurityNamespace('baseline');
const privileged = podSecurityNamespace('privileged');
const restricted = podSecurityNamespace('restricted');
const warnOnly = podSecurityNamespace('privileged', 'restricted');
const baselineWarn = podSecurityNamespace('baseline', 'restricted');

/** Removes the restricted hardening of the clean pod: still baseline. */
function unharden(_: Obj, p: Obj, c: Obj): void {
  delete c.securityContext;
  delete p.securityContext;
}

/** A Namespace, not created, with these labels. */
const labelled = (labels: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${podSecurityNamespace(undefined).metadata.name}-labels`, labels } });

const waive = (rule: string) => (o: Obj) => { o.metadata.annotations = { ...o.metadata.annotations, [`checks.node-reporter.dev/waive-${rule}`]: 'corpus: on purpose' }; };

export const POD_SECURITY_LEVELS: readonly CorpusCase[] = [
  makeIn('psa-baseline-admits-unhardened-daemonset', baseline, daemonSet, ok, unharden),
  makeIn('psa-baseline-refuses-host-pid', baseline, daemonSet, no, (_, p) => { p.hostPID = true; }),
  makeIn('psa-baseline-waiver-does-not-admit', baseline, daemonSet, no, (o, p) => { p.hostPID = true; waive('pss-host-namespaces')(o); }),
  makeIn('psa-baseline-refuses-host-path', baseline, daemonSet, no, (_, p, c) => { p.volumes = [{ name: 'logs', hostPath: { path: '/var/log' } }]; c.volumeMounts = [{ name: 'logs', mountPath: '/logs', readOnly: true }]; }),
  makeIn('psa-baseline-refuses-privileged', baseline, deployment, no, (_, __, c) => { c.securityContext = { privileged: true }; }),
  makeIn('psa-baseline-admits-unhardened-pod', baseline, barePod, ok, unharden),
  makeIn('psa-baseline-refuses-host-pid-pod', baseline, barePod, no, (_, p) => { p.hostPID = true; }),
  makeIn('psa-baseline-refuses-net-admin', baseline, daemonSet, no, (_, __, c) => { c.securityContext.capabilities = { add: ['NET_ADMIN'] }; }),
  makeIn('psa-baseline-admits-default-capability', baseline, daemonSet, ok, (_, __, c) => { c.securityContext = { capabilities: { add: ['CHOWN'] } }; }),
  makeIn('psa-privileged-admits-host-pid', privileged, daemonSet, ok, (_, p) => { p.hostPID = true; }),
  makeIn('psa-privileged-admits-privileged-pod', privileged, barePod, ok, (_, __, c) => { c.securityContext = { privileged: true }; }),
  makeIn('psa-restricted-in-input-refuses-unhardened', restricted, daemonSet, no, unharden),
  makeIn('psa-restricted-in-input-waiver-does-not-admit', restricted, daemonSet, no, (o, p) => { p.hostPID = true; waive('pss-host-namespaces')(o); }),
  makeIn('psa-restricted-in-input-admits-clean', restricted, daemonSet, ok),
  // warn gives warnings: the server admits, with "would violate".
  makeIn('psa-warn-only-admits-host-pid', warnOnly, daemonSet, ok, (_, p) => { p.hostPID = true; }),
  makeIn('psa-baseline-warn-restricted-admits-unhardened-pod', baselineWarn, barePod, ok, unharden),
  makeIn('psa-baseline-warn-restricted-refuses-host-pid-pod', baselineWarn, barePod, no, (_, p) => { p.hostPID = true; }),
  // Invalid Pod Security labels on the Namespace itself.
  make('psa-label-level-capitalised', () => labelled({ 'pod-security.kubernetes.io/enforce': 'Baseline' }), no),
  make('psa-label-warn-level-bad', () => labelled({ 'pod-security.kubernetes.io/warn': 'strict' }), no),
  make('psa-label-version-bad', () => labelled({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.99x' }), no),
  make('psa-label-version-latest', () => labelled({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'latest' }), ok),
  make('psa-label-version-v1-28', () => labelled({ 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/audit-version': 'v1.28' }), ok),
];
