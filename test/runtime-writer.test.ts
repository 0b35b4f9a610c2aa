import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Deployment } from 'cdk8s-plus-30';
import { Capability, CapabilityTesting, RuntimeRouting, RuntimeWriter, RuntimeWriterProps } from '../src';

const NETOP = 'system:serviceaccount:netop-system:netop';

function routing() {
  const app = CapabilityTesting.app();
  return { app, routing: new RuntimeRouting(new Capability(app, 'cdn'), 'Routing') };
}

function appDeployment(scope: RuntimeRouting): ApiObject {
  return new ApiObject(scope, 'App', { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment', metadata: { name: 'app1', namespace: 'apps' }, spec: { timers: { publishTimeout: '5m' } } });
}

describe('RuntimeWriter', () => {
  test('keeps its object, fields, identity and field manager as given', () => {
    // GIVEN
    const { routing: r } = routing();
    const object = appDeployment(r);

    // WHEN
    const netop = new RuntimeWriter(r, 'NetOp', { target: object, fields: ['spec.domains', 'spec.routeTables'], identity: NETOP, manager: 'network-operator' });

    // THEN
    expect({ apiObject: netop.apiObject, kind: netop.kind, fields: netop.fields, identity: netop.identity, manager: netop.manager })
      .toEqual({ apiObject: object, kind: undefined, fields: ['spec.domains', 'spec.routeTables'], identity: NETOP, manager: 'network-operator' });
    expect(RuntimeWriter.isRuntimeWriter(netop)).toBe(true);
    expect(RuntimeWriter.isRuntimeWriter(object)).toBe(false);
  });

  test('targets the ApiObject of a cdk8s-plus construct', () => {
    const { routing: r } = routing();
    const web = new Deployment(r, 'Web', { containers: [{ image: 'nginx' }] });
    const autoscaler = new RuntimeWriter(r, 'Autoscaler', { target: web, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler' });
    expect(autoscaler.apiObject).toBe(web.node.defaultChild);
  });

  test('targets every object of a kind with { apiVersion, kind }', () => {
    const { routing: r } = routing();
    const kindWide = new RuntimeWriter(r, 'Autoscaler', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler' });
    expect({ apiObject: kindWide.apiObject, kind: kindWide.kind }).toEqual({ apiObject: undefined, kind: { apiVersion: 'apps/v1', kind: 'Deployment' } });
  });

  test('a composition with valid runtime writers is accepted, and the manager is optional', () => {
    const { app, routing: r } = routing();
    new RuntimeWriter(r, 'NetOp', { target: appDeployment(r), fields: ['metadata.labels["example.com/team"]', 'metadata.finalizers[=netop.example.com/cleanup]'], identity: NETOP });
    expect(CapabilityTesting.synth(app).violations).toEqual([]);
  });
});

describe('bad props are CAP010 at synth, naming the prop, the value and what is expected', () => {
  const cases: Array<[string, (r: RuntimeRouting) => RuntimeWriterProps, RegExp]> = [
    ['a malformed field', (r) => ({ target: appDeployment(r), fields: ['spec.domains['], identity: NETOP }),
      /'fields'\[0\] \("spec\.domains\["\) is not a field path: expected a quoted map key, "=value" \(a set value\) or "key=value" \(a keyed list element\) at the end of the path\. Write leaves as plan and the lock name them, such as "spec\.domains", /],
    ['an identity field', (r) => ({ target: appDeployment(r), fields: ['metadata.name'], identity: NETOP }),
      /'fields'\[0\] \("metadata\.name"\) is an identity field \(apiVersion, kind, metadata\.name, metadata\.namespace\), which nobody owns: leave it out/],
    ['metadata.resourceVersion, which the API server sets', (r) => ({ target: appDeployment(r), fields: ['metadata.resourceVersion'], identity: NETOP }),
      /'fields'\[0\] \("metadata\.resourceVersion"\) is set by the API server \(metadata\.resourceVersion\), which strips it from every apply and update: no field manager owns it, so no controller can be its writer\. Leave it out$/],
    ['metadata.uid', (r) => ({ target: appDeployment(r), fields: ['metadata.uid'], identity: NETOP }),
      /'fields'\[0\] \("metadata\.uid"\) is set by the API server \(metadata\.uid\), /],
    ['metadata.managedFields', (r) => ({ target: appDeployment(r), fields: ['metadata.managedFields'], identity: NETOP }),
      /'fields'\[0\] \("metadata\.managedFields"\) is set by the API server \(metadata\.managedFields\), /],
    ['a status field', (r) => ({ target: appDeployment(r), fields: ['status.phase'], identity: NETOP }),
      /'fields'\[0\] \("status\.phase"\) is in status, which controllers write through the status subresource: the admission policy does not constrain it, and the lock, plan\.json and audit leave it out\. Leave it out, and declare only the controller's fields outside status$/],
    ['a field listed twice', (r) => ({ target: appDeployment(r), fields: ['spec.domains', 'spec.domains'], identity: NETOP }), /'fields'\[1\] \("spec\.domains"\) is listed twice: list each leaf once/],
    ['no fields', (r) => ({ target: appDeployment(r), fields: [], identity: NETOP }), /'fields' \(\[\]\) must list the leaves the controller writes, such as \['spec\.domains'\]/],
    ['an identity with a space', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: 'net op' }),
      /'identity' \("net op"\) must be the Kubernetes username the controller writes as \(no spaces\), such as "system:serviceaccount:netop-system:netop"/],
    ['a malformed service account', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: 'system:serviceaccount:NetOp' }),
      /'identity' \("system:serviceaccount:NetOp"\) must name a service account as the API server does, system:serviceaccount:<namespace>:<name>/],
    ['a field manager over 128 characters', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'm'.repeat(129) }),
      /'manager' \("m{129}"\) must be the field manager the controller writes under, as the API server accepts it: 1 to 128 bytes of printable characters, such as "network-operator"/],
    ['a field manager of 128 characters but more bytes', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'é'.repeat(65) }),
      /'manager' \("é{65}"\) must be the field manager the controller writes under, as the API server accepts it: 1 to 128 bytes of printable characters/],
    ['a field manager with a control character', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'net\top' }),
      /'manager' \("net\\top"\) must be the field manager the controller writes under, as the API server accepts it: 1 to 128 bytes of printable characters/],
    ['an empty field manager', (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: '' }),
      /'manager' \(""\) must be the field manager the controller writes under, as the API server accepts it: 1 to 128 bytes of printable characters/],
    ["the applier's own field manager (a user trial: accepted, and each release removed the controller's field)", (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'cdk-capability' }),
      /'manager' \("cdk-capability"\) is a field manager of cdk-capability's own \(cdk-capability apply writes under "cdk-capability" and "cdk-capability:<writer>"; a RuntimeWriter without a manager is "cdk-capability-runtime:<its path>"\): a release would take the controller's fields away\. Give the manager the controller itself writes under, such as "network-operator", or leave it out$/],
    ["a writer's field manager", (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'cdk-capability:platform/Routing/App1' }),
      /'manager' \("cdk-capability:platform\/Routing\/App1"\) is a field manager of cdk-capability's own/],
    ["another runtime writer's derived field manager", (r) => ({ target: appDeployment(r), fields: ['spec.domains'], identity: NETOP, manager: 'cdk-capability-runtime:cdn/Routing/Other' }),
      /'manager' \("cdk-capability-runtime:cdn\/Routing\/Other"\) is a field manager of cdk-capability's own/],
    ['a target that is no object', (r) => ({ target: r, fields: ['spec.domains'], identity: NETOP }),
      /'target' \('cdn\/Routing'\) must be an ApiObject, a construct with one as its default child, or \{ apiVersion, kind \} for every object of a kind/],
  ];

  test.each(cases)('%s', (_name, props, message) => {
    // GIVEN
    const { app, routing: r } = routing();
    new RuntimeWriter(r, 'NetOp', props(r));

    // WHEN
    const { violations } = CapabilityTesting.synth(app);

    // THEN
    expect(violations.map((v) => v.code)).toEqual(['CAP010']);
    expect(violations[0].message).toMatch(/^invalid object: 'cdn\/Routing\/NetOp' failed its own validation: /);
    expect(violations[0].message).toMatch(message);
    expect(violations[0].paths).toEqual(['cdn/Routing/NetOp']);
  });
});

