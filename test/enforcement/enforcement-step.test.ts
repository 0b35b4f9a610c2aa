// Where the policies go: a runtime step of their own before every step they protect, in plan.json,
// runtime/ (and its kustomization), the GitOps output; and how they scale with the composition.
import { ApiObject } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { DEPLOYER, seedApp } from './fixtures';
import { Capability, CapabilityApp, CapabilityTesting, GitOps, RuntimeRouting } from '../../src';
import { MAX_NAMES_PER_BINDING } from '../../src/render/enforcement/admission-policy';
import { textOf } from '../../src/render/file-content';

function files(app: CapabilityApp): Map<string, string> {
  const result = app.synthesize();
  if (!result.output) throw new Error(result.violations.map((v) => v.message).join('\n'));
  return new Map([...result.output.files].map(([f, c]) => [f, textOf(c)]));
}

describe('the field-ownership step', () => {
  test('comes first among the runtime steps, and every step with a protected object waits for it', () => {
    // WHEN
    const plan = CapabilityTesting.synth(seedApp().app).plan!;

    // THEN
    const first = { step: 'field-ownership', reasons: ['field-ownership policy before the objects it protects'] };
    expect(plan.steps.map((s) => [s.id, s.files, s.dependsOn])).toEqual([
      ['field-ownership', ['runtime/0000-field-ownership.yaml'], []],
      ['platform/Routing#1', ['runtime/0001-platform-routing-1.yaml'], [first]],
      ['platform/Routing#2', ['runtime/0002-platform-routing-2.yaml'], [first, { step: 'platform/Routing#1', reasons: ['CRD before custom resource'] }]],
    ]);
    expect(plan.steps[0].objects).toEqual([
      'admissionregistration.k8s.io/ValidatingAdmissionPolicy platform.field-owners.customresourcedefinitions.apiextensions.k8s.io',
      'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding platform.field-owners.customresourcedefinitions.apiextensions.k8s.io',
      'admissionregistration.k8s.io/ValidatingAdmissionPolicy platform.field-owners.applicationdeployments.apps.example.com',
      'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding platform.field-owners.applicationdeployments.apps.example.com',
    ]);
  });

  test('is its own file in runtime/, first in the kustomization', () => {
    // WHEN
    const out = files(seedApp().app);

    // THEN
    expect(parseAllDocuments(out.get('runtime/0000-field-ownership.yaml')!).map((d) => d.toJS().kind)).toEqual([
      'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
    ]);
    expect(parseAllDocuments(out.get('runtime/kustomization.yaml')!)[0].toJS().resources).toEqual(['0000-field-ownership.yaml', '0001-platform-routing-1.yaml', '0002-platform-routing-2.yaml']);
  });

  test('is a Flux Kustomization that the protected step depends on', () => {
    // GIVEN
    const { app } = seedApp();
    const flux = new CapabilityApp({ outdir: app.outdir, lockFile: app.lockFile, enforce: app.enforce, gitops: GitOps.flux({ sourceRef: { name: 'platform' } }) });
    const routing = new RuntimeRouting(new Capability(flux, 'platform'), 'Routing');
    new ApiObject(routing, 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'apps' }, data: { a: '1' } });

    // WHEN
    const out = files(flux);
    const cluster = [...out.keys()].filter((f) => f.startsWith('gitops/flux/cluster/') && !f.endsWith('/kustomization.yaml')).sort().map((f) => parseAllDocuments(out.get(f)!)[0].toJS());

    // THEN
    expect(cluster.map((k) => [k.metadata.name, k.spec.dependsOn?.map((d: any) => d.name) ?? []])).toEqual([
      ['field-ownership', []],
      ['platform-routing', ['field-ownership']],
    ]);
  });

  test('without enforce there is no step and no policy', () => {
    // GIVEN
    const app = CapabilityTesting.app();
    new ApiObject(new RuntimeRouting(new Capability(app, 'platform'), 'Routing'), 'Settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'apps' } });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect(result.plan!.steps.map((s) => s.id)).toEqual(['platform/Routing']);
    expect(result.runtimeObjects.map((o) => o.kind)).toEqual(['ConfigMap']);
  });
});

