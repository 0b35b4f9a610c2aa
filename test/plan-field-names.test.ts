import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Capability, CapabilityApp, Contribution, Plan, RuntimeRouting } from '../src';
import { appOf, coded, lockedSeries, newSeries, nextRelease, ReleaseSeries, removeReleaseDirs, withLockKey, withUpdateLock } from './release-fixtures';
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
const KEY = 'k'.repeat(40);
const PASSWORD = { env: [{ name: 'DB_PASSWORD', value: 'hunter2-hunter2' }] };
const OTHER_PASSWORD = { env: [{ name: 'DB_PASSWORD', value: 'swordfish-swordfish' }] };
/** The release test/fixtures/lock-format-1 holds the lock of, as an earlier version wrote it. */
const RELEASE_1: WebVariant = { containers: [webContainer('web:1.0', PASSWORD), LOG] };

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

  test('an atomic list keeps its indexes (server-side apply replaces it whole), its elements lined up as a text diff', () => {
    // GIVEN args, an atomic list, with an argument inserted first
    const plan = planOf(
      { containers: [webContainer('web:1.0', { args: ['--a', '--b'] })] },
      { containers: [webContainer('web:1.0', { args: ['--x', '--a', '--b'] })] },
    );

    // THEN the inserted argument by its index, inside the container named by its key; the others unchanged
    expect(changeLines(plan)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + spec.template.spec.containers[name=web].args[0]: "--x"',
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

  test('a masked value whose container moved is compared by its digest: unchanged, it shows no change', () => {
    // GIVEN a literal DB_PASSWORD in container web, digested with a key
    const series = withLockKey(KEY, () => lockedSeries(web, { containers: [webContainer('web:1.0', PASSWORD)] }));

    // WHEN the next release inserts proxy before web, the password unchanged
    const { plan } = withLockKey(KEY, () => nextRelease(series, web, { containers: [PROXY, webContainer('web:1.0', PASSWORD)] }));

    // THEN proxy is the only change: the password's digest, under the leaf's keyed name, is the same
    expect(changeLines(plan!)).toEqual(['  ~ apps/Deployment shop/web', '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}']);
  });

  test('a masked value whose container moved and whose value changed shows (sensitive, changed)', () => {
    // GIVEN a literal DB_PASSWORD in container web, digested with a key
    const series = withLockKey(KEY, () => lockedSeries(web, { containers: [webContainer('web:1.0', PASSWORD)] }));

    // WHEN the next release inserts proxy before web and changes the password
    const { plan } = withLockKey(KEY, () => nextRelease(series, web, { containers: [PROXY, webContainer('web:1.0', OTHER_PASSWORD)] }));

    // THEN the password shows changed, and never in clear
    expect(changeLines(plan!)).toEqual([
      '  ~ apps/Deployment shop/web',
      '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
      '      ~ spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value: (sensitive) -> (sensitive, changed)',
    ]);
  });

  test('the lock records an object\'s leaves and the digests of its masked values by their keyed names', () => {
    // GIVEN containers web (with a literal DB_PASSWORD) and log
    // WHEN the release is accepted with a key
    const series = withLockKey(KEY, () => lockedSeries(web, RELEASE_1));

    // THEN the Deployment's leaves are named by their containers' and variables' names, its lists of no keys by index
    const unit = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')).units.find((u: any) => u.label === 'apps/Deployment shop/web');
    expect(Object.keys(unit.values).filter((p) => p.startsWith('spec.template.spec.containers'))).toEqual([
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].name',
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value',
      'spec.template.spec.containers[name=web].image',
      'spec.template.spec.containers[name=web].name',
      'spec.template.spec.containers[name=web].ports[containerPort=8080,protocol=TCP].containerPort',
      'spec.template.spec.containers[name=log].image',
      'spec.template.spec.containers[name=log].name',
    ]);
    expect(Object.keys(unit.sensitive)).toEqual(['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']);
  });
});

describe('a lock of format 1 (leaves by index, as earlier versions wrote it) gives the plan a lock of format 2 gives', () => {
  /** The committed lock of `RELEASE_1`, written by an earlier version (test/fixtures/lock-format-1). */
  const formatOne = (): ReleaseSeries => {
    const series = newSeries();
    fs.copyFileSync(path.join(__dirname, 'fixtures', 'lock-format-1', 'capability.lock.json'), series.lockFile);
    return series;
  };
  const planAgainst = (series: ReleaseSeries, next: WebVariant): Plan => {
    const { violations, plan } = withLockKey(KEY, () => nextRelease(series, web, next));
    expect(coded(violations)).toEqual([]);
    return plan!;
  };

  test('the fixture is a lock of format 1 whose masked value is digested under its index path', () => {
    // GIVEN the committed lock of an earlier version
    const lock = JSON.parse(fs.readFileSync(formatOne().lockFile, 'utf-8'));

    // THEN it is of format 1, by index
    expect(lock.formatVersion).toBe(1);
    expect(Object.keys(lock.units.find((u: any) => u.label === 'apps/Deployment shop/web').sensitive)).toEqual(['spec.template.spec.containers[0].env[0].value']);
  });

  test.each<[string, WebVariant, string[]]>([
    ['the same release', RELEASE_1, []],
    [
      'a container inserted before web, the password unchanged',
      { containers: [PROXY, webContainer('web:1.0', PASSWORD), LOG] },
      ['  ~ apps/Deployment shop/web', '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}'],
    ],
    [
      'a container inserted before web, the password changed',
      { containers: [PROXY, webContainer('web:1.0', OTHER_PASSWORD), LOG] },
      [
        '  ~ apps/Deployment shop/web',
        '      + spec.template.spec.containers[name=proxy]: {"image":"envoy:1.30","name":"proxy"}',
        '      ~ spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value: (sensitive) -> (sensitive, changed)',
      ],
    ],
    [
      'the password changed in place',
      { containers: [webContainer('web:1.0', OTHER_PASSWORD), LOG] },
      ['  ~ apps/Deployment shop/web', '      ~ spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value: (sensitive) -> (sensitive, changed)'],
    ],
    [
      'log removed and web\'s image changed',
      { containers: [webContainer('web:1.1', PASSWORD)] },
      [
        '  ~ apps/Deployment shop/web',
        '      ~ spec.template.spec.containers[name=web].image: "web:1.0" -> "web:1.1"',
        '      - spec.template.spec.containers[name=log]: {"image":"fluent-bit:3","name":"log"}',
      ],
    ],
  ])('%s', (_, next, lines) => {
    // GIVEN the lock of release 1 written by an earlier version, and the same release locked by this one
    const old = formatOne();
    const now = withLockKey(KEY, () => lockedSeries(web, RELEASE_1));

    // WHEN the next release is planned against each
    const [againstOld, againstNow] = [planAgainst(old, next), planAgainst(now, next)];

    // THEN both give these changes, and the same plan's changes
    expect(changeLines(againstOld)).toEqual(lines.length > 0 ? lines : ['  (none)']);
    expect(againstOld.changes).toEqual(againstNow.changes);
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
