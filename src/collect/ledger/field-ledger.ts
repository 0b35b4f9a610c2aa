import type { FieldLedgerFacts, FieldWrite, ForcedWrite, HandoverFact, LibraryDefault, ObjectWrites, OverrideFact } from '../facts';
import { FieldPath } from './field-path';
import { FieldIndex } from './field-set';
import { Writer, writerName } from './writer';
import { compareText } from '../../private/compare';

/** The object (or CloudFormation resource) a write goes to. */
export interface LedgerObject {
  /** Equal for the same object. */
  readonly key: string;
  /** How messages name it, for example `apps/Deployment web/frontend`. */
  readonly label: string;
  /** A Kubernetes object or a CloudFormation resource. */
  readonly kind: 'k8s' | 'cfn';
}

/** One write as `LedgerBuilder.record` takes it. */
export interface LedgerWrite {
  /** The object written. */
  readonly object: LedgerObject;
  /** Who writes. */
  readonly writer: Writer;
  /** The leaf written. */
  readonly path: FieldPath;
  /** True when the write only makes the node exist (see `FieldWrite.presence`). */
  readonly presence?: boolean;
  /** The ancestor whose value the writer set, dropping this leaf another writer set (see `FieldWrite.replacing`). */
  readonly replacing?: FieldPath;
  /**
   * The value written at the leaf, read only for the message of a conflict between forced writers.
   * @default - not known
   */
  readonly value?: ValueOfWrite;
}

/** What a write leaves at its leaf: a value, or nothing (a removal). */
export type WrittenValue = { readonly value: unknown } | { readonly removes: true };

/** Tells what a write leaves at its leaf when asked (undefined: not known). */
export type ValueOfWrite = () => WrittenValue | undefined;

interface Entry {
  readonly label: string;
  readonly kind: 'k8s' | 'cfn';
  readonly writes: FieldWrite[];
  /** The values of the writes that told them, for the messages of conflicts between forced writers. */
  readonly values: Map<FieldWrite, ValueOfWrite>;
  /** Writers by path, made on the first `writersAt` question. */
  index?: FieldIndex<Writer[]>;
}

/**
 * Builds the field ledger while collecting: the record of every write as
 * (writer, object, field path). The ledger only records; the field-conflict
 * rule of the check stage reads it.
 */
export class LedgerBuilder {
  private readonly objects = new Map<string, Entry>();
  private readonly overrides: OverrideFact[] = [];
  private readonly handovers: HandoverFact[] = [];
  private readonly tags: ObjectWrites[] = [];
  /** The ids of the writers that take what they write from its owner (`force: true`). */
  private readonly forced = new Set<string>();
  /** The library defaults among the declarers' leaves, by object key. */
  private readonly defaults = new Map<string, readonly LibraryDefault[]>();

  /** Records one write. */
  public record(write: LedgerWrite): void {
    const { object, writer, path, presence, replacing, value } = write;
    let entry = this.objects.get(object.key);
    if (!entry) {
      entry = { label: object.label, kind: object.kind, writes: [], values: new Map() };
      this.objects.set(object.key, entry);
    }
    const recorded: FieldWrite = presence ? { writer, path, presence: true } : replacing ? { writer, path, replacing } : { writer, path };
    entry.writes.push(recorded);
    if (value) entry.values.set(recorded, value);
    entry.index = undefined;
  }

  /**
   * Records the tag keys of a resource that only Tags write, each by its Tag (`FieldLedgerFacts.tagged`): not among
   * the writes, which they contest with nothing.
   */
  public tagged(object: LedgerObject, writes: readonly FieldWrite[]): void {
    if (writes.length > 0) this.tags.push({ label: object.label, kind: object.kind, writes });
  }

  /** Records an escape hatch over its own object's rendered value (the declarer's, accepted). */
  public override(fact: OverrideFact): void {
    this.overrides.push(fact);
  }

  /** Records a leaf handed from one writer to another. */
  public handover(fact: HandoverFact): void {
    this.handovers.push(fact);
  }

  /** Records which of an object's declared leaves hold its library's default (for the messages of conflicts over them). */
  public libraryDefaults(objectKey: string, defaults: readonly LibraryDefault[]): void {
    if (defaults.length > 0) this.defaults.set(objectKey, defaults);
  }

  /**
   * Makes a writer take every leaf it writes from the writers that own it, as
   * server-side apply's `force` does: their writes of it (and of an ancestor
   * it writes into) leave the ledger, and each leaf taken is a handover. A
   * forced writer takes nothing from another forced writer: both writes stay,
   * and conflict.
   */
  public force(writer: Writer): void {
    this.forced.add(writer.id);
  }

  /**
   * The writers, sorted by name, that write `path` of an object, something
   * below it, or an ancestor of it; empty when the object has no writes recorded.
   */
  public writersAt(objectKey: string, path: FieldPath): Writer[] {
    const entry = this.objects.get(objectKey);
    if (!entry) return [];
    entry.index ??= indexOf(entry.writes);
    const found = new Map<string, Writer>();
    const add = (writers: readonly Writer[]) => writers.forEach((w) => found.set(w.id, w));
    entry.index.forEachPrefix(path, add);
    entry.index.forEachBelow(path, add);
    return [...found.values()].sort((a, b) => compareText(writerName(a), writerName(b)));
  }

