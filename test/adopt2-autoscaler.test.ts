import * as path from 'path';
import { Include } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';

// A workload moved from the YAML into cdk8s-plus leaves spec.replicas to the HorizontalPodAutoscaler still in the
// YAML (markHasAutoscaler()). Without a RuntimeWriter for the autoscaler nothing was said, and the ownership map had
// no writer of the field, so audit reported the autoscaler's writes as drift.

const HPA_FILE = path.join(__dirname, 'fixtures', 'adopt2', 'hpa.yaml');
const DECLARE = "new RuntimeWriter(scope, 'Autoscaler', { target: <the workload>, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', manager: 'kube-controller-manager' })";

function composition(options: { replicas?: number; declare?: boolean } = {}) {
  const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new Include(routing, 'Hpa', { url: HPA_FILE });
  const orders = new kplus.Deployment(routing, 'OrdersApi', {
    metadata: { name: 'orders', namespace: 'shop' },
    ...(options.replicas !== undefined ? { replicas: options.replicas } : {}),
    containers: [{ name: 'orders', image: 'ghcr.io/acme/orders:1.4.2', portNumber: 8080 }],
  });
  if (options.replicas === undefined) orders.markHasAutoscaler();
  if (options.declare) {
    new RuntimeWriter(routing, 'Autoscaler', {
      target: orders,
      fields: ['spec.replicas'],
      identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
      manager: 'kube-controller-manager',
    });
  }
  return CapabilityTesting.synth(app);
}

test('the included autoscaler is a valid HorizontalPodAutoscaler (kubernetes-models) whose scaleTargetRef names the Deployment', () => {
  const result = composition();
  const hpa = result.runtimeObjects!.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
  expect(() => new HorizontalPodAutoscaler(hpa as any).validate()).not.toThrow();
  const deployment = result.runtimeObjects!.find((o) => o.kind === 'Deployment')!;
  expect([hpa.spec.scaleTargetRef.name, deployment.metadata.name, deployment.spec.replicas]).toEqual(['orders', 'orders', undefined]);
});

test('markHasAutoscaler() with an autoscaler and no RuntimeWriter for it: a CAP002 warning naming the workload, the autoscaler and the declaration', () => {
  // WHEN
  const result = composition();

  // THEN the synth is accepted, with the warning
  expect(result.violations).toEqual([]);
  expect(result.warnings.map((w) => [w.code, w.paths, w.message])).toEqual([[
    'CAP002',
    ['shop/Routing/Hpa/orders-horizontalpodautoscaler-shop', 'shop/Routing/OrdersApi'],
    "field conflict: autoscaling/HorizontalPodAutoscaler shop/orders declared by 'shop/Routing/Hpa/orders-horizontalpodautoscaler-shop' scales apps/Deployment shop/orders "
    + "declared by 'shop/Routing/OrdersApi', and no RuntimeWriter declares that the autoscaler writes its spec.replicas: the ownership map has no writer of the field, "
    + "so the plan and the lock do not show it, and cdk-capability audit reports kube-controller-manager's spec.replicas as drift. "
    + `Declare the autoscaler as the field's writer: ${DECLARE}.`,
  ]]);
});

test('a cdk8s-plus HorizontalPodAutoscaler (which calls markHasAutoscaler() itself) without a RuntimeWriter: the same warning', () => {
  const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const orders = new kplus.Deployment(routing, 'OrdersApi', { containers: [{ image: 'ghcr.io/acme/orders:1.4.2', portNumber: 8080 }] });
  new kplus.HorizontalPodAutoscaler(routing, 'Scaler', { target: orders, maxReplicas: 10 });

  const result = CapabilityTesting.synth(app);

  expect(result.violations).toEqual([]);
  expect(result.warnings.map((w) => [w.code, w.paths])).toEqual([['CAP002', ['shop/Routing/OrdersApi', 'shop/Routing/Scaler']]]);
});

test('with the RuntimeWriter declared: no warning, and the plan names the autoscaler as the writer of spec.replicas', () => {
  const result = composition({ declare: true });

  expect([result.violations, result.warnings]).toEqual([[], []]);
  expect(result.plan!.runtimeWriters!.map((w) => [w.writer, w.fields])).toEqual([['shop/Routing/Autoscaler', ['spec.replicas']]]);
});

test('with replicas written by the release: the CAP002 refusal alone, not the warning as well', () => {
  const result = composition({ replicas: 3 });

  expect(result.violations.map((v) => v.code)).toEqual(['CAP002']);
  expect(result.violations[0].message).toMatch(/^field conflict: autoscaling\/HorizontalPodAutoscaler shop\/orders .* whose spec.replicas 'shop\/Routing\/OrdersApi' writes \(3\)/);
  expect(result.warnings).toEqual([]);
});
