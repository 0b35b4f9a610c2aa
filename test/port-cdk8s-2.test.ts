/**
 * cdk8s-core's own tests, a second batch, ported: JSON patches and chart labels through the library's escape
 * hatches and field ledger, and cdk8s' dependency graph through the library's order. Each case is built once under a
 * plain cdk8s `App` (or with cdk8s' own `JsonPatch.apply`) and once in a `CapabilityApp`, and the two compared.
 *
 * Source: cdk8s-team/cdk8s-core at commit 6e6c8be546970a79b24f94842dd1531a0434d234, files test/json-patch.test.ts,
 * test/api-object.test.ts, test/chart.test.ts and test/dependency.test.ts; each test names the upstream test it ports.
 * Kinds live in group example.com, not in the core group `v1` as upstream has them: the library refuses a custom kind
 * in the core group (CAP010, docs/errors.md). Already in test/port-cdk8s.test.ts: the "toJson" order cases of
 * test/chart.test.ts. Where the library differs on purpose, the test asserts the library's behaviour and says why.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityTesting, CapabilityTestResult, Contribution, RuntimeRouting } from '../src';
import { removeTempDirs, siteOfNextLine, stepSummary, tempDir } from './util';
import { contributes, declares } from './write-fixtures';

afterAll(() => removeTempDirs());

const messages = (result: CapabilityTestResult) => result.violations.map((v) => `${v.code} ${v.message}`);

/** A RuntimeRouting `id` in capability 'c' of a fresh app, and the app. */
function routing(id: string): { app: ReturnType<typeof CapabilityTesting.app>; chart: RuntimeRouting } {
  const app = CapabilityTesting.app();
  return { app, chart: new RuntimeRouting(new Capability(app, 'c'), id) };
}

describe('JSON patches, against cdk8s-core test/api-object.test.ts and test/json-patch.test.ts', () => {
  /** upstream's object of "applied after the object has been synthesized" */
  const OBJ = { kind: 'Obj', apiVersion: 'example.com/v1', spec: { foo: 1234, bar: { baz: [1, 2, 3] } } };
  /** upstream's patches: an element added to spec.bar.baz, spec.foo removed, apiVersion copied into spec */
  const PATCHES = () => [JsonPatch.add('/spec/bar/baz/3', 4), JsonPatch.remove('/spec/foo'), JsonPatch.copy('/apiVersion', '/spec/apiVersion')];

  // Ported from test/api-object.test.ts (describe "addJsonPatch()", "applied after the object has been synthesized").
  // Plain patches of an object's own values are its declarer's escape hatch (docs/errors.md, CAP002).
  test('plain patches of the object\'s own values: accepted, the manifest cdk8s writes (applied after the object has been synthesized)', () => {
    // GIVEN upstream's object and patches, under cdk8s' Testing.chart() and in RuntimeRouting 'test'
    const plain = Testing.chart();
    new ApiObject(plain, 'obj', OBJ).addJsonPatch(...PATCHES());
    const { app, chart } = routing('test');
    const obj = new ApiObject(chart, 'obj', OBJ);
    for (const p of PATCHES()) obj.addJsonPatch(p);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN accepted, with upstream's manifest, which cdk8s writes
    expect(messages(result)).toEqual([]);
    expect(result.runtimeObjects).toStrictEqual(Testing.synth(plain));
    expect(result.runtimeObjects).toStrictEqual([{
      apiVersion: 'example.com/v1', kind: 'Obj', metadata: { name: 'test-obj-c8686f96' }, spec: { apiVersion: 'example.com/v1', bar: { baz: [1, 2, 3, 4] } },
    }]);
  });

  // The same patches written by another construct, a Contribution: cdk8s applies them all, the last writer winning;
  // the library refuses the two that change what the declarer wrote (the element added to the list, which a custom
  // kind without a CRD holds whole, as server-side apply does, and the removed field) and accepts the copy into a
  // field no one else writes.
  test('the same patches from a Contribution: CAP002 on the declarer\'s list and removed field, naming both writers', () => {
    // GIVEN upstream's object; WHEN a Contribution writes upstream's patches into it
    const { app, chart } = routing('test');
    const obj = new ApiObject(chart, 'obj', OBJ);
    new Contribution(chart, 'Team', { target: obj, patches: PATCHES() });

    // THEN
    expect(messages(CapabilityTesting.synth(app))).toEqual([
      "CAP002 field conflict: 'c/test/Team' and 'c/test/obj' both write spec.bar.baz, spec.foo of example.com/Obj test-obj-c8686f96. "
        + `Give each field one owner: drop it from one of them (${contributes('patches', 'c/test/Team')}; ${declares('c/test/obj')}).`,
    ]);
  });

  // Ported from test/json-patch.test.ts ("apply()"): replace, add at '/world/foo/' (which fast-json-patch reads as the
  // list's first place) and remove, as plain patches of the object's own values.
  test('replace, add and remove as plain patches: the object JsonPatch.apply gives (apply())', () => {
    // GIVEN upstream's input as the spec of an object
    const input = { hello: 123, world: { foo: ['bar', 'baz'], hi: { there: 'hello-again' } } };
    const { app, chart } = routing('test');
    const obj = new ApiObject(chart, 'obj', { kind: 'Obj', apiVersion: 'example.com/v1', metadata: { name: 'o' }, spec: input });

    // WHEN upstream's patches are added to it
    obj.addJsonPatch(JsonPatch.replace('/spec/world/hi/there', 'goodbye'), JsonPatch.add('/spec/world/foo/', 'boom'), JsonPatch.remove('/spec/hello'));
    const result = CapabilityTesting.synth(app);

    // THEN accepted, and the spec is upstream's output, which JsonPatch.apply gives
    const expected = { world: { foo: ['boom', 'bar', 'baz'], hi: { there: 'goodbye' } } };
    expect(JsonPatch.apply(input, JsonPatch.replace('/world/hi/there', 'goodbye'), JsonPatch.add('/world/foo/', 'boom'), JsonPatch.remove('/hello'))).toStrictEqual(expected);
    expect(messages(result)).toEqual([]);
    expect(result.runtimeObjects.map((o) => o.spec)).toStrictEqual([expected]);
  });

  // Ported from test/json-patch.test.ts ("apply() does not mutate the patches"): a patch that adds a list and one
  // that appends to it. The synth reads the object's patches (src/private/upstream-state.ts) and must leave them as
  // they were, as JsonPatch.apply does.
  test('a list added by one patch and appended to by the next: accepted, and the patches are left as they were (apply() does not mutate the patches)', () => {
    // GIVEN upstream's patches on an object whose spec.world is empty
    const { app, chart } = routing('test');
    const obj = new ApiObject(chart, 'obj', { kind: 'Obj', apiVersion: 'example.com/v1', metadata: { name: 'o' }, spec: { world: {} } });
    const patches = [JsonPatch.add('/spec/world/foo', []), JsonPatch.add('/spec/world/foo/-', 'boom')];
    obj.addJsonPatch(...patches);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN
    expect(messages(result)).toEqual([]);
    expect(result.runtimeObjects.map((o) => o.spec)).toStrictEqual([{ world: { foo: ['boom'] } }]);
    expect(patches.map((p) => p._toJson())).toStrictEqual([JsonPatch.add('/spec/world/foo', [])._toJson(), JsonPatch.add('/spec/world/foo/-', 'boom')._toJson()]);
  });
});

