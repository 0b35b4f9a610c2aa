import * as fc from 'fast-check';
import { toFieldsV1 } from '../src/cluster/fields-v1';
import { leafWritersOf, planWriters } from '../src/cluster/object-writers';
import { FieldPath, formatPath } from '../src/collect/ledger/field-path';
import { Lock, LockedUnit, LockedWriter } from '../src/release/lock';
import { diffReleases } from '../src/release/release-diff';

/**
 * `diffReleases` tells that no leaf of an object changes writer without reading the leaves when both locks
 * record the same writers, or one writer (not a runtime one) writes everything in both. These properties
 * check that the handovers it reports are exactly those of an independent reading of the leaves.
 */

const LEAVES: FieldPath[] = [['spec', 'replicas'], ['spec', 'paused'], ['metadata', 'labels', 'app'], ['metadata', 'labels', 'tier'], ['data', 'a']];
const WRITERS = ['app/Routing/Web', 'app/Routing/Team', 'app/Routing/Hpa'];

/** Who writes each leaf of one version of the object: leaf index -> writer index (absent: not written). */
const assignment = fc.dictionary(fc.constantFrom('0', '1', '2', '3', '4'), fc.integer({ min: 0, max: WRITERS.length - 1 }));

function unitOf(leaves: Record<string, number>, runtime: ReadonlySet<number>): LockedUnit {
  const writers: LockedWriter[] = [];
  for (let w = 0; w < WRITERS.length; w++) {
    const mine = Object.entries(leaves).filter(([, who]) => who === w).map(([leaf]) => LEAVES[Number(leaf)]);
    if (mine.length > 0) writers.push({ writer: WRITERS[w], kind: runtime.has(w) ? 'runtime' : 'declaration', fields: toFieldsV1(mine) });
  }
  return { id: 'o', label: 'Deployment web', path: 'app/Routing/Web', digest: JSON.stringify(leaves), groupKind: 'apps/Deployment', writers };
}

function lockOf(unit: LockedUnit): Lock {
  return { formatVersion: 1, units: [unit], interfaces: [], barriers: [], edges: [] } as unknown as Lock;
}

/** The handovers read leaf by leaf: each leaf written in both versions whose writer differs (no runtime writer involved). */
function expected(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after)
    .filter((leaf) => leaf in before && before[leaf] !== after[leaf])
    .map((leaf) => `${formatPath(LEAVES[Number(leaf)])} ${WRITERS[before[leaf]]} -> ${WRITERS[after[leaf]]}`)
    .sort();
}

const seen = (diff: ReturnType<typeof diffReleases>) => diff.handovers.map((h) => `${h.path} ${h.from} -> ${h.to}`).sort();

test('the handovers between two versions written by writers of the release are exactly the leaves whose writer changed', () => {
  fc.assert(
    fc.property(assignment, assignment, (before, after) => {
      const diff = diffReleases(lockOf(unitOf(before, new Set())), lockOf(unitOf(after, new Set())), leafWritersOf);
      expect(seen(diff)).toEqual(expected(before, after));
    }),
    { numRuns: 400 },
  );
});

test('two versions with the same writers, a runtime writer among them, hand nothing over', () => {
  fc.assert(
    fc.property(assignment, fc.integer({ min: 0, max: WRITERS.length - 1 }), (leaves, runtime) => {
      const diff = diffReleases(lockOf(unitOf(leaves, new Set([runtime]))), lockOf(unitOf(leaves, new Set([runtime]))), leafWritersOf);
      expect(diff.handovers).toEqual([]);
    }),
    { numRuns: 200 },
  );
});

/** A `fieldsV1` set with the keys of every level in reverse order: the same set, as another program may write it. */
function reversedKeys(set: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(set).reverse().map((key) => [key, reversedKeys(set[key] as Record<string, unknown>)]));
}

