import { APPLIER_FIELD_MANAGER } from './field-manager';
import { identityOnly, partialObject } from './partial-object';
import type { OwnedLeaf } from '../collect/ledger/leaves';

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
  /** Field managers that wrote it in the previous release and write nothing of it now: they release it. */
  readonly released?: readonly string[];
}

/** The part one apply plays in a step. */
export type ApplyPhase = 'merged' | 'writer' | 'release';

/** One `kubectl apply --server-side` of a step: a field manager and the objects it applies. */
export interface ManagerApply {
  /** `merged`: every object whole; `writer`: a writer's own leaves; `release`: identities alone. */
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
 * The applies of one runtime step, in order, so that afterwards each writer's field manager owns exactly the
 * writer's leaves, every value is the merged manifest's, and each changed workload rolls out once:
 *
 * 1. `merged`: every object whole, in the step's order, under `cdk-capability` with `--force-conflicts`.
 *    The one apply that changes values. The composition was checked for field conflicts at synth, so what it
 *    forces is ours: a leaf whose value changed or that moves between writers, which its previous owner
 *    still holds; or a leaf someone outside took, which the release restores (as Flux applies).
 * 2. `writer`: per writer, in order of first appearance, its leaves of the step's objects under its own
 *    manager, without force. The values equal the live ones, so each leaf becomes shared: no conflict, no
 *    change, no rollout.
 * 3. `release`: each manager of the previous release that no longer writes an object applies the object's
 *    identity alone, releasing what it held; the leaves stay, owned by their new writers (no value gap).
 * 4. `release`: `cdk-capability` applies the identities alone: it releases everything, and every leaf is left
 *    with its writer alone. An object with no writer recorded is left to `cdk-capability`.
 *
 * Pure; `apply` runs it per step, `--dry-run` prints it.
 *
 * @param objects the step's objects in the order of its file
 */
export function applySequence(objects: readonly SequencedObject[]): ManagerApply[] {
  if (objects.length === 0) return [];
  const out: ManagerApply[] = [{ phase: 'merged', manager: APPLIER_FIELD_MANAGER, force: true, writers: [], objects: objects.map((o) => o.manifest) }];

  const byManager = new Map<string, { writers: string[]; objects: any[] }>();
  for (const o of objects) {
    for (const w of o.writers) {
      let entry = byManager.get(w.manager);
      if (!entry) {
        entry = { writers: [], objects: [] };
        byManager.set(w.manager, entry);
      }
      if (!entry.writers.includes(w.writer)) entry.writers.push(w.writer);
    }
    // one partial per manager and object, the union of its writers' leaves (a writer's manager is its own)
    const leavesOf = new Map<string, OwnedLeaf[]>();
    for (const w of o.writers) leavesOf.set(w.manager, [...(leavesOf.get(w.manager) ?? []), ...w.leaves]);
    for (const [manager, leaves] of leavesOf) byManager.get(manager)!.objects.push(partialObject(o.manifest, leaves));
  }
  for (const [manager, { writers, objects: partials }] of byManager) out.push({ phase: 'writer', manager, force: false, writers, objects: partials });

  const releases = new Map<string, any[]>();
  for (const o of objects) {
    const writing = new Set(o.writers.map((w) => w.manager));
    for (const m of o.released ?? []) {
      if (writing.has(m) || m === APPLIER_FIELD_MANAGER) continue;
      releases.set(m, [...(releases.get(m) ?? []), identityOnly(o.manifest)]);
    }
  }
  for (const [manager, identities] of releases) out.push({ phase: 'release', manager, force: false, writers: [], objects: identities });

  // An object with no writer recorded (a plan from before writers were) stays the applier's: releasing it would
  // leave its fields to nobody, and the API server would delete them.
  const owned = objects.filter((o) => o.writers.length > 0);
  if (owned.length > 0) out.push({ phase: 'release', manager: APPLIER_FIELD_MANAGER, force: false, writers: [], objects: owned.map((o) => identityOnly(o.manifest)) });
  return out;
}