test('docs/errors.md quotes the malformed-field message exactly', () => {
  // GIVEN
  const { app, routing: r } = routing();
  new RuntimeWriter(r, 'NetOp', { target: appDeployment(r), fields: ['spec.domains['], identity: NETOP });

  // WHEN
  const [violation] = CapabilityTesting.synth(app).violations;

  // THEN
  const documented = fs.readFileSync(path.join(__dirname, '..', 'docs', 'errors.md'), 'utf-8').split('\n').filter((l) => l.startsWith("> CAP010 invalid object: 'cdn/Routing/NetOp'"));
  expect(documented).toEqual([`> ${violation.code} ${violation.message}`]);
});

describe('a RuntimeWriter of every object of a kind nothing in reach knows', () => {
  test('is a CAP010 warning naming the closest kind of the composition: a typo protects nothing', () => {
    // GIVEN (a user trial: kind 'ApplicationDeploymnt' was accepted without a word) the composition's ApplicationDeployment
    const { app, routing: r } = routing();
    appDeployment(r);

    // WHEN
    new RuntimeWriter(r, 'NetOp', { target: { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeploymnt' }, fields: ['spec.domains'], identity: NETOP });
    const result = CapabilityTesting.synth(app);

    // THEN accepted, with a warning
    expect(result.violations).toEqual([]);
    expect(result.warnings.map((w) => `${w.code} ${w.message}`)).toEqual([
      "CAP010 invalid object: 'cdn/Routing/NetOp' writes every apps.example.com/ApplicationDeploymnt, a kind no object or CRD of the composition has and no built-in kind of Kubernetes: "
        + "it protects nothing here (did you mean 'ApplicationDeployment'?). Check the target's apiVersion and kind; a kind defined outside the composition needs nothing.",
    ]);
  });

  test('a built-in kind, a kind of the composition, or a kind its CRD defines gives no warning', () => {
    // GIVEN a CRD of Widgets, and no object of any of the three kinds but the ApplicationDeployment
    const { app, routing: r } = routing();
    appDeployment(r);
    new ApiObject(r, 'WidgetCrd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    });

    // WHEN
    new RuntimeWriter(r, 'Hpa', { target: { apiVersion: 'apps/v1', kind: 'Deployment' }, fields: ['spec.replicas'], identity: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler' });
    new RuntimeWriter(r, 'NetOp', { target: { apiVersion: 'apps.example.com/v1', kind: 'ApplicationDeployment' }, fields: ['spec.domains'], identity: NETOP });
    new RuntimeWriter(r, 'Widgets', { target: { apiVersion: 'example.com/v1', kind: 'Widget' }, fields: ['spec.size'], identity: NETOP });

    // THEN
    const result = CapabilityTesting.synth(app);
    expect([result.violations, result.warnings]).toEqual([[], []]);
  });
});
