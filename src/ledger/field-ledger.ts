import { FieldPath, formatPath } from './field-path';

/** Two writers of one field (or of a field and its ancestor) of one object. */
export interface FieldConflict {
  /** How messages name the object, for example `Deployment web/frontend`. */
  readonly object: string;
  /** The two writers' construct paths, sorted. */
  readonly writers: readonly [string, string];
  /** The contested fields, formatted and sorted (the ancestor where one writer owns a whole subtree). */
  readonly fields: string[];
}

interface ObjectLedger {
  readonly label: string;
  /** Leaf key → its distinct writers. */
  readonly owners: Map<string, string[]>;
  readonly writes: Array<{ writer: string; path: FieldPath }>;
}

/**
 * The record of every write: (writer construct path, object, field path).
 *
 * `conflicts()` finds every pair of writers that own one leaf, or a leaf and
 * its ancestor, in time linear in writes times path depth.
 */
export class FieldLedger {
  private readonly objects = new Map<string, ObjectLedger>();

  /**
   * Records that `writer` writes `path` of the object `objectKey`.
   *
   * @param writer the writer's construct path (or a label such as `x (addJsonPatch)`)
   * @param objectKey equal for the same object
   * @param objectLabel how messages name the object
   * @param path the leaf written
   */
  public record(writer: string, objectKey: string, objectLabel: string, path: FieldPath): void {
    let ledger = this.objects.get(objectKey);
    if (!ledger) {
      ledger = { label: objectLabel, owners: new Map(), writes: [] };
      this.objects.set(objectKey, ledger);
    }
    const key = path.join('\u0000');
    const owners = ledger.owners.get(key);
    if (!owners) ledger.owners.set(key, [writer]);
    else if (!owners.includes(writer)) owners.push(writer);
    ledger.writes.push({ writer, path });
  }

  /** Number of writes recorded. */
  public get size(): number {
    let n = 0;
    for (const o of this.objects.values()) n += o.writes.length;
    return n;
  }

  /** Every write, as `{ writer, object, path }`. */
  public *writes(): IterableIterator<{ writer: string; object: string; path: FieldPath }> {
    for (const o of this.objects.values()) for (const w of o.writes) yield { writer: w.writer, object: o.label, path: w.path };
  }

  /** Every conflict, grouped per object and pair of writers. */
  public conflicts(): FieldConflict[] {
    const found: FieldConflict[] = [];
    for (const ledger of this.objects.values()) {
      const pairs = new Map<string, { writers: [string, string]; fields: Set<string> }>();
      const note = (a: string, b: string, path: FieldPath) => {
        const writers = (a < b ? [a, b] : [b, a]) as [string, string];
        const id = writers.join('\u0000');
        let pair = pairs.get(id);
        if (!pair) {
          pair = { writers, fields: new Set() };
          pairs.set(id, pair);
        }
        pair.fields.add(formatPath(path));
      };
      for (const { writer, path } of ledger.writes) {
        let key = '';
        for (let depth = 0; depth < path.length; depth++) {
          key = depth === 0 ? path[0] : `${key}\u0000${path[depth]}`;
          for (const owner of ledger.owners.get(key) ?? []) {
            if (owner !== writer) note(owner, writer, path.slice(0, depth + 1));
          }
        }
      }
      for (const pair of pairs.values()) found.push({ object: ledger.label, writers: pair.writers, fields: [...pair.fields].sort() });
    }
    return found;
  }
}