test('the handovers between two versions whose writers record their leaves in another key order are exactly the leaves whose writer changed', () => {
  fc.assert(
    fc.property(assignment, assignment, fc.integer({ min: 0, max: LEAVES.length - 1 }), (before, after, present) => {
      // GIVEN the previous version's sets written in another key order, and one leaf of the next owned only as a node
      const old = unitOf(before, new Set());
      const reordered = { ...old, writers: old.writers!.map((w) => ({ ...w, fields: reversedKeys(w.fields) })) };
      const next = unitOf(after, new Set());
      const withPresence = {
        ...next,
        writers: next.writers!.map((w) => {
          const owner = after[String(present)];
          return owner !== undefined && WRITERS[owner] === w.writer ? { ...w, presence: toFieldsV1([LEAVES[present]]) } : w;
        }),
      };

      // WHEN compared
      const diff = diffReleases(lockOf(reordered), lockOf(withPresence), leafWritersOf);

      // THEN the order of the keys and what is owned as a node hand nothing over
      expect(seen(diff)).toEqual(expected(before, after));
    }),
    { numRuns: 300 },
  );
});

test('a leaf the declarer wrote that a runtime writer writes in the next release is handed over, though every other writer is the same', () => {
  // GIVEN spec.replicas written by the declarer, then by a runtime writer (the HPA)
  const before = unitOf({ 0: 0, 1: 0 }, new Set());
  const after = unitOf({ 0: 2, 1: 0 }, new Set([2]));

  // WHEN compared
  const diff = diffReleases(lockOf(before), lockOf(after), leafWritersOf);

  // THEN the one leaf moves to runtime
  expect(diff.handovers).toEqual([
    { unit: 'Deployment web', path: 'spec.replicas', from: 'app/Routing/Web', to: 'app/Routing/Hpa', moves: 'deploy-time-to-runtime' },
  ]);
});

test('the plan releases no field manager of an object whose writers are as the previous lock recorded them, and releases one that lost a leaf', () => {
  // GIVEN an object written by the declarer and a second team, recorded with their managers
  const managed = (unit: LockedUnit): LockedUnit => ({ ...unit, writers: unit.writers!.map((w) => ({ ...w, manager: `cdk-capability:${w.writer}` })) });
  const both = managed(unitOf({ 0: 0, 2: 1 }, new Set()));
  const teamLostLeaf = managed(unitOf({ 0: 0, 3: 1 }, new Set()));

  // WHEN planned against a previous lock with the same writers, and against one where the team wrote another leaf
  const same = planWriters(lockOf(both), lockOf(both), () => 'legacy');
  const changed = planWriters(lockOf(teamLostLeaf), lockOf(both), () => 'legacy');

  // THEN nothing to release when unchanged; the team's manager releases first when its old leaf is gone
  expect(same).toEqual([{ object: 'o', label: 'Deployment web', writers: both.writers }]);
  expect(changed).toEqual([{ object: 'o', label: 'Deployment web', writers: teamLostLeaf.writers, releaseFirst: ['cdk-capability:app/Routing/Team'] }]);
});

test('an object new against the lock has nothing to hand over or release first, and releases only the earlier one manager; without a lock, nothing', () => {
  // GIVEN an object written by the declarer, recorded with its manager
  const unit: LockedUnit = { ...unitOf({ 0: 0 }, new Set()), writers: [{ writer: WRITERS[0], kind: 'declaration', manager: 'cdk-capability:app/Routing/Web', fields: toFieldsV1([LEAVES[0]]) }] };
  const otherObject = { ...unit, id: 'other' };

  // WHEN planned without a lock, against a lock that does not hold it, without a legacy manager, and with one its writer uses
  const noLock = planWriters(lockOf(unit), undefined, () => 'app');
  const newObject = planWriters(lockOf(unit), lockOf(otherObject), () => 'app');
  const noLegacy = planWriters(lockOf(unit), undefined, () => undefined);
  const legacyIsWriter = planWriters(lockOf(unit), undefined, () => 'cdk-capability:app/Routing/Web');

  // THEN against a lock the capability's one manager of an earlier apply is released, unless it still writes;
  // without a lock there was no earlier apply, so nothing is released
  const legacyIsWriterAgainstLock = planWriters(lockOf(unit), lockOf(otherObject), () => 'cdk-capability:app/Routing/Web');
  expect(newObject).toEqual([{ object: 'o', label: 'Deployment web', writers: unit.writers, released: ['app'] }]);
  expect(noLegacy).toEqual([{ object: 'o', label: 'Deployment web', writers: unit.writers }]);
  expect(noLock).toEqual(noLegacy);
  expect(legacyIsWriter).toEqual(noLegacy);
  expect(legacyIsWriterAgainstLock).toEqual(noLegacy);
});
