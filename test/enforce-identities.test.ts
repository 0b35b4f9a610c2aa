// enforce.deployer and a RuntimeWriter's identity: the field-ownership policies tell the writers of a leaf apart by
// the request's identity alone, so one identity for both would switch enforcement between them off without a word.
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, CapabilityTesting, RuntimeRouting, RuntimeWriter } from '../src';
import { admit } from './enforcement/admission';

const DEPLOYER = 'system:serviceaccount:flux-system:kustomize-controller';
const SCALER = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';

/** A Deployment shop/web whose `spec.replicas` a RuntimeWriter 'shop/Routing/Scaler' writes as `identity`. */
function scaledApp(identity: string): CapabilityApp {
  const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const web = new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1.0' }] } } },
  });
  new RuntimeWriter(routing, 'Scaler', { target: web, fields: ['spec.replicas'], identity });
  return app;
}

describe('a RuntimeWriter whose identity is enforce.deployer', () => {
  test('is refused with CAP010, naming the runtime writer, the identity and the fix', () => {
    // WHEN the scaler runs as the deployer
    const result = CapabilityTesting.synth(scaledApp(DEPLOYER));

    // THEN
    expect(result.violations).toEqual([{
      code: 'CAP010',
      message: `invalid object: RuntimeWriter 'shop/Routing/Scaler' writes as '${DEPLOYER}', which is also CapabilityApp's enforce.deployer: `
        + 'the field-ownership policies tell writers apart by identity alone, so they would let that one identity change every leaf, '
        + "the deployer's and this runtime writer's alike, and nothing between the two would be enforced. "
        + "Run the deployer under its own identity (a CI job's or GitOps controller's service account, such as system:serviceaccount:ci:deployer) and give it as enforce.deployer, "
        + 'or give the RuntimeWriter the identity its controller runs as.',
      paths: ['shop/Routing/Scaler'],
    }]);
  });

  test('is not refused without enforce: nothing then tells writers apart by identity', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const web = new ApiObject(routing, 'Web', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'shop' }, data: { mode: 'fast' } });
    new RuntimeWriter(routing, 'Tuner', { target: web, fields: ['data.level'], identity: DEPLOYER });

    // THEN
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});

describe('a RuntimeWriter of its own identity', () => {
  test('is accepted, and the policy keeps the deployer and the runtime writer apart', () => {
    // GIVEN
    const result = CapabilityTesting.synth(scaledApp(SCALER));
    expect(result.violations).toEqual([]);
    const policies = result.runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
    const oldObject = result.runtimeObjects.find((o) => o.kind === 'Deployment')!;
    const update = (username: string, change: (spec: any) => any) => admit(policies, {
      operation: 'UPDATE',
      username,
      group: 'apps',
      resource: 'deployments',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
      oldObject,
      object: { ...oldObject, spec: change(oldObject.spec) },
    }).allowed;

    // THEN each may change its own leaves, and neither the other's
    expect(update(SCALER, (spec) => ({ ...spec, replicas: 5 }))).toBe(true);
    expect(update(DEPLOYER, (spec) => ({ ...spec, replicas: 5 }))).toBe(false);
    expect(update(SCALER, (spec) => ({ ...spec, selector: { matchLabels: { app: 'other' } } }))).toBe(false);
  });
});