describe('scale', () => {
  test('10,000 ConfigMaps of one shape in two namespaces are one policy, bound by name in chunks', () => {
    // GIVEN
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'bench'), 'Routing');
    for (let i = 0; i < 10_000; i++) {
      new ApiObject(routing, `Cm${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i % 5000}`, namespace: i < 5000 ? 'a' : 'b' }, data: { index: String(i) } });
    }

    // WHEN
    const policies = CapabilityTesting.synth(app).runtimeObjects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');

    // THEN one policy; the two namespaces hold the same names, so one binding covers both
    const scope = (p: any) => {
      const match = p.spec.matchResources;
      return [match?.resourceRules[0].resourceNames.length, match?.namespaceSelector.matchExpressions[0].values];
    };
    expect(policies.map((p) => [p.kind, p.metadata.name, ...scope(p)]))
      .toEqual([
        ['ValidatingAdmissionPolicy', 'bench.field-owners.configmaps', undefined, undefined],
        ['ValidatingAdmissionPolicyBinding', 'bench.field-owners.configmaps', MAX_NAMES_PER_BINDING, ['a', 'b']],
      ]);
  });

  test('namespaces with different names get bindings of their own, so no object outside the composition is bound', () => {
    // GIVEN web in a and b, api in b only
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    for (const [id, name, namespace] of [['A', 'web', 'a'], ['B', 'web', 'b'], ['C', 'api', 'b']]) {
      new ApiObject(routing, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { x: '1' } });
    }

    // WHEN
    const bindings = CapabilityTesting.synth(app).runtimeObjects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding');

    // THEN
    const scope = (b: any) => [b.spec.matchResources.namespaceSelector.matchExpressions[0].values, b.spec.matchResources.resourceRules[0]
      .resourceNames];
    expect(bindings.map((b) => [b.metadata.name, ...scope(b)])).toEqual([
      ['shop.field-owners.configmaps', ['a'], ['web']],
      ['shop.field-owners.configmaps.2', ['b'], ['api', 'web']],
    ]);
  });

  test('objects of one kind with different owned leaves get a policy each', () => {
    const app = CapabilityTesting.app({ enforce: { deployer: DEPLOYER } });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new ApiObject(routing, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' }, data: { x: '1' } });
    new ApiObject(routing, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'shop' }, data: { y: '1' } });
    const policies = CapabilityTesting.synth(app).runtimeObjects.filter((o) => o.kind === 'ValidatingAdmissionPolicy');
    expect(policies.map((p) => p.metadata.name)).toEqual(['shop.field-owners.configmaps', 'shop.field-owners-2.configmaps']);
  });
});

describe('enforce props', () => {
  test.each([
    [{ deployer: '' }, /^The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: 'enforce\.deployer' \(""\) must be the Kubernetes username that applies the runtime output \(no spaces\), such as "system:serviceaccount:flux-system:kustomize-controller"$/],
    [{ deployer: DEPLOYER, validationActions: ['Deny', 'Warn'] }, /'enforce\.validationActions' \(\["Deny","Warn"\]\) may not hold both "Deny" and "Warn" \(the API server refuses the pair/],
    [{ deployer: DEPLOYER, validationActions: [] }, /'enforce\.validationActions' \(\[\]\) must list each of "Deny", "Warn" and "Audit" at most once, and at least one, such as \["Warn", "Audit"\]/],
    [{ deployer: DEPLOYER, validationActions: ['Block'] }, /'enforce\.validationActions' \(\["Block"\]\) must list each of/],
  ])('%j is refused when the app is created', (enforce, message) => {
    expect(() => CapabilityTesting.app({ enforce: enforce as any })).toThrow(message);
  });

  test('a key enforce does not take is refused, naming the option it misspells, beside what its absence breaks', () => {
    // GIVEN a misspelt deployer: before, only the missing deployer was named, never the key that was given
    const enforce = { deployr: DEPLOYER, validationAction: ['Warn'] };

    // THEN
    expect(() => CapabilityTesting.app({ enforce: enforce as any })).toThrow(new Error(
      'The composition was refused with 1 violation:\nCAP010 invalid object: CapabilityApp props: ' +
        "'enforce.deployr' is not an option (did you mean 'enforce.deployer'?); the options are 'enforce.deployer', 'enforce.validationActions', 'enforce.resources'; " +
        "'enforce.validationAction' is not an option (did you mean 'enforce.validationActions'?); the options are 'enforce.deployer', 'enforce.validationActions', 'enforce.resources'; " +
        "'enforce.deployer' (undefined) must be the Kubernetes username that applies the runtime output (no spaces), such as \"system:serviceaccount:flux-system:kustomize-controller\"",
    ));
  });
});
