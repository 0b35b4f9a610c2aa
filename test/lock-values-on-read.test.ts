import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { CapabilityApp, Capability, RuntimeRouting } from '../src';
import { appOf, newSeries, release, removeReleaseDirs, withLockKey, withUpdateLock } from './release-fixtures';
import * as keyedLeaves from '../src/release/keyed-leaves';
import { serializeLock } from '../src/release/lock';
import * as lockValuesModule from '../src/render/lock-values';
import { holdsSensitiveLeaf, lockValues } from '../src/render/lock-values';

// Naming an object's leaves by their keys is most of the cost of a lock. A unit that holds no sensitive value is
// digested from its text, and its values are made from its manifest when first read (lock-build.ts, `unitLeaves`):
// a release compared with an unchanged lock, or a first release, that writes no lock names none.

afterAll(removeReleaseDirs);

const KEY = '0123456789abcdef0123456789abcdef';

/** GIVEN-side builder: capability `shop` with a Deployment of two containers, and optionally one that reads a secret-named variable. */
function shop(app: CapabilityApp, withSecret = false): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  const deployment = (name: string, env: Array<{ name: string; value: string }>) =>
    new ApiObject(routing, name, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'web', image: 'web:1', env }, { name: 'proxy', image: 'proxy:2' }] },
        },
      },
    });
  deployment('web', [{ name: 'MODE', value: 'fast' }]);
  if (withSecret) deployment('db', [{ name: 'DB_PASSWORD', value: 'hunter2' }]);
}

describe('the values of a lock\'s units that hold no sensitive value', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a release compared with an unchanged lock, the lock not written, names no leaf', () => {
    // GIVEN capability `shop`, released with its lock
    const series = newSeries();
    release(series, (app) => shop(app), undefined);
    const app = appOf(series);
    shop(app);
    const named = jest.spyOn(keyedLeaves, 'keyedValues');

    // WHEN the same program is synthesized again without CDK_CAPABILITY_UPDATE_LOCK
    withUpdateLock(undefined, () => app.synth());

    // THEN its plan shows nothing changed, and no leaf was named
    const changes = JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8')).changes;
    expect([changes.firstRelease, changes.added, changes.changed, changes.removed]).toEqual([false, [], [], []]);
    expect(named).not.toHaveBeenCalled();
  });

  test('are named when first read, in the unit\'s place for them, and the same on every later read', () => {
    // GIVEN capability `shop` synthesized, no lock
    const app = appOf(newSeries());
    shop(app);
    const named = jest.spyOn(keyedLeaves, 'keyedValues');
    const unit = app.synthesize().lock!.units.find((u) => u.label === 'apps/Deployment shop/web')!;
    expect(named).not.toHaveBeenCalled();

    // WHEN its values are read, twice
    const values = unit.values;

    // THEN they are named by their keys, once, between the unit's identity and its writers
    expect(values).toEqual({
      'apiVersion': 'apps/v1',
      'kind': 'Deployment',
      'metadata.name': 'web',
      'metadata.namespace': 'shop',
      'spec.selector.matchLabels.app': 'web',
      'spec.template.metadata.labels.app': 'web',
      'spec.template.spec.containers[name=web].name': 'web',
      'spec.template.spec.containers[name=web].image': 'web:1',
      'spec.template.spec.containers[name=web].env[name=MODE].name': 'MODE',
      'spec.template.spec.containers[name=web].env[name=MODE].value': 'fast',
      'spec.template.spec.containers[name=proxy].name': 'proxy',
      'spec.template.spec.containers[name=proxy].image': 'proxy:2',
    });
    expect(unit.values).toBe(values);
    expect(named).toHaveBeenCalledTimes(1);
    expect(Object.keys(unit)).toEqual(['id', 'label', 'path', 'digest', 'groupKind', 'namespace', 'values', 'writers']);
  });

  test('a unit that holds a sensitive value has its values, digests and masked value from the start', () => {
    // GIVEN capability `shop` with the Deployment `db`, whose DB_PASSWORD is a literal
    const app = appOf(newSeries());
    shop(app, true);
    const named = jest.spyOn(keyedLeaves, 'keyedValues');

    // WHEN it is synthesized with a lock key
    const unit = withLockKey(KEY, () => app.synthesize()).lock!.units.find((u) => u.label === 'apps/Deployment shop/db')!;

    // THEN that unit alone was named, and it holds the keyed digest of its masked value by its name
    expect(named).toHaveBeenCalledTimes(1);
    expect(Object.getOwnPropertyDescriptor(unit, 'values')?.value?.['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']).toBe('(sensitive)');
    expect(Object.keys(unit.sensitive!)).toEqual(['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']);
  });

  test('the lock written with CDK_CAPABILITY_UPDATE_LOCK holds them, as the result\'s lock serializes', () => {
    // GIVEN capability `shop` with both Deployments, no lock
    const series = newSeries();
    const app = appOf(series);
    shop(app, true);

    // WHEN it is synthesized with the lock written
    withLockKey(KEY, () => withUpdateLock('1', () => app.synth()));

    // THEN the lock file holds the named leaves, and is the lock another synth of the same program makes
    const written = fs.readFileSync(series.lockFile, 'utf-8');
    const unit = JSON.parse(written).units.find((u: any) => u.label === 'apps/Deployment shop/web');
    expect(unit.values['spec.template.spec.containers[name=proxy].image']).toBe('proxy:2');
    expect(Object.keys(unit)).toEqual(['id', 'label', 'path', 'digest', 'groupKind', 'namespace', 'values', 'writers']);
    const again = new CapabilityApp({ outdir: path.join(series.dir, 'again'), lockFile: path.join(series.dir, 'none.json') });
    shop(again, true);
    expect(serializeLock(withLockKey(KEY, () => again.synthesize()).lock!)).toBe(written);
  });
});