describe('chart labels, against cdk8s-core test/api-object.test.ts ("chart labels are applied to all api objects in the chart")', () => {
  /** upstream's chart: labels foo and bar, obj1, and obj2 under a construct with labels foo (its own value) and zoo */
  function labelled(scope: Construct, fooOfObj2: string): { obj1: ApiObject; obj2: ApiObject; chart: Chart } {
    const chart = new Chart(scope, 'my-chart', { labels: { foo: 'ffffffffff', bar: 'bbbbbb' } });
    const obj1 = new ApiObject(chart, 'obj1', { kind: 'Obj1', apiVersion: 'example.com/v1' });
    const group = new Construct(chart, 'group');
    const obj2 = new ApiObject(group, 'obj2', { kind: 'Obj2', apiVersion: 'example.com/v2', metadata: { labels: { foo: fooOfObj2, zoo: 'zoo1' } } });
    return { obj1, obj2, chart };
  }

  // Upstream's label value "override by object" holds spaces, which no Kubernetes label value may: the API server
  // refuses the object, so the library refuses it at synth (CAP010), where cdk8s writes it.
  test('upstream\'s label value with spaces: CAP010, as the API server would refuse it', () => {
    const app = CapabilityTesting.app();
    labelled(new Capability(app, 'c'), 'override by object');
    expect(messages(CapabilityTesting.synth(app))).toEqual([
      "CAP010 invalid object: 'metadata.labels.foo' (\"override by object\") of example.com/Obj2 my-chart-group-obj2-c824cfcd declared by 'c/my-chart/group/obj2' "
        + "must be empty or a label value of at most 63 characters (letters, digits, '-', '_' and '.', starting and ending with a letter or digit) "
        + 'such as "override-by-object", but it contains " ". Shorten or clean the value; put free text in an annotation.',
    ]);
  });

  // With a valid value: the chart's labels are its objects' declarers' (cdk8s writes them as part of the object), and
  // an object's own label of a key the chart sets wins, as in cdk8s. A Contribution of a chart label's key is a second
  // writer of that leaf.
  test('a valid value: the labels cdk8s writes, the object\'s own label winning; a Contribution of a chart label conflicts with the declarer', () => {
    // GIVEN upstream's chart with a label value the API server takes, under a plain App and in capability 'c'
    const plain = labelled(new App({ outdir: tempDir() }), 'override-by-object');
    const app = CapabilityTesting.app();
    labelled(new Capability(app, 'c'), 'override-by-object');
    const withTeam = CapabilityTesting.app();
    const { obj2 } = labelled(new Capability(withTeam, 'c'), 'override-by-object');
    new Contribution(obj2.node.scope!, 'Team', { target: obj2, fields: { metadata: { labels: { bar: 'team' } } } });

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN cdk8s' manifests and labels; and the Contribution refused
    expect(messages(result)).toEqual([]);
    expect(result.runtimeObjects).toEqual(Testing.synth(plain.chart));
    expect(result.runtimeObjects.map((o) => o.metadata.labels)).toEqual([
      { bar: 'bbbbbb', foo: 'ffffffffff' },
      { bar: 'bbbbbb', foo: 'override-by-object', zoo: 'zoo1' },
    ]);
    expect(messages(CapabilityTesting.synth(withTeam))).toEqual([
      "CAP002 field conflict: 'c/my-chart/group/Team' and 'c/my-chart/group/obj2' both write metadata.labels.bar of example.com/Obj2 my-chart-group-obj2-c824cfcd. "
        + `Give each field one owner: drop it from one of them (${contributes('fields', 'c/my-chart/group/Team')}; ${declares('c/my-chart/group/obj2')}).`,
    ]);
  });
});

