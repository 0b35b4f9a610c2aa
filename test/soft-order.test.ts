import * as fc from 'fast-check';
import { DependencyGraph } from '../src/collect/graph/dependency-graph';

/**
 * The soft order of `DependencyGraph.addSoftOrder` against a brute-force
 * oracle on small graphs: hard edges are always honoured, a soft pair is
 * dropped only where keeping it would close a cycle, and the output is a
 * function of the input.
 */

interface Case {
  readonly n: number;
  readonly edges: Array<[number, number]>;
  /** Per node: its group (chart) and rank. */
  readonly group: number[];
  readonly rank: number[];
}

/** Random DAGs of 1..6 nodes whose edges go forward in a random permutation, with random groups and ranks. */
const caseArbitrary: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    permutation: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
    pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 2 * n }),
    group: fc.array(fc.nat(1), { minLength: n, maxLength: n }),
    rank: fc.array(fc.nat(3), { minLength: n, maxLength: n }),
  }).map(({ permutation, pairs, group, rank }) => {
    const position = new Map(permutation.map((node, i) => [node, i]));
    const edges = pairs.filter(([a, b]) => a !== b).map(([a, b]): [number, number] => (position.get(a)! < position.get(b)! ? [a, b] : [b, a]));
    return { n, edges, group, rank };
  }),
);

function build(c: Case): DependencyGraph<number> {
  const graph = new DependencyGraph<number>();
  for (let i = 0; i < c.n; i++) graph.addNode(i, `n${i}`);
  for (const [a, b] of c.edges) graph.addEdge(a, b, 'hard');
  for (const g of new Set(c.group)) {
    const nodes = [...Array(c.n).keys()].filter((i) => c.group[i] === g);
    graph.addSoftOrder(nodes, nodes.map((i) => c.rank[i]));
  }
  return graph;
}

/** Every soft pair `[u, v]`: same group, `u` of a lower rank than `v`. */
function softPairs(c: Case): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let u = 0; u < c.n; u++) for (let v = 0; v < c.n; v++) if (c.group[u] === c.group[v] && c.rank[u] < c.rank[v]) pairs.push([u, v]);
  return pairs;
}

function reaches(edges: ReadonlyArray<readonly [number, number]>, from: number, to: number): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u === to) return true;
    for (const [a, b] of edges) if (a === u && !seen.has(b)) seen.add(b), stack.push(b);
  }
  return false;
}

