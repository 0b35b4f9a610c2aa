import { APPLIER_FIELD_MANAGER } from './field-manager';
import { elementOf } from './fields-v1';
import { identityOnly, partialObject } from './partial-object';
import type { OwnedLeaf } from '../collect/ledger/leaves';
import { appendAll, appendTo } from '../private/append';

/** A writer of an object that `apply` applies for: its field manager and its leaves. */
export interface AppliedWriter {
  /** The writer, as messages name it (its construct path). */
  readonly writer: string;
  /** Its field manager (`fieldManagerName`). */
  readonly manager: string;
  /** Its leaves, as the ledger records them. */
  readonly leaves: readonly OwnedLeaf[];
}

/** One object of a step: its merged manifest, who writes which of its leaves, and who wrote it before. */
export interface SequencedObject {
  /** The merged manifest, as the step's file holds it. */
  readonly manifest: any;
  /** Its deploy-time writers, declarer first (runtime writers write in the cluster, not through apply). */
  readonly writers: readonly AppliedWriter[];
  /**
   * Field managers of the previous release that owned a leaf no writer has now: they release the object
   * before the merged apply, so that apply is the one that removes the leaf.
   */
  readonly releaseFirst?: readonly string[];
  /** Field managers that wrote the object before and write nothing of it now: they release it at the end. */
  readonly released?: readonly string[];
  /**
   * Leaves moving from the release to a runtime writer, with their live values, each under the runtime
   * writer's manager: applied first, so the controller holds them before the release stops applying them.
   */
  readonly handOver?: ReadonlyArray<{ readonly manager: string; readonly object: unknown }>;
}

/** The part one apply plays in a step. */
export type ApplyPhase = 'hand-over' | 'release-first' | 'merged' | 'writer' | 'release';

/** One `kubectl apply --server-side` of a step: a field manager and the objects it applies. */
export interface ManagerApply {
  /**
   * `hand-over`: leaves moving to a runtime writer, under its manager (skipped, not failed, when the
   * controller already changed them and so owns them); `release-first`: identities alone, before the merged
   * apply (skipped, not failed, when an object is not there yet); `merged`: every object whole; `writer`: a
   * writer's own leaves; `release`: identities alone.
   */
  readonly phase: ApplyPhase;
  /** The field manager. */
  readonly manager: string;
  /** Whether it takes conflicting fields (`--force-conflicts`). */
  readonly force: boolean;
  /** The writers whose leaves it applies (for `writer`); empty otherwise. */
  readonly writers: readonly string[];
  /** The objects it applies, in the step's order: merged, partial, or identities alone. */
  readonly objects: readonly any[];
}

/**
 * The leaves a writer applies under its own manager: all but an empty map or list it writes (a presence
 * leaf ending in a field), which owns nothing beyond itself and which the API server stores as no value at
 * all, so that two managers applying it empty would contest it. The merged apply keeps it.
 */
export function appliedLeaves(leaves: readonly OwnedLeaf[]): OwnedLeaf[] {
  return leaves.filter((l) => !(l.presence && l.path.length > 0 && elementOf(l.path[l.path.length - 1]).kind === 'field'));
}

