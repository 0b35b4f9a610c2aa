/**
 * kapp's change-graph tests, ported: kapp's resources declared in a `RuntimeRouting`, kapp's order of changes
 * compared with the library's steps (apply) and teardown (delete).
 *
 * Source: carvel-dev/kapp at commit a89576c503975ec6a238e0cab7ef93d4b0896152, file
 * pkg/kapp/diffgraph/change_graph_test.go; each test names the upstream test it ports. kapp's change groups and
 * change rules (`kapp.k14s.io/change-group`, `kapp.k14s.io/change-rule: upsert after upserting <group>`) map to
 * `addDependency` on a construct that holds the group's objects (docs/ordering.md, "Edges that take a later step");
 * kapp's default rules (CRDs and Namespaces first, ...) map to the library's own edges and kind order. Already in
 * test/kind-order.test.ts: TestChangeGraphWithNamespaceAndCRDs, TestChangeGraphWithConfDefaults,
 * TestChangeGraphWithNamespaceAndSA. Also ported here, from the same commit: TestOrder of test/e2e/order_test.go (a
 * deploy, then a deploy that deletes an object another one was ordered after). Not ported:
 * TestChangeGraphWithAdditionalOrderRules (a Namespace before a ConfigMap in it by a configured rule: the library's
 * own edge, in TestChangeGraphWithConfDefaults); TestChangeGraphWithOptionalRulesThatProduceCycles (kapp's
 * configured `ignoreIfCyclical` rules put a Secret before its own Namespace; the library's Namespace edge is never
 * dropped, and a program declares no soft rules: the kind order is the library's, test/soft-order.test.ts);
 * change_graph_cf_for_k8s_test.go (cf-for-k8s' 400 resources and its kapp config of change groups by label).
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, release, removeReleaseDirs } from './release-fixtures';
import { newApp, removeTempDirs, siteOfNextLine, stepSummary } from './util';

afterAll(() => {
  removeTempDirs();
  removeReleaseDirs();
});

function object(
  scope: Construct, id: string, apiVersion: string, kind: string, name: string, namespace?: string, rest: Record<string, unknown> = {},
): ApiObject {
  return new ApiObject(scope, id, { apiVersion, kind, metadata: namespace === undefined ? { name } : { name, namespace }, ...rest });
}

/** A Job named `name`, as kapp's tests declare them (with the pod template a Job needs). */
function job(scope: Construct, name: string): ApiObject {
  return object(scope, name, 'batch/v1', 'Job', name, undefined, {
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } },
  });
}

/** The library's next call site after `at` (`file:line` one line further). */
function lineAfter(at: string): string {
  const [file, line] = at.split(':');
  return `${file}:${Number(line) + 1}`;
}

