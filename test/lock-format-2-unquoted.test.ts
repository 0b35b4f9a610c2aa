import * as fs from 'fs';
import * as path from 'path';
import { Plan } from '../src';
import { QUOTED_KEYS_RELEASE, QuotedKeysVariant, quotedKeys } from './quoted-keys-release';
import { coded, newSeries, nextRelease, removeReleaseDirs, ReleaseSeries, withLockKey } from './release-fixtures';
import { formatPlan } from '../src/cli/format-plan';
import { unquotedFieldText, unquotedLeafName } from '../src/release/unquoted-paths';

afterAll(removeReleaseDirs);

const KEY = 'k'.repeat(40);

/**
 * A series whose lock is the committed one of `QUOTED_KEYS_RELEASE`, written before string keys were quoted;
 * `edit` changes it first.
 */
function unquoted(edit: (lock: any) => void = () => {}): ReleaseSeries {
  const series = newSeries();
  const lock = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'lock-format-2-unquoted', 'capability.lock.json'), 'utf-8'));
  edit(lock);
  fs.writeFileSync(series.lockFile, JSON.stringify(lock, undefined, 2));
  return series;
}

/** The plan of release `next` against the committed lock (changed by `edit`); fails when it is refused. */
function planAgainst(next: QuotedKeysVariant, edit?: (lock: any) => void): Plan {
  const { violations, plan } = withLockKey(KEY, () => nextRelease(unquoted(edit), quotedKeys, next));
  expect(coded(violations).filter((v) => !v.message.startsWith('warning:'))).toEqual([]);
  return plan!;
}

/** The lines of the printed plan under `Changes against the lock:`. */
function changeLines(plan: Plan): string[] {
  const lines = formatPlan(plan).split('\n');
  const from = lines.indexOf('Changes against the lock:') + 1;
  const to = lines.indexOf('', from);
  return lines.slice(from, to < 0 ? undefined : to);
}

describe('a lock of format 2 that holds string keys unquoted (written before they were quoted) gives the plan a lock written now gives', () => {
  test('the fixture holds the string keys "2" and "true" unquoted, in its leaves, digests, owners and runtime writers', () => {
    // GIVEN the committed lock of an earlier version
    const lock = JSON.parse(fs.readFileSync(unquoted().lockFile, 'utf-8'));
    const web = lock.units.find((u: any) => u.label === 'apps/Deployment shop/web');

    // THEN it is of format 2, with the unquoted forms
    expect(lock.formatVersion).toBe(2);
    expect(Object.keys(web.values)).toContain('spec.template.spec.containers[name=2].image');
    expect(Object.keys(web.sensitive)).toEqual(['spec.template.spec.containers[name=2].env[name=DB_PASSWORD].value']);
    expect(Object.keys(web.owners)).toEqual(['spec.template.spec.containers[name=2].args', 'metadata.finalizers[=true]']);
    expect(lock.runtimeWriters.map((w: any) => w.fields)).toEqual([
      ['spec.template.spec.containers[name=2].args', 'metadata.finalizers[=true]'],
      ['spec.releases[version=2].weight'],
    ]);
  });

  test('the same release changes nothing: no object, no runtime writer, no handover', () => {
    // WHEN the release the lock was written for is planned against it
    const plan = planAgainst(QUOTED_KEYS_RELEASE);

    // THEN nothing changes
    expect(plan.changes).toEqual({
      firstRelease: false,
      added: [],
      changed: [],
      removed: [],
      fields: [],
      traffic: [],
      handovers: [],
      contracts: [],
      interface: [],
    });
    expect(changeLines(plan)).toEqual(['  (none)']);
  });

  test('a changed image is named by the quoted key', () => {
    expect(changeLines(planAgainst({ ...QUOTED_KEYS_RELEASE, image: 'web:1.1' }))).toEqual([
      '  ~ apps/Deployment shop/web',
      '      ~ spec.template.spec.containers[name="2"].image: "web:1.0" -> "web:1.1"',
    ]);
  });

  test('a changed password is compared with the digest the lock took under the unquoted name', () => {
    expect(changeLines(planAgainst({ ...QUOTED_KEYS_RELEASE, password: 'swordfish-swordfish' }))).toEqual([
      '  ~ apps/Deployment shop/web',
      '      ~ spec.template.spec.containers[name="2"].env[name=DB_PASSWORD].value: (sensitive) -> (sensitive, changed)',
    ]);
  });

  test('a lock that records no writers of an object (written before they were) gives no handover either: its owners are read by the names they had', () => {
    // GIVEN the lock without the objects' writers, as locks before them were: the handovers come from its owners
    const plan = planAgainst(QUOTED_KEYS_RELEASE, (lock) => lock.units.forEach((u: any) => delete u.writers));

    // THEN no leaf changes writer
    expect(plan.changes.handovers).toEqual([]);
  });

  test('a runtime writer that names another element than the lock holds is changed', () => {
    // WHEN Shifter writes the weight of the release "3" where the lock holds the release 2
    const plan = planAgainst({ ...QUOTED_KEYS_RELEASE, shifted: '3' });

    // THEN it is changed, and nothing else is
    expect(plan.changes.runtimeWriters?.map((c) => [c.writer, c.change, c.before?.fields, c.after?.fields])).toEqual([
      ['shop/Routing/Shifter', 'changed', ['spec.releases[version=2].weight'], ['spec.releases[version="3"].weight']],
    ]);
    expect(plan.changes.changed).toEqual([]);
  });
});

describe('unquotedFieldText and unquotedLeafName: a path as it was printed before string keys were quoted', () => {
  test.each([
    ['spec.releases[version="2"].weight', 'spec.releases[version=2].weight'],
    ['metadata.finalizers[="true"]', 'metadata.finalizers[=true]'],
    ['spec.ports[name="a,b",port=80]', 'spec.ports[name=a,b,port=80]'],
    ['spec.template.spec.containers[name=web].image', 'spec.template.spec.containers[name=web].image'],
    ['metadata.labels["app.kubernetes.io/name"]', 'metadata.labels["app.kubernetes.io/name"]'],
    ['not a path ["', 'not a path ["'],
  ])('%s was %s', (now, then) => {
    expect(unquotedFieldText(now)).toBe(then);
  });

  test.each([
    ['spec.template.spec.containers[name="2"].env[name=DB_PASSWORD].value', 'spec.template.spec.containers[name=2].env[name=DB_PASSWORD].value'],
    ['spec.rules[0].matches[1]["odd key"]', 'spec.rules[0].matches[1]["odd key"]'],
    ['metadata.finalizers[="8080"]', 'metadata.finalizers[=8080]'],
  ])('the leaf %s was %s', (now, then) => {
    expect(unquotedLeafName(now)).toBe(then);
  });
});
