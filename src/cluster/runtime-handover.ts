import { pathKey } from './managed-leaves';
import { partialObject } from './partial-object';
import type { FieldPath } from '../collect/ledger/field-path';
import type { OwnedLeaf } from '../collect/ledger/leaves';
import type { LockedUnit, LockedWriter } from '../release/lock';
import { isMaskedValue, lockedManifest } from '../release/locked-manifest';

/**
 * Leaves of an object that the previous release applied and a runtime writer owns now, as `apply` hands
 * them over: the object's identity and those leaves with the values the previous release gave them, to be
 * applied under the runtime writer's field manager before the release stops applying them.
 */
export interface RuntimeHandover {
  /** The runtime writer that takes the leaves, as the lock names it. */
  readonly writer: string;
  /** Its field manager. */
  readonly manager: string;
  /** The object's identity and the leaves, with the previous release's values. */
  readonly object: Record<string, unknown>;
}

/**
 * What `apply` must hand to each runtime writer of an object so that a leaf moving from deploy time to runtime
 * keeps its value. Server-side apply removes a field when its last manager stops applying it; a controller
 * that has not written the field yet does not own it, so the release's own managers would remove it (an
 * autoscaler's `spec.replicas`: the Deployment falls back to one replica). Applied first, under the runtime
 * writer's manager and with the value the cluster has (the previous release's), the field becomes shared,
 * then the controller's alone as the release's managers release it: no conflict, no moment without a value.
 *
 * A leaf moves when a runtime writer of this release owns it, or a leaf above it (a set or map it writes
 * whole), and a writer of the previous release that was no runtime writer owned it. A leaf whose value the
 * lock does not hold (masked: a secret, a token known only after deploy) cannot be handed over and is left
 * out, as is everything when the previous lock records no writers or no values.
 *
 * @param old the object in the previous release's lock
 * @param now the object in this release's lock
 * @param leavesOf the leaves of a writer's record
 * @returns one hand-over per runtime writer that takes leaves, in the order of `now.writers`
 */
export function runtimeHandovers(old: LockedUnit, now: LockedUnit, leavesOf: (writer: LockedWriter) => OwnedLeaf[]): RuntimeHandover[] {
  const takers = (now.writers ?? []).filter((w): w is LockedWriter & { manager: string } => w.kind === 'runtime' && w.manager !== undefined);
  if (takers.length === 0 || !old.writers || !old.values) return [];
  const released = old.writers.filter((w) => w.kind !== 'runtime').flatMap(leavesOf);
  if (released.length === 0) return [];
  let manifest: Record<string, unknown> | undefined;
  const out: RuntimeHandover[] = [];
  for (const w of takers) {
    const taken = leavesOf(w);
    const moved = released.filter((l) => taken.some((t) => pathKey(t.path) === pathKey(l.path) || isBelow(l.path, t.path)));
    manifest ??= lockedManifest(old.values);
    const kept = moved.filter((l) => holdsValue(manifest!, l));
    if (kept.length > 0) out.push({ writer: w.writer, manager: w.manager, object: partialObject(manifest, kept) });
  }
  return out;
}

/** True when `path` lies strictly below `above`. */
function isBelow(path: FieldPath, above: FieldPath): boolean {
  return path.length > above.length && above.every((segment, i) => path[i] === segment);
}

/** True when the locked manifest holds the leaf with its value (not masked, and where the leaf says). */
function holdsValue(manifest: Record<string, unknown>, leaf: OwnedLeaf): boolean {
  let part: unknown;
  try {
    part = partialObject(manifest, [leaf]);
  } catch {
    return false;
  }
  const masked = (v: unknown): boolean => (Array.isArray(v) ? v.some(masked) : v !== null && typeof v === 'object' ? Object.values(v).some(masked) : isMaskedValue(v));
  return !masked(part);
}
