import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as kplus30 from 'cdk8s-plus-30';
import * as kplus33 from 'cdk8s-plus-33';
import { Capability, RuntimeRouting } from '../src';
import { newApp, removeTempDirs, widgetCrd } from './util';

afterAll(removeTempDirs);

const FIX = 'Remove one of these dependencies (addDependency, or the reference that implies it).';

describe('a cdk8s-plus StatefulSet, which depends on its headless Service', () => {
  test.each([
    ['cdk8s-plus-30', kplus30.StatefulSet],
    ['cdk8s-plus-33', kplus33.StatefulSet],
  ] as const)('%s: synthesized, the Service applied before the StatefulSet', (_major, StatefulSet) => {
    // GIVEN web-cache-db's shape: a StatefulSet with a volume-less container; cdk8s-plus makes its headless
    // Service and calls apiObject.addDependency(service)
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'shop'), 'Db');
    new StatefulSet(chart, 'Cache', { containers: [{ image: 'redis:7', portNumber: 6379, securityContext: { ensureNonRoot: false } }] });

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN accepted, the Service a step before the StatefulSet (an explicit dependency takes a later step)
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([]);
    expect(plan!.steps.map((s) => s.objects)).toEqual([[expect.stringMatching(/^Service [a-z0-9-]+-cache-service-c8[0-9a-f]{6}$/)], [expect.stringMatching(/^apps\/StatefulSet [a-z0-9-]+-cache-c8[0-9a-f]{6}$/)]]);
  });
});

describe('inferred, ordering-only edges give way to explicit dependencies', () => {
  test('a StorageClass made to depend on its claim: the claim\'s ordering-only edge is dropped, and plan.json says which and why', () => {
    // GIVEN claim data of StorageClass fast, and the StorageClass made to depend on the claim
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const claim = new ApiObject(chart, 'Claim', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'db' },
      spec: { storageClassName: 'fast', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const fast = new ApiObject(chart, 'Fast', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com' });
    fast.addDependency(claim);

    // WHEN synthesized and written
    const { violations, plan } = app.synthesize();
    app.synth();

    // THEN accepted: the claim first (the explicit dependency), and the plan names the edge left out
    expect(violations).toEqual([]);
    expect(plan!.steps.map((s) => s.objects)).toEqual([['PersistentVolumeClaim db/data'], ['storage.k8s.io/StorageClass fast']]);
    const written = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8'));
    expect(written.droppedOrder).toEqual([
      {
        before: 'storage.k8s.io/StorageClass fast',
        after: 'PersistentVolumeClaim db/data',
        reason: 'reference (spec.storageClassName)',
        closes: ["storage.k8s.io/StorageClass fast => PersistentVolumeClaim db/data: explicit dependency (addDependency), 'c/r/Fast'.addDependency('c/r/Claim')"],
      },
    ]);
  });

  test('a plan with no edge dropped has no droppedOrder', () => {
    const app = newApp();
    new ApiObject(new RuntimeRouting(new Capability(app, 'c'), 'r'), 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    app.synth();
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8')))).toEqual(['version', 'capabilities', 'changes', 'steps', 'teardown', 'writers']);
  });

  test('a cycle of an explicit dependency and an edge a field implies names both origins', () => {
    // GIVEN the Widget CRD made to depend on Widget w, which needs the CRD first (its kind)
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const crd = widgetCrd(chart, 'Crd');
    const widget = new ApiObject(chart, 'W', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' } });
    crd.addDependency(widget);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP004 naming the addDependency call and the field that orders the CRD first
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP004 dependency cycle: c/r/Crd => c/r/W => c/r/Crd (c/r/Crd => c/r/W: explicit \'c/r/Crd\'.addDependency(\'c/r/W\'); '
        + `c/r/W => c/r/Crd: CRD before custom resource, apiVersion example.com/v1, kind Widget). ${FIX}`,
    ]);
  });

  test('an explicit dependency made by a cdk8s-plus construct is named with the construct that made it', () => {
    // GIVEN a StatefulSet's headless Service made to depend on the StatefulSet (the reverse of cdk8s-plus' own call)
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const set = new kplus30.StatefulSet(chart, 'Db', { containers: [{ image: 'redis:7', portNumber: 6379, securityContext: { ensureNonRoot: false } }] });
    ApiObject.of(set.service).addDependency(ApiObject.of(set));

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN both edges named: cdk8s-plus' call inside StatefulSet c/r/Db, and the test's own
    expect(violations.map((v) => v.message)).toEqual([
      'dependency cycle: c/r/Db/Resource => c/r/Db/Service => c/r/Db/Resource (c/r/Db/Resource => c/r/Db/Service: '
        + 'explicit \'c/r/Db/Resource\'.addDependency(\'c/r/Db/Service\'), by StatefulSet \'c/r/Db\'; c/r/Db/Service/Resource => c/r/Db/Resource: '
        + `explicit 'c/r/Db/Service/Resource'.addDependency('c/r/Db/Resource'), by Service 'c/r/Db/Service'). ${FIX}`,
    ]);
  });
});
