/**
 * Pod Security at the namespace's level (lib/checks/namespaces.ts and the
 * pipeline): a Namespace in the input sets the level its workloads are judged
 * at, and a waiver cannot admit what it enforces.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkInputs, checkObjects, Finding, isBlocking, KubeObject, Severity, WAIVER_PREFIX } from '../../lib/checks';
import { cleanDaemonSet, podOf } from './baseline';

const namespace = (labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring', labels } });
const hostPid = (annotations: Record<string, string> = {}) => {
  const ds = cleanDaemonSet();
  podOf(ds).hostPID = true;
  ds.metadata.annotations = annotations;
  return ds;
};
const unhardened = () => {
  const ds = cleanDaemonSet();
  delete podOf(ds).containers[0].securityContext;
  delete podOf(ds).securityContext.seccompProfile;
  return ds;
};
const summary = (findings: Finding[]) => findings.map((f) => `${f.rule.id} ${f.severity}${isBlocking(f) ? ' blocking' : ''}`);

describe('Pod Security at the level of a Namespace in the input', () => {
  test('judges a workload at its namespace\'s enforce level: baseline admits what restricted refuses', () => {
    // GIVEN a pod that breaks restricted controls only
    const ds = unhardened();

    // THEN restricted (the default) refuses it; a baseline namespace in the input admits it
    expect(checkObjects([ds]).some(isBlocking)).toBe(true);
    expect(checkObjects([namespace({ 'pod-security.kubernetes.io/enforce': 'baseline' }), ds])).toEqual([]);
  });

  test('a Namespace without an enforce label enforces nothing (pod-security-admission defaults to privileged)', () => {
    expect(checkObjects([namespace({}), hostPid()]).filter(isBlocking)).toEqual([]);
  });

  test('a waiver cannot admit a pod its namespace refuses: the finding stays blocking and says why', () => {
    // WHEN
    const findings = checkObjects([namespace({ 'pod-security.kubernetes.io/enforce': 'baseline' }), hostPid({ [`${WAIVER_PREFIX}pss-host-namespaces`]: 'needs the host PIDs' })]);

    // THEN
    expect(summary(findings)).toEqual(['pss-host-namespaces error blocking']);
    expect(findings[0].message).toBe('hostPID: true shares the node\'s namespace with the pod (namespace "monitoring" in the input enforces "baseline", and a waiver does not admit the pod there)');
  });

  test('a waiver still works for a namespace the input does not hold', () => {
    const findings = checkObjects([hostPid({ [`${WAIVER_PREFIX}pss-host-namespaces`]: 'needs the host PIDs' })]);
    expect(findings.map((f) => [f.rule.id, f.waived])).toEqual([['pss-host-namespaces', 'needs the host PIDs']]);
  });

  test('a waiver is counted and listed whatever admits the pod: a namespace of the input that admits it too', () => {
    // GIVEN a privileged namespace in the input, and a pod that breaks host namespaces with a waiver
    const findings = checkObjects([namespace({ 'pod-security.kubernetes.io/enforce': 'privileged' }), hostPid({ [`${WAIVER_PREFIX}pss-host-namespaces`]: 'needs the host PIDs' })]);

    // THEN the waiver is reported, waived and not blocking, saying what admits the pod
    expect(findings.map((f) => [f.rule.id, f.waived, isBlocking(f)])).toEqual([['pss-host-namespaces', 'needs the host PIDs', false]]);
    expect(findings[0].message).toMatch(/\(namespace "monitoring" in the input enforces "privileged", which admits it\)$/);
  });

  test('the fluent-bit example with its privileged Namespace reports its 3 waivers', () => {
    // GIVEN / WHEN
    const report = checkInputs([{ file: 'fluent-bit.k8s.yaml', text: fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'dist', 'fluent-bit.k8s.yaml'), 'utf-8') }]);
    // THEN
    expect([...new Set(report.findings.filter((f) => f.waived !== undefined).map((f) => f.rule.id))].sort()).toEqual(['pss-run-as-non-root', 'pss-run-as-user', 'pss-volume-types']);
    expect(report.findings.filter(isBlocking)).toEqual([]);
  });

  test('the warn level gives warnings, for what the enforce level admits', () => {
    const findings = checkObjects([namespace({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' }), unhardened()]);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.severity === Severity.WARNING && f.rule.id.startsWith('pss-'))).toBe(true);
    expect(findings[0].message).toMatch(/\(namespace "monitoring" warns at "restricted"\)$/);
  });

  test('the level for namespaces not in the input is an option', () => {
    expect(checkObjects([unhardened()], [], { podSecurity: 'baseline' })).toEqual([]);
    expect(summary(checkObjects([hostPid()], [], { podSecurity: 'baseline' }))).toEqual(['pss-host-namespaces error blocking']);
    expect(checkObjects([hostPid()], [], { podSecurity: 'privileged' })).toEqual([]);
  });

  test.each([
    ['pod-security.kubernetes.io/enforce', 'Baseline', 'Invalid value: "Baseline": must be one of privileged, baseline, restricted'],
    ['pod-security.kubernetes.io/warn-version', 'v1.99x', 'Invalid value: "v1.99x": must be "latest" or "v1.x"'],
  ])('refuses the Namespace label %s: %s, as pod-security-admission does', (key, value, message) => {
    const findings = checkObjects([namespace({ [key]: value })]);
    expect(findings.map((f) => [f.rule.id, f.message])).toEqual([['pod-security-labels', message]]);
  });
});
