import * as fc from 'fast-check';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';
import { LedgerBuilder } from '../src/collect/ledger/field-ledger';
import { contributionWriter } from '../src/collect/ledger/writer';

/** The ledger as collect builds it, read back as the field-conflict rule reads it; writers are Contributions named by path. */
class FieldLedger {
  private readonly builder = new LedgerBuilder();

  public record(writer: string, key: string, label: string, path: readonly string[], presence?: boolean): void {
    this.builder.record({ object: { key, label, kind: 'k8s' }, writer: contributionWriter(writer), path, presence });
  }

  public get size(): number {
    return this.builder.facts().objects.reduce((n, o) => n + o.writes.length, 0);
  }

  public writes(): Array<{ writer: string; object: string; path: readonly string[] }> {
    return this.builder.facts().objects.flatMap((o) => o.writes.map((w) => ({ writer: w.writer.path, object: o.label, path: w.path })));
  }

  /** The conflicts, without their raw `leaves` (one test checks those). */
  public conflicts() {
    return this.raw().map(({ object, writers, fields }) => ({ object, writers, fields }));
  }

  public raw() {
    return findFieldConflicts(this.builder.facts().objects).map((c) => ({ ...c, writers: c.writers.map((w) => w.path) }));
  }

  public writersAt(key: string, path: readonly string[]): string[] {
    return this.builder.writersAt(key, path).map((w) => w.path);
  }
}

