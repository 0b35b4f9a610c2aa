import type { FieldLedgerFacts, FieldWrite, HandoverFact, ObjectWrites, OverrideFact } from '../facts';
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
}

interface Entry {
  readonly label: string;
  readonly kind: 'k8s' | 'cfn';
  readonly writes: FieldWrite[];
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

  /** Records one write. */
  public record(write: LedgerWrite): void {
    const { object, writer, path, presence } = write;
    let entry = this.objects.get(object.key);
    if (!entry) {
      entry = { label: object.label, kind: object.kind, writes: [] };
      this.objects.set(object.key, entry);
    }
    entry.writes.push(presence ? { writer, path, presence: true } : { writer, path });
    entry.index = undefined;
  }

  /** Records an escape hatch over its own object's rendered value (the declarer's, accepted). */
  public override(fact: OverrideFact): void {
    this.overrides.push(fact);
  }

  /** Records a leaf handed from one writer to another. */
  public handover(fact: HandoverFact): void {
    this.handovers.push(fact);
  }

  /** How many distinct writers have writes recorded for an object (0 when none). */
  public writerCount(objectKey: string): number {
    const writes = this.objects.get(objectKey)?.writes;
    return writes ? new Set(writes.map((w) => w.writer.id)).size : 0;
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
    const objects: ObjectWrites[] = [...this.objects.values()].map((o) => ({ label: o.label, kind: o.kind, writes: o.writes }));
    return { objects, overrides: this.overrides, handovers: this.handovers };
  }
}

function indexOf(writes: readonly FieldWrite[]): FieldIndex<Writer[]> {
  const index = new FieldIndex<Writer[]>();
  for (const w of writes) index.upsert(w.path, () => []).push(w.writer);
  return index;
}
