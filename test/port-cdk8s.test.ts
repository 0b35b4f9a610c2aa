/**
 * cdk8s-core's own tests, ported: the same constructs built once under a plain cdk8s `App` and once in a
 * `CapabilityApp` (`RuntimeRouting` or `Chart` in a `Capability`), the manifests and their order compared.
 *
 * Source: cdk8s-team/cdk8s-core at commit 6e6c8be546970a79b24f94842dd1531a0434d234, files test/chart.test.ts,
 * test/app.test.ts, test/api-object.test.ts, test/include.test.ts and test/yaml.test.ts; each test names the upstream
 * test it ports. Where the library differs on purpose, the test asserts the library's behaviour and says why.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Include, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import * as jsyaml from 'js-yaml';
import { parseAllDocuments } from 'yaml';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { newApp, removeTempDirs, stepSummary, tempDir } from './util';

afterAll(() => removeTempDirs());

/** The runtime files of a synth in the order `kustomization.yaml` applies them, each with its manifests. */
function runtimeFiles(app: CapabilityApp): Array<{ file: string; objects: any[] }> {
  app.synth();
  const dir = path.join(app.outdir, 'runtime');
  const kustomization = jsyaml.load(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf-8')) as { resources: string[] };
  return kustomization.resources.map((file) => ({ file, objects: parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf-8')).map((d) => d.toJS()) }));
}

/** Every manifest the synth wrote to runtime/, in apply order. */
function applied(app: CapabilityApp): any[] {
  return runtimeFiles(app).flatMap((f) => f.objects);
}

/**
 * cdk8s-core's `CustomConstruct` of test/chart.test.ts: a plain construct holding one object. Its kind lives
 * in group example.com, not in the core group `v1` as upstream has it: the library refuses a custom kind in
 * the core group (CAP010, docs/errors.md).
 */
class CustomConstruct extends Construct {
  public readonly obj: ApiObject;
  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.obj = new ApiObject(this, `${id}obj`, { apiVersion: 'example.com/v1', kind: 'CustomConstruct' });
  }
}

/** cdk8s-core's `CustomNestedConstruct`: a construct holding a `CustomConstruct`. */
class CustomNestedConstruct extends Construct {
  public readonly obj: CustomConstruct;
  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.obj = new CustomConstruct(this, `${id}obj`);
  }
}

/** Builds a case into `chart` and returns the objects in the order cdk8s-core's test expects. */
type Case = (chart: Construct) => ApiObject[];

const ORDER_CASES: ReadonlyArray<[string, Case]> = [
  ['returns an ordered list', (chart) => {
    const [obj1, obj2, obj3] = [1, 2, 3].map((i) => new ApiObject(chart, `obj${i}`, { apiVersion: 'example.com/v1', kind: `Kind${i}` }));
    obj1.addDependency(obj2);
    obj2.addDependency(obj3);
    return [obj3, obj2, obj1];
  }],
  ['orders custom constructs', (chart) => {
    const microService = new CustomConstruct(chart, 'MicroService');
    const dataBase = new CustomConstruct(chart, 'Database');
    microService.node.addDependency(dataBase);
    return [dataBase.obj, microService.obj];
  }],
  ['orders transitive custom constructs', (chart) => {
    const microService = new CustomConstruct(chart, 'MicroService');
    const dataBase = new CustomNestedConstruct(chart, 'Database');
    microService.node.addDependency(dataBase);
    return [dataBase.obj.obj, microService.obj];
  }],
  ['api object depends on custom construct', (chart) => {
    const microService = new ApiObject(chart, 'MicroService', { apiVersion: 'example.com/v1', kind: 'MicroService' });
    const dataBase = new CustomConstruct(chart, 'Database');
    microService.addDependency(dataBase);
    return [dataBase.obj, microService];
  }],
  ['construct depends on api object', (chart) => {
    const database = new ApiObject(chart, 'MicroService', { apiVersion: 'example.com/v1', kind: 'MicroService' });
    const microService = new CustomConstruct(chart, 'Database');
    microService.node.addDependency(database);
    return [database, microService.obj];
  }],
];

describe('the order of one chart\'s objects, against cdk8s-core test/chart.test.ts (describe "toJson")', () => {
  // cdk8s writes one chart's objects to one file in dependency order; the library puts an object after
  // one it explicitly depends on in a later step (docs/ordering.md, "Edges that take a later step"), so a chain of
  // n objects is n files. Read in apply order, the manifests are cdk8s' own, in cdk8s' order.
  test.each(ORDER_CASES)('%s: the runtime files, read in apply order, hold cdk8s\' manifests in cdk8s\' order', (_name, build) => {
    // GIVEN the case built under a plain cdk8s App and under RuntimeRouting 'chart' of capability 'c'
    const plain = new Chart(new App({ outdir: tempDir() }), 'chart');
    const expected = build(plain).map((o) => o.toJson());
    const app = newApp();
    const ours = build(new RuntimeRouting(new Capability(app, 'c'), 'chart')).map((o) => o.toJson());

    // WHEN synthesized
    const objects = applied(app);

    // THEN the same manifests (names included) in the order cdk8s' test expects, which is cdk8s' toJson order
    expect(ours).toEqual(expected);
    expect(plain.toJson()).toEqual(expected);
    expect(objects).toEqual(expected);
  });

  test('returns an ordered list: one step per object of the chain, each waiting for the one before for the explicit dependency', () => {
    const app = newApp();
    ORDER_CASES[0][1](new RuntimeRouting(new Capability(app, 'c'), 'chart'));
    expect(stepSummary(app.synthesize().plan)).toEqual([
      { id: 'c/chart#1', objects: ['example.com/Kind3 chart-obj3-c896cb03'], dependsOn: [] },
      { id: 'c/chart#2', objects: ['example.com/Kind2 chart-obj2-c8016fab'], dependsOn: [{ step: 'c/chart#1', reasons: ['explicit dependency (addDependency)'] }] },
      { id: 'c/chart#3', objects: ['example.com/Kind1 chart-obj1-c80aa35c'], dependsOn: [{ step: 'c/chart#2', reasons: ['explicit dependency (addDependency)'] }] },
    ]);
  });
});

describe('the files of nested and dependent charts, against cdk8s-core test/app.test.ts', () => {
  class ChildChart1 extends Chart {
    constructor(scope: Construct, id: string) {
      super(scope, id);
      new ApiObject(this, 'namespace1', { apiVersion: 'v1', kind: 'Namespace' });
    }
  }
  class ChildChart2 extends Chart {
    constructor(scope: Construct, id: string) {
      super(scope, id);
      new ApiObject(this, 'namespace2', { apiVersion: 'v1', kind: 'Namespace' });
    }
  }
  class ParentChart extends Chart {
    constructor(scope: Construct, id: string) {
      super(scope, id);
      new ChildChart1(this, 'child1');
      new ChildChart2(this, 'child2');
      new ApiObject(this, 'namespace3', { apiVersion: 'v1', kind: 'Namespace' });
    }
  }

  // Ported from test/app.test.ts ("app with nested charts will deduplicate api objects (using custom classes)") and
  // test/chart.test.ts ("parent chart does not include objects of children charts").
  test('nested charts: each child chart\'s file before the parent\'s, each object in its own chart\'s file only', () => {
    // GIVEN ParentChart 'parent' under a plain App (cdk8s writes 0000-parent-child1-c8e38b2d.k8s.yaml,
    // 0001-parent-child2-c882caae.k8s.yaml, 0002-parent.k8s.yaml) and in capability 'c'
    const plainApp = new App({ outdir: tempDir() });
    const plain = new ParentChart(plainApp, 'parent');
    const app = newApp();
    new ParentChart(new Capability(app, 'c'), 'parent');

    // WHEN synthesized
    const files = runtimeFiles(app);

    // THEN cdk8s' order of files, numbered from 0001 and named by the chart's path (no hash: paths are unique);
    // each file holds what cdk8s' file of that chart holds
    plainApp.synth();
    expect(fs.readdirSync(plainApp.outdir)).toEqual(['0000-parent-child1-c8e38b2d.k8s.yaml', '0001-parent-child2-c882caae.k8s.yaml', '0002-parent.k8s.yaml']);
    expect(files.map((f) => f.file)).toEqual(['0001-c-parent-child1.yaml', '0002-c-parent-child2.yaml', '0003-c-parent.yaml']);
    const children = plain.node.children.filter(Chart.isChart);
    expect(files.map((f) => f.objects)).toEqual([children[0].toJson(), children[1].toJson(), plain.toJson()]);
    expect(files.map((f) => f.objects.map((o) => o.metadata.name))).toEqual([
      ['parent-child1-namespace1-c871643e'], ['parent-child2-namespace2-c806260b'], ['parent-namespace3-c8bf842a'],
    ]);
  });

  // Ported from test/app.test.ts ("app with dependent and independent charts"). cdk8s writes the charts depth
  // first in creation order: chart3, chart1, chart2, chart4. The library numbers steps by their depth in the
  // dependency graph, then by creation (src/render/plan-steps.ts: "per chart, one per level"), so a step's number
  // is its earliest place, and its Argo CD sync wave (docs/ordering.md: "one sync wave per step"): the charts that
  // wait for nothing first, chart1 after them. Both orders apply chart3 before chart1.
  test('dependent and independent charts: the charts that wait for nothing first, in creation order, then chart1 after chart3', () => {
    // GIVEN four charts, each with a ConfigMap, chart1 depending on chart3
    const app = newApp();
    const cap = new Capability(app, 'c');
    const charts = [1, 2, 3, 4].map((i) => {
      const chart = new Chart(cap, `chart${i}`);
      new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm${i}` } });
      return chart;
    });
    charts[0].node.addDependency(charts[2]);

    // WHEN synthesized
    const files = runtimeFiles(app);

    // THEN
    expect(files.map((f) => f.file)).toEqual(['0001-c-chart2.yaml', '0002-c-chart3.yaml', '0003-c-chart4.yaml', '0004-c-chart1.yaml']);
    expect(stepSummary(app.synthesize().plan).map((s) => [s.id, s.dependsOn.map((d) => d.step)])).toEqual([
      ['c/chart2', []], ['c/chart3', []], ['c/chart4', []], ['c/chart1', ['c/chart3']],
    ]);
  });
});

describe('manifests as cdk8s writes them, against cdk8s-core test/api-object.test.ts', () => {
  // Ported from test/api-object.test.ts ("printed yaml is alphabetical"): cdk8s sorts keys; the file keeps its order.
  test('keys in the runtime file keep cdk8s\' alphabetical order (printed yaml is alphabetical)', () => {
    // GIVEN upstream's object, keys in random order (kind in group example.com: see CustomConstruct)
    const app = newApp();
    new ApiObject(new RuntimeRouting(new Capability(app, 'c'), 'test'), 'my-resource', {
      kind: 'MyResource',
      spec: { secondProperty: { innerThirdProperty: '!', beforeThirdProperty: 'world' }, firstProperty: 'hello' },
      metadata: { meta: { zzz: 'hello', aaa: 123 } } as any,
      apiVersion: 'example.com/v1',
    });

    // WHEN synthesized
    const [file] = runtimeFiles(app);

    // THEN upstream's snapshot, key for key and in order
    expect(JSON.stringify(file.objects)).toBe(JSON.stringify([{
      apiVersion: 'example.com/v1',
      kind: 'MyResource',
      metadata: { meta: { aaa: 123, zzz: 'hello' }, name: 'test-my-c8487bf7' },
      spec: { firstProperty: 'hello', secondProperty: { beforeThirdProperty: 'world', innerThirdProperty: '!' } },
    }]));
  });
});

describe('included manifests, against cdk8s-core test/include.test.ts', () => {
  // Ported from test/include.test.ts ("multiple resources with the same k8s name can be included so long as their
  // kind is different", "skips empty documents"), kinds in group example.com (see CustomConstruct).
  test('objects of one name and different kinds are both written, in file order, and an empty document is skipped', () => {
    // GIVEN upstream's file: Foo resource1, an empty document, Bar resource1
    const file = path.join(tempDir(), 'foo.yaml');
    fs.writeFileSync(file, Yaml.stringify(
      { apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'resource1' } },
      {},
      { apiVersion: 'example.com/v1', kind: 'Bar', metadata: { name: 'resource1' } },
    ));
    const app = newApp();
    const include = new Include(new RuntimeRouting(new Capability(app, 'c'), 'chart'), 'foo', { url: file });

    // WHEN synthesized
    const [written] = runtimeFiles(app);

    // THEN upstream's ids, and both objects in the file in the included file's order
    expect(include.node.children.map((c) => c.node.id)).toEqual(['resource1-foo', 'resource1-bar']);
    expect(written.objects).toEqual([
      { apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'resource1' } },
      { apiVersion: 'example.com/v1', kind: 'Bar', metadata: { name: 'resource1' } },
    ]);
  });
});

describe('YAML text, against cdk8s-core test/yaml.test.ts', () => {
  /** Writes `data` as a ConfigMap's data and returns the runtime file's text. */
  function writtenData(data: Record<string, string>): string {
    const app = newApp();
    new ApiObject(new RuntimeRouting(new Capability(app, 'c'), 'chart'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data });
    app.synth();
    return fs.readFileSync(path.join(app.outdir, 'runtime', '0001-c-chart.yaml'), 'utf-8');
  }

  // Ported from test/yaml.test.ts ("strings don't become booleans", "strings are quoted" and "yaml 1.1 octal
  // numbers are parsed correctly"): kubectl's reader (sigs.k8s.io/yaml) keeps YAML 1.1's booleans and octals.
  test('strings that YAML 1.1 or 1.2 reads as another type are quoted, and read back as the same strings by both', () => {
    // GIVEN upstream's strings, and 1.1's other spellings of booleans and octals
    const data = { a_yes: 'yes', a_no: 'no', a_true: 'true', a_false: 'false', foo: 'on', off: 'off', y: 'y', octal: '0755', bar: 'this has a "big quote"' };

    // WHEN written
    const text = writtenData(data);

    // THEN quoted as cdk8s quotes them (keys too), in cdk8s' sorted key order, and read back unchanged in YAML 1.1 and 1.2
    expect(text.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  name:'))).toEqual([
      '  a_false: "false"', '  a_no: "no"', '  a_true: "true"', '  a_yes: "yes"', '  bar: this has a "big quote"', '  foo: "on"', '  octal: "0755"',
      '  "off": "off"', '  "y": "y"',
    ]);
    expect(parseAllDocuments(text, { version: '1.1' })[0].toJS().data).toEqual(data);
    expect(parseAllDocuments(text)[0].toJS().data).toEqual(data);
  });

  // Ported from test/yaml.test.ts ("escaped character does not divided by cross line boundaries" and "multi-line text
  // block with long line keep line break").
  test('a long line is never folded, and a multi-line value keeps its line breaks', () => {
    // GIVEN upstream's long pattern and its multi-line block with a 90-character line
    const pattern = '^(((d*(.d*)?h)|(d*(.d*)?m)|(d*(.d*)?s)|(d*(.d*)?ms)|(d*(.d*)?us)|(d*(.d*)?µs)|(d*(.d*)?ns))+|infinity|infinite)$';
    const block = '[section]\n    abc: s\n    def: 012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789';

    // WHEN written
    const text = writtenData({ pattern, foo: block, bar: 'something' });

    // THEN the pattern on one line, the block as a literal block, both read back unchanged
    expect(text.split('\n').filter((l) => l.includes('infinity'))).toEqual([`  pattern: ${pattern}`]);
    expect(text).toContain('  foo: |-\n    [section]\n        abc: s\n        def: 0123456789');
    expect(parseAllDocuments(text)[0].toJS().data).toEqual({ pattern, foo: block, bar: 'something' });
  });
});
