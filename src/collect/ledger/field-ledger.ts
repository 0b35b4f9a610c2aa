import type { FieldLedgerFacts, FieldWrite, ObjectWrites } from '../facts';
import { FieldPath } from './field-path';
import { compareText } from '../../private/compare';

/**
 * Builds the field ledger while collecting: the record of every write as
 * (writer construct path, object, field path). The ledger only records; the
 * field-conflict rule of the check stage reads it.
 */
export class LedgerBuilder {
  private readonly objects = new Map<string, { label: string; kind: 'k8s' | 'cfn'; writes: FieldWrite[] }>();

  /**
   * Records that `writer` writes `path` of the object `objectKey`.
   *
   * @param writer the writer's construct path (or a label such as `x (addJsonPatch)`)
   * @param objectKey equal for the same object
   * @param label how messages name the object
   * @param kind a Kubernetes object or a CloudFormation resource
   * @param path the leaf written
   * @param presence true when the write only makes the node exist (see `FieldWrite.presence`)
   */
  public record(writer: string, objectKey: string, label: string, kind: 'k8s' | 'cfn', path: FieldPath, presence?: boolean): void {
    let entry = this.objects.get(objectKey);
    if (!entry) {
      entry = { label, kind, writes: [] };
      this.objects.set(objectKey, entry);
    }
    entry.writes.push(presence ? { writer, path, presence: true } : { writer, path });
  }

  /** How many distinct writers have writes recorded for an object (0 when none). */
  public writerCount(objectKey: string): number {
    const writes = this.objects.get(objectKey)?.writes;
    return writes ? new Set(writes.map((w) => w.writer)).size : 0;
  }

  /**
   * The writers, sorted, that write `path` of an object, something below it,
   * or an ancestor of it; empty when the object has no writes recorded.
   */
  public writersAt(objectKey: string, path: FieldPath): string[] {
    const writers = new Set<string>();
    for (const w of this.objects.get(objectKey)?.writes ?? []) {
      const n = Math.min(w.path.length, path.length);
      let i = 0;
      while (i < n && w.path[i] === path[i]) i++;
      if (i === n) writers.add(w.writer);
    }
    return [...writers].sort(compareText);
  }

  /** The ledger, as facts. */
  public facts(): FieldLedgerFacts {
    const objects: ObjectWrites[] = [...this.objects.values()].map((o) => ({ label: o.label, kind: o.kind, writes: o.writes }));
    return { objects };
  }
}
