import type { FieldPath } from './field-path';
import { FieldIndex, FieldSet } from './field-set';
import type { OwnedLeaf } from './leaves';
import type { Writer } from './writer';

/** A leaf one plain escape hatch of an object wrote (a plain `addJsonPatch`, `addOverride`, `addPropertyOverride` call). */
export interface EscapeHatchWrite {
  /** The plain call. */
  readonly writer: Writer;
  /** The leaf. */
  readonly path: FieldPath;
  /** The value the call wrote at the leaf, read when the plan needs it. */
  readonly value: () => unknown;
  /** Set once a later plain deletion on the same object removed the leaf: the write no longer reaches the output. */
  removed?: boolean;
}

/**
 * The plain escape hatches of one object (plain `addJsonPatch`, `addOverride`,
 * `addPropertyOverride` calls, each a writer of its own) against what its
 * declaration rendered and against each other: which of their writes are the
 * object's own overrides, accepted and shown in the plan, and which stay writes
 * that conflict.
 *
 * A plain write of a value the declaration rendered is the declarer's escape
 * hatch: the declarer's write of the leaf gives way (`givesWay`). A write into
 * an empty map the declaration rendered is no override: the map owns nothing
 * beyond itself.
 *
 * Two plain calls that write one leaf are two writers: the earlier value never
 * reaches the output, which is the seed incident made with patches. A plain
 * *deletion* (`JsonPatch.remove`, `addDeletionOverride`,
 * `addPropertyDeletionOverride`) of a leaf an earlier plain call on the same
 * object set writes no value of its own: it names the leaf it removes, as an
 * escape hatch over a rendered value does, so it is the object's own override
 * too (aws-cdk-examples' resource-overrides sets `CorsConfiguration` with
 * `addOverride` and deletes its `Bar` with `addPropertyDeletionOverride`). The
 * earlier write gives way (`removeUnder`) and the plan shows the removal. A
 * deletion of what any other deploy-time writer wrote (a Contribution, a Tag)
 * is still a write that conflicts; one of a leaf only runtime writers write
 * besides is none (the ledger's facts drop it: the manifest applied lacks it).
 */
export class EscapeHatchWrites {
  private readonly index = new FieldIndex<EscapeHatchWrite[]>();
  private readonly overridden = new FieldSet();
  // the declared values and nodes, indexed on the first plain write that asks: most objects a ledger
  // records several writers of (a Contribution, a Tag) have no plain escape hatch, and never ask
  private declaredSets?: { readonly values: FieldSet; readonly nodes: FieldSet };

  /** @param declared the leaves the object's declaration rendered */
  constructor(private readonly declared: readonly OwnedLeaf[]) {}

  private get values(): FieldSet {
    return this.sets().values;
  }

  private get nodes(): FieldSet {
    return this.sets().nodes;
  }

  private sets(): { readonly values: FieldSet; readonly nodes: FieldSet } {
    return (this.declaredSets ??= {
      values: FieldSet.of(this.declared.filter((l) => !l.presence).map((l) => l.path)),
      nodes: FieldSet.of(this.declared.filter((l) => l.presence).map((l) => l.path)),
    });
  }

  /**
   * True the first time a plain call writes `path` over a value the
   * declaration rendered (or, for a deletion, removes a node it rendered):
   * an override to record for the plan, after which the declarer's write of
   * it gives way.
   */
  public overDeclared(path: FieldPath, deletes: boolean): boolean {
    if (this.overridden.has(path)) return false;
    if (!this.values.intersects(path) && !(deletes && this.nodes.hasAtOrBelow(path))) return false;
    this.overridden.insert(path);
    return true;
  }

  /**
   * The value the declaration rendered that a write of `path` lies below (a
   * plain call that replaces a declared `Timeout: 30` with `{ Ref: ... }`
   * writes `Timeout.Ref`, and overrides `Timeout`), if any.
   */
  public declaredAbove(path: FieldPath): FieldPath | undefined {
    return this.values.ancestorOf(path);
  }

  /** True when a plain call overrode `path` (or a leaf above or below it): the declarer no longer writes it. */
  public givesWay(path: FieldPath): boolean {
    return this.overridden.intersects(path);
  }

  /** Notes a value write of a plain call, in call order. */
  public note(write: EscapeHatchWrite): void {
    this.index.upsert(write.path, () => []).push(write);
  }

  /**
   * Removes, as a plain deletion by `writer` of `path` does, the earlier value
   * writes other plain calls made at or below `path`, and returns them; none
   * when there are none, or when an earlier plain write holds an ancestor of
   * `path` (the deletion then edits a value another call wrote whole, which
   * stays a conflict).
   */
  public removeUnder(writer: Writer, path: FieldPath): EscapeHatchWrite[] {
    const live = (w: EscapeHatchWrite) => !w.removed && w.writer.id !== writer.id;
    let above = false;
    this.index.forEachPrefix(path, (writes, depth) => {
      if (depth < path.length && writes.some(live)) above = true;
    });
    if (above) return [];
    const removed: EscapeHatchWrite[] = [];
    const take = (writes: EscapeHatchWrite[]) => {
      for (const w of writes) {
        if (!live(w)) continue;
        w.removed = true;
        removed.push(w);
      }
    };
    const at = this.index.get(path);
    if (at) take(at);
    this.index.forEachBelow(path, take);
    return removed;
  }
}
