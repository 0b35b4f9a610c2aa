import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, Plan, RuntimeRouting } from '../src';
import { appOf, coded, lockedSeries, nextRelease, removeReleaseDirs, withLockKey, withUpdateLock } from './release-fixtures';
import { formatPlan } from '../src/cli/format-plan';
import { readPlanFile } from '../src/cli/plan-file';
import { topologyOf } from '../src/collect/topology/field-topology';
import { keyedLeaves } from '../src/release/keyed-leaves';

afterAll(removeReleaseDirs);

/** One release of Deployment shop/web (in its declared Namespace shop): its containers and finalizers. */
interface WebVariant {
  readonly containers: ReadonlyArray<Record<string, unknown>>;
  readonly finalizers?: readonly string[];
}

/** GIVEN-side builder: capability shop, chart Routing with Namespace shop and Deployment shop/web. */
function web(app: CapabilityApp, v: WebVariant): ApiObject {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  return new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', ...(v.finalizers ? { finalizers: [...v.finalizers] } : {}) },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: v.containers.map((c) => ({ ...c })) } },
    },
  });
}

const PROXY = { name: 'proxy', image: 'envoy:1.30' };
const LOG = { name: 'log', image: 'fluent-bit:3' };
const webContainer = (image: string, extra: Record<string, unknown> = {}) => ({ name: 'web', image, ports: [{ containerPort: 8080 }], ...extra });

/** The plan of release `next` against the real lock of release `previous`; fails when either is refused. */
function planOf(previous: WebVariant, next: WebVariant): Plan {
  const { violations, plan } = nextRelease(lockedSeries(web, previous), web, next);
  expect(coded(violations)).toEqual([]);
  return plan!;
}

/** The lines of the printed plan under `Changes against the lock:`. */
function changeLines(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const from = lines.indexOf('Changes against the lock:') + 1;
  const to = lines.indexOf('', from);
  return lines.slice(from, to < 0 ? undefined : to);
}

