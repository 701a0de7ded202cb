import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { NodeAgentChecks } from '../../lib/checks';
import { ValidationContextLike } from '../../lib/checks/validation-plugin';
import { cleanDaemonSet } from './baseline';

/** A stand-in for cdk8s-cli's ValidationContext that records what the plugin reports. */
function contextFor(...objects: object[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-'));
  const file = path.join(dir, 'app.k8s.yaml');
  fs.writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'));
  const violations: Array<{ ruleName: string; violatingResources: Array<{ resourceName: string; locations: string[]; manifestPath: string }> }> = [];
  const submitted: Array<{ status: string; metadata?: Record<string, string> }> = [];
  const context: ValidationContextLike = {
    manifests: [file],
    report: {
      addViolation: (v) => violations.push(v),
      submit: (status, metadata) => submitted.push({ status, metadata }),
    },
  };
  return { context, violations, submitted, file };
}

describe('NodeAgentChecks (the cdk8s validation plugin)', () => {
  test('submits success with no violation for clean manifests', async () => {
    const { context, violations, submitted } = contextFor(cleanDaemonSet());
    await new NodeAgentChecks().validate(context);
    expect(violations).toEqual([]);
    expect(submitted).toEqual([{ status: 'success', metadata: { errors: '0', warnings: '0', waived: '0', kubernetesVersion: '1.28 (the default)' } }]);
  });

  test('submits failure and reports each error by rule, object, field and file', async () => {
    // GIVEN
    const ds = cleanDaemonSet();
    ds.spec.template.spec.containers[0].securityContext.privileged = true;
    ds.spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation = undefined;
    const { context, violations, submitted, file } = contextFor(ds);

    // WHEN
    await new NodeAgentChecks().validate(context);

    // THEN
    expect(submitted[0].status).toBe('failure');
    expect(violations.map((v) => v.ruleName.split(' ').slice(0, 2).join(' '))).toEqual(['error [pss-privileged]', 'error [pss-privilege-escalation]']);
    expect(violations[0].ruleName).toMatch(/^error \[pss-privileged\] Pod Security Standards/);
    expect(violations[0].violatingResources).toEqual([{
      // The name is how cdk8s finds the construct path (construct-metadata.json).
      resourceName: 'agent',
      locations: ['DaemonSet/agent spec.template.spec.containers[0].securityContext.privileged: container "main" is privileged'],
      manifestPath: file,
    }]);
  });

  test('checks the manifests of `cdk8s synth --format helm` too: its templates/ are the synthesized manifests', async () => {
    // GIVEN a privileged DaemonSet where the Helm synth writes it, beside Chart.yaml
    const ds = cleanDaemonSet();
    ds.spec.template.spec.containers[0].securityContext.privileged = true;
    const { context, submitted, file } = contextFor(ds);
    const chart = path.dirname(file);
    fs.mkdirSync(path.join(chart, 'templates'));
    const template = path.join(chart, 'templates', path.basename(file));
    fs.renameSync(file, template);
    fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: agents\nversion: 1.0.0\n');

    // WHEN
    await new NodeAgentChecks().validate({ ...context, manifests: [template] });

    // THEN
    expect(submitted[0]).toEqual({ status: 'failure', metadata: expect.objectContaining({ errors: '2' }) });
  });

  test('reports warnings without failing, unless told to', async () => {
    const ds = cleanDaemonSet();
    ds.spec.template.spec.containers[0].image = 'busybox:latest';
    const lenient = contextFor(ds);
    const strict = contextFor(ds);
    await new NodeAgentChecks().validate(lenient.context);
    await new NodeAgentChecks({ warningsAsErrors: true }).validate(strict.context);
    expect(lenient.submitted[0]).toEqual({ status: 'success', metadata: { errors: '0', warnings: '1', waived: '0', kubernetesVersion: '1.28 (the default)' } });
    expect(lenient.violations[0].ruleName).toMatch(/^warning \[image-tag\]/);
    expect(strict.submitted[0].status).toBe('failure');
  });

  test('removes construct-metadata.json from beside the manifests, so dist/ and Helm templates/ hold only manifests', async () => {
    // GIVEN the file cdk8s writes for the report (the CLI has read it before plugins run)
    const { context, file } = contextFor(cleanDaemonSet());
    const metadata = path.join(path.dirname(file), 'construct-metadata.json');
    fs.writeFileSync(metadata, '{"version":"1.0.0","resources":{}}');

    // WHEN
    await new NodeAgentChecks().validate(context);

    // THEN
    expect(fs.existsSync(metadata)).toBe(false);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['app.k8s.yaml']);
  });
});