describe('upsert order, against kapp\'s change graph', () => {
  // Ported from TestGraphOrderWithClusterRoleAndClusterRoleBinding: the binding waits for the ClusterRole it names.
  test('a ClusterRoleBinding after the ClusterRole its roleRef names, in the next step (TestGraphOrderWithClusterRoleAndClusterRoleBinding)', () => {
    // GIVEN kapp's two resources
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    object(chart, 'Role', 'rbac.authorization.k8s.io/v1', 'ClusterRole', 'test-rbac-cluster-role');
    object(chart, 'Binding', 'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'test-rbac-cluster-role-binding', undefined, {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'test-rbac-cluster-role' },
    });

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN kapp's order, the binding waiting for the role
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['rbac.authorization.k8s.io/ClusterRole test-rbac-cluster-role'], dependsOn: [] },
      { id: 'c/r#2', objects: ['rbac.authorization.k8s.io/ClusterRoleBinding test-rbac-cluster-role-binding'], dependsOn: [{ step: 'c/r#1', reasons: ['Role before binding'] }] },
    ]);
  });

  // Ported from TestChangeGraph: kapp's change groups and rules become a construct holding the group and
  // addDependency. kapp upserts app-config and import-etcd-into-db first; migrations after import-etcd-into-db; the
  // group apps.big.co/deployment (Service, Ingress, Deployment) with the Deployment after migrations; app-health-check
  // after the whole group. The library puts the Ingress in the Deployment's step, as its kind order follows the
  // Deployment (docs/ordering.md, "The kind order"); kapp waits on nothing for it.
  test('change rules as addDependency: each rule a later step, the health check after the whole group (TestChangeGraph)', () => {
    // GIVEN kapp's resources, in kapp's order
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    object(chart, 'app-config', 'v1', 'ConfigMap', 'app-config');
    const importEtcd = job(chart, 'import-etcd-into-db');
    const migrations = job(chart, 'migrations');
    migrations.addDependency(importEtcd); // upsert after upserting apps.big.co/import-etcd-into-db
    const deployment = new Construct(chart, 'deployment'); // change-group apps.big.co/deployment
    object(deployment, 'Service', 'v1', 'Service', 'app', undefined, { spec: { ports: [{ port: 80 }], selector: { app: 'app' } } });
    object(deployment, 'Ingress', 'networking.k8s.io/v1', 'Ingress', 'app', undefined, { spec: { defaultBackend: { service: { name: 'app', port: { number: 80 } } } } });
    object(deployment, 'Deployment', 'apps/v1', 'Deployment', 'app', undefined, {
      spec: { selector: { matchLabels: { app: 'app' } }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    }).addDependency(migrations); // upsert after upserting apps.big.co/db-migrations
    job(chart, 'app-health-check').node.addDependency(deployment); // upsert after upserting apps.big.co/deployment

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['ConfigMap app-config', 'Service app', 'batch/Job import-etcd-into-db'], dependsOn: [] },
      { id: 'c/r#2', objects: ['batch/Job migrations'], dependsOn: [{ step: 'c/r#1', reasons: ['explicit dependency (addDependency)'] }] },
      {
        id: 'c/r#3',
        objects: ['apps/Deployment app', 'networking.k8s.io/Ingress app'],
        dependsOn: [{ step: 'c/r#1', reasons: ['reference (spec.defaultBackend)'] }, { step: 'c/r#2', reasons: ['explicit dependency (addDependency)'] }],
      },
      {
        id: 'c/r#4',
        objects: ['batch/Job app-health-check'],
        dependsOn: [{ step: 'c/r#1', reasons: ['explicit dependency (addDependency)'] }, { step: 'c/r#3', reasons: ['explicit dependency (addDependency)'] }],
      },
    ]);
  });

  /** kapp's resources of TestChangeGraphWithAppCR_RoleRoleBindingAndSA (App and PackageInstall name the ServiceAccount and Secret). */
  function appCrWithRbac(app: CapabilityApp, all: boolean): void {
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    if (!all) return;
    object(chart, 'Ns', 'v1', 'Namespace', 'test');
    object(chart, 'Sa', 'v1', 'ServiceAccount', 'default-ns-sa', 'test');
    object(chart, 'Role', 'rbac.authorization.k8s.io/v1', 'Role', 'default-ns-role', 'test', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
    object(chart, 'Binding', 'rbac.authorization.k8s.io/v1', 'RoleBinding', 'default-ns-role-binding', 'test', {
      subjects: [{ kind: 'ServiceAccount', name: 'default-ns-sa', namespace: 'test' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'default-ns-role' },
    });
    object(chart, 'App', 'kappctrl.k14s.io/v1alpha1', 'App', 'simple-app-cr', 'test', {
      spec: { serviceAccountName: 'default-ns-sa', fetch: [{ git: {} }], template: [{ ytt: {} }], deploy: [{ kapp: {} }] },
    });
    object(chart, 'Pkgi', 'packaging.carvel.dev/v1alpha1', 'PackageInstall', 'pkg-demo', 'test', {
      spec: { serviceAccountName: 'default-ns-sa', packageRef: { refName: 'simple-app.corp.com', versionSelection: { constraints: '1.0.0' } }, values: [{ secretRef: { name: 'pkg-demo-values' } }] },
    });
    object(chart, 'Values', 'v1', 'Secret', 'pkg-demo-values', 'test', { stringData: { 'values.yml': '---\nhello_msg: "to all my internet friends"\n' } });
  }

  // Ported from TestChangeGraphWithAppCR_RoleRoleBindingAndSA, the upsert half. kapp's default rules make App and
  // PackageInstall wait for the ServiceAccounts, Secrets, Roles and RoleBindings of their namespace, and each of
  // those for the Namespace, the RoleBinding for the Role. The library has no rule for kapp-controller's kinds: the
  // custom resources come after the RBAC band by the kind order, here in the binding's step.
  test('Namespace, then ServiceAccount, Secret and Role, then the RoleBinding with App and PackageInstall (TestChangeGraphWithAppCR_RoleRoleBindingAndSA, upsert)', () => {
    // GIVEN kapp's resources
    const app = newApp();
    appCrWithRbac(app, true);

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN every object after what kapp makes it wait for
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['Namespace test'], dependsOn: [] },
      {
        id: 'c/r#2',
        objects: ['ServiceAccount test/default-ns-sa', 'Secret test/pkg-demo-values', 'rbac.authorization.k8s.io/Role test/default-ns-role'],
        dependsOn: [{ step: 'c/r#1', reasons: ['Namespace before its contents'] }],
      },
      {
        id: 'c/r#3',
        objects: ['rbac.authorization.k8s.io/RoleBinding test/default-ns-role-binding', 'kappctrl.k14s.io/App test/simple-app-cr', 'packaging.carvel.dev/PackageInstall test/pkg-demo'],
        dependsOn: [{ step: 'c/r#1', reasons: ['Namespace before its contents'] }, { step: 'c/r#2', reasons: ['Role before binding'] }],
      },
    ]);
  });

  // Ported from TestChangeGraphWithAppCR_RoleRoleBindingAndSA, the delete half: kapp deletes App and PackageInstall
  // before the ServiceAccount, Role and RoleBinding they run as, and the ServiceAccount before the Namespace.
  test('a teardown deletes App and PackageInstall first, their ServiceAccount, Role and binding next, the Namespace last (TestChangeGraphWithAppCR_RoleRoleBindingAndSA, delete)', () => {
    // GIVEN the lock of kapp's resources
    const series = lockedSeries(appCrWithRbac, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, appCrWithRbac, false);

    // THEN the reverse of the apply order
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['packaging.carvel.dev/PackageInstall test/pkg-demo', 'kappctrl.k14s.io/App test/simple-app-cr', 'rbac.authorization.k8s.io/RoleBinding test/default-ns-role-binding'],
      ['rbac.authorization.k8s.io/Role test/default-ns-role', 'Secret test/pkg-demo-values', 'ServiceAccount test/default-ns-sa'],
      ['Namespace test'],
    ]);
  });
});

