import * as fc from 'fast-check';
import { findFieldConflicts } from '../src/check/rules/field-conflicts';
import { LedgerBuilder } from '../src/collect/ledger/field-ledger';

/** The ledger as collect builds it, read back as the field-conflict rule reads it. */
class FieldLedger {
  private readonly builder = new LedgerBuilder();

  public record(writer: string, key: string, label: string, path: readonly string[]): void {
    this.builder.record(writer, key, label, 'k8s', path);
  }

  public get size(): number {
    return this.builder.facts().objects.reduce((n, o) => n + o.writes.length, 0);
  }

  public writes(): Array<{ writer: string; object: string; path: readonly string[] }> {
    return this.builder.facts().objects.flatMap((o) => o.writes.map((w) => ({ writer: w.writer, object: o.label, path: w.path })));
  }

  public conflicts() {
    return findFieldConflicts(this.builder.facts().objects);
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

  test('three writers of one leaf are three conflicting pairs', () => {
    // GIVEN
    const ledger = new FieldLedger();

    // WHEN
    for (const writer of ['a', 'b', 'c']) ledger.record(writer, 'o', 'O', ['spec', 'replicas']);

    // THEN every pair of them is reported, b and c included
    expect(ledger.conflicts()).toEqual([
      { object: 'O', writers: ['a', 'b'], fields: ['spec.replicas'] },
      { object: 'O', writers: ['a', 'c'], fields: ['spec.replicas'] },
      { object: 'O', writers: ['b', 'c'], fields: ['spec.replicas'] },
    ]);
  });

  describe('conflicts() matches a naive pairwise oracle', () => {
    const write = (writers: string[]) =>
      fc.record({
        writer: fc.constantFrom(...writers),
        object: fc.constantFrom('o1', 'o2'),
        path: fc.array(fc.constantFrom('x', 'y'), { minLength: 1, maxLength: 3 }),
      });
    type Write = { writer: string; object: string; path: string[] };

    const isPrefix = (p: readonly string[], q: readonly string[]) => p.length <= q.length && p.every((s, i) => q[i] === s);

    /** Every pair of different writers on one object where one path equals or is a prefix of the other, O(n^2). */
    function oracle(writes: Write[]): string[] {
      const pairs = new Set<string>();
      for (let i = 0; i < writes.length; i++) {
        for (let j = i + 1; j < writes.length; j++) {
          const [a, b] = [writes[i], writes[j]];
          if (a.object !== b.object || a.writer === b.writer) continue;
          if (isPrefix(a.path, b.path) || isPrefix(b.path, a.path)) pairs.add([a.object, ...[a.writer, b.writer].sort()].join('|'));
        }
      }
      return [...pairs].sort();
    }

    function reported(writes: Write[]): string[] {
      const ledger = new FieldLedger();
      for (const w of writes) ledger.record(w.writer, w.object, w.object, w.path);
      return ledger.conflicts().map((c) => [c.object, ...c.writers].join('|')).sort();
    }

    test('for any writes by two writers', () => {
      // GIVEN random writes by two writers, WHEN the ledger reports conflicts, THEN they are exactly the oracle's pairs
      fc.assert(
        fc.property(fc.array(write(['a', 'b']), { maxLength: 12 }), (writes) => {
          expect(reported(writes)).toEqual(oracle(writes));
        }),
        { numRuns: 300 },
      );
    });

    test('for any writes by three writers', () => {
      // GIVEN random writes by three writers, WHEN the ledger reports conflicts, THEN they are exactly the oracle's pairs
      fc.assert(
        fc.property(fc.array(write(['a', 'b', 'c']), { maxLength: 12 }), (writes) => {
          expect(reported(writes)).toEqual(oracle(writes));
        }),
        { numRuns: 300 },
      );
    });
  });
});