describe('NodeAgentChecks properties (cdk8s.yaml properties:)', () => {
  const hostPid = () => {
    const ds = cleanDaemonSet();
    ds.spec.template.spec.hostPID = true;
    return ds;
  };

  test('podSecurity sets the level of namespaces the manifests do not hold', async () => {
    const restricted = contextFor(hostPid());
    const privileged = contextFor(hostPid());
    await new NodeAgentChecks().validate(restricted.context);
    await new NodeAgentChecks({ podSecurity: 'privileged' }).validate(privileged.context);
    expect([restricted.submitted[0].status, privileged.submitted[0].status]).toEqual(['failure', 'success']);
  });

  test('skipKinds leaves kinds out', async () => {
    const { context, submitted } = contextFor(hostPid());
    await new NodeAgentChecks({ skipKinds: ['DaemonSet'] }).validate(context);
    expect(submitted[0]).toEqual({ status: 'success', metadata: { errors: '0', warnings: '0', waived: '0', kubernetesVersion: '1.28 (the default)' } });
  });

  test('kubernetesVersion chooses the version judged by; without it, the app\'s target named by its manifests is, and the report says which', async () => {
    // GIVEN a field 1.30 added, once as written for a 1.35 target
    const field = () => {
      const ds = cleanDaemonSet();
      ds.spec.template.spec.containers[0].securityContext.appArmorProfile = { type: 'RuntimeDefault' };
      return ds;
    };
    const target = field();
    target.metadata.annotations = { 'node-reporter.dev/kubernetes-version': '1.35' };
    const [byDefault, byProperty, byTarget] = [contextFor(field()), contextFor(field()), contextFor(target)];

    // WHEN checked with no property, with kubernetesVersion 1.35 (as YAML gives it: a number), and as the target
    await new NodeAgentChecks().validate(byDefault.context);
    await new NodeAgentChecks({ kubernetesVersion: 1.35 as unknown as string }).validate(byProperty.context);
    await new NodeAgentChecks().validate(byTarget.context);

    // THEN 1.28 refuses it, 1.35 accepts it, and each report names the version and why
    expect(byDefault.submitted[0]).toEqual({ status: 'failure', metadata: expect.objectContaining({ kubernetesVersion: '1.28 (the default)' }) });
    expect(byProperty.submitted[0]).toEqual({ status: 'success', metadata: expect.objectContaining({ kubernetesVersion: '1.35 (the kubernetesVersion property)' }) });
    expect(byTarget.submitted[0]).toEqual({ status: 'success', metadata: expect.objectContaining({ kubernetesVersion: '1.35 (the input\'s node-reporter.dev/kubernetes-version annotation)' }) });
  });

  test.each([
    [{ kubernetesVersion: '1.29' }, "NodeAgentChecks: the property 'kubernetesVersion' in cdk8s.yaml must be a supported Kubernetes version (1.28, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36) but got \"1.29\""],
    [{ podSecurity: 'strict' }, "NodeAgentChecks: the property 'podSecurity' in cdk8s.yaml must be restricted, baseline or privileged but got \"strict\""],
    [{ skipKinds: 'ServiceMonitor' }, "NodeAgentChecks: the property 'skipKinds' in cdk8s.yaml must be a list of kinds (Kind or apiVersion/Kind) but got \"ServiceMonitor\""],
    [{ apply: 'server' }, "NodeAgentChecks: the property 'apply' in cdk8s.yaml must be client-side or server-side but got \"server\""],
    [{ warningsAsErrors: 'yes' }, "NodeAgentChecks: the property 'warningsAsErrors' in cdk8s.yaml must be true or false but got \"yes\""],
  ])('refuses %j, naming the property and what it takes', (props, message) => {
    expect(() => new NodeAgentChecks(props as never)).toThrow(message);
  });
});