describe('cycles, against kapp\'s change graph', () => {
  // kapp: "Detected cycle while ordering changes: [job/job1 () cluster] -> [job/job2 () cluster] -> [job/job1 () cluster]
  // (found repeated: job/job1 () cluster)". The library names each construct of the cycle once, in "depends on" order,
  // and the origin of each edge (docs/ordering.md; CAP004 in docs/errors.md).
  const FIX = 'Remove one of these dependencies (addDependency, or the reference that implies it).';

  // Ported from TestChangeGraphCircularDirect (and TestChangeGraphCircularOther, the same cycle written with "before").
  test('two Jobs each after the other (TestChangeGraphCircularDirect)', () => {
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const [job1, job2] = [job(chart, 'job1'), job(chart, 'job2')];
    const at = siteOfNextLine();
    job1.addDependency(job2);
    job2.addDependency(job1);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: c/r/job1 => c/r/job2 => c/r/job1 (c/r/job1 => c/r/job2: explicit 'c/r/job1'.addDependency('c/r/job2') at ${at}; `
        + `c/r/job2 => c/r/job1: explicit 'c/r/job2'.addDependency('c/r/job1') at ${lineAfter(at)}). ${FIX}`,
    ]);
  });

  // Ported from TestChangeGraphCircularTransitive: kapp prints job1 -> job3 -> job2 -> job1.
  test('three Jobs in a ring, named in kapp\'s order (TestChangeGraphCircularTransitive)', () => {
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const [job1, job2, job3] = [job(chart, 'job1'), job(chart, 'job2'), job(chart, 'job3')];
    const at = siteOfNextLine();
    job1.addDependency(job3);
    job2.addDependency(job1);
    job3.addDependency(job2);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: c/r/job1 => c/r/job3 => c/r/job2 => c/r/job1 (c/r/job1 => c/r/job3: explicit 'c/r/job1'.addDependency('c/r/job3') at ${at}; `
        + `c/r/job3 => c/r/job2: explicit 'c/r/job3'.addDependency('c/r/job2') at ${lineAfter(lineAfter(at))}; `
        + `c/r/job2 => c/r/job1: explicit 'c/r/job2'.addDependency('c/r/job1') at ${lineAfter(at)}). ${FIX}`,
    ]);
  });

  // Ported from TestChangeGraphCircularWithinADep: kapp prints the path from job3, which waits on the cycle
  // (job3 -> job1 -> job2 -> job1); the library names the cycle alone, job3 not being on it.
  test('a Job waiting on a cycle is not named in it (TestChangeGraphCircularWithinADep)', () => {
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const [job3, job1, job2] = [job(chart, 'job3'), job(chart, 'job1'), job(chart, 'job2')];
    job3.addDependency(job1);
    const at = siteOfNextLine();
    job1.addDependency(job2);
    job2.addDependency(job1);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      `CAP004 dependency cycle: c/r/job1 => c/r/job2 => c/r/job1 (c/r/job1 => c/r/job2: explicit 'c/r/job1'.addDependency('c/r/job2') at ${at}; `
        + `c/r/job2 => c/r/job1: explicit 'c/r/job2'.addDependency('c/r/job1') at ${lineAfter(at)}). ${FIX}`,
    ]);
  });

  // Ported from TestChangeGraphCircularSelf: kapp refuses a group ordered before itself. cdk8s silently drops a
  // self-dependent object (../shared/FIELD-NOTES.md); the library refuses it, as kapp does.
  test('a Job after itself (TestChangeGraphCircularSelf)', () => {
    const app = newApp();
    const job1 = job(new RuntimeRouting(new Capability(app, 'c'), 'r'), 'job1');
    job1.addDependency(job1);

    expect(app.synthesize().violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP004 dependency cycle: \'c/r/job1\' depends on itself. Remove the addDependency call that names the construct itself.',
    ]);
  });
});

