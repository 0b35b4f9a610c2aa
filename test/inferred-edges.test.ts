import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import * as kplus30 from 'cdk8s-plus-30';
import * as kplus33 from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Capability, RuntimeRouting, SharedBase } from '../src';
import { newApp, removeTempDirs, siteOfNextLine, widgetCrd } from './util';
import { formatPlan } from '../src/cli/format-plan';

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

/** Claim data of StorageClass fast (a reference: the class first), and the StorageClass made to depend on the claim; `at` is where. */
function claimOfAStorageClassItDependsOn() {
  const app = newApp();
  const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
  const claim = new ApiObject(chart, 'Claim', {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'db' },
    spec: { storageClassName: 'fast', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  });
  const fast = new ApiObject(chart, 'Fast', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com' });
  const at = siteOfNextLine();
  fast.addDependency(claim);
  return { app, at };
}

describe('inferred, ordering-only edges give way to explicit dependencies', () => {
  test('a StorageClass made to depend on its claim: the claim\'s ordering-only edge is dropped, and plan.json says which and why', () => {
    // GIVEN claim data of StorageClass fast, and the StorageClass made to depend on the claim
    const { app, at } = claimOfAStorageClassItDependsOn();

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
        closes: [`storage.k8s.io/StorageClass fast => PersistentVolumeClaim db/data: explicit dependency (addDependency), 'c/r/Fast'.addDependency('c/r/Claim') at ${at}`],
      },
    ]);
  });

  test('the plan cdk-capability plan prints names the edge left out and the cycle it would have closed', () => {
    // GIVEN claim data of StorageClass fast, and the StorageClass made to depend on the claim
    const { app, at } = claimOfAStorageClassItDependsOn();

    // WHEN printed as `cdk-capability plan` prints it
    const text = formatPlan(app.synthesize().plan!);

    // THEN its last section
    expect(text.slice(text.indexOf('\nOrder left out'))).toBe([
      '',
      'Order left out (an inferred edge that would close a cycle with these edges):',
      '  storage.k8s.io/StorageClass fast before PersistentVolumeClaim db/data: reference (spec.storageClassName)',
      `      storage.k8s.io/StorageClass fast => PersistentVolumeClaim db/data: explicit dependency (addDependency), 'c/r/Fast'.addDependency('c/r/Claim') at ${at}`,
      '',
    ].join('\n'));
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
    const at = siteOfNextLine();
    crd.addDependency(widget);

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP004 naming the addDependency call and the field that orders the CRD first
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: c/r/Crd => c/r/W => c/r/Crd (c/r/Crd => c/r/W: explicit 'c/r/Crd'.addDependency('c/r/W') at ${at}; `
        + `c/r/W => c/r/Crd: CRD before custom resource, apiVersion example.com/v1, kind Widget). ${FIX}`,
    ]);
  });

  test('an explicit dependency made by a cdk8s-plus construct is named with the construct that made it, one the program made with its line', () => {
    // GIVEN a StatefulSet's headless Service made to depend on the StatefulSet (the reverse of cdk8s-plus' own call)
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const set = new kplus30.StatefulSet(chart, 'Db', { containers: [{ image: 'redis:7', portNumber: 6379, securityContext: { ensureNonRoot: false } }] });
    const at = siteOfNextLine();
    ApiObject.of(set.service).addDependency(ApiObject.of(set));

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN both edges named: cdk8s-plus' call inside StatefulSet c/r/Db, and the test's own by its line (not as the Service's)
    expect(violations.map((v) => v.message)).toEqual([
      'dependency cycle: c/r/Db/Resource => c/r/Db/Service => c/r/Db/Resource (c/r/Db/Resource => c/r/Db/Service: '
        + 'explicit \'c/r/Db/Resource\'.addDependency(\'c/r/Db/Service\'), by StatefulSet \'c/r/Db\'; c/r/Db/Service/Resource => c/r/Db/Resource: '
        + `explicit 'c/r/Db/Service/Resource'.addDependency('c/r/Db/Resource') at ${at}). ${FIX}`,
    ]);
  });
});

describe('a cycle of an explicit dependency and an implied edge names the field or rule behind the implied one', () => {
  /** Builds a composition in capability "c" and returns the site of the one explicit dependency that closes its cycle. */
  type Shape = (c: Capability) => string;
  const cm = (scope: Construct, id: string, namespace?: string) =>
    new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id.toLowerCase(), ...(namespace ? { namespace } : {}) } });
  const SHAPES: ReadonlyArray<[string, Shape, string]> = [
    ['Namespace before its contents', (c) => {
      const r = new RuntimeRouting(c, 'r');
      const ns = new ApiObject(r, 'Ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
      const a = cm(r, 'A', 'shop');
      const at = siteOfNextLine();
      ns.addDependency(a);
      return at;
    }, 'c/r/Ns => c/r/A => c/r/Ns (c/r/Ns => c/r/A: explicit \'c/r/Ns\'.addDependency(\'c/r/A\') at AT; c/r/A => c/r/Ns: Namespace before its contents, metadata.namespace shop)'],
    ['Role before binding', (c) => {
      const r = new RuntimeRouting(c, 'r');
      const role = new ApiObject(r, 'Role', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'x', namespace: 'shop' }, rules: [] });
      const binding = new ApiObject(r, 'Rb', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'x', namespace: 'shop' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' },
        subjects: [],
      });
      const at = siteOfNextLine();
      role.addDependency(binding);
      return at;
    }, 'c/r/Role => c/r/Rb => c/r/Role (c/r/Role => c/r/Rb: explicit \'c/r/Role\'.addDependency(\'c/r/Rb\') at AT; c/r/Rb => c/r/Role: Role before binding, roleRef Role x)'],
    ['a reference inside a chart', (c) => {
      const r = new RuntimeRouting(c, 'r');
      const settings = cm(r, 'Settings', 'shop');
      const pod = new ApiObject(r, 'Pod', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'shop' },
        spec: { containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 's', configMap: { name: 'settings' } }] },
      });
      const at = siteOfNextLine();
      settings.addDependency(pod);
      return at;
    }, 'c/r/Settings => c/r/Pod => c/r/Settings (c/r/Settings => c/r/Pod: explicit \'c/r/Settings\'.addDependency(\'c/r/Pod\') at AT; c/r/Pod => c/r/Settings: reference (spec.volumes[name=s].configMap))'],
    ['a reference across charts', (c) => {
      const a = new RuntimeRouting(c, 'a');
      const b = new RuntimeRouting(c, 'b');
      new ApiObject(a, 'Sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'shop' } });
      new ApiObject(b, 'Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { serviceAccountName: 'sa', containers: [{ name: 'c', image: 'nginx' }] } });
      const at = siteOfNextLine();
      a.addDependency(b);
      return at;
    }, 'c/a => c/b => c/a (c/a => c/b: explicit \'c/a\'.addDependency(\'c/b\') at AT; c/b/Pod => c/a/Sa: reference (spec.serviceAccountName))'],
    ['a child chart before its parent chart', (c) => {
      const parent = new RuntimeRouting(c, 'p');
      const inParent = cm(parent, 'Po');
      const inChild = cm(new Chart(parent, 'child'), 'Co');
      const at = siteOfNextLine();
      inChild.addDependency(inParent);
      return at;
    }, 'c/p/Po => c/p/child => c/p/Po (c/p/Po => c/p/child: child chart before its parent chart (cdk8s); c/p/child/Co => c/p/Po: explicit \'c/p/child/Co\'.addDependency(\'c/p/Po\') at AT)'],
    ['deployment time before runtime', (c) => {
      const base = new SharedBase(c, 'Base');
      new ssm.StringParameter(base, 'P', { stringValue: 'x' });
      const routing = new RuntimeRouting(c, 'r');
      cm(routing, 'A');
      const at = siteOfNextLine();
      base.node.addDependency(routing);
      return at;
    }, 'c/Base => c/r => c (deployment time) => c/Base (c/Base => c/r: explicit \'c/Base\'.addDependency(\'c/r\') at AT; c/r/A => c (deployment time): deployment time before runtime)'],
  ];

  test.each(SHAPES)('%s', (_name, shape, expected) => {
    // GIVEN the implied edge and an explicit dependency the other way
    const app = newApp();
    const at = shape(new Capability(app, 'c'));

    // WHEN synthesized
    const { violations } = app.synthesize();

    // THEN one CAP004 naming the addDependency call by its line and the field or rule that implies the other edge
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([`CAP004 dependency cycle: ${expected.replace('AT', at)}. ${FIX}`]);
  });
});