describe('the digests of a lock\'s units, without a lock key', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a first release that writes no lock takes none', () => {
    // GIVEN capability `shop`, with a Deployment whose DB_PASSWORD is a literal, and no lock
    const app = appOf(newSeries());
    shop(app, true);
    const told = jest.spyOn(lockValuesModule, 'mayHoldSensitiveLeaf');
    const walked = jest.spyOn(lockValuesModule, 'holdsSensitiveLeaf');
    const named = jest.spyOn(keyedLeaves, 'keyedValues');

    // WHEN it is synthesized without CDK_CAPABILITY_UPDATE_LOCK
    withUpdateLock(undefined, () => app.synth());

    // THEN no unit was told sensitive or not (which decides what its digest is taken of), and no leaf was named
    expect(told).not.toHaveBeenCalled();
    expect(walked).not.toHaveBeenCalled();
    expect(named).not.toHaveBeenCalled();
  });

  test('are taken when first read, in the unit\'s place for them, as the written lock has them', () => {
    // GIVEN capability `shop` with both Deployments, synthesized without a lock
    const series = newSeries();
    const app = appOf(series);
    shop(app, true);
    const lock = app.synthesize().lock!;
    // (told from the unit's text first, its document walked only when that says it may hold one)
    const told = jest.spyOn(lockValuesModule, 'mayHoldSensitiveLeaf');

    // WHEN each unit's digest is read, twice
    const digests = lock.units.map((u) => u.digest);

    // THEN each was taken once, where the unit has it, and is the digest the lock written by the same program records
    expect(lock.units.map((u) => u.digest)).toEqual(digests);
    expect(told).toHaveBeenCalledTimes(lock.units.length);
    const db = lock.units.find((u) => u.label === 'apps/Deployment shop/db')!;
    expect(Object.keys(db)).toEqual(['id', 'label', 'path', 'digest', 'groupKind', 'namespace', 'values', 'writers']);
    withUpdateLock('1', () => app.synth());
    const written = JSON.parse(fs.readFileSync(series.lockFile, 'utf-8')).units;
    expect(written.map((u: any) => u.digest)).toEqual(digests);
    expect(digests.every((d) => /^[0-9a-f]{16}$/.test(d))).toBe(true);
  });
});

describe('holdsSensitiveLeaf', () => {
  /** A JSON-like document whose strings are sometimes shaped like a secret, a token, or a secret reference. */
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('AKIAIOSFODNN7EXAMPLE', '${Token[TOKEN.12]}', 'x ${Token[A.1]} AKIAIOSFODNN7EXAMPLE', '{{resolve:secretsmanager:db}}', 'plain', ''),
  );
  const { doc } = fc.letrec((tie) => ({
    doc: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), tie('list'), tie('map')),
    list: fc.array(tie('doc'), { maxLength: 3 }),
    map: fc.dictionary(fc.constantFrom('data', 'value', 'env', 'spec', 'a b', '0'), tie('doc'), { maxKeys: 3 }),
  }));
  /** Whether a node is sensitive: by one key in its path, as a Secret's `data` or a secret-named variable is. */
  const byKey = fc.constantFrom<Array<(at: readonly string[]) => boolean>>(() => false, (at) => at[at.length - 1] === 'data', (at) => at.includes('value'));

  test('is true exactly when lockValues masks a leaf as (sensitive)', () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(doc, byKey, (d, isSensitive) => {
        const holds = holdsSensitiveLeaf(d, isSensitive);
        seen.add(holds);
        expect(holds).toBe(lockValues(d, isSensitive).masked.size > 0);
      }),
      { numRuns: 2000 },
    );
    // both answers were put to the test
    expect([...seen].sort()).toEqual([false, true]);
  });

  test('an empty map or list under a sensitive node is a masked leaf; the document itself, empty, is none', () => {
    const secretData = (at: readonly string[]) => at[0] === 'data';
    const docs = [{ data: {} }, { data: [] }, {}];
    expect(docs.map((d) => holdsSensitiveLeaf(d, secretData))).toEqual([true, true, false]);
    expect(docs.map((d) => lockValues(d, secretData).masked.size)).toEqual([1, 1, 0]);
  });
});
