/**
 * Objects as the API server sees them before validation (lib/checks/normalize.ts):
 * nulls unset, fields of disabled feature gates dropped.
 */
import { checkObject, KubeObject } from '../../lib/checks';
import { gatedFieldRows, normalize } from '../../lib/checks/normalize';
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

describe('gated fields, per version (issue 33): dropped while the gate is off, judged as real fields once on', () => {
  const dropsAt = (change: (p: KubeObject, c: KubeObject) => void, version: string) => {
    const ds = cleanDaemonSet();
    change(podOf(ds), podOf(ds).containers[0]);
    return normalize(ds, version as never).problems.map((p) => p.path);
  };
  const sidecar = (p: KubeObject, c: KubeObject) => { p.initContainers = [{ ...structuredClone(c), name: 'side', restartPolicy: 'Always' }]; };
  const image = (p: KubeObject, c: KubeObject) => { p.volumes = [{ name: 'img', image: { reference: 'busybox:1.36' } }]; c.volumeMounts = [{ name: 'img', mountPath: '/img', readOnly: true }]; };
  const stop = (_: KubeObject, c: KubeObject) => { c.lifecycle = { stopSignal: 'SIGTERM' }; };
  const hostname = (p: KubeObject) => { p.hostnameOverride = 'h'; };
  const fileKey = (_: KubeObject, c: KubeObject) => { c.env = [{ name: 'A', valueFrom: { fileKeyRef: { volumeName: 'env', path: 'a.env', key: 'A' } } }]; };
  const restart = (_: KubeObject, c: KubeObject) => { c.restartPolicy = 'Always'; };

  test.each<[string, (p: KubeObject, c: KubeObject) => void, string, readonly string[], readonly string[]]>([
    ['a native sidecar (SidecarContainers)', sidecar, 'spec.template.spec.initContainers[0].restartPolicy', ['1.28'], ['1.31', '1.36']],
    ['an image volume (ImageVolume)', image, 'spec.template.spec.volumes[0].image', ['1.31', '1.32', '1.33', '1.34'], ['1.35', '1.36']],
    ['lifecycle.stopSignal (ContainerStopSignals, alpha)', stop, `${C}.lifecycle.stopSignal`, ['1.33', '1.34', '1.35', '1.36'], []],
    ['hostnameOverride (HostnameOverride)', hostname, 'spec.template.spec.hostnameOverride', ['1.34'], ['1.35', '1.36']],
    ['env fileKeyRef (EnvFiles)', fileKey, `${C}.env[0].valueFrom.fileKeyRef`, ['1.34'], ['1.35', '1.36']],
    ['a regular container\'s restartPolicy (ContainerRestartRules, read from v1.34 dropContainerRestartRules)', restart, `${C}.restartPolicy`, ['1.34'], ['1.35', '1.36']],
  ])('%s is dropped where its gate is off, and kept where it is on', (_, change, path, dropped, kept) => {
    for (const v of dropped) expect(dropsAt(change, v)).toEqual([path]);
    for (const v of kept) expect(dropsAt(change, v)).toEqual([]);
  });

  test('at 1.34 an init container\'s restartPolicy other than Always is dropped (dropContainerRestartRules), a sidecar\'s Always kept', () => {
    const never = (p: KubeObject, c: KubeObject) => { p.initContainers = [{ ...structuredClone(c), name: 'once', restartPolicy: 'Never' }]; };
    expect(dropsAt(never, '1.34')).toEqual(['spec.template.spec.initContainers[0].restartPolicy']);
    expect(dropsAt(sidecar, '1.34')).toEqual([]);
  });

  test('an image volume goes with its mounts, and the warning says so and cites its source', () => {
    // GIVEN
    const ds = cleanDaemonSet();
    image(podOf(ds), podOf(ds).containers[0]);

    // WHEN
    const { object, problems } = normalize(ds, '1.32');

    // THEN
    expect(object.spec.template.spec.volumes).toEqual([]);
    expect(object.spec.template.spec.containers[0].volumeMounts).toEqual([]);
    expect(problems[0].message).toMatch(/drops this field: its feature gate ImageVolume \(alpha\) .*the volume is dropped with every mount of it \(pkg\/api\/pod\/util.go: dropImageVolumes \(v1.31 to v1.34\)\)$/);
  });

  test('a lifecycle that held only a stopSignal goes too', () => {
    const ds = cleanDaemonSet();
    stop(podOf(ds), podOf(ds).containers[0]);
    expect('lifecycle' in normalize(ds, '1.35').object.spec.template.spec.containers[0]).toBe(false);
  });

  test('every row of the dropped-field table cites its function and the release it was read from', () => {
    for (const row of gatedFieldRows()) expect(row.source).toMatch(/^[\w /:]+\(v1\.\d+(\.\d+)?( to v1\.\d+)?\)$/);
  });

  test('check accepts fileKeyRef at 1.35 and 1.36, and refuses it at 1.34 (dropped, valueFrom left empty)', () => {
    const ds = cleanDaemonSet();
    podOf(ds).volumes = [{ name: 'env', emptyDir: {} }];
    fileKey(podOf(ds), podOf(ds).containers[0]);
    const blocking = (v: string) => checkObject(ds, undefined, { kubernetesVersion: v }).filter((f) => f.severity === 'error').map((f) => `${f.rule.id} ${f.path}`);
    expect(blocking('1.35')).toEqual([]);
    expect(blocking('1.36')).toEqual([]);
    expect(blocking('1.34')).toEqual([`api-env ${C}.env[0].valueFrom`]);
  });

  test('recursiveReadOnly IfPossible with a mount propagation is refused (validateMountRecursiveReadOnly)', () => {
    const ds = cleanDaemonSet();
    podOf(ds).volumes = [{ name: 'd', emptyDir: {} }];
    podOf(ds).containers[0].volumeMounts = [{ name: 'd', mountPath: '/d', readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'HostToContainer' }];
    expect(checkObject(ds, undefined, { kubernetesVersion: '1.35' }).map((f) => `${f.rule.id} ${f.path}`)).toEqual([`api-volumes ${C}.volumeMounts[0].recursiveReadOnly`]);
  });
});
