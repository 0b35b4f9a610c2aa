import * as fs from 'fs';
import * as path from 'path';
import { aws_ssm as ssm } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { Capability, DeploymentAggregate, RuntimeRouting, SharedBase } from '../src';
import { configMap, newApp, removeTempDirs, stepIds, stepSummary, widgetCrd } from './util';
import { textOf } from '../src/render/file-content';

afterAll(removeTempDirs);

const CRD_REASON = 'CRD before custom resource';
const NAMESPACE_REASON = 'Namespace before its contents';
const ROLE_REASON = 'Role before binding';
const SHARED_BASE_REASON = 'shared base before tenant aggregate';
const DEPLOY_BEFORE_RUNTIME_REASON = 'deployment time before runtime';
const EXPLICIT_REASON = 'explicit dependency (addDependency)';


function rbac(scope: Chart, id: string, kind: string, name: string, extra: Record<string, unknown> = {}, namespace?: string): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: namespace === undefined ? { name } : { name, namespace },
    ...extra,
  });
}

describe('runtime ordering inside a chart', () => {
  test('a CRD is applied before the custom resources of its group and kind, even when declared after them', () => {
    // GIVEN a Widget declared before the CRD that defines it
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    new ApiObject(routing, 'W1', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
    widgetCrd(routing, 'Crd');

    // WHEN synthesized
    const { violations, plan } = app.synthesize();

    // THEN the CRD takes the first step and the Widget waits for it
    expect(violations).toEqual([]);
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['apiextensions.k8s.io/CustomResourceDefinition widgets.example.com'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['example.com/Widget w1'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [CRD_REASON] }] },
    ]);
  });

  test('a custom resource of another group does not wait for the CRD', () => {
    // GIVEN a Gadget of another group declared before a Widget CRD
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    new ApiObject(routing, 'G1', { apiVersion: 'other.example.com/v1', kind: 'Widget', metadata: { name: 'g1' } });
    widgetCrd(routing, 'Crd');

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN both are in one step (no edge between them), the CRD first only by the soft kind order
    // (cluster definitions before kinds it does not know), which waits for nothing
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing', objects: ['apiextensions.k8s.io/CustomResourceDefinition widgets.example.com', 'other.example.com/Widget g1'], dependsOn: [] },
    ]);
  });

  test('a Namespace is applied before the objects in it, even when declared after them', () => {
    // GIVEN a ConfigMap in "edge" declared before the Namespace "edge"
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    configMap(routing, 'Settings', 'settings', 'edge');
    new ApiObject(routing, 'Edge', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['Namespace edge'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['ConfigMap edge/settings'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [NAMESPACE_REASON] }] },
    ]);
  });

  test('an object in another namespace does not wait for the Namespace', () => {
    // GIVEN a ConfigMap in "other" declared before the Namespace "edge"
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    configMap(routing, 'Settings', 'settings', 'other');
    new ApiObject(routing, 'Edge', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN one step, the Namespace first only by the soft kind order (it waits for nothing)
    expect(stepSummary(plan)).toEqual([{ id: 'cdn/Routing', objects: ['Namespace edge', 'ConfigMap other/settings'], dependsOn: [] }]);
  });

  test('a Role is applied before the RoleBinding that names it, even when declared after it', () => {
    // GIVEN a RoleBinding in "edge" naming the Role "reader", declared first
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    rbac(routing, 'Binding', 'RoleBinding', 'read', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: 'edge' }],
    }, 'edge');
    rbac(routing, 'Reader', 'Role', 'reader', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }, 'edge');

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['rbac.authorization.k8s.io/Role edge/reader'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['rbac.authorization.k8s.io/RoleBinding edge/read'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [ROLE_REASON] }] },
    ]);
  });

  test('a ClusterRole is applied before the ClusterRoleBinding that names it, even when declared after it', () => {
    // GIVEN a ClusterRoleBinding naming the ClusterRole "viewer", declared first
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    rbac(routing, 'Binding', 'ClusterRoleBinding', 'view', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'viewer' },
      subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: 'edge' }],
    });
    rbac(routing, 'Viewer', 'ClusterRole', 'viewer', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['rbac.authorization.k8s.io/ClusterRole viewer'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['rbac.authorization.k8s.io/ClusterRoleBinding view'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [ROLE_REASON] }] },
    ]);
  });

  test('a RoleBinding that names a ClusterRole waits for that ClusterRole', () => {
    // GIVEN a RoleBinding in "edge" naming the ClusterRole "viewer", declared first
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    rbac(routing, 'Binding', 'RoleBinding', 'view', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'viewer' },
      subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: 'edge' }],
    }, 'edge');
    rbac(routing, 'Viewer', 'ClusterRole', 'viewer', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] });

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['rbac.authorization.k8s.io/ClusterRole viewer'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['rbac.authorization.k8s.io/RoleBinding edge/view'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [ROLE_REASON] }] },
    ]);
  });

  test('independent objects keep their creation order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), { minLength: 1, maxLength: 8 }), (names) => {
        // GIVEN ConfigMaps with no relation to each other, created in a random order
        const app = newApp();
        const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
        names.forEach((name, i) => configMap(routing, `C${i}`, name));

        // WHEN synthesized
        const { plan } = app.synthesize();

        // THEN they form one step, in creation order
        expect(stepSummary(plan)).toEqual([{ id: 'cdn/Routing', objects: names.map((n) => `ConfigMap ${n}`), dependsOn: [] }]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('explicit dependencies', () => {
  test('ApiObject.addDependency puts the dependency first, with its reason', () => {
    // GIVEN "first" is created first but depends on "second"
    const app = newApp();
    const routing = new RuntimeRouting(new Capability(app, 'cdn'), 'Routing');
    const first = configMap(routing, 'First', 'first');
    const second = configMap(routing, 'Second', 'second');
    first.addDependency(second);

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Routing#1', objects: ['ConfigMap second'], dependsOn: [] },
      { id: 'cdn/Routing#2', objects: ['ConfigMap first'], dependsOn: [{ step: 'cdn/Routing#1', reasons: [EXPLICIT_REASON] }] },
    ]);
  });

  test('Chart.addDependency puts every object of the other chart first, with its reason', () => {
    // GIVEN chart "Apps" is created first but depends on chart "Platform"
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    const apps = new RuntimeRouting(cdn, 'Apps');
    configMap(apps, 'A1', 'a1');
    configMap(apps, 'A2', 'a2');
    const platform = new Chart(cdn, 'Platform');
    configMap(platform, 'P1', 'p1');
    configMap(platform, 'P2', 'p2');
    apps.addDependency(platform);

    // WHEN synthesized
    const { plan, runtimeFiles } = app.synthesize();

    // THEN Platform's step comes first and Apps' step waits for it
    expect(stepSummary(plan)).toEqual([
      { id: 'cdn/Platform', objects: ['ConfigMap p1', 'ConfigMap p2'], dependsOn: [] },
      { id: 'cdn/Apps', objects: ['ConfigMap a1', 'ConfigMap a2'], dependsOn: [{ step: 'cdn/Platform', reasons: [EXPLICIT_REASON] }] },
    ]);
    expect(runtimeFiles!.map((f) => f.file)).toEqual(['runtime/0001-cdn-platform.yaml', 'runtime/0002-cdn-apps.yaml']);
  });

  test('independent charts keep their creation order', () => {
    // GIVEN two charts with no relation, "Zeta" created before "Alpha"
    const app = newApp();
    const cdn = new Capability(app, 'cdn');
    configMap(new RuntimeRouting(cdn, 'Zeta'), 'Z', 'z');
    configMap(new Chart(cdn, 'Alpha'), 'A', 'a');

    // WHEN synthesized
    const { runtimeFiles } = app.synthesize();

    // THEN
    expect(runtimeFiles!.map((f) => f.file)).toEqual(['runtime/0001-cdn-zeta.yaml', 'runtime/0002-cdn-alpha.yaml']);
  });
});

