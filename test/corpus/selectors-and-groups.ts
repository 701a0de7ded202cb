/**
 * Corpus cases found by mutating every string field of rich objects and
 * asking a real server: label selectors everywhere they appear
 * (ValidateLabelSelector), pod affinity, and the networking and autoscaling
 * groups' validation.
 */
import { CorpusCase, daemonSet, deployment, make, no, Obj, ok, pdb } from './bases';

const ingress = (): Obj => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web' },
  spec: { ingressClassName: 'nginx', rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }], tls: [{ hosts: ['web.example.com'], secretName: 'tls' }] },
});
const networkPolicy = (): Obj => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' },
  spec: { podSelector: { matchLabels: { app: 'agent' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }, { podSelector: { matchLabels: { app: 'web' } } }], ports: [{ protocol: 'TCP', port: 9100 }] }] },
});
const hpa = (): Obj => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }] },
});
const antiAffinity = (term: Obj) => (_: Obj, p: Obj) => { p.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } }; };

export const SELECTORS_AND_GROUPS: readonly CorpusCase[] = [
  // Label selectors.
  make('selector-operator-bad', daemonSet, no, (o) => { o.spec.selector.matchExpressions = [{ key: 'app', operator: 'Equals', values: ['agent'] }]; }),
  make('selector-in-without-values', daemonSet, no, (o) => { o.spec.selector.matchExpressions = [{ key: 'app', operator: 'In', values: [] }]; }),
  make('selector-exists-ok', daemonSet, ok, (o) => { o.spec.selector.matchExpressions = [{ key: 'app', operator: 'Exists' }]; }),
  make('selector-value-bad', deployment, no, (o) => { o.spec.selector.matchExpressions = [{ key: 'tier', operator: 'NotIn', values: ['a b'] }]; }),
  make('pdb-selector-key-bad', pdb, no, (o) => { o.spec.selector = { matchExpressions: [{ key: 'a b', operator: 'Exists' }] }; }),
  make('pdb-selector-expression-ok', pdb, ok, (o) => { o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }; }),
  make('spread-label-selector-bad', deployment, no, (_, p) => { p.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchExpressions: [{ key: 'app', operator: 'Has' }] } }]; }),
  // Pod affinity.
  make('pod-anti-affinity-ok', deployment, ok, antiAffinity({ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'agent' } } })),
  make('pod-anti-affinity-no-topology-key', deployment, no, antiAffinity({ labelSelector: { matchLabels: { app: 'agent' } } })),
  make('pod-affinity-selector-bad', deployment, no, antiAffinity({ topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } })),
  make('pod-affinity-namespace-bad', deployment, no, antiAffinity({ topologyKey: 'zone', namespaces: ['Team_A'] })),
  make('pod-affinity-weight-bad', deployment, no, (_, p) => { p.affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: { topologyKey: 'zone' } }] } }; }),
  // Ingress.
  make('ingress-clean', ingress, ok),
  make('ingress-wildcard-host', ingress, ok, (o) => { o.spec.rules[0].host = '*.example.com'; }),
  make('ingress-host-bad', ingress, no, (o) => { o.spec.rules[0].host = 'Web.Example.com'; }),
  make('ingress-host-ip', ingress, no, (o) => { o.spec.rules[0].host = '10.0.0.1'; }),
  make('ingress-path-relative', ingress, no, (o) => { o.spec.rules[0].http.paths[0].path = 'web'; }),
  make('ingress-path-type-missing', ingress, no, (o) => { delete o.spec.rules[0].http.paths[0].pathType; }),
  make('ingress-path-type-bad', ingress, no, (o) => { o.spec.rules[0].http.paths[0].pathType = 'Regex'; }),
  make('ingress-path-double-slash', ingress, no, (o) => { o.spec.rules[0].http.paths[0].path = '/a//b'; }),
  make('ingress-implementation-specific-regex', ingress, ok, (o) => { o.spec.rules[0].http.paths[0] = { path: '/a/(.*)', pathType: 'ImplementationSpecific', backend: o.spec.rules[0].http.paths[0].backend }; }),
  make('ingress-backend-name-bad', ingress, no, (o) => { o.spec.rules[0].http.paths[0].backend.service.name = 'web.svc'; }),
  make('ingress-backend-port-both', ingress, no, (o) => { o.spec.rules[0].http.paths[0].backend.service.port = { number: 80, name: 'http' }; }),
  make('ingress-backend-port-name', ingress, ok, (o) => { o.spec.rules[0].http.paths[0].backend.service.port = { name: 'http' }; }),
  make('ingress-no-rules-no-default', ingress, no, (o) => { o.spec = { ingressClassName: 'nginx' }; }),
  make('ingress-default-backend-only', ingress, ok, (o) => { o.spec = { defaultBackend: { service: { name: 'web', port: { number: 80 } } } }; }),
  make('ingress-tls-host-bad', ingress, no, (o) => { o.spec.tls[0].hosts = ['Web'] ; }),
  // validateIngressTLS checks a DNS subdomain only: an IP is one; a rule's host may not be an IP (validateIngressRules).
  make('ingress-tls-host-ip', ingress, ok, (o) => { o.spec.tls[0].hosts = ['10.0.0.1']; }),
  make('ingress-rule-host-ip', ingress, no, (o) => { o.spec.rules[0].host = '10.0.0.1'; }),
  // NetworkPolicy.
  make('networkpolicy-clean', networkPolicy, ok),
  make('networkpolicy-cidr-bad', networkPolicy, no, (o) => { o.spec.ingress[0].from[0].ipBlock.cidr = '10.0.0.0'; }),
  make('networkpolicy-ipblock-with-selector', networkPolicy, no, (o) => { o.spec.ingress[0].from[0].podSelector = {}; }),
  make('networkpolicy-empty-peer', networkPolicy, no, (o) => { o.spec.ingress[0].from = [{}]; }),
  make('networkpolicy-port-name', networkPolicy, ok, (o) => { o.spec.ingress[0].ports = [{ port: 'metrics' }]; }),
  make('networkpolicy-end-port-below', networkPolicy, no, (o) => { o.spec.ingress[0].ports = [{ port: 9100, endPort: 9000 }]; }),
  make('networkpolicy-policy-type-bad', networkPolicy, no, (o) => { o.spec.policyTypes = ['Inbound']; }),
  // HorizontalPodAutoscaler.
  make('hpa-clean', hpa, ok),
  make('hpa-max-below-min', hpa, no, (o) => { o.spec.minReplicas = 4; }),
  make('hpa-min-zero', hpa, no, (o) => { o.spec.minReplicas = 0; }),
  make('hpa-metric-type-bad', hpa, no, (o) => { o.spec.metrics[0].type = 'Cpu'; }),
  make('hpa-utilization-missing', hpa, no, (o) => { delete o.spec.metrics[0].resource.target.averageUtilization; }),
  make('hpa-average-value', hpa, ok, (o) => { o.spec.metrics[0].resource.target = { type: 'AverageValue', averageValue: '500m' }; }),
  make('hpa-no-target-name', hpa, no, (o) => { delete o.spec.scaleTargetRef.name; }),
];
