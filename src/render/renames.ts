import type { Lock, LockedUnit } from '../release/lock';
import { fieldOwnershipUnitIds } from '../release/locked-policies';

/** An object the release removes and one it adds that look like one object renamed. */
export interface Rename {
  /** The object in the lock, as `Kind namespace/name`. */
  readonly from: string;
  /** The object this release declares instead. */
  readonly to: string;
  /** The construct path that declares it now. */
  readonly path: string;
  /**
   * When the declaring construct moved (the same id, with scopes added or taken away between it and the
   * capability): its path in the lock. Absent for the same path.
   */
  readonly movedFrom?: string;
  /** What to do to keep the object. */
  readonly fix: string;
}

/**
 * The renames against the lock: an object removed and one added of the same
 * kind whose declaring construct has the same path below the capability (the
 * same path, or the same path once the first, a capability's, id is left off
 * either one), as when a chart moves into a capability or its generated names
 * change. Applying such a release creates the new object beside the old one,
 * and fails where a field cannot change (a Deployment's `spec.selector`). The field-ownership policies
 * are no construct's: one that replaces another is the policy of other objects, not a rename.
 *
 * A declaring construct moved under another scope with its id (`shop/Routing/Worker` to
 * `shop/Routing/Team/Worker`) changes the name cdk8s generates from its path: a removed and an added object
 * of the same kind and namespace, whose declarers' paths differ only by scopes added or taken away between
 * the first and the last id, are a rename too (`movedFrom`), when neither has another such partner.
 */
export function renamesAgainst(previous: Lock | undefined, lock: Lock): Rename[] {
  if (!previous) return [];
  const kept = new Set(lock.units.map((u) => u.id));
  const before = new Set(previous.units.map((u) => u.id));
  const policies = new Set([...fieldOwnershipUnitIds(previous), ...fieldOwnershipUnitIds(lock)]);
  const declared = (u: LockedUnit) => u.groupKind !== undefined && !policies.has(u.id);
  const removed = previous.units.filter((u) => declared(u) && !kept.has(u.id));
  const added = lock.units.filter((u) => declared(u) && !before.has(u.id));
  const pairs = new Map<LockedUnit, LockedUnit>();
  for (const a of added) {
    const old = removed.find((r) => r.groupKind === a.groupKind && samePathBelowCapability(r.path, a.path));
    if (old) pairs.set(a, old);
  }
  const paired = new Set(pairs.values());
  const movable = (r: LockedUnit, a: LockedUnit) =>
    !pairs.has(a) && !paired.has(r) && r.groupKind === a.groupKind && r.namespace === a.namespace && movedPath(r.path, a.path);
  for (const a of added) {
    const olds = removed.filter((r) => movable(r, a));
    if (olds.length === 1 && added.filter((other) => movable(olds[0], other)).length === 1) pairs.set(a, olds[0]);
  }
  const renames: Rename[] = [];
  for (const a of added) {
    const old = pairs.get(a);
    if (!old) continue;
    const moved = !samePathBelowCapability(old.path, a.path);
    const keep = `to keep ${old.label}, set its metadata.name to "${nameOf(old)}" in '${a.path}'`;
    const otherwise = 'else delete the old object once the new one runs, since applying does not prune it';
    renames.push({
      from: old.label,
      to: a.label,
      path: a.path,
      ...(moved ? { movedFrom: old.path } : {}),
      fix: moved
        ? `'${old.path}' moved to '${a.path}', and the name cdk8s generates from the path changed with it: ${keep}; ${otherwise}`
        : `${keep} (or, for names an earlier release of cdk-capability generated, the Capability prop generatedNames: 'full-path'); ${otherwise}`,
    });
  }
  return renames;
}

/**
 * Whether construct path `b` is `a` moved: the same first and last id, and the ids of the shorter path, in
 * order, among those of the longer (scopes added or taken away, none renamed).
 */
function movedPath(a: string, b: string): boolean {
  const [short, long] = [a.split('/'), b.split('/')].sort((x, y) => x.length - y.length);
  if (short.length === long.length || short.length < 2) return false;
  if (short[0] !== long[0] || short[short.length - 1] !== long[long.length - 1]) return false;
  let i = 0;
  for (const id of long) if (i < short.length && id === short[i]) i++;
  return i === short.length;
}

function samePathBelowCapability(a: string, b: string): boolean {
  const below = (p: string) => p.slice(p.indexOf('/') + 1);
  return a === b || a === below(b) || below(a) === b;
}

function nameOf(unit: LockedUnit): string {
  const label = unit.label;
  return label.slice(Math.max(label.lastIndexOf(' '), label.lastIndexOf('/')) + 1);
}