  /** The ledger, as facts. */
  public facts(): FieldLedgerFacts {
    const handovers = [...this.handovers];
    const objects: ObjectWrites[] = [...this.objects].map(([key, o]) => {
      const defaults = this.defaults.get(key);
      const applied = withoutRemovalsUnderRuntimeWriters(o);
      const writes = this.forced.size === 0 ? applied : forcedWrites({ ...o, writes: applied }, this.forced, handovers);
      const forced = this.forced.size === 0 ? [] : contestedForcedWrites(o, writes, this.forced);
      return {
        label: o.label,
        kind: o.kind,
        writes,
        ...(defaults ? { defaults } : {}),
        ...(forced.length > 0 ? { forced } : {}),
        // read lazily: a write's value is computed only for the write a finding is placed at
        ...(o.values.size > 0 ? { removes: (w: FieldWrite) => removesLeaf(o.values.get(w)) } : {}),
      };
    });
    return { objects, overrides: this.overrides, handovers, ...(this.tags.length > 0 ? { tagged: this.tags } : {}) };
  }
}

/** True when a write's value, told when asked, is a removal of its leaf. */
function removesLeaf(value: ValueOfWrite | undefined): boolean {
  const written = value?.();
  return written !== undefined && 'removes' in written;
}

/**
 * The writes of an object without the deploy-time removals of leaves only runtime writers write besides (a JSON
 * patch `remove` of `spec.replicas` that an autoscaler, declared as a `RuntimeWriter`, writes): the manifest
 * applied lacks the leaf, so its field manager claims nothing there and the runtime writer's value stays, which is
 * what the removal is for. A removal of a leaf another deploy-time writer writes stays: which of the two reaches
 * the output depends on their order.
 */
function withoutRemovalsUnderRuntimeWriters(entry: Entry): FieldWrite[] {
  const { writes } = entry;
  if (!writes.some((w) => w.writer.kind === 'runtime')) return writes;
  const removes = (w: FieldWrite) => removesLeaf(entry.values.get(w));
  const removals = writes.filter((w) => w.writer.kind !== 'runtime' && !w.presence && removes(w));
  if (removals.length === 0) return writes;
  const dropped = new Set<FieldWrite>();
  for (const removal of removals) {
    const near = writes.filter((w) => w !== removal && (startsWith(w.path, removal.path) || startsWith(removal.path, w.path)));
    const onlyRuntime = near.every((w) => w.writer.kind === 'runtime' || w.writer.id === removal.writer.id);
    if (onlyRuntime && near.some((w) => w.writer.kind === 'runtime')) dropped.add(removal);
  }
  return dropped.size === 0 ? writes : writes.filter((w) => !dropped.has(w));
}

/**
 * The writes of an object once each forced writer, in the order it first
 * wrote, has taken what it contests from the writers before it (as a forced
 * apply takes from the managers that applied earlier): another writer's write
 * at or below a leaf it replaces, or of a node it writes into. Each leaf taken
 * is a handover. A write of another forced writer is never taken: two forced
 * writers of one leaf are two owners of it, which the field-conflict rule
 * refuses, not a handover to whichever wrote last.
 */
function forcedWrites(entry: Entry, forced: ReadonlySet<string>, handovers: HandoverFact[]): FieldWrite[] {
  let writes = entry.writes;
  const order = [...new Map(writes.filter((w) => forced.has(w.writer.id)).map((w) => [w.writer.id, w.writer])).values()];
  for (const taker of order) {
    const first = writes.findIndex((w) => w.writer.id === taker.id);
    const replaced = new FieldIndex<true>();
    const written = new FieldIndex<true>();
    for (const w of writes) {
      if (w.writer.id !== taker.id) continue;
      written.set(w.path, true);
      if (!w.presence) replaced.set(w.path, true);
    }
    const taken = new FieldIndex<Map<string, Writer>>();
    writes = writes.filter((w, i) => {
      if (i > first || w.writer.id === taker.id || forced.has(w.writer.id)) return true;
      let contested = false;
      replaced.forEachPrefix(w.path, () => (contested = true));
      if (!contested && !w.presence) contested = written.has(w.path) || written.hasBelow(w.path);
      if (contested) taken.upsert(w.path, () => new Map()).set(w.writer.id, w.writer);
      return !contested;
    });
    for (const [path, from] of taken.entries()) {
      for (const w of from.values()) handovers.push({ object: entry.label, kind: entry.kind, path, from: w, to: taker, reason: 'force' });
    }
  }
  return writes;
}

/**
 * The writes of forced writers that another forced writer contests (one
 * replaces the node the other writes at or below), with the value each
 * writes, for the message of their conflict. Forced writers are few, and
 * write few leaves: their writes are compared pairwise.
 */
function contestedForcedWrites(entry: Entry, writes: readonly FieldWrite[], forced: ReadonlySet<string>): ForcedWrite[] {
  const theirs = writes.filter((w) => forced.has(w.writer.id));
  const contested = theirs.filter((a) => theirs.some((b) => a.writer.id !== b.writer.id && contests(a, b)));
  return contested.map((w) => ({ writer: w.writer, path: w.path, ...entry.values.get(w)?.() }));
}

/** True when one of two writes replaces the node the other writes at or below. */
function contests(a: FieldWrite, b: FieldWrite): boolean {
  return (!a.presence && startsWith(b.path, a.path)) || (!b.presence && startsWith(a.path, b.path));
}

function startsWith(path: FieldPath, prefix: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

function indexOf(writes: readonly FieldWrite[]): FieldIndex<Writer[]> {
  const index = new FieldIndex<Writer[]>();
  for (const w of writes) index.upsert(w.path, () => []).push(w.writer);
  return index;
}