describe('the plan and its files', () => {
  /** The example's shape: a base, a tenant, and a routing chart whose Namespace must come first. */
  function cdnApp() {
    const app = newApp();
    const cdn = new Capability(app, 'cdn', { description: 'test CDN' });
    const base = new SharedBase(cdn, 'Base');
    new ssm.StringParameter(base, 'Origin', { parameterName: '/cdn/origin', stringValue: 'origin.example.com' });
    const acme = new DeploymentAggregate(cdn, 'acme');
    const routing = new RuntimeRouting(cdn, 'Routing');
    configMap(routing, 'Settings', 'settings', 'edge');
    new ApiObject(routing, 'Edge', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } });
    return { app, base, acme };
  }

  test('plan steps carry ids, lifecycles, stack names and files', () => {
    // GIVEN
    const { app, base, acme } = cdnApp();

    // WHEN synthesized
    const { plan } = app.synthesize();

    // THEN
    expect(plan).toMatchObject({ version: 1, capabilities: [{ name: 'cdn', description: 'test CDN' }] });
    expect(plan!.steps).toEqual([
      {
        id: 'cdn/Base',
        lifecycle: 'deploy',
        capability: 'cdn',
        stackName: 'cdn-Base',
        files: [`deploy/${base.artifactId}.template.json`],
        dependsOn: [],
      },
      {
        id: 'cdn/acme',
        lifecycle: 'deploy',
        capability: 'cdn',
        stackName: 'cdn-acme',
        files: [`deploy/${acme.artifactId}.template.json`],
        dependsOn: [{ step: 'cdn/Base', reasons: [SHARED_BASE_REASON] }],
      },
      {
        id: 'cdn/Routing#1',
        lifecycle: 'runtime',
        capability: 'cdn',
        objects: ['Namespace edge'],
        files: ['runtime/0001-cdn-routing-1.yaml'],
        dependsOn: [
          { step: 'cdn/Base', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
          { step: 'cdn/acme', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
        ],
      },
      {
        id: 'cdn/Routing#2',
        lifecycle: 'runtime',
        capability: 'cdn',
        objects: ['ConfigMap edge/settings'],
        files: ['runtime/0002-cdn-routing-2.yaml'],
        dependsOn: [
          { step: 'cdn/Base', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
          { step: 'cdn/acme', reasons: [DEPLOY_BEFORE_RUNTIME_REASON] },
          { step: 'cdn/Routing#1', reasons: [NAMESPACE_REASON] },
        ],
      },
    ]);
  });

  test('deploy step files are the stacks\' templates named by artifact id', () => {
    // GIVEN
    const { app } = cdnApp();

    // WHEN synthesized
    const { plan, output } = app.synthesize();

    // THEN each deploy file is `deploy/<artifactId>.template.json` and is part of the output
    const deployFiles = plan!.steps.filter((s) => s.lifecycle === 'deploy').flatMap((s) => s.files);
    expect(deployFiles).toEqual(['deploy/cdnBase4FF4A8ED.template.json', 'deploy/cdnacmeD7429117.template.json']);
    for (const file of deployFiles) expect(output!.copies.has(file)).toBe(true);
  });

  test('runtime/kustomization.yaml lists the runtime files in apply order and keeps that order (fifo)', () => {
    // GIVEN
    const { app } = cdnApp();

    // WHEN synthesized
    const { output } = app.synthesize();

    // THEN
    expect(output!.files.get('runtime/kustomization.yaml')).toBe(
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'sortOptions:',
        '  order: fifo',
        'resources:',
        '  - 0001-cdn-routing-1.yaml',
        '  - 0002-cdn-routing-2.yaml',
        '',
      ].join('\n'),
    );
  });

  test('each runtime file holds the manifests of its step, in order', () => {
    // GIVEN
    const { app } = cdnApp();

    // WHEN synthesized
    const { output } = app.synthesize();

    // THEN
    const docs = (file: string) => parseAllDocuments(textOf(output!.files.get(file)!)).map((d) => d.toJS());
    expect(docs('runtime/0001-cdn-routing-1.yaml')).toEqual([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } }]);
    expect(docs('runtime/0002-cdn-routing-2.yaml')).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'edge' } }]);
  });

  test('synth() writes plan.json, the runtime files and the cloud assembly under the outdir', () => {
    // GIVEN
    const { app, base, acme } = cdnApp();

    // WHEN
    app.synth();

    // THEN
    const outdir = app.outdir;
    const written = fs.readdirSync(outdir, { recursive: true }).map(String).sort();
    expect(written).toEqual(expect.arrayContaining([
      'deploy',
      'deploy/cdk.out',
      `deploy/${base.artifactId}.assets.json`,
      `deploy/${base.artifactId}.metadata.json`,
      `deploy/${base.artifactId}.template.json`,
      `deploy/${acme.artifactId}.assets.json`,
      `deploy/${acme.artifactId}.metadata.json`,
      `deploy/${acme.artifactId}.template.json`,
      'deploy/manifest.json',
      'plan.json',
      'runtime',
      'runtime/0001-cdn-routing-1.yaml',
      'runtime/0002-cdn-routing-2.yaml',
      'runtime/kustomization.yaml',
    ]));
    expect(stepIds(JSON.parse(fs.readFileSync(path.join(outdir, 'plan.json'), 'utf-8')))).toEqual(['cdn/Base', 'cdn/acme', 'cdn/Routing#1', 'cdn/Routing#2']);
  });
});