describe('more change rules, against kapp\'s change graph', () => {
  // Ported from TestChangeGraphWithMultipleRules: migrations after import-etcd-into-db (`upsert after upserting`) and
  // before after-migrations (`upsert before upserting`). A rule "before X" is X's addDependency on the object.
  test('a rule before and a rule after: three steps (TestChangeGraphWithMultipleRules)', () => {
    // GIVEN kapp's Jobs, in kapp's order
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const importEtcd = job(chart, 'import-etcd-into-db');
    const afterMigrations = job(chart, 'after-migrations');
    const migrations = job(chart, 'migrations');
    migrations.addDependency(importEtcd); // rule1: upsert after upserting apps.big.co/import-etcd-into-db
    afterMigrations.addDependency(migrations); // rule2: upsert before upserting apps.big.co/after-migrations

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN kapp's order: import-etcd-into-db waits on nothing, migrations on it, after-migrations on migrations
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'c/r#1', objects: ['batch/Job import-etcd-into-db'], dependsOn: [] },
      { id: 'c/r#2', objects: ['batch/Job migrations'], dependsOn: [{ step: 'c/r#1', reasons: ['explicit dependency (addDependency)'] }] },
      { id: 'c/r#3', objects: ['batch/Job after-migrations'], dependsOn: [{ step: 'c/r#2', reasons: ['explicit dependency (addDependency)'] }] },
    ]);
  });

  // Ported from TestChangeGraphWithMultipleGroups: after-migrations is in two change groups, and migrations comes
  // before each. A construct has one scope, so an object in two groups is named by the dependency itself; two
  // dependencies of one pair are one edge.
  test('an object in two groups that one object comes before: three steps (TestChangeGraphWithMultipleGroups)', () => {
    // GIVEN kapp's Jobs; group1 and group2 both hold after-migrations
    const app = newApp();
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const importEtcd = job(chart, 'import-etcd-into-db');
    const afterMigrations = job(chart, 'after-migrations');
    const migrations = job(chart, 'migrations');
    migrations.addDependency(importEtcd); // rule1
    afterMigrations.addDependency(migrations); // rule2: upsert before upserting apps.big.co/after-migrations-1
    afterMigrations.addDependency(migrations); // rule3: upsert before upserting apps.big.co/after-migrations-2

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN as with one group
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([
      ['batch/Job import-etcd-into-db'], ['batch/Job migrations'], ['batch/Job after-migrations'],
    ]);
  });

  /** kapp's resources of TestChangeGraphWithDeletes, with their upsert rules; `all` false for a release without them. */
  function withDeletes(app: CapabilityApp, all: boolean): void {
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    if (!all) return;
    object(chart, 'app-config', 'v1', 'ConfigMap', 'app-config', 'default');
    const importEtcd = job(chart, 'import-etcd-into-db');
    const migrations = job(chart, 'migrations');
    migrations.addDependency(importEtcd); // upsert after upserting apps.big.co/import-etcd-into-db
    const deployment = new Construct(chart, 'deployment'); // change-group apps.big.co/deployment
    object(deployment, 'Service', 'v1', 'Service', 'app', 'default', { spec: { ports: [{ port: 80 }], selector: { app: 'app' } } });
    object(deployment, 'Ingress', 'networking.k8s.io/v1', 'Ingress', 'app', 'default', { spec: { defaultBackend: { service: { name: 'app', port: { number: 80 } } } } });
    object(deployment, 'Deployment', 'apps/v1', 'Deployment', 'app', 'default', {
      spec: { selector: { matchLabels: { app: 'app' } }, template: { metadata: { labels: { app: 'app' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    }).addDependency(migrations); // upsert after upserting apps.big.co/db-migrations
    job(chart, 'app-health-check').node.addDependency(deployment); // upsert after upserting apps.big.co/deployment
  }

  // Ported from TestChangeGraphWithDeletes. kapp deletes by its delete rules: migrations after app-health-check
  // ("delete before deleting apps.big.co/db-migrations" on the check), and the Service, Ingress and Deployment after
  // migrations ("delete before deleting apps.big.co/deployment" on migrations); the rest at once. The library has no
  // delete rules: a teardown is the reverse of the locked release's apply order (docs/ordering.md, "Teardown"). So
  // the check goes first as in kapp, but the Deployment and Ingress, applied after migrations, are deleted before
  // them, where kapp's rule deletes them after (the Service, applied in the first step, goes in the last): a delete
  // order that contradicts the reverse of the apply order is not expressible.
  test('deleted in the reverse of the apply order; kapp\'s delete rules are not expressible (TestChangeGraphWithDeletes)', () => {
    // GIVEN the lock of kapp's resources
    const series = lockedSeries(withDeletes, true);

    // WHEN a release removes them all
    const { plan } = nextRelease(series, withDeletes, false);

    // THEN
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['batch/Job app-health-check'],
      ['networking.k8s.io/Ingress default/app', 'apps/Deployment default/app'],
      ['batch/Job migrations'],
      ['batch/Job import-etcd-into-db', 'Service default/app', 'ConfigMap default/app-config'],
    ]);
  });
});

