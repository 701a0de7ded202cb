/**
 * Objects as the API server sees them before validation (lib/checks/normalize.ts):
 * nulls unset, fields of disabled feature gates dropped.
 */
import { checkObject, KubeObject } from '../../lib/checks';
import { normalize } from '../../lib/checks/normalize';
import { cleanDaemonSet, podOf } from './baseline';

const C = 'spec.template.spec.containers[0]';

describe('normalize', () => {
  test('reads an explicit null as unset, and leaves the caller\'s object alone', () => {
    // GIVEN
    const ds = cleanDaemonSet();
    podOf(ds).tolerations = [{ key: 'a', operator: 'Exists', effect: null }];
    podOf(ds).containers[0].securityContext.procMount = null;
    const before = structuredClone(ds);

    // WHEN
    const { object, problems } = normalize(ds);

    // THEN
    expect(object.spec.template.spec.tolerations).toEqual([{ key: 'a', operator: 'Exists' }]);
    expect('procMount' in object.spec.template.spec.containers[0].securityContext).toBe(false);
    expect(problems).toEqual([]);
    expect(ds).toEqual(before);
    expect(checkObject(ds)).toEqual([]);
  });

  test.each<[string, (ds: KubeObject) => void, string]>([
    ['procMount', (ds) => { podOf(ds).containers[0].securityContext.procMount = 'Unmasked'; }, `${C}.securityContext.procMount`],
    ['hostUsers', (ds) => { podOf(ds).hostUsers = false; }, 'spec.template.spec.hostUsers'],
    ['resizePolicy', (ds) => { podOf(ds).containers[0].resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]; }, `${C}.resizePolicy`],
  ])('drops %s (its feature gate is off in 1.28) with a warning, so no rule judges it', (_, change, path) => {
    const ds = cleanDaemonSet();
    change(ds);
    expect(checkObject(ds).map((f) => `${f.rule.id} ${f.severity} ${f.path}`)).toEqual([`dropped-field warning ${path}`]);
  });

  test('drops the alpha Job fields of 1.28', () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { backoffLimitPerIndex: -1, template: { spec: { ...podOf(cleanDaemonSet()), restartPolicy: 'Never' } } } };
    expect(checkObject(job).map((f) => `${f.rule.id} ${f.path}`)).toEqual(['dropped-field spec.backoffLimitPerIndex']);
  });
});
