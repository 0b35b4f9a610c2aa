import * as fc from 'fast-check';
import { DependencyGraph } from '../src/collect/graph/dependency-graph';

/** A graph of `n` nodes (labels `n0`, `n1`, ...) and the given edges. */
function graphOf(n: number, edges: ReadonlyArray<readonly [number, number]>): DependencyGraph<number> {
  const graph = new DependencyGraph<number>();
  for (let i = 0; i < n; i++) graph.addNode(i, `n${i}`);
  for (const [from, to] of edges) graph.addEdge(from, to, 'test');
  return graph;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * A random DAG: 1..60 nodes, edges that go forward in a random permutation of
 * the nodes (so creation order and dependency order are unrelated).
 */
const dagArbitrary = fc.integer({ min: 1, max: 60 }).chain((n) =>
  fc
    .record({
      perm: fc.shuffledSubarray(range(n), { minLength: n, maxLength: n }),
      pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 4 * n }),
    })
    .map(({ perm, pairs }) => {
      const edges = pairs
        .filter(([x, y]) => x !== y)
        .map(([x, y]): [number, number] => [perm[Math.min(x, y)], perm[Math.max(x, y)]]);
      return { n, edges };
    }),
);

/** Longest path (in edges) ending at each node of a DAG without barriers. */
function longestPaths(n: number, edges: ReadonlyArray<readonly [number, number]>): number[] {
  const level = new Array<number>(n).fill(0);
  // n relaxation rounds are enough for a DAG of n nodes (Bellman-Ford style, no recursion).
  for (let round = 0; round < n; round++) {
    let changed = false;
    for (const [from, to] of edges) {
      if (level[to] < level[from] + 1) {
        level[to] = level[from] + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return level;
}

/** Every (u, v) with a path u -> ... -> v of at least one edge. */
function reachablePairs(n: number, edges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: number[][] = range(n).map(() => []);
  for (const [from, to] of edges) out[from].push(to);
  const pairs: Array<[number, number]> = [];
  for (let u = 0; u < n; u++) {
    const seen = new Set<number>();
    const stack = [...out[u]];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      pairs.push([u, v]);
      stack.push(...out[v]);
    }
  }
  return pairs;
}

describe('DependencyGraph.sort() on acyclic graphs', () => {
  test('the order holds every node exactly once and puts each edge\'s from before its to (random DAGs)', () => {
    fc.assert(
      fc.property(dagArbitrary, ({ n, edges }) => {
        // GIVEN a random DAG
        const graph = graphOf(n, edges);

        // WHEN it is sorted
        const { order, cycles } = graph.sort();

        // THEN every node appears once, every edge is respected, and no cycle is reported
        expect(cycles).toEqual([]);
        expect([...order].sort((a, b) => a - b)).toEqual(range(n));
        const position = new Map(order.map((node, i) => [node, i]));
        for (const [from, to] of edges) {
          expect(position.get(from)!).toBeLessThan(position.get(to)!);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('levels are longest paths and the order is by level, then creation index (random DAGs)', () => {
    fc.assert(
      fc.property(dagArbitrary, ({ n, edges }) => {
        // GIVEN a random DAG and its longest paths computed independently
        const graph = graphOf(n, edges);
        const expectedLevels = longestPaths(n, edges);

        // WHEN it is sorted
        const { order, levels } = graph.sort();

        // THEN levels match, and ties between equal levels are broken by creation index
        expect(Array.from(levels)).toEqual(expectedLevels);
        expect(order).toEqual(range(n).sort((a, b) => expectedLevels[a] - expectedLevels[b] || a - b));
      }),
      { numRuns: 200 },
    );
  });

  test('independent nodes come out in creation order', () => {
    // GIVEN five nodes and no edges
    const graph = graphOf(5, []);

    // WHEN sorted
    const { order } = graph.sort();

    // THEN the order is creation order
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  test('a node created first but depending on a later node comes after it', () => {
    // GIVEN node 0 depends on node 1 (edge 1 -> 0), and node 2 is independent
    const graph = graphOf(3, [[1, 0]]);

    // WHEN sorted
    const { order, levels } = graph.sort();

    // THEN 1 and 2 (level 0, creation order) come before 0 (level 1)
    expect(order).toEqual([1, 2, 0]);
    expect(Array.from(levels)).toEqual([1, 0, 0]);
  });

  test('a chain of 100,000 nodes sorts without overflowing the stack', () => {
    // GIVEN a chain created in reverse dependency order: node i+1 comes before node i
    const n = 100_000;
    const graph = new DependencyGraph<number>();
    for (let i = 0; i < n; i++) graph.addNode(i, `n${i}`);
    for (let i = 0; i + 1 < n; i++) graph.addEdge(i + 1, i, 'chain');

    // WHEN sorted
    const { order, levels, cycles } = graph.sort();

    // THEN the order is the chain, last-created first
    expect(cycles).toEqual([]);
    expect(order.length).toBe(n);
    expect(order[0]).toBe(n - 1);
    expect(order[n - 1]).toBe(0);
    expect(order.every((node, i) => node === n - 1 - i)).toBe(true);
    expect(levels[0]).toBe(n - 1);
  });
});

describe('DependencyGraph.sort() on cyclic graphs', () => {
  /** A random DAG plus one back edge v -> u where u reaches v: at least one cycle. */
  const cyclicArbitrary = dagArbitrary
    .filter(({ edges }) => edges.length > 0)
    .chain(({ n, edges }) => {
      const pairs = reachablePairs(n, edges);
      return fc.nat(pairs.length - 1).map((k) => {
        const [u, v] = pairs[k];
        return { n, edges: [...edges, [v, u] as [number, number]], back: [v, u] as [number, number] };
      });
    });

  test('reports at least one cycle, each a valid path in "depends on" order (random graphs with a cycle)', () => {
    fc.assert(
      fc.property(cyclicArbitrary, ({ n, edges }) => {
        // GIVEN a DAG with one back edge that closes a cycle
        const graph = graphOf(n, edges);
        const edgeSet = new Set(edges.map(([from, to]) => `${from}>${to}`));

        // WHEN sorted
        const { cycles, order, topological } = graph.sort();

        // THEN there is no order, and every reported cycle is closed and made of real edges:
        // [a, b, ...] reads "a depends on b", i.e. the edge b -> a exists
        expect(order).toEqual([]);
        expect(topological).toEqual([]);
        expect(cycles.length).toBeGreaterThan(0);
        for (const cycle of cycles) {
          expect(cycle.length).toBeGreaterThanOrEqual(3);
          expect(cycle[cycle.length - 1]).toBe(cycle[0]);
          expect(new Set(cycle.slice(0, -1)).size).toBe(cycle.length - 1);
          for (let i = 0; i + 1 < cycle.length; i++) {
            expect(edgeSet.has(`${cycle[i + 1]}>${cycle[i]}`)).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a two-node cycle is reported as [a, b, a]: a depends on b depends on a', () => {
    // GIVEN 0 -> 1 and 1 -> 0
    const graph = graphOf(2, [[0, 1], [1, 0]]);

    // WHEN sorted
    const { cycles } = graph.sort();

    // THEN the one cycle starts at the lowest index
    expect(cycles).toEqual([[0, 1, 0]]);
  });

  test('a self-loop is reported as a cycle of one node', () => {
    // GIVEN node 1 depends on itself, node 0 is independent
    const graph = graphOf(2, [[1, 1]]);

    // WHEN sorted
    const { cycles } = graph.sort();

    // THEN
    expect(cycles).toEqual([[1, 1]]);
  });

  test('a cycle through 100,000 nodes is found without overflowing the stack', () => {
    // GIVEN a chain 0 -> 1 -> ... -> 99,999 closed by 99,999 -> 0
    const n = 100_000;
    const graph = new DependencyGraph<number>();
    for (let i = 0; i < n; i++) graph.addNode(i, `n${i}`);
    for (let i = 0; i + 1 < n; i++) graph.addEdge(i, i + 1, 'chain');
    graph.addEdge(n - 1, 0, 'back');

    // WHEN sorted
    const { cycles } = graph.sort();

    // THEN one cycle holds every node: 0 depends on 99,999 depends on 99,998 ...
    expect(cycles.length).toBe(1);
    expect(cycles[0].length).toBe(n + 1);
    expect(cycles[0].slice(0, 3)).toEqual([0, n - 1, n - 2]);
    expect(cycles[0][n]).toBe(0);
  });
});

describe('DependencyGraph barriers', () => {
  test('a barrier between two nodes adds no level', () => {
    // GIVEN a -> B (barrier) -> c
    const graph = new DependencyGraph<string | undefined>();
    const a = graph.addNode('a', 'a');
    const barrier = graph.addNode(undefined, 'B', true);
    const c = graph.addNode('c', 'c');
    graph.addEdge(a, barrier, '');
    graph.addEdge(barrier, c, 'through barrier');

    // WHEN sorted
    const { levels } = graph.sort();

    // THEN c is one level after a, not two
    expect(Array.from(levels)).toEqual([0, 1, 1]);
    expect(graph.isBarrier(barrier)).toBe(true);
    expect(graph.isBarrier(c)).toBe(false);
  });

  test('a run of barriers still adds no level, while a real node in the chain does', () => {
    // GIVEN a -> B1 -> B2 -> B3 -> c -> d
    const graph = new DependencyGraph<string | undefined>();
    const a = graph.addNode('a', 'a');
    const b1 = graph.addNode(undefined, 'B1', true);
    const b2 = graph.addNode(undefined, 'B2', true);
    const b3 = graph.addNode(undefined, 'B3', true);
    const c = graph.addNode('c', 'c');
    const d = graph.addNode('d', 'd');
    graph.addEdge(a, b1, '');
    graph.addEdge(b1, b2, '');
    graph.addEdge(b2, b3, '');
    graph.addEdge(b3, c, '');
    graph.addEdge(c, d, '');

    // WHEN sorted
    const { levels } = graph.sort();

    // THEN only a and c count: c is level 1, d level 2
    expect(levels[c]).toBe(1);
    expect(levels[d]).toBe(2);
  });

  test('a node reached through a barrier comes after the node before the barrier', () => {
    // GIVEN c (created first) waits for a through a barrier B
    const graph = new DependencyGraph<string | undefined>();
    const c = graph.addNode('c', 'c');
    const barrier = graph.addNode(undefined, 'B', true);
    const a = graph.addNode('a', 'a');
    graph.addEdge(a, barrier, '');
    graph.addEdge(barrier, c, '');

    // WHEN sorted
    const { order } = graph.sort();

    // THEN, leaving the barrier out, a comes before c
    expect(order.filter((i) => !graph.isBarrier(i))).toEqual([a, c]);
  });

  test('edges() yields every edge with its reason and whether it may share a step, in the order added', () => {
    // GIVEN two edges, the second one that may share a step
    const graph = graphOf(3, []);
    graph.addEdge(2, 0, 'first');
    graph.addEdge(0, 1, 'second', true);

    // WHEN listed
    const edges = [...graph.edges()];

    // THEN
    expect(edges).toEqual([
      { index: 0, from: 2, to: 0, reason: 'first', inStep: false, inferred: false, origin: undefined },
      { index: 1, from: 0, to: 1, reason: 'second', inStep: true, inferred: false, origin: undefined },
    ]);
  });

  test('an in-step edge orders inside one level; a plain edge starts the next level', () => {
    // GIVEN a -> b in step, b -> c plain, all created in reverse
    const graph = graphOf(3, []);
    graph.addEdge(2, 1, 'in step', true);
    graph.addEdge(1, 0, 'plain');

    // WHEN sorted
    const { order, levels } = graph.sort();

    // THEN 2 and 1 share level 0 (2 first), 0 is level 1
    expect(order).toEqual([2, 1, 0]);
    expect(Array.from(levels)).toEqual([1, 0, 0]);
  });
});

describe('DependencyGraph inferred edges (addInferredEdge), against an independent check', () => {
  /** A random DAG of hard edges plus random inferred edges in any direction. */
  const inferredArbitrary = dagArbitrary.chain(({ n, edges }) =>
    fc.record({
      n: fc.constant(n),
      edges: fc.constant(edges),
      inferred: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 2 * n }).map((p) => p.filter(([a, b]) => a !== b)),
    }),
  );

  test('an inferred edge is dropped exactly where the hard edges and the inferred ones kept before it lead back; no cycle is reported', () => {
    fc.assert(
      fc.property(inferredArbitrary, ({ n, edges, inferred }) => {
        // GIVEN hard edges that form a DAG and inferred edges that may contradict them
        const graph = graphOf(n, edges);
        for (const [from, to] of inferred) graph.addInferredEdge(from, to, 'inferred');

        // WHEN sorted
        const { order, cycles, dropped } = graph.sort();

        // THEN no cycle; each inferred edge in turn is dropped iff what is kept so far reaches its from from its to
        expect(cycles).toEqual([]);
        const droppedSet = new Set(dropped.map((d) => d.edge - edges.length));
        const kept: Array<[number, number]> = [...edges];
        inferred.forEach(([from, to], k) => {
          const closes = reachablePairs(n, kept).some(([u, v]) => u === to && v === from);
          expect({ k, dropped: droppedSet.has(k) }).toEqual({ k, dropped: closes });
          if (!closes) kept.push([from, to]);
        });
        // and the order honours every edge kept
        const at = new Map(order.map((node, i) => [node, i]));
        for (const [from, to] of kept) expect(at.get(from)!).toBeLessThan(at.get(to)!);
        // and each drop names a path of kept edges from its to back to its from
        for (const d of dropped) {
          const e = graph.edge(d.edge);
          const path = d.closes.map((c) => graph.edge(c));
          expect(path[0].from).toBe(e.to);
          expect(path[path.length - 1].to).toBe(e.from);
          path.slice(1).forEach((p, i) => expect(p.from).toBe(path[i].to));
        }
      }),
      { numRuns: 200 },
    );
  });

  test('edges() leaves out the dropped inferred edges', () => {
    // GIVEN 0 before 1 (hard) and an inferred 1 before 0
    const graph = graphOf(2, [[0, 1]]);
    graph.addInferredEdge(1, 0, 'inferred');

    // THEN the inferred edge is dropped and not listed
    expect(graph.sort().dropped).toEqual([{ edge: 1, closes: [0] }]);
    expect([...graph.edges()].map((e) => e.index)).toEqual([0]);
  });

  test('a cycle of hard edges is reported with the edge of each step', () => {
    // GIVEN 0 -> 1 -> 0
    const graph = graphOf(2, [[0, 1], [1, 0]]);

    // THEN cycle [0, 1, 0]: 0 depends on 1 by edge 0 (1 -> 0 is edge 1, from 1 to 0), 1 depends on 0 by edge 0
    const { cycles, cycleEdges } = graph.sort();
    expect(cycles).toEqual([[0, 1, 0]]);
    expect(cycleEdges).toEqual([[1, 0]]);
  });
});
