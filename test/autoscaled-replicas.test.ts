import * as kplus from 'cdk8s-plus-30';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, RuntimeWriter } from '../src';

/** Capability `shop` with its routing chart, and a cdk8s-plus Deployment `web` in namespace shop. */
function fixture(props: Partial<kplus.DeploymentProps> = {}) {
  const app = CapabilityTesting.app();
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new kplus.Deployment(routing, 'Web', { metadata: { name: 'web', namespace: 'shop' }, containers: [{ image: 'nginx:1.27', portNumber: 8080 }], ...props });
  return { app, routing, web };
}

/** A raw autoscaling/v2 HorizontalPodAutoscaler `web` scaling apps/v1 Deployment `name`. */
function rawAutoscaler(routing: RuntimeRouting, name = 'web') {
  return new kplus.k8s.KubeHorizontalPodAutoscalerV2(routing, 'Hpa', {
    metadata: { name: 'web', namespace: 'shop' },
    spec: { maxReplicas: 10, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name } },
  });
}

const FIX = 'Leave spec.replicas to the autoscaler (drop it from the props, Contribution or patch; a cdk8s-plus workload renders a default unless you call markHasAutoscaler() on it) '
  + "and declare the autoscaler as its writer: new RuntimeWriter(scope, 'Autoscaler', { target: <the workload>, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', manager: 'kube-controller-manager' }).";

const messages = (app: ReturnType<typeof CapabilityTesting.app>) => CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);

describe('CAP002: an autoscaler of the composition and a release that writes its target\'s replicas', () => {
  test('a raw HorizontalPodAutoscaler of a cdk8s-plus Deployment, which renders its default replicas: refused, naming both', () => {
    // GIVEN the Deployment (cdk8s-plus renders replicas: 2) and a raw autoscaler scaling it
    const { app, routing } = fixture();
    rawAutoscaler(routing);

    // THEN every apply would reset the autoscaler's choice to 2
    expect(messages(app)).toEqual([
      "CAP002 field conflict: autoscaling/HorizontalPodAutoscaler shop/web declared by 'shop/Routing/Hpa' scales apps/Deployment shop/web, whose spec.replicas 'shop/Routing/Web' writes (2): "
        + `the autoscaler writes that field in the cluster, and every apply resets its choice. ${FIX}`,
    ]);
  });

  test('a Contribution that writes replicas of a Deployment a cdk8s-plus HorizontalPodAutoscaler scales: refused, naming the Contribution', () => {
    // GIVEN a Deployment the cdk8s-plus autoscaler targets (so cdk8s-plus renders no replicas), and a Contribution setting 5
    const { app, routing, web } = fixture();
    new kplus.HorizontalPodAutoscaler(routing, 'Hpa', { metadata: { namespace: 'shop' }, target: web, maxReplicas: 10 });
    new Contribution(routing, 'Ops', { target: web, fields: { spec: { replicas: 5 } } });

    // THEN
    expect(messages(app)).toEqual([
      expect.stringMatching(/^CAP002 field conflict: autoscaling\/HorizontalPodAutoscaler shop\/[a-z0-9-]+ declared by 'shop\/Routing\/Hpa' scales apps\/Deployment shop\/web, whose spec.replicas 'shop\/Routing\/Ops' writes \(5\): /),
    ]);
  });

  test('accepted when the workload leaves replicas to the autoscaler', () => {
    // GIVEN the Deployment marked as autoscaled (cdk8s-plus renders no replicas) and the raw autoscaler
    const { app, routing, web } = fixture();
    web.markHasAutoscaler();
    rawAutoscaler(routing);

    // THEN
    expect(messages(app)).toEqual([]);
  });

  test('silent when a RuntimeWriter declares the autoscaler: the runtime-writer rules compare the two', () => {
    // GIVEN the autoscaler declared as the writer of replicas, the Deployment still rendering its default
    const { app, routing, web } = fixture();
    rawAutoscaler(routing);
    new RuntimeWriter(routing, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', manager: 'kube-controller-manager' });

    // THEN this rule adds nothing (the default-replicas conflict is the runtime writer's)
    expect(messages(app).filter((m) => m.includes('scales apps/Deployment'))).toEqual([]);
  });

  test('silent for an autoscaler whose target is not in the composition, or in another namespace', () => {
    // GIVEN autoscalers of a Deployment named other, and of web in another namespace
    const { app, routing } = fixture();
    rawAutoscaler(routing, 'other');
    new kplus.k8s.KubeHorizontalPodAutoscalerV2(routing, 'Elsewhere', {
      metadata: { name: 'web', namespace: 'ops' },
      spec: { maxReplicas: 10, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    });

    // THEN
    expect(messages(app)).toEqual([]);
  });
});