/** Brute force: is there an order of all nodes that honours every hard edge and every soft pair? */
function allSatisfiable(c: Case): boolean {
  const constraints = [...c.edges, ...softPairs(c)];
  const permute = (prefix: number[], rest: number[]): boolean => {
    if (rest.length === 0) {
      const at = new Map(prefix.map((x, i) => [x, i]));
      return constraints.every(([a, b]) => at.get(a)! < at.get(b)!);
    }
    return rest.some((x, i) => permute([...prefix, x], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  return permute([], [...Array(c.n).keys()]);
}

describe('DependencyGraph soft order (kind ranks), against a brute-force oracle', () => {
  test('hard edges are always honoured, in a strictly later level', () => {
    fc.assert(
      fc.property(caseArbitrary, (c) => {
        // GIVEN a random DAG with random soft groups
        // WHEN sorted
        const { order, levels, cycles } = build(c).sort();

        // THEN no cycle (soft pairs never make one), every node once, every hard edge forward and a level up
        expect(cycles).toEqual([]);
        expect([...order].sort((a, b) => a - b)).toEqual([...Array(c.n).keys()]);
        const at = new Map(order.map((x, i) => [x, i]));
        for (const [a, b] of c.edges) {
          expect(at.get(a)!).toBeLessThan(at.get(b)!);
          expect(levels[b]).toBeGreaterThan(levels[a]);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a soft pair is out of order only where keeping it would close a cycle with the hard edges and the pairs kept', () => {
    fc.assert(
      fc.property(caseArbitrary, (c) => {
        // GIVEN a random DAG with random soft groups
        // WHEN sorted
        const { order } = build(c).sort();

        // THEN each violated pair u < v has a path v ~> u through hard edges and honoured pairs
        const at = new Map(order.map((x, i) => [x, i]));
        const pairs = softPairs(c);
        const honoured = pairs.filter(([u, v]) => at.get(u)! < at.get(v)!);
        for (const [u, v] of pairs.filter(([a, b]) => at.get(a)! > at.get(b)!)) {
          expect({ pair: [u, v], closesCycle: reaches([...c.edges, ...honoured], v, u) }).toEqual({ pair: [u, v], closesCycle: true });
        }
      }),
      { numRuns: 300 },
    );
  });

  test('when some order honours every soft pair, the sort finds one, and a pair never raises the level', () => {
    fc.assert(
      fc.property(caseArbitrary, (c) => {
        // GIVEN a random case, and whether brute force finds an order honouring everything
        const satisfiable = allSatisfiable(c);

        // WHEN sorted
        const { order, levels } = build(c).sort();

        // THEN every soft pair is honoured where possible, in the same level or a later one
        if (!satisfiable) return;
        const at = new Map(order.map((x, i) => [x, i]));
        for (const [u, v] of softPairs(c)) {
          expect(at.get(u)!).toBeLessThan(at.get(v)!);
          expect(levels[v]).toBeGreaterThanOrEqual(levels[u]);
        }
        // and levels are the longest hard paths with soft pairs counting zero
        const expected = new Array(c.n).fill(0);
        for (const x of order) {
          for (const [a, b] of c.edges) if (b === x) expected[x] = Math.max(expected[x], expected[a] + 1);
          for (const [u, v] of softPairs(c)) if (v === x) expected[x] = Math.max(expected[x], expected[u]);
        }
        expect(Array.from(levels)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  test('the output is a function of the input', () => {
    fc.assert(
      fc.property(caseArbitrary, (c) => {
        // GIVEN the same case built twice
        // WHEN both are sorted
        const [a, b] = [build(c).sort(), build(c).sort()];

        // THEN the orders and levels are equal
        expect(b.order).toEqual(a.order);
        expect(Array.from(b.levels)).toEqual(Array.from(a.levels));
      }),
      { numRuns: 100 },
    );
  });

  test('ties keep creation order: same rank, no edges', () => {
    // GIVEN five nodes of one rank in one group
    const graph = new DependencyGraph<number>();
    for (let i = 0; i < 5; i++) graph.addNode(i, `n${i}`);
    graph.addSoftOrder([0, 1, 2, 3, 4], [2, 2, 2, 2, 2]);

    // WHEN sorted
    // THEN creation order
    expect(graph.sort().order).toEqual([0, 1, 2, 3, 4]);
  });

  test('a hard edge against the kind order wins; the other soft pairs of the group are kept', () => {
    // GIVEN ConfigMap c (rank 1), Deployment d (rank 2), Service s (rank 3), and the hard edge d -> c
    const graph = new DependencyGraph<string>();
    const c = graph.addNode('c', 'c');
    const s = graph.addNode('s', 's');
    const d = graph.addNode('d', 'd');
    graph.addEdge(d, c, 'explicit');
    graph.addSoftOrder([c, s, d], [1, 3, 2]);

    // WHEN sorted
    const { order, levels } = graph.sort();

    // THEN d before c (hard); c before s and d before s (soft, kept); s joins c's level
    expect(order).toEqual([d, c, s]);
    expect(Array.from(levels)).toEqual([1, 1, 0]);
  });

  test('conflicts through two groups: the first group keeps its order, the second drops the pair that would close the cycle', () => {
    // GIVEN groups A (a1 rank 1, a2 rank 2) and B (b1 rank 1, b2 rank 2), hard edges a2 -> b1 and b2 -> a1:
    // keeping both a1 < a2 and b1 < b2 closes a1 -> a2 -> b1 -> b2 -> a1
    const graph = new DependencyGraph<string>();
    const [a1, a2, b1, b2] = ['a1', 'a2', 'b1', 'b2'].map((x) => graph.addNode(x, x));
    graph.addEdge(a2, b1, 'hard');
    graph.addEdge(b2, a1, 'hard');
    graph.addSoftOrder([a1, a2], [1, 2]);
    graph.addSoftOrder([b1, b2], [1, 2]);

    // WHEN sorted
    const { order } = graph.sort();

    // THEN group A (added first) is honoured; b2 comes before b1
    expect(order.map((x) => graph.label(x))).toEqual(['b2', 'a1', 'a2', 'b1']);
  });

  test('100,000 nodes in 1,000 soft groups with edges between them sort (no timing asserted)', () => {
    // GIVEN 1,000 groups of 100 nodes of four ranks, each node depending on one in the previous group
    const graph = new DependencyGraph<number>();
    const n = 100_000;
    for (let i = 0; i < n; i++) graph.addNode(i, `n${i}`);
    for (let i = 100; i < n; i++) graph.addEdge(i - 100, i, 'hard');
    for (let g = 0; g < 1000; g++) {
      const nodes = Array.from({ length: 100 }, (_, k) => g * 100 + k);
      graph.addSoftOrder(nodes, nodes.map((x) => (x * 13) % 4));
    }

    // WHEN sorted
    const { order, cycles } = graph.sort();

    // THEN every node is placed, and inside the first group rank 0 comes first
    expect(cycles).toEqual([]);
    expect(order.length).toBe(n);
    expect(order.slice(0, 25).every((x) => (x * 13) % 4 === 0)).toBe(true);
  });
});