describe('the plan names an element of a keyed list by its keys, as the field ledger does', () => {
  test('a container inserted before the others is one addition, and the containers after it keep their names', () => {
    // GIVEN a release with containers web and log, locked
    // WHEN the next release inserts proxy before web and changes web's image
    const plan = planOf({ containers: [webContainer('web:1.0'), LOG] }, { containers: [PROXY, webContainer('web:1.1'), LOG] });

    // THEN one line adds proxy, one changes web's image, and log does not change
    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
      '      ~ spec.template.spec.containers[name=web].image: "web:1.0" -> "web:1.1"',
    ]);
    // AND plan.json says the same: the element added whole, with its value
    expect(plan.changes.fields).toEqual([
      {
        unit: 'apps/Deployment shop/web',
        fields: [
          { path: 'spec.template.spec.containers[name=proxy]', after: { image: 'envoy:1.30', name: 'proxy' } },
          { path: 'spec.template.spec.containers[name=web].image', before: 'web:1.0', after: 'web:1.1' },
        ],
      },
    ]);
  });

  test('docs/releases.md shows the lines the plan prints for it', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'releases.md'), 'utf-8');
    const section = doc.slice(doc.indexOf('### How the plan names a field'));
    const shown = /```text\n([\s\S]*?)```/.exec(section)![1].trimEnd().split('\n');

    expect(shown).toEqual(changeLines(planOf({ containers: [webContainer('web:1.0'), LOG] }, { containers: [PROXY, webContainer('web:1.1'), LOG] })));
  });

  test('the name is the one a CAP002 finding and the lock give the same field', () => {
    // GIVEN the plan of a changed image of container web
    const plan = planOf({ containers: [webContainer('web:1.0')] }, { containers: [webContainer('web:1.1')] });
    expect(plan.changes.fields[0].fields.map((f) => f.path)).toEqual(['spec.template.spec.containers[name=web].image']);

    // WHEN a Contribution writes the same field
    const series = lockedSeries(web, { containers: [webContainer('web:1.0')] });
    const app = appOf(series);
    const target = web(app, { containers: [webContainer('web:1.0')] });
    new Contribution(RuntimeRouting.of(target), 'Image', { target, fields: { spec: { template: { spec: { containers: [{ name: 'web', image: 'web:2.0' }] } } } } });
    const { violations } = app.synthesize();

    // THEN the finding names it as the plan does
    expect(violations.map((v) => v.message)).toEqual([
      expect.stringContaining('both write spec.template.spec.containers[name=web].image of apps/Deployment shop/web'),
    ]);
    // AND the lock's writers name its element by the same key
    const lock = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8'));
    const unit = lock.units.find((u: any) => u.label === 'apps/Deployment shop/web');
    expect(unit.writers[0].fields['f:spec']['f:template']['f:spec']['f:containers']).toHaveProperty(['k:{"name":"web"}', 'f:image']);
  });

  test('a container removed is one removal, with the element it was', () => {
    const plan = planOf({ containers: [PROXY, webContainer('web:1.0'), LOG] }, { containers: [webContainer('web:1.0'), LOG] });

    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      - spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
    ]);
  });

  test('a port inserted before another is named by its keys, the protocol defaulted to TCP', () => {
    const plan = planOf(
      { containers: [webContainer('web:1.0')] },
      { containers: [webContainer('web:1.0', { ports: [{ containerPort: 9090, name: 'admin' }, { containerPort: 8080 }] })] },
    );

    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + spec.template.spec.containers[name=web].ports[containerPort=9090,protocol=TCP]: {"containerPort":9090,"name":"admin"}',
    ]);
  });

  test('a value inserted into a set is named by itself', () => {
    const plan = planOf(
      { containers: [webContainer('web:1.0')], finalizers: ['example.com/a'] },
      { containers: [webContainer('web:1.0')], finalizers: ['example.com/b', 'example.com/a'] },
    );

    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + metadata.finalizers[=example.com/b]: "example.com/b"',
    ]);
  });

  test('an atomic list keeps its indexes: server-side apply replaces it whole', () => {
    // GIVEN args, an atomic list, with an argument inserted first
    const plan = planOf(
      { containers: [webContainer('web:1.0', { args: ['--a', '--b'] })] },
      { containers: [webContainer('web:1.0', { args: ['--x', '--a', '--b'] })] },
    );

    // THEN its leaves by index, inside the container named by its key
    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      ~ spec.template.spec.containers[name=web].args[0]: "--a" -> "--x"',
      '      ~ spec.template.spec.containers[name=web].args[1]: "--b" -> "--a"',
      '      + spec.template.spec.containers[name=web].args[2]: "--b"',
    ]);
  });

  test('plan.json with an element added whole is valid against its JSON Schema', () => {
    // GIVEN release 2 with an inserted container, synthesized to disk against the lock of release 1
    const series = lockedSeries(web, { containers: [webContainer('web:1.0')] });
    const app = appOf(series);
    web(app, { containers: [PROXY, webContainer('web:1.0')] });
    withUpdateLock(undefined, () => app.synth());

    // WHEN plan.json is read as apply and plan --plan read it
    const read = readPlanFile(path.join(app.outdir, 'plan.json'));

    // THEN it is valid, and holds the element
    expect('problems' in read ? read.problems : []).toEqual([]);
    expect('plan' in read && read.plan.changes.fields).toEqual([
      { unit: 'apps/Deployment shop/web', fields: [{ path: 'spec.template.spec.containers[name=proxy]', after: { image: 'envoy:1.30', name: 'proxy' } }] },
    ]);
  });

  test('a masked value whose container moved is not compared: its digest covers its index', () => {
    // GIVEN a literal DB_PASSWORD in container web, digested with a key
    const key = 'k'.repeat(40);
    const env = { env: [{ name: 'DB_PASSWORD', value: 'hunter2-hunter2' }] };
    const series = withLockKey(key, () => lockedSeries(web, { containers: [webContainer('web:1.0', env)] }));

    // WHEN the next release inserts proxy before web, the password unchanged
    const { plan } = withLockKey(key, () => nextRelease(series, web, { containers: [PROXY, webContainer('web:1.0', env)] }));

    // THEN the plan says it could not compare it, and never shows it
    expect(changeLines(plan!)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
      '      ~ spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value: (sensitive) -> (sensitive, not compared)',
    ]);
  });
});

describe('keyedLeaves', () => {
  const deployment = topologyOf('apps/v1', 'Deployment');

  test('a keyed list two of whose elements have one key keeps its indexes', () => {
    // GIVEN two containers whose names are both known only after deploy
    const values = {
      'spec.template.spec.containers[0].name': '(known after deploy)',
      'spec.template.spec.containers[0].image': 'a',
      'spec.template.spec.containers[1].name': '(known after deploy)',
      'spec.template.spec.containers[1].image': 'b',
    };

    // THEN no key tells them apart: by index, and no element to add or remove whole
    expect(keyedLeaves(values, deployment).leaves.map((l) => [l.path, l.elements])).toEqual([
      ['spec.template.spec.containers[0].name', []],
      ['spec.template.spec.containers[0].image', []],
      ['spec.template.spec.containers[1].name', []],
      ['spec.template.spec.containers[1].image', []],
    ]);
  });

  test('without a topology (a stack) every leaf keeps the lock\'s path', () => {
    const values = { 'Resources.Q.Properties.Tags[0].Key': 'team', 'Resources.Q.Properties["odd-key"]': 1 };

    expect(keyedLeaves(values, undefined).leaves.map((l) => l.path)).toEqual(['Resources.Q.Properties.Tags[0].Key', 'Resources.Q.Properties["odd-key"]']);
  });

  test('a map key that is no identifier is quoted, as the ledger prints it', () => {
    const values = { 'metadata.labels.app-name': 'web', 'metadata.labels["app.kubernetes.io/name"]': 'web' };

    expect(keyedLeaves(values, deployment).leaves.map((l) => l.path)).toEqual(['metadata.labels["app-name"]', 'metadata.labels["app.kubernetes.io/name"]']);
  });
});
