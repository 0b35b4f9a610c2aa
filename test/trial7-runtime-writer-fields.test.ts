// A new user's RuntimeWriter fields for third-party controllers (cert-manager's Secret, Karpenter's NodePool,
// KEDA's ScaledObject): map keys that hold dots, metadata of a custom resource whose CRD is installed by
// someone else, and status.
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';

const TLS = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'web-tls', namespace: 'shop' } };
const POOL = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default', namespace: 'infra' }, spec: { weight: 10 } };
const SCALED = { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'worker', namespace: 'shop' }, spec: { scaleTargetRef: { name: 'web' } } };

/** The violations and warnings of a composition of one object and one runtime writer of it. */
function findingsOf(object: any, fields: string[]): string[] {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const target = new ApiObject(routing, 'Target', structuredClone(object));
  new RuntimeWriter(routing, 'Controller', { target, fields, identity: 'system:serviceaccount:ops:controller', manager: 'controller' });
  const result = CapabilityTesting.synth(app);
  return [...result.violations, ...result.warnings].map((v) => `${v.code} ${v.message}`);
}

describe('a map key that holds dots, written with dots, is named in brackets', () => {
  test.each<[any, string, string, string]>([
    [TLS, 'data.tls.crt', 'Secret shop/web-tls', 'data["tls.crt"]'],
    [TLS, 'metadata.annotations.example.com', 'Secret shop/web-tls', 'metadata.annotations["example.com"]'],
    [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' } }, 'data.config.yaml', 'ConfigMap shop/cfg', 'data["config.yaml"]'],
  ])('%#: %s', (object, field, what, key) => {
    const problem = field.startsWith('data.') ? `${field.split('.').slice(0, 2).join('.')} is a scalar: it has nothing below it` : `${field.split('.').slice(0, 3).join('.')} is a scalar: it has nothing below it`;
    expect(findingsOf(object, [field])).toEqual([
      `CAP010 invalid object: 'shop/Routing/Controller' writes ${JSON.stringify(field)} of ${what}, which Kubernetes 1.30's schema does not have: ${problem}. A map key that holds dots is written in brackets: did you mean '${key}'?`,
    ]);
  });

  test('the bracketed key is accepted, and a path no key can fix keeps the plain advice', () => {
    expect(findingsOf(TLS, ['data["tls.crt"]', 'metadata.annotations["cert-manager.io/certificate-name"]'])).toEqual([]);
    expect(findingsOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } }, ['spec.selector.matchLabels.app.kubernetes.io'])).toEqual([
      "CAP010 invalid object: 'shop/Routing/Controller' writes \"spec.selector.matchLabels.app.kubernetes.io\" of apps/Deployment shop/web, which Kubernetes 1.30's schema does not have: spec.selector is atomic, one leaf: write spec.selector. Write a field the schema has.",
    ]);
  });
});

describe('the metadata of a custom resource whose CRD is not in the composition is ObjectMeta, and is checked', () => {
  const OBJECT_META = 'ObjectMeta (the metadata of every kind, Kubernetes 1.30)';

  test('an annotation written with dots would protect a key nobody writes: CAP010, with the bracketed key', () => {
    expect(findingsOf(POOL, ['metadata.annotations.karpenter.sh'])).toEqual([
      `CAP010 invalid object: 'shop/Routing/Controller' writes "metadata.annotations.karpenter.sh" of karpenter.sh/NodePool infra/default, which ${OBJECT_META} does not have: metadata.annotations.karpenter is a scalar: it has nothing below it. A map key that holds dots is written in brackets: did you mean 'metadata.annotations["karpenter.sh"]'?`,
    ]);
  });

  test('a misspelt metadata field is CAP010; what ObjectMeta has, and anything outside metadata, is accepted', () => {
    expect(findingsOf(SCALED, ['metadata.finalizer[=finalizer.keda.sh]'])).toEqual([
      `CAP010 invalid object: 'shop/Routing/Controller' writes "metadata.finalizer[=finalizer.keda.sh]" of keda.sh/ScaledObject shop/worker, which ${OBJECT_META} does not have: metadata has no field "finalizer" (it has annotations, creationTimestamp, deletionGracePeriodSeconds, deletionTimestamp, finalizers, generateName, generation, labels, managedFields, name, namespace, ownerReferences, resourceVersion, selfLink, uid). Write a field the schema has.`,
    ]);
    expect(findingsOf(SCALED, ['metadata.finalizers[=finalizer.keda.sh]', 'metadata.labels["scaledobject.keda.sh/name"]', 'spec.anything.at[name=all]'])).toEqual([]);
  });
});

test('a status field is refused once, by the RuntimeWriter, not again as a field its kind lacks', () => {
  expect(findingsOf(TLS, ['status.conditions'])).toEqual([
    'CAP010 invalid object: \'shop/Routing/Controller\' failed its own validation: \'fields\'[0] ("status.conditions") is in status, which controllers write through the status subresource: the admission policy does not constrain it, and the lock, plan.json and audit leave it out. Leave it out, and declare only the controller\'s fields outside status',
  ]);
});
