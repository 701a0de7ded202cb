/**
 * The agent's config: its name, file names per key, and whether a change
 * rolls the pods or is picked up in place.
 */
import { Chart, Testing } from 'cdk8s';
import { AgentConfig, AgentVolume, CONFIG_CHECKSUM_ANNOTATION, ConfigChange, NodeAgent, NodeAgentProps, NodePolicy } from '../../lib';
import { Manifest, only, synth } from '../util';

function objectsOf(config: AgentConfig, props: Partial<NodeAgentProps> = {}): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'kube-system' });
  new NodeAgent(chart, 'Agent', { policy: new NodePolicy(chart, 'P'), name: 'alloy', containers: [{ name: 'alloy', image: 'example.com/alloy:v1.5.0' }], config, ...props });
  return synth(chart);
}

describe('config', () => {
  test('rolls the pods on a change by default: a checksum on the pod template', () => {
    const ds = only(objectsOf({ data: { 'config.alloy': 'a' } }), 'DaemonSet');
    expect(Object.keys(ds.spec.template.metadata.annotations)).toEqual([CONFIG_CHECKSUM_ANNOTATION]);
  });

  test('picked up in place: no checksum, so a change to the ConfigMap leaves the pod template, and every pod, as it is', () => {
    // WHEN
    const before = only(objectsOf({ data: { 'config.alloy': 'a' }, onChange: ConfigChange.IN_PLACE }), 'DaemonSet');
    const after = only(objectsOf({ data: { 'config.alloy': 'b' }, onChange: ConfigChange.IN_PLACE }), 'DaemonSet');

    // THEN
    expect(before.spec.template.metadata.annotations).toBeUndefined();
    expect(after.spec.template).toEqual(before.spec.template);
  });

  test('an adopted name, and the file name of a key', () => {
    // WHEN
    const objects = objectsOf({ data: { 'config.conf': 'x', 'kubeconfig.conf': 'y' }, files: { 'config.conf': 'kube-proxy.conf' } }, { adopt: { configMapName: 'kube-proxy' } });

    // THEN
    expect(only(objects, 'ConfigMap').metadata.name).toBe('kube-proxy');
    expect(only(objects, 'DaemonSet').spec.template.spec.volumes).toEqual([{ name: 'config', configMap: { name: 'kube-proxy', items: [{ key: 'config.conf', path: 'kube-proxy.conf' }] } }]);
  });

  test('refuses unknown keys, as the README promises, and files of keys it does not have, all at once', () => {
    let error = '';
    try {
      objectsOf({ data: { a: 'x' }, files: { b: 'b.conf', a: '../a' }, onChange: 'sometimes', name: 'x' } as never);
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error.split('\n')).toEqual([
      "test/Agent: 'config' key \"name\" is not a prop here: it is volumeName for the volume's name; the ConfigMap's is derived, or adopt.configMapName",
      "test/Agent: 'config.files' key must be a key of config.data (a) but got \"b\"",
      "test/Agent: 'config.files.a' must not contain '..' but got \"../a\"",
      "test/Agent: 'config.files.a' must not start with '..' but got \"../a\"",
      "test/Agent: 'config.onChange' must be one of roll, in-place (ConfigChange) but got \"sometimes\"",
    ]);
  });

  test('in place refuses a subPath mount of the config, which the kubelet never updates', () => {
    expect(() => objectsOf({ data: { a: 'x' }, onChange: ConfigChange.IN_PLACE }, {
      containers: [{ name: 'alloy', image: 'example.com/alloy:v1.5.0', mounts: [{ volume: 'config', path: '/etc/alloy/a', subPath: 'a' }] }],
    })).toThrow(/'containers\[0\]\.mounts\[0\]\.subPath' must be unset with config\.onChange IN_PLACE: the kubelet never updates a subPath mount/);
  });
});

describe("the config volume's name", () => {
  test('volumeName names the volume, in the pod and in every mount of it', () => {
    // GIVEN / WHEN
    const ds = only(objectsOf({ data: { 'a.conf': 'x' }, mountPath: '/etc/agent', volumeName: 'agent-config' }), 'DaemonSet');
    // THEN
    const pod = ds.spec.template.spec;
    expect(pod.volumes.map((v: { name: string }) => v.name)).toEqual(['agent-config']);
    expect(pod.containers[0].volumeMounts).toEqual([expect.objectContaining({ name: 'agent-config', mountPath: '/etc/agent' })]);
  });

  test('a volumeName that is no DNS-1123 label, or that another volume has, is refused naming the prop', () => {
    // GIVEN / WHEN / THEN
    expect(() => objectsOf({ data: { 'a.conf': 'x' }, volumeName: 'Bad_Name' })).toThrow(/'config\.volumeName' must be a DNS-1123 label/);
    expect(() => objectsOf({ data: { 'a.conf': 'x' }, volumeName: 'logs' }, { volumes: [AgentVolume.emptyDir('logs')] })).toThrow(/'config\.volumeName' must be a volume name no other volume uses but got "logs"/);
  });
});
