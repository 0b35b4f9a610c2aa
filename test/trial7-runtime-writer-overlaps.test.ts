// Two controllers that really share a field: KEDA scales a workload to and from zero through the scale
// subresource (as keda-operator), and the HorizontalPodAutoscaler it creates scales it above one (as
// horizontal-pod-autoscaler). One RuntimeWriter per leaf; the advice "drop it from one RuntimeWriter's fields"
// made the policy refuse the other controller's scale in production.
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { admit, Request } from './enforcement/admission';

const DEPLOYER = 'system:serviceaccount:ci:deployer';
const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';
const KEDA = 'system:serviceaccount:keda:keda-operator';

function synth(writers: Array<'hpa' | 'keda'>) {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
  });
  if (writers.includes('hpa')) new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: HPA, manager: 'kube-controller-manager' });
  if (writers.includes('keda')) new RuntimeWriter(routing, 'Keda', { target: web, fields: ['spec.replicas'], identity: KEDA, manager: 'keda' });
  return CapabilityTesting.synth(app);
}

/** An UPDATE of the Deployment's scale subresource, as the API server hands it to admission: autoscaling/v1 Scales. */
function scale(username: string, from: number, to: number): Request {
  // Scale.spec.replicas is omitempty: a Scale of zero replicas has none
  const of = (n: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'shop' }, spec: n === 0 ? {} : { replicas: n }, status: { replicas: from, selector: 'app=web' } });
  return { operation: 'UPDATE', username, group: 'apps', resource: 'deployments', subresource: 'scale', kind: 'Scale', namespace: 'shop', name: 'web', object: of(to), oldObject: of(from) };
}

test('two RuntimeWriters of spec.replicas: CAP002 says to declare it for neither when both controllers write it, naming KEDA and its HPA', () => {
  expect(synth(['hpa', 'keda']).violations.map((v) => `${v.code} ${v.message}`)).toEqual([
    "CAP002 field conflict: 'shop/Routing/Autoscaler' and 'shop/Routing/Keda' both write spec.replicas of apps/Deployment shop/web at runtime. "
      + 'Give each field one owner: drop it from the fields of the RuntimeWriter whose controller does not write it. '
      + 'If both controllers write it (KEDA scales a workload to and from zero through the scale subresource as keda-operator, and the HorizontalPodAutoscaler it creates scales it above one: both write spec.replicas), '
      + 'drop it from both: the admission policy lets one identity alone change a field, and leaves a field no writer declares unconstrained.',
  ]);
});

test('as the message says: declared for one, the policy refuses the other; declared for neither, both may scale', () => {
  const hpaOnly = synth(['hpa']).runtimeObjects;
  expect(admit(hpaOnly, scale(HPA, 1, 4)).allowed).toBe(true);
  expect(admit(hpaOnly, scale(KEDA, 1, 0)).failures).toEqual([
    `spec.replicas of apps/Deployment shop/web belong to the runtime writer 'shop/Routing/Autoscaler' (${HPA}): only that identity may change them, not ${KEDA}`,
  ]);

  const neither = synth([]).runtimeObjects;
  expect(admit(neither, scale(KEDA, 1, 0)).allowed).toBe(true);
  expect(admit(neither, scale(HPA, 1, 4)).allowed).toBe(true);
});
