import * as fs from 'fs';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Capability, CapabilityApp, RuntimeRouting } from '../src';
import { lockedSeries, nextRelease, removeReleaseDirs } from './release-fixtures';
import { formatPlan, hasChanges } from '../src/cli/format-plan';
import { writerNameWithoutSite } from '../src/collect/ledger/writer';
import type { Lock } from '../src/release/lock';
import { lockedWriterIdentity } from '../src/release/writer-identity';

afterAll(removeReleaseDirs);

/** ConfigMap cm, its data.a replaced by a plain JSON patch, called on one line or, as after a comment line added above it, on another. */
function patched(app: CapabilityApp, moved: boolean): void {
  const cm = new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
  if (!moved) {
    cm.addJsonPatch(JsonPatch.replace('/data/a', '2'));
  } else {
    // the same call, one line further down
    cm.addJsonPatch(JsonPatch.replace('/data/a', '2'));
  }
}

/** The lock's writers of ConfigMap cm: name, kind and field manager. */
function writersOfCm(lock: Lock): Array<{ writer: string; kind: string; manager?: string }> {
  const unit = lock.units.find((u) => u.label === 'ConfigMap cm')!;
  return unit.writers!.map((w) => ({ writer: w.writer, kind: w.kind, manager: w.manager }));
}

const readLock = (file: string): Lock => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('a writer moved to another line of the program is the same writer', () => {
  test('a JSON patch called one line further down hands nothing over, and plan has no change to show', () => {
    // GIVEN the real lock of a release whose JSON patch writes data.a
    const series = lockedSeries(patched, false);

    // WHEN the next release makes the same call one line further down
    const { violations, plan } = nextRelease(series, patched, true);

    // THEN no handover: the writer is the same, only where it was called moved
    expect(violations).toEqual([]);
    expect(plan?.changes.handovers).toEqual([]);
    expect(formatPlan(plan!).split('\n')[0]).toBe('Plan: 0 to add, 0 to change, 0 to remove.');
    expect(hasChanges(plan!)).toBe(false);
  });

  test('the lock names the JSON patch with its call site, and its field manager with which call it is, never the site', () => {
    // GIVEN the real lock of a release whose JSON patch writes data.a
    const series = lockedSeries(patched, false);

    // WHEN read
    const writers = writersOfCm(readLock(series.lockFile));

    // THEN the patch's name shows where it was called; its manager does not
    expect(writers).toEqual([
      { writer: 'shop/Routing/Cm', kind: 'declaration', manager: 'cdk-capability:shop/Routing/Cm' },
      { writer: expect.stringMatching(/^shop\/Routing\/Cm \(addJsonPatch at test\/writer-identity\.test\.ts:\d+\)$/), kind: 'json-patch', manager: 'cdk-capability:shop/Routing/Cm#json-patch-1' },
    ]);
  });

  test('a lock recording the leaves only by owner, named with the call site as earlier locks did, hands nothing over either', () => {
    // GIVEN the real lock of a release, rewritten as a lock from before writers were recorded: owners only
    const series = lockedSeries(patched, false);
    const lock = readLock(series.lockFile);
    // without the contentDigest an edit would no longer match, as an earlier version wrote it
    const old = { ...lock, contentDigest: undefined, units: lock.units.map(({ writers: _writers, ...unit }) => unit) };
    expect(old.units.find((u) => u.label === 'ConfigMap cm')?.owners).toEqual({ 'data.a': expect.stringMatching(/^shop\/Routing\/Cm \(addJsonPatch at test\/writer-identity\.test\.ts:\d+\)$/) });
    fs.writeFileSync(series.lockFile, JSON.stringify(old, null, 2));

    // WHEN the next release makes the same call one line further down
    const { violations, plan } = nextRelease(series, patched, true);

    // THEN no handover
    expect(violations).toEqual([]);
    expect(plan?.changes.handovers).toEqual([]);
  });
});

describe('a plain call that is another call on its object is another writer', () => {
  /** Release 1 patches data.a in its one call; release 2 patches data.b first, so data.a is its second call. */
  const twoCalls = (app: CapabilityApp, second: boolean) => {
    const cm = new ApiObject(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1', b: '1' } });
    if (second) cm.addJsonPatch(JsonPatch.replace('/data/b', '2')); // data.b's patch
    cm.addJsonPatch(JsonPatch.replace('/data/a', '2')); // data.a's patch
  };

  test('data.a moving from the first JSON patch of its object to the second is a handover, named with both call sites', () => {
    // GIVEN the real lock of a release whose one JSON patch writes data.a
    const series = lockedSeries(twoCalls, false);

    // WHEN the next release writes data.a in the second call on the object (field manager #json-patch-2)
    const { violations, plan } = nextRelease(series, twoCalls, true);

    // THEN data.a is handed over from the first call to the second (made where the first was), beside data.b
    // taken from the declarer by the new first call; the plan names each call by where it was made
    expect(violations).toEqual([]);
    const site = (mark: string) => `shop/Routing/Cm (addJsonPatch at test/writer-identity.test.ts:${lineOf(`// ${mark}\n`)})`;
    const a = site("data.a's patch");
    const b = site("data.b's patch");
    expect(plan?.changes.handovers).toEqual([
      { unit: 'ConfigMap cm', path: 'data.a', from: a, to: a },
      { unit: 'ConfigMap cm', path: 'data.b', from: 'shop/Routing/Cm', to: b },
    ]);
  });
});

describe('lockedWriterIdentity', () => {
  test('a writer of the release is its field manager, whatever its name says of the site', () => {
    expect(lockedWriterIdentity({ writer: 'shop/Routing/Cm (addJsonPatch at main.ts:13)', kind: 'json-patch', manager: 'cdk-capability:shop/Routing/Cm#json-patch-1', fields: {} })).toBe(
      'cdk-capability:shop/Routing/Cm#json-patch-1',
    );
  });

  test('a runtime writer is its name, not the manager its controller may share', () => {
    expect(lockedWriterIdentity({ writer: 'cdn/Routing/NetOp (RuntimeWriter)', kind: 'runtime', manager: 'netop', fields: {} })).toBe('cdn/Routing/NetOp (RuntimeWriter)');
  });

  test('a writer recorded without a manager is its name without the site', () => {
    expect(lockedWriterIdentity({ writer: 'shop/Routing/Cm (addJsonPatch at src/main.ts:13)', kind: 'json-patch', fields: {} })).toBe('shop/Routing/Cm (addJsonPatch)');
  });
});

describe('writerNameWithoutSite', () => {
  test.each([
    ['shop/Routing/Cm (addJsonPatch at ovr.ts:13)', 'shop/Routing/Cm (addJsonPatch)'],
    ['shop/Base (Tags.of().add at /home/me/app/main.ts:7)', 'shop/Base (Tags.of().add)'],
    ['shop/Routing/Cm (addJsonPatch #2)', 'shop/Routing/Cm (addJsonPatch #2)'],
    ['shop/Routing/Settings', 'shop/Routing/Settings'],
    ['cdn/Routing/NetOp (RuntimeWriter)', 'cdn/Routing/NetOp (RuntimeWriter)'],
  ])('%s is %s', (name, expected) => {
    expect(writerNameWithoutSite(name)).toBe(expected);
  });
});

/** The line of this file on which `text` starts. */
function lineOf(text: string): number {
  const source = fs.readFileSync(__filename, 'utf8');
  const at = source.indexOf(text);
  if (at < 0 || source.indexOf(text, at + 1) >= 0) throw new Error(`'${text}' is not in this file exactly once`);
  return source.slice(0, at).split('\n').length;
}
