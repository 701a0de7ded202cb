/**
 * A projected serviceAccountToken with no audience is an API token, mounted
 * whatever automountServiceAccountToken says. The v1.35.6 API server accepts
 * such a pod (automountServiceAccountToken: false, no serviceAccountName),
 * the kubelet writes the token, and a TokenReview of it answers
 * `authenticated: true` as `system:serviceaccount:default:default`: the
 * checks warn.
 */
import { checkObject, isBlocking, KubeObject, Severity } from '../../lib/checks';
import { cleanDaemonSet, podOf } from './baseline';

function withToken(token: KubeObject, pod: KubeObject = {}): KubeObject {
  const ds = cleanDaemonSet();
  Object.assign(podOf(ds), pod, { volumes: [{ name: 'token', projected: { sources: [{ serviceAccountToken: token }] } }] });
  return ds;
}

const found = (obj: KubeObject) => checkObject(obj).map((f) => `${f.rule.id} ${f.severity} ${f.path}`);
const AT = 'spec.template.spec.volumes[0].projected.sources[0].serviceAccountToken.audience';

describe('projected API tokens', () => {
  test('a pod that opts out of its token but projects one with no audience is warned of', () => {
    // GIVEN the clean DaemonSet sets automountServiceAccountToken: false and names no ServiceAccount
    const findings = checkObject(withToken({ path: 'token' }));

    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.severity} ${f.path}`)).toEqual([`projected-api-token ${Severity.WARNING} ${AT}`]);
    expect(findings[0].message).toBe("a serviceAccountToken with no audience is an API token, of the namespace's default ServiceAccount (the pod names none), which every pod of the namespace runs as, mounted though the pod sets automountServiceAccountToken: false");
    expect(findings.some(isBlocking)).toBe(false);
  });

  test("the default ServiceAccount's API token is warned of even when the pod mounts its token", () => {
    expect(found(withToken({ path: 'token', audience: '' }, { automountServiceAccountToken: true, serviceAccountName: 'default' }))).toEqual([`projected-api-token ${Severity.WARNING} ${AT}`]);
  });

  test('a token for an audience, or the API token of a ServiceAccount of its own that the pod mounts, is fine', () => {
    expect(found(withToken({ path: 'token', audience: 'vault' }))).toEqual([]);
    expect(found(withToken({ path: 'token' }, { automountServiceAccountToken: true, serviceAccountName: 'agent' }))).toEqual([]);
  });
});
