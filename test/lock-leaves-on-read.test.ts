import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { CapabilityApp, Capability, RuntimeRouting } from '../src';
import { appOf, newSeries, removeReleaseDirs, withLockKey, withUpdateLock } from './release-fixtures';
import * as keyedLeaves from '../src/release/keyed-leaves';
import { serializeLock } from '../src/release/lock';

// Naming an object's leaves by their keys is most of the cost of a lock; nothing of a first release's output
// reads them, so a lock's units name them when first read (lock-build.ts, `unitLeaves`).

afterAll(removeReleaseDirs);

const KEY = '0123456789abcdef0123456789abcdef';

/** GIVEN-side builder: capability `shop` with a Deployment of one container that reads a secret-named variable. */
function shop(app: CapabilityApp): void {
  const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
  new ApiObject(routing, 'Web', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'web:1', env: [{ name: 'DB_PASSWORD', value: 'hunter2' }] }] },
      },
    },
  });
}

describe('the leaves of a lock\'s units', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a first release without CDK_CAPABILITY_UPDATE_LOCK writes its output without naming a leaf', () => {
    // GIVEN capability `shop`, no lock
    const app = appOf(newSeries());
    shop(app);
    const named = jest.spyOn(keyedLeaves, 'keyedValues');

    // WHEN it is synthesized and written
    withUpdateLock(undefined, () => app.synth());

    // THEN its plan is written, and no leaf was named
    expect(JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8')).changes.added).toEqual(['apps/Deployment shop/web']);
    expect(named).not.toHaveBeenCalled();
  });

  test('named when first read, in the unit\'s place for them, and the same on every later read', () => {
    // GIVEN capability `shop` synthesized with a lock key, no lock
    const app = appOf(newSeries());
    shop(app);
    const named = jest.spyOn(keyedLeaves, 'keyedValues');
    const result = withLockKey(KEY, () => app.synthesize());
    const unit = result.lock!.units.find((u) => u.label === 'apps/Deployment shop/web')!;
    expect(named).not.toHaveBeenCalled();

    // WHEN its leaves are read, twice
    const values = unit.values;

    // THEN they are named by their keys, the secret masked, once, between the unit's identity and its writers
    expect(values).toEqual({
      'apiVersion': 'apps/v1',
      'kind': 'Deployment',
      'metadata.name': 'web',
      'metadata.namespace': 'shop',
      'spec.selector.matchLabels.app': 'web',
      'spec.template.metadata.labels.app': 'web',
      'spec.template.spec.containers[name=web].name': 'web',
      'spec.template.spec.containers[name=web].image': 'web:1',
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].name': 'DB_PASSWORD',
      'spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value': '(sensitive)',
    });
    expect(unit.values).toBe(values);
    expect(Object.keys(unit.sensitive!)).toEqual(['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']);
    expect(named).toHaveBeenCalledTimes(1);
    expect(Object.keys(unit)).toEqual(['id', 'label', 'path', 'digest', 'groupKind', 'namespace', 'values', 'sensitive', 'writers']);
  });

  test('the lock written with CDK_CAPABILITY_UPDATE_LOCK holds them, as the result\'s lock serializes', () => {
    // GIVEN capability `shop`, no lock
    const series = newSeries();
    const app = appOf(series);
    shop(app);

    // WHEN it is synthesized with the lock written
    withLockKey(KEY, () => withUpdateLock('1', () => app.synth()));

    // THEN the lock file holds the named leaves, and is the lock another synth of the same program makes
    const written = fs.readFileSync(series.lockFile, 'utf-8');
    const unit = JSON.parse(written).units.find((u: any) => u.label === 'apps/Deployment shop/web');
    expect(unit.values['spec.template.spec.containers[name=web].image']).toBe('web:1');
    expect(Object.keys(unit.sensitive)).toEqual(['spec.template.spec.containers[name=web].env[name=DB_PASSWORD].value']);
    const again = new CapabilityApp({ outdir: path.join(series.dir, 'again'), lockFile: path.join(series.dir, 'none.json') });
    shop(again);
    expect(serializeLock(withLockKey(KEY, () => again.synthesize()).lock!)).toBe(written);
  });
});
