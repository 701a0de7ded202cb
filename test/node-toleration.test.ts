import { CONTROL_PLANE_TAINT_KEY, NodeToleration, TaintEffect } from '../lib';

describe('NodeToleration', () => {
  test('controlPlane() tolerates the kubeadm control-plane taint', () => {
    expect(NodeToleration.controlPlane().toKube()).toEqual({ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' });
    expect(CONTROL_PLANE_TAINT_KEY).toBe('node-role.kubernetes.io/control-plane');
  });

  test('exists() tolerates a key with any value, for one effect or all', () => {
    expect(NodeToleration.exists('dedicated', TaintEffect.NO_EXECUTE).toKube()).toEqual({ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' });
    expect(NodeToleration.exists('dedicated').toKube()).toEqual({ key: 'dedicated', operator: 'Exists' });
  });

  test('equal() tolerates one key=value', () => {
    expect(NodeToleration.equal('dedicated', 'agents', TaintEffect.NO_SCHEDULE).toKube())
      .toEqual({ key: 'dedicated', operator: 'Equal', value: 'agents', effect: 'NoSchedule' });
  });

  test('everything() tolerates every taint', () => {
    const t = NodeToleration.everything();
    expect(t.toKube()).toEqual({ operator: 'Exists' });
    expect(t.key).toBeUndefined();
  });

  test('throws when the key is not a qualified name', () => {
    expect(() => NodeToleration.exists('a b')).toThrow(/'toleration key' must be a qualified name .* but got "a b"/);
  });

  test('throws when the value is not a label value', () => {
    expect(() => NodeToleration.equal('dedicated', 'x;y')).toThrow(/'toleration value' must be a label value .* but got "x;y"/);
  });

  test('throws when the effect is not a taint effect', () => {
    expect(() => NodeToleration.exists('dedicated', 'NoRun' as TaintEffect)).toThrow("'toleration effect' must be one of \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\" but got \"NoRun\"");
  });
});
