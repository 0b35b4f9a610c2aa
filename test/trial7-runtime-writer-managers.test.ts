// A RuntimeWriter's manager copied from the API server's audit log (userAgent) instead of managedFields: the
// API server records an update without a field manager under the user agent's part before its first '/'.
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';

function findingsOf(manager: string) {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
  });
  new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', manager });
  const result = CapabilityTesting.synth(app);
  return { violations: result.violations, warnings: result.warnings.map((w) => `${w.code} ${w.message}`) };
}

test('a user agent as the manager warns, naming the manager such an update is recorded under', () => {
  const found = findingsOf('kube-controller-manager/v1.30.2 (linux/amd64) kubernetes/7c48c2b/system:serviceaccount:kube-system:horizontal-pod-autoscaler');
  expect(found.violations).toEqual([]);
  expect(found.warnings).toEqual([
    "CAP010 invalid object: 'shop/Routing/Autoscaler' declares the field manager \"kube-controller-manager/v1.30.2 (linux/amd64) kubernetes/7c48c2b/system:serviceaccount:kube-system:horizontal-pod-autoscaler\", "
      + "a client's user agent with its version, as the API server's audit log prints it: an update that gives no field manager is recorded under the user agent's part before its first '/', \"kube-controller-manager\". "
      + "Give the manager as kubectl get -o yaml --show-managed-fields prints it in metadata.managedFields (manager: 'kube-controller-manager' for such an update), or the audit will report the controller's writes as another manager's.",
  ]);
});

test.each(['external-dns/v0.14.0', 'cert-manager-cainjector/v1.14.4 (linux/amd64) cert-manager/f3b4d3e'])('%s warns too', (manager) => {
  expect(findingsOf(manager).warnings).toHaveLength(1);
});

test.each(['kube-controller-manager', 'cert-manager-certificates-issuing', 'apiextensions.crossplane.io/composed/5f1b2c', 'team/netop'])('%s, a field manager as managedFields names one, does not warn', (manager) => {
  expect(findingsOf(manager)).toEqual({ violations: [], warnings: [] });
});