/**
 * The applies of one runtime step, in order, so that each writer's field manager owns exactly the writer's
 * leaves, every value is the merged manifest's, and the object changes in one apply only (so each changed
 * workload rolls out once):
 *
 * 0. `hand-over`: each leaf that moves from the release to a runtime writer, with the value the cluster has
 *    (the previous release's), under the runtime writer's manager, without force: the value is the same, so
 *    the leaf becomes shared, and the controller keeps it when the release's managers release it below
 *    (server-side apply removes a field its last manager stops applying). When the controller already
 *    changed it, the apply conflicts and is skipped: the controller owns it already.
 *    `release-first`: each manager of the previous release that owned a leaf no writer has now applies the
 *    object's identity alone. `cdk-capability` still holds every leaf of the previous release, so nothing
 *    changes, and the leaf is left to `cdk-capability` alone.
 * 1. `merged`: every object whole, in the step's order, under `cdk-capability` with `--force-conflicts`: the
 *    one apply that changes values, and removes the leaves no writer has any more (it is their only owner).
 *    The composition was checked for field conflicts at synth, so what it forces is ours (a leaf whose value
 *    changed or that moves between writers, which its previous writer still holds) or a leaf someone
 *    outside took, which the release restores, as Flux's apply does.
 * 2. `writer`: per writer, in order of first appearance, its leaves of the step's objects under its own
 *    manager, without force. The values are the live ones, so each leaf becomes shared with
 *    `cdk-capability`: no conflict, no change, no rollout. A leaf that moves is held by `cdk-capability`
 *    throughout: its old writer releases it (its own apply no longer has it), its new one takes it, with no
 *    moment without a value.
 * 3. `release`: each manager that wrote an object before and writes nothing of it now applies the identity
 *    alone, releasing what it held; `cdk-capability` holds it all, so nothing changes.
 *
 * `cdk-capability` keeps owning every leaf of the merged object between releases: it is what lets the next
 * release's merged apply remove a leaf in the same apply that changes the others.
 *
 * Pure; `apply` runs it per step, `--dry-run` prints it.
 *
 * @param objects the step's objects in the order of its file
 */
export function applySequence(objects: readonly SequencedObject[]): ManagerApply[] {
  if (objects.length === 0) return [];
  const out: ManagerApply[] = [];
  const identities = (pick: (o: SequencedObject) => readonly string[] | undefined) => {
    const byManager = new Map<string, any[]>();
    for (const o of objects) {
      for (const m of pick(o) ?? []) {
        if (m === APPLIER_FIELD_MANAGER) continue;
        appendTo(byManager, m, identityOnly(o.manifest));
      }
    }
    return byManager;
  };

  const handOver = new Map<string, any[]>();
  for (const o of objects) for (const h of o.handOver ?? []) appendTo(handOver, h.manager, h.object);
  for (const [manager, partials] of handOver) out.push({ phase: 'hand-over', manager, force: false, writers: [], objects: partials });

  for (const [manager, ids] of identities((o) => o.releaseFirst)) out.push({ phase: 'release-first', manager, force: false, writers: [], objects: ids });

  out.push({ phase: 'merged', manager: APPLIER_FIELD_MANAGER, force: true, writers: [], objects: objects.map((o) => o.manifest) });

  const byManager = new Map<string, { writers: string[]; objects: any[] }>();
  for (const o of objects) {
    // one partial per manager and object: the union of its writers' leaves (a writer's manager is its own)
    const leavesOf = new Map<string, OwnedLeaf[]>();
    for (const w of o.writers) {
      let entry = byManager.get(w.manager);
      if (!entry) {
        entry = { writers: [], objects: [] };
        byManager.set(w.manager, entry);
      }
      if (!entry.writers.includes(w.writer)) entry.writers.push(w.writer);
      const leaves = leavesOf.get(w.manager);
      if (leaves) appendAll(leaves, appliedLeaves(w.leaves));
      else leavesOf.set(w.manager, appliedLeaves(w.leaves));
    }
    for (const [manager, leaves] of leavesOf) byManager.get(manager)!.objects.push(partialObject(o.manifest, leaves));
  }
  for (const [manager, { writers, objects: partials }] of byManager) out.push({ phase: 'writer', manager, force: false, writers, objects: partials });

  const releasedFirst = (o: SequencedObject) => new Set(o.releaseFirst ?? []);
  const writing = (o: SequencedObject) => new Set(o.writers.map((w) => w.manager));
  for (const [manager, ids] of identities((o) => (o.released ?? []).filter((m) => !writing(o).has(m) && !releasedFirst(o).has(m)))) {
    out.push({ phase: 'release', manager, force: false, writers: [], objects: ids });
  }
  return out;
}
