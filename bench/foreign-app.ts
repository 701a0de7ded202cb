/**
 * A foreign cdk8s app for the checks benchmark: 1,000 objects of the kinds a
 * platform team's charts hold (DaemonSets, Deployments, Services, ConfigMaps,
 * ServiceAccounts), written with plain ApiObjects, not this library.
 *   node --require tsx/cjs bench/foreign-app.ts [OBJECTS]
 */
import { ApiObject, App, Chart } from 'cdk8s';

const total = Number(process.argv[2] ?? 1000);
const app = new App();
const chart = new Chart(app, 'foreign', { namespace: 'team' });
const pod = (app: string) => ({
  metadata: { labels: { app } },
  spec: {
    automountServiceAccountToken: false,
    securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{
      name: 'main', image: 'registry.example.com/team/app:1.0',
      ports: [{ containerPort: 8080, name: 'http' }],
      env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
      readinessProbe: { httpGet: { path: '/ready', port: 'http' } },
      resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
    }],
  },
});
for (let i = 0; i < total; i++) {
  const name = `app-${i}`;
  switch (i % 5) {
    case 0: new ApiObject(chart, name, { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: pod(name) } }); break;
    case 1: new ApiObject(chart, name, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: pod(name) } }); break;
    case 2: new ApiObject(chart, name, { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } }); break;
    case 3: new ApiObject(chart, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'app.conf': `id=${i}\n` } }); break;
    default: new ApiObject(chart, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  }
}
app.synth();
