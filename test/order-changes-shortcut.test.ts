import * as fc from 'fast-check';
import type { Lock } from '../src/release/lock';
import { orderChanges, orderChangesOf } from '../src/release/order-changes';

/**
 * `orderChanges` answers "no order change" without naming any edge when both locks record the same units,
 * construct paths and edges at the same indexes (a release unchanged against its lock). These properties hold
 * it to the general comparison (`orderChangesOf`) on random locks and on near copies of them.
 */

type Edge = [number, number, string];

/** A lock of the parts the order reads: units (ids and labels), barriers and edges. */
function lockOf(ids: readonly string[], barriers: readonly string[], edges: readonly Edge[]): Lock {
  return {
    formatVersion: 2,
    interfaces: [],
    units: ids.map((id) => ({ id, label: `label of ${id}`, path: `p/${id}`, digest: 'd' })),
    barriers: [...barriers],
    edges: edges.map((e) => [...e] as Edge),
  } as unknown as Lock;
}

const REASONS = ['', 'explicit dependency (addDependency)', 'reads its name', 'in its namespace'];

/** A random lock: a few units and barriers from small pools (so both releases share some), edges between them. */
const lockArb = fc
  .record({
    ids: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 }),
    barriers: fc.uniqueArray(fc.constantFrom('cdn/A', 'cdn/B', 'cdn/C'), { maxLength: 3 }),
  })
  .chain(({ ids, barriers }) => {
    const nodes = ids.length + barriers.length;
    const edge = nodes === 0 ? fc.constant(undefined) : fc.tuple(fc.nat(nodes - 1), fc.nat(nodes - 1), fc.constantFrom(...REASONS));
    return fc.record({
      ids: fc.constant(ids),
      barriers: fc.constant(barriers),
      edges: fc.array(edge, { maxLength: 12 }).map((es) => es.filter((e): e is Edge => e !== undefined)),
    });
  });

/** One small change to a copy of a lock: a unit id, a barrier, an edge's end or reason, an edge added or dropped. */
function nearCopy(l: { ids: string[]; barriers: string[]; edges: Edge[] }, change: number, at: number, value: string): Lock {
  const ids = [...l.ids];
  const barriers = [...l.barriers];
  const edges = l.edges.map((e) => [...e] as Edge);
  const nodes = ids.length + barriers.length;
  switch (change % 6) {
    case 0:
      if (ids.length > 0) ids[at % ids.length] = value;
      break;
    case 1:
      if (barriers.length > 0) barriers[at % barriers.length] = `cdn/${value}`;
      break;
    case 2:
      if (edges.length > 0 && nodes > 0) edges[at % edges.length][0] = (edges[at % edges.length][0] + 1) % nodes;
      break;
    case 3:
      if (edges.length > 0) edges[at % edges.length][2] = REASONS[(REASONS.indexOf(edges[at % edges.length][2]) + 1) % REASONS.length];
      break;
    case 4:
      if (nodes > 0) edges.push([at % nodes, (at + 1) % nodes, REASONS[at % REASONS.length]]);
      break;
    default:
      edges.splice(at % Math.max(edges.length, 1), 1);
  }
  return lockOf(ids, barriers, edges);
}

describe('orderChanges without naming the edges of an unchanged order', () => {
  test('agrees with the general comparison on a lock and its copy', () => {
    fc.assert(
      fc.property(lockArb, (l) => {
        const previous = lockOf(l.ids, l.barriers, l.edges);
        const next = lockOf(l.ids, l.barriers, l.edges);
        expect(orderChanges(previous, next)).toEqual(orderChangesOf(previous, next));
        expect(orderChanges(previous, next)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test('agrees with the general comparison on a lock and a copy with one change', () => {
    fc.assert(
      fc.property(lockArb, fc.nat(5), fc.nat(20), fc.constantFrom('a', 'b', 'g', 'h'), (l, change, at, value) => {
        const previous = lockOf(l.ids, l.barriers, l.edges);
        const next = nearCopy(l, change, at, value);
        expect(orderChanges(previous, next)).toEqual(orderChangesOf(previous, next));
        expect(orderChanges(next, previous)).toEqual(orderChangesOf(next, previous));
      }),
      { numRuns: 1000 },
    );
  });

  test('agrees with the general comparison on two unrelated locks', () => {
    fc.assert(
      fc.property(lockArb, lockArb, (a, b) => {
        const previous = lockOf(a.ids, a.barriers, a.edges);
        const next = lockOf(b.ids, b.barriers, b.edges);
        expect(orderChanges(previous, next)).toEqual(orderChangesOf(previous, next));
      }),
      { numRuns: 500 },
    );
  });

  test('one edge moved to another unit of the same locks is an order change, the units and barriers being the same', () => {
    // GIVEN two locks of one unit order whose one edge ends at another unit
    const previous = lockOf(['a', 'b', 'c'], [], [[0, 1, 'reads its name']]);
    const next = lockOf(['a', 'b', 'c'], [], [[0, 2, 'reads its name']]);

    // WHEN compared
    const changes = orderChanges(previous, next);

    // THEN the edge to c is added and the one to b removed
    expect(changes).toEqual([
      { change: 'added', unit: 'label of c', waitsFor: 'label of a', reason: 'reads its name' },
      { change: 'removed', unit: 'label of b', waitsFor: 'label of a', reason: 'reads its name' },
    ]);
  });
});