describe('kapp\'s e2e TestOrder (test/e2e/order_test.go)', () => {
  /**
   * TestOrder's ConfigMaps and rules, in three releases: `first`, kapp's deploy "deploy ordered"; `removed`, kapp's
   * "deploy with upsert before delete" (import-etcd-into-db removed, app-config2 added); `unordered`, the release
   * between them the library asks for: import-etcd-into-db kept, migrations no longer ordered after it.
   */
  function configMaps(app: CapabilityApp, variant: 'first' | 'unordered' | 'removed'): void {
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    const cm = (scope: Construct, name: string) => object(scope, name, 'v1', 'ConfigMap', name, 'kapp-test');
    cm(chart, 'app-config');
    if (variant !== 'first') cm(chart, 'app-config2');
    const importEtcd = variant !== 'removed' ? cm(chart, 'import-etcd-into-db') : undefined;
    const migrations = cm(chart, 'migrations');
    if (importEtcd && variant === 'first') migrations.addDependency(importEtcd); // upsert after upserting apps.big.co/import-etcd-into-db
    const deployment = new Construct(chart, 'deployment'); // change-group apps.big.co/deployment
    cm(deployment, 'app-ing');
    cm(deployment, 'app-svc');
    cm(deployment, 'app').addDependency(migrations); // upsert after upserting apps.big.co/db-migrations
    cm(chart, 'app-health-check').node.addDependency(deployment); // upsert after upserting apps.big.co/deployment
  }

  // kapp applies app-config, app-ing, app-svc and import-etcd-into-db first, then migrations, app and
  // app-health-check, each waiting for the one before.
  test('deploy ordered: four ConfigMaps first, then one step each for migrations, app and app-health-check', () => {
    // GIVEN TestOrder's first deploy
    const app = newApp();
    configMaps(app, 'first');

    // WHEN synthesized
    const { plan, violations } = app.synthesize();

    // THEN kapp's order
    expect(violations).toEqual([]);
    expect(stepSummary(plan).map((s) => s.objects)).toEqual([
      ['ConfigMap kapp-test/app-config', 'ConfigMap kapp-test/import-etcd-into-db', 'ConfigMap kapp-test/app-ing', 'ConfigMap kapp-test/app-svc'],
      ['ConfigMap kapp-test/migrations'],
      ['ConfigMap kapp-test/app'],
      ['ConfigMap kapp-test/app-health-check'],
    ]);
  });

  // kapp's second deploy creates app-config2 ("upsert before deleting apps.big.co/import-etcd-into-db"), then deletes
  // import-etcd-into-db, though migrations, which stays, was applied after it. The library refuses that deletion
  // (CAP008): the migrations in the cluster was ordered after it.
  test('deploy with upsert before delete: removing an object a kept one was applied after is refused (CAP008)', () => {
    // GIVEN the lock of the first deploy
    const series = lockedSeries(configMaps, 'first');

    // WHEN the second deploy removes import-etcd-into-db
    const { plan, violations } = nextRelease(series, configMaps, 'removed');

    // THEN
    expect(plan).toBeUndefined();
    expect(violations.map((v) => `${v.code} ${v.message}`)).toEqual([
      'CAP008 unsafe deletion: this release removes ConfigMap kapp-test/import-etcd-into-db, but ConfigMap kapp-test/migrations remains and it depends on it in the locked release. '
        + 'Remove ConfigMap kapp-test/migrations in this release too, or keep ConfigMap kapp-test/import-etcd-into-db one more release (the version of ConfigMap kapp-test/migrations in the cluster needs it '
        + 'until this release is applied) and remove it in the next.',
    ]);
  });

  // With the release between them that the refusal asks for, kapp's second deploy is accepted, in kapp's order:
  // app-config2 applied ("upsert before deleting"), then import-etcd-into-db deleted, after the release is applied.
  test('deploy with upsert before delete, one release later: app-config2 applied, then import-etcd-into-db deleted after it', () => {
    // GIVEN the locks of the first deploy and of the release that orders migrations after nothing
    const series = lockedSeries(configMaps, 'first');
    release(series, configMaps, 'unordered');

    // WHEN the second deploy of kapp's test
    const { plan, violations } = nextRelease(series, configMaps, 'removed');

    // THEN accepted: app-config2 in the first step, the deletion after the release is applied
    expect(violations).toEqual([]);
    expect(stepSummary(plan)[0].objects).toContain('ConfigMap kapp-test/app-config2');
    expect(plan!.teardown.steps.map((s) => [s.units, s.when])).toEqual([[['ConfigMap kapp-test/import-etcd-into-db'], 'after-apply']]);
  });
});

