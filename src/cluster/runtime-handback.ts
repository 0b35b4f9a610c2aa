import { parseFieldsV1, toFieldsV1 } from './fields-v1';
import { pathKey } from './managed-leaves';
import type { FieldPath } from '../collect/ledger/field-path';
import { compareText } from '../private/compare';
import type { Lock, LockedHandBack, LockedUnit } from '../release/lock';

/**
 * This release's lock with each object's hand-backs recorded (`LockedUnit.handedBack`): the field managers of
 * runtime writers of the previous release, or recorded by it, whose leaves a writer of this release writes.
 *
 * Server-side apply keeps a field manager a co-owner of a field until it applies without it (for a manager
 * whose last write was an `Update`, until another manager changes the value): the release's apply takes a
 * handed-back field with force only where the controller's value differs from the release's, so a controller
 * that held the release's value stays an owner. Recorded, `audit` reports it as what it is, a stale owner of a
 * handed-back field, and not as an undeclared manager. A record is kept in every later release while a writer
 * of the release writes the leaf, so synthesizing a release twice writes the same lock.
 *
 * @param lock this release's lock, as `buildLock` makes it
 * @param previous the previous release's lock, if any
 * @returns the lock, the same object when nothing is handed back
 */
export function withHandBacks(lock: Lock, previous: Lock | undefined): Lock {
  if (!previous) return lock;
  const before = new Map(previous.units.map((u) => [u.id, u]));
  let changed = false;
  const units = lock.units.map((unit) => {
    const old = before.get(unit.id);
    const handedBack = old ? handBacksOf(old, unit) : [];
    if (handedBack.length === 0) return unit;
    changed = true;
    return { ...unit, handedBack };
  });
  return changed ? { ...lock, units } : lock;
}

/**
 * The hand-backs of one object: each runtime writer of the previous release (and each hand-back it recorded)
 * with the leaves of it that a writer of this release that is no runtime writer writes, or writes below (a
 * controller that wrote a whole map or set whose keys or values the declarer writes now). Sorted by manager.
 *
 * @param old the object in the previous release's lock
 * @param now the object in this release's lock
 */
export function handBacksOf(old: LockedUnit, now: LockedUnit): LockedHandBack[] {
  // most objects had no runtime writer: told without parsing a leaf
  const candidates: LockedHandBack[] = [
    ...(old.handedBack ?? []),
    ...(old.writers ?? []).filter((w) => w.kind === 'runtime' && w.manager !== undefined).map((w) => ({ writer: w.writer, manager: w.manager!, fields: w.fields })),
  ];
  if (candidates.length === 0 || !now.writers) return [];
  const applied = now.writers.filter((w) => w.kind !== 'runtime').flatMap((w) => parseFieldsV1(w.fields));
  const keys = new Set(applied.map(pathKey));
  const writes = (path: FieldPath) => keys.has(pathKey(path)) || applied.some((p) => isBelow(p, path));
  const byManager = new Map<string, { writer: string; paths: Map<string, FieldPath> }>();
  for (const c of candidates) {
    const back = parseFieldsV1(c.fields).filter(writes);
    if (back.length === 0) continue;
    let entry = byManager.get(c.manager);
    if (!entry) {
      entry = { writer: c.writer, paths: new Map() };
      byManager.set(c.manager, entry);
    }
    for (const p of back) entry.paths.set(pathKey(p), p);
  }
  return [...byManager.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([manager, { writer, paths }]) => ({ writer, manager, fields: toFieldsV1([...paths.values()]) }));
}

/** True when `path` lies strictly below `above`. */
function isBelow(path: FieldPath, above: FieldPath): boolean {
  return path.length > above.length && above.every((segment, i) => path[i] === segment);
}