describe('FieldLedger', () => {
  test('records every write with its writer, object label and path', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    ledger.record('a', 'o1', 'ConfigMap prod/a', ['data', 'x']);
    ledger.record('b', 'o2', 'ConfigMap prod/b', ['data', 'y']);

    // THEN
    expect(ledger.size).toBe(2);
    expect([...ledger.writes()]).toEqual([
      { writer: 'a', object: 'ConfigMap prod/a', path: ['data', 'x'] },
      { writer: 'b', object: 'ConfigMap prod/b', path: ['data', 'y'] },
    ]);
  });

  test('two writers of one leaf are one conflict, writers sorted', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    ledger.record('z/writer', 'o', 'Deployment prod/web', ['spec', 'replicas']);
    ledger.record('a/writer', 'o', 'Deployment prod/web', ['spec', 'replicas']);

    // THEN
    expect(ledger.conflicts()).toEqual([{ object: 'Deployment prod/web', writers: ['a/writer', 'z/writer'], fields: ['spec.replicas'] }]);
  });

  test('a writer of a leaf and a writer of its ancestor conflict at the ancestor, in either order', () => {
    // GIVEN
    const first = new FieldLedger();
    const second = new FieldLedger();

    // WHEN
    first.record('a', 'o', 'O', ['spec', 'config']);
    first.record('b', 'o', 'O', ['spec', 'config', 'x']);
    second.record('b', 'o', 'O', ['spec', 'config', 'x']);
    second.record('a', 'o', 'O', ['spec', 'config']);

    // THEN
    const expected = [{ object: 'O', writers: ['a', 'b'], fields: ['spec.config'] }];
    expect(first.conflicts()).toEqual(expected);
    expect(second.conflicts()).toEqual(expected);
  });

  test('writers of disjoint leaves do not conflict', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    ledger.record('a', 'o', 'O', ['spec', 'timers']);
    ledger.record('b', 'o', 'O', ['spec', 'entityConfigurations']);
    ledger.record('c', 'o', 'O', ['spec', 'applicationId']);

    // THEN
    expect(ledger.conflicts()).toEqual([]);
  });

  test('one writer of a leaf and its ancestor does not conflict with itself', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    ledger.record('a', 'o', 'O', ['spec']);
    ledger.record('a', 'o', 'O', ['spec', 'replicas']);
    ledger.record('a', 'o', 'O', ['spec', 'replicas']);

    // THEN
    expect(ledger.conflicts()).toEqual([]);
  });

  test('one path written on two different objects is no conflict', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    ledger.record('a', 'o1', 'O1', ['spec', 'replicas']);
    ledger.record('b', 'o2', 'O2', ['spec', 'replicas']);

    // THEN
    expect(ledger.conflicts()).toEqual([]);
  });

  test('the fields two writers share are grouped into one conflict, sorted', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    for (const writer of ['a', 'b']) {
      ledger.record(writer, 'o', 'O', ['spec', 'replicas']);
      ledger.record(writer, 'o', 'O', ['metadata', 'labels', 'team']);
    }

    // THEN
    expect(ledger.conflicts()).toEqual([{ object: 'O', writers: ['a', 'b'], fields: ['metadata.labels.team', 'spec.replicas'] }]);
  });

  test('a conflict carries its contested leaves as paths too, in the order of its formatted fields', () => {
    const ledger = new FieldLedger();
    for (const writer of ['a', 'b']) {
      ledger.record(writer, 'o', 'O', ['spec', 'replicas']);
      ledger.record(writer, 'o', 'O', ['metadata', 'labels', 'team']);
    }

    // each writer's way of writing (both Contributions' fields here): what CAP002 names in its fix
    expect(ledger.raw()).toEqual([
      {
        object: 'O',
        writers: ['a', 'b'],
        kinds: new Map([['contribution:a', new Set(['contribution-fields'])], ['contribution:b', new Set(['contribution-fields'])]]),
        fields: ['metadata.labels.team', 'spec.replicas'],
        leaves: [['metadata', 'labels', 'team'], ['spec', 'replicas']],
      },
    ]);
  });

  test('three writers of one leaf are one conflict naming all three', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    for (const writer of ['c', 'a', 'b']) ledger.record(writer, 'o', 'O', ['spec', 'replicas']);

    // THEN
    expect(ledger.conflicts()).toEqual([{ object: 'O', writers: ['a', 'b', 'c'], fields: ['spec.replicas'] }]);
  });

  test('1,000 writers of one leaf are exactly one conflict naming every writer', () => {
    // GIVEN
    const ledger = new FieldLedger();
    const writers = Array.from({ length: 1000 }, (_, i) => `team/W${String(i).padStart(4, '0')}`);

    // WHEN
    for (const writer of writers) ledger.record(writer, 'o', 'O', ['spec', 'replicas']);

    // THEN
    expect(ledger.conflicts()).toEqual([{ object: 'O', writers, fields: ['spec.replicas'] }]);
  });

  test('leaves contested by the same writers are one conflict; other writer sets are others', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN a and b share two leaves, and a, b and c a third
    for (const writer of ['a', 'b']) {
      ledger.record(writer, 'o', 'O', ['spec', 'replicas']);
      ledger.record(writer, 'o', 'O', ['spec', 'paused']);
    }
    for (const writer of ['a', 'b', 'c']) ledger.record(writer, 'o', 'O', ['spec', 'minReadySeconds']);

    // THEN
    expect(ledger.conflicts()).toEqual([
      { object: 'O', writers: ['a', 'b'], fields: ['spec.paused', 'spec.replicas'] },
      { object: 'O', writers: ['a', 'b', 'c'], fields: ['spec.minReadySeconds'] },
    ]);
  });

  test('presence writes (an empty map, a key-only element, a set value) contest nothing among themselves or below them', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN a and b both make spec and a container exist, c writes into both, all three add one finalizer
    for (const writer of ['a', 'b']) {
      ledger.record(writer, 'o', 'O', ['spec'], true);
      ledger.record(writer, 'o', 'O', ['spec', 'containers', 'k:{"name":"web"}'], true);
    }
    ledger.record('c', 'o', 'O', ['spec', 'replicas']);
    ledger.record('c', 'o', 'O', ['spec', 'containers', 'k:{"name":"web"}', 'image']);
    for (const writer of ['a', 'b', 'c']) ledger.record(writer, 'o', 'O', ['metadata', 'finalizers', 'v:"x"'], true);

    // THEN
    expect(ledger.conflicts()).toEqual([]);
  });

  test('a presence write is contested by a writer that replaces that node or an ancestor', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN a makes container web exist, and b removes it (a JSON patch remove writes the element)
    ledger.record('a', 'o', 'O', ['spec', 'containers', 'k:{"name":"web"}'], true);
    ledger.record('b', 'o', 'O', ['spec', 'containers', 'k:{"name":"web"}']);

    // THEN
    expect(ledger.conflicts()).toEqual([{ object: 'O', writers: ['a', 'b'], fields: ['spec.containers[name=web]'] }]);
  });

  describe('conflicts() matches a naive pairwise oracle', () => {
    const write = (writers: string[]) =>
      fc.record({
        writer: fc.constantFrom(...writers),
        object: fc.constantFrom('o1', 'o2'),
        path: fc.array(fc.constantFrom('x', 'y'), { minLength: 1, maxLength: 3 }),
        presence: fc.boolean(),
      });
    type Write = { writer: string; object: string; path: string[]; presence: boolean };

    const isPrefix = (p: readonly string[], q: readonly string[]) => p.length <= q.length && p.every((s, i) => q[i] === s);

    /**
     * O(n^2): every pair of different writers on one object where one path equals or is a prefix of the other
     * and the shorter write replaces its node (is not a presence write) contests the shorter path; each contested
     * path is reported with every writer of such a pair, grouped by writer set.
     */
    function oracle(writes: Write[]): string[] {
      const contested = new Map<string, Set<string>>();
      const note = (at: Write, other: Write) => {
        const key = `${at.object}|${at.path.join('.')}`;
        const set = contested.get(key) ?? new Set();
        set.add(at.writer).add(other.writer);
        contested.set(key, set);
      };
      for (const a of writes) {
        for (const b of writes) {
          if (a.object !== b.object || a.writer === b.writer) continue;
          if (!a.presence && isPrefix(a.path, b.path)) note(a, b);
        }
      }
      return [...contested].map(([key, set]) => `${key.split('|')[0]}|${[...set].sort().join(',')}|${key.split('|')[1]}`).sort();
    }

    function reported(writes: Write[]): string[] {
      const ledger = new FieldLedger();
      for (const w of writes) ledger.record(w.writer, w.object, w.object, w.path, w.presence);
      return ledger.conflicts().flatMap((c) => c.fields.map((f) => `${c.object}|${c.writers.join(',')}|${f}`)).sort();
    }

    test('for any writes by two writers', () => {
      // GIVEN random writes by two writers, WHEN the ledger reports conflicts, THEN they are exactly the oracle's
      fc.assert(
        fc.property(fc.array(write(['a', 'b']), { maxLength: 12 }), (writes) => {
          expect(reported(writes)).toEqual(oracle(writes));
        }),
        { numRuns: 300 },
      );
    });

    test('for any writes by three writers', () => {
      // GIVEN random writes by three writers, WHEN the ledger reports conflicts, THEN they are exactly the oracle's
      fc.assert(
        fc.property(fc.array(write(['a', 'b', 'c']), { maxLength: 12 }), (writes) => {
          expect(reported(writes)).toEqual(oracle(writes));
        }),
        { numRuns: 300 },
      );
    });

    test('each object and writer set is reported once', () => {
      fc.assert(
        fc.property(fc.array(write(['a', 'b', 'c']), { maxLength: 12 }), (writes) => {
          const ledger = new FieldLedger();
          for (const w of writes) ledger.record(w.writer, w.object, w.object, w.path, w.presence);
          const ids = ledger.conflicts().map((c) => `${c.object}|${c.writers.join(',')}`);
          expect(new Set(ids).size).toBe(ids.length);
        }),
        { numRuns: 200 },
      );
    });
  });
});