/**
 * kapp's default delete rules, from the same commit's pkg/kapp/config/default.go (`changeRuleBindings`): "Delete CRs
 * before CRDs" and "Delete non-CRs after deleting CRDs so that if CRDs use conversion webhooks it's more likely that
 * backing webhook resources are still available during deletion of CRs" (both `ignoreIfCyclical`).
 */
describe('kapp\'s default delete rules (pkg/kapp/config/default.go)', () => {
  /** An operator: the CRD of example.com/Widget, a Widget, and the Deployment and Service of its controller. */
  function operator(app: CapabilityApp, all: boolean): void {
    const chart = new RuntimeRouting(new Capability(app, 'c'), 'r');
    if (!all) return;
    object(chart, 'Crd', 'apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com', undefined, {
      spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' }, versions: [{ name: 'v1', served: true, storage: true }] },
    });
    object(chart, 'Controller', 'apps/v1', 'Deployment', 'widget-controller', 'ops', {
      spec: { selector: { matchLabels: { app: 'wc' } }, template: { metadata: { labels: { app: 'wc' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
    });
    object(chart, 'Service', 'v1', 'Service', 'widget-webhook', 'ops', { spec: { ports: [{ port: 443 }], selector: { app: 'wc' } } });
    object(chart, 'Widget', 'example.com/v1', 'Widget', 'w1', 'ops');
  }

  // kapp deletes the Widget, then the CRD, then the Deployment and Service. The library deletes the Widget first too,
  // and waits for it (`kubectl delete --wait=true`) while the controller still runs; then, the reverse of its apply
  // order as Helm's UninstallOrder has it (workloads before CustomResourceDefinition), the Service and Deployment, and
  // the CRD last. A difference: an object of the kind that the composition does not declare (one the controller made)
  // is deleted with the CRD, after the controller is gone.
  test('the custom resource first, then the controller, the CRD last (kapp: the CRD before the controller)', () => {
    // GIVEN the lock of the operator
    const series = lockedSeries(operator, true);

    // WHEN a release removes it
    const { plan } = nextRelease(series, operator, false);

    // THEN
    expect(plan!.teardown.steps.map((s) => s.units)).toEqual([
      ['example.com/Widget ops/w1'],
      ['apps/Deployment ops/widget-controller', 'Service ops/widget-webhook', 'apiextensions.k8s.io/CustomResourceDefinition widgets.example.com'],
    ]);
  });
});