describe('dependencies, against cdk8s-core test/dependency.test.ts and test/chart.test.ts', () => {
  /** Objects obj1 .. obj<n> of kinds Kind1 .. Kind<n>, named as their ids. */
  const objects = (scope: Construct, ids: number[]) => ids.map((i) => new ApiObject(scope, `obj${i}`, { kind: `Kind${i}`, apiVersion: 'example.com/v1', metadata: { name: `obj${i}` } }));

  // Ported from test/dependency.test.ts ("cycle detection"): cdk8s throws "Dependency cycle detected: chart1/obj1 =>
  // chart1/obj2 => chart1/obj3 => chart1/obj1"; the library names the same cycle, each edge with where it was made.
  test('a cycle of three node.addDependency calls: CAP004 naming the cycle as cdk8s does, each edge with its call site (cycle detection)', () => {
    // GIVEN upstream's three objects, each depending on the next and the last on the first
    const plainApp = new App({ outdir: tempDir() });
    const [p1, p2, p3] = objects(new Chart(plainApp, 'chart1'), [1, 2, 3]);
    p1.node.addDependency(p2);
    p2.node.addDependency(p3);
    p3.node.addDependency(p1);
    const { app, chart } = routing('chart1');
    const [o1, o2, o3] = objects(chart, [1, 2, 3]);
    const at = siteOfNextLine();
    o1.node.addDependency(o2); o2.node.addDependency(o3); o3.node.addDependency(o1);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN cdk8s' cycle, and the library's with the capability's path
    expect(() => plainApp.synth()).toThrow('Dependency cycle detected: chart1/obj1 => chart1/obj2 => chart1/obj3 => chart1/obj1');
    expect(messages(result)).toEqual([
      'CAP004 dependency cycle: c/chart1/obj1 => c/chart1/obj2 => c/chart1/obj3 => c/chart1/obj1 ('
        + `c/chart1/obj1 => c/chart1/obj2: explicit 'c/chart1/obj1'.addDependency('c/chart1/obj2') at ${at}; `
        + `c/chart1/obj2 => c/chart1/obj3: explicit 'c/chart1/obj2'.addDependency('c/chart1/obj3') at ${at}; `
        + `c/chart1/obj3 => c/chart1/obj1: explicit 'c/chart1/obj3'.addDependency('c/chart1/obj1') at ${at}). `
        + 'Remove one of these dependencies (addDependency, or the reference that implies it).',
    ]);
  });

  // Ported from test/dependency.test.ts ("ignores cross-scope nodes"): cdk8s' graph of group1 leaves out obj3 of
  // group2, which obj2 depends on, and its App writes group2's file first. The library keeps the edge: obj3's step
  // first, then obj2's, then obj1's (an explicit dependency takes a later step, docs/ordering.md).
  test('a dependency on an object of another chart: that chart first, in cdk8s\' order of manifests (ignores cross-scope nodes)', () => {
    // GIVEN obj1 -> obj2 in group1, obj2 -> obj3 in group2, under a plain App and in capability 'c'
    const build = (scope: Construct) => {
      const [o1, o2] = objects(new Chart(scope, 'group1'), [1, 2]);
      const [o3] = objects(new Chart(scope, 'group2'), [3]);
      o1.node.addDependency(o2);
      o2.node.addDependency(o3);
    };
    const plainApp = new App({ outdir: tempDir() });
    build(plainApp);
    const app = CapabilityTesting.app();
    build(new Capability(app, 'c'));

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);
    plainApp.synth();

    // THEN cdk8s' files, and the library's steps read in the same order
    const files = fs.readdirSync(plainApp.outdir);
    expect(files).toEqual(['0000-group2.k8s.yaml', '0001-group1.k8s.yaml']);
    const written = files.flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(plainApp.outdir, f), 'utf-8')).map((d) => d.toJS()));
    expect(written.map((o) => o.metadata.name)).toEqual(['obj3', 'obj2', 'obj1']);
    expect(result.runtimeObjects).toEqual(written);
    expect(stepSummary(result.plan).map((s) => [s.id, s.objects, s.dependsOn.map((d) => d.step)])).toEqual([
      ['c/group2', ['example.com/Kind3 obj3'], []],
      ['c/group1#1', ['example.com/Kind2 obj2'], ['c/group2']],
      ['c/group1#2', ['example.com/Kind1 obj1'], ['c/group1#1']],
    ]);
  });

  // Ported from test/chart.test.ts ("addDependency"): chart1.addDependency(chart2, chart3).
  test('a chart depending on two charts: both before it, each its own step (addDependency)', () => {
    // GIVEN three charts with a ConfigMap each; WHEN chart1 depends on chart2 and chart3
    const app = CapabilityTesting.app();
    const cap = new Capability(app, 'c');
    const [chart1, chart2, chart3] = [1, 2, 3].map((i) => {
      const chart = new Chart(cap, `chart${i}`);
      new ApiObject(chart, 'cm', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `cm${i}` } });
      return chart;
    });
    chart1.addDependency(chart2, chart3);

    // THEN upstream's dependencies, and chart1's step after both
    expect(chart1.node.dependencies).toEqual([chart2, chart3]);
    expect(stepSummary(CapabilityTesting.synth(app).plan)).toEqual([
      { id: 'c/chart2', objects: ['ConfigMap cm2'], dependsOn: [] },
      { id: 'c/chart3', objects: ['ConfigMap cm3'], dependsOn: [] },
      {
        id: 'c/chart1',
        objects: ['ConfigMap cm1'],
        dependsOn: [{ step: 'c/chart2', reasons: ['explicit dependency (addDependency)'] }, { step: 'c/chart3', reasons: ['explicit dependency (addDependency)'] }],
      },
    ]);
  });

  // Ported from test/chart.test.ts (describe "toJson", "ignores objects belonging to a different chart" and "ignores
  // chart objects"): obj1 of chart1 depends on obj2 of chart2 (and, in the second, chart1 on chart2); each chart's
  // file holds its own object only, chart2's first.
  test.each([
    ['ignores objects belonging to a different chart', false],
    ['ignores chart objects', true],
  ])('an object depending on an object of another chart: each in its own chart\'s step, that chart first (%s)', (_name, chartDependency) => {
    // GIVEN upstream's charts and objects
    const app = CapabilityTesting.app();
    const cap = new Capability(app, 'c');
    const chart1 = new Chart(cap, 'chart1');
    const chart2 = new Chart(cap, 'chart2');
    const [obj1] = objects(chart1, [1]);
    const [obj2] = objects(chart2, [2]);
    obj1.addDependency(obj2);
    if (chartDependency) chart1.addDependency(chart2);

    // WHEN synthesized
    const result = CapabilityTesting.synth(app);

    // THEN chart1's toJson is obj1 alone, as upstream asserts, and chart2's step comes first
    expect(chart1.toJson()).toEqual([obj1.toJson()]);
    expect(stepSummary(result.plan)).toEqual([
      { id: 'c/chart2', objects: ['example.com/Kind2 obj2'], dependsOn: [] },
      { id: 'c/chart1', objects: ['example.com/Kind1 obj1'], dependsOn: [{ step: 'c/chart2', reasons: ['explicit dependency (addDependency)'] }] },
    ]);
  });
});
