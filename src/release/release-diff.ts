import { compareInterfaces, InterfaceChange } from './interface-compatibility';
import { Lock } from './lock';

/** What a release changes against the locked one; written to `plan.json` as `changes`. */
export interface ReleaseDiff {
  /** True when there was no lock: everything is added. */
  readonly firstRelease: boolean;
  /** Stacks and objects added, as `stack <path>` / `Kind ns/name`. */
  readonly added: string[];
  /** Stacks and objects whose template or manifest changed. */
  readonly changed: string[];
  /** Stacks and objects removed. */
  readonly removed: string[];
  /** Interface fields added, changed or removed, with the bump each needs. */
  readonly interface: InterfaceChange[];
}

/**
 * Compares two releases by their locks.
 *
 * @param previous the committed lock, or undefined for a first release
 * @param next the lock of this release
 */
export function diffReleases(previous: Lock | undefined, next: Lock): ReleaseDiff {
  if (!previous) {
    return { firstRelease: true, added: next.units.map((u) => u.label), changed: [], removed: [], interface: [] };
  }
  const before = new Map(previous.units.map((u) => [u.id, u]));
  const after = new Map(next.units.map((u) => [u.id, u]));
  return {
    firstRelease: false,
    added: next.units.filter((u) => !before.has(u.id)).map((u) => u.label),
    changed: next.units.filter((u) => before.has(u.id) && before.get(u.id)!.digest !== u.digest).map((u) => u.label),
    removed: previous.units.filter((u) => !after.has(u.id)).map((u) => u.label),
    interface: compareInterfaces(previous.interfaces, next.interfaces).changes,
  };
}
