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
 */
export function renamesAgainst(previous: Lock | undefined, lock: Lock): Rename[] {
  if (!previous) return [];
  const kept = new Set(lock.units.map((u) => u.id));
  const before = new Set(previous.units.map((u) => u.id));
  const policies = new Set([...fieldOwnershipUnitIds(previous), ...fieldOwnershipUnitIds(lock)]);
  const declared = (u: LockedUnit) => u.groupKind !== undefined && !policies.has(u.id);
  const removed = previous.units.filter((u) => declared(u) && !kept.has(u.id));
  const renames: Rename[] = [];
  for (const added of lock.units.filter((u) => declared(u) && !before.has(u.id))) {
    const old = removed.find((r) => r.groupKind === added.groupKind && samePathBelowCapability(r.path, added.path));
    if (!old) continue;
    renames.push({
      from: old.label,
      to: added.label,
      path: added.path,
      fix: `to keep ${old.label}, set its metadata.name to "${nameOf(old)}" in '${added.path}' (or, for names an earlier release of cdk-capability `
        + 'generated, the Capability prop generatedNames: \'full-path\'); else delete the old object once the new one runs, since applying does not prune it',
    });
  }
  return renames;
}

function samePathBelowCapability(a: string, b: string): boolean {
  const below = (p: string) => p.slice(p.indexOf('/') + 1);
  return a === b || a === below(b) || below(a) === b;
}

function nameOf(unit: LockedUnit): string {
  const label = unit.label;
  return label.slice(Math.max(label.lastIndexOf(' '), label.lastIndexOf('/')) + 1);
}
