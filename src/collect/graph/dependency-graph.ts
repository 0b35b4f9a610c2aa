/**
 * A directed graph whose edges point from a dependency to its dependent
 * ("`from` must be applied before `to`").
 *
 * Everything here is iterative and linear in nodes plus edges: no recursion, so
 * a chain of 100,000 nodes orders as easily as ten.
 */
export class DependencyGraph<T> {
  private readonly values: T[] = [];
  private readonly labels: string[] = [];
  private readonly weights: number[] = [];
  private readonly edgeFrom: number[] = [];
  private readonly edgeTo: number[] = [];
  private readonly edgeReason: string[] = [];
  private readonly edgeInStep: boolean[] = [];
  private readonly softGroups: SoftGroup[] = [];
  private sorted?: SortResult;

  /** Number of nodes. */
  public get size(): number {
    return this.values.length;
  }

  /**
   * Adds a node and returns its index; indexes are creation order and break ties.
   *
   * @param value what the node stands for
   * @param label how a cycle report names it (a construct path)
   * @param barrier a barrier orders others but takes no step of its own
   */
  public addNode(value: T, label: string, barrier = false): number {
    this.sorted = undefined;
    this.values.push(value);
    this.labels.push(label);
    this.weights.push(barrier ? 0 : 1);
    return this.values.length - 1;
  }

  /** The value of node `i`. */
  public value(i: number): T {
    return this.values[i];
  }

  /** The label of node `i`. */
  public label(i: number): string {
    return this.labels[i];
  }

  /** True when node `i` is a barrier. */
  public isBarrier(i: number): boolean {
    return this.weights[i] === 0;
  }

  /**
   * Adds an edge: `from` comes before `to`, for `reason`. Never dropped.
   *
   * @param inStep true when `to` may share a level (a step) with `from`, after
   * it inside the step, as an applier that applies a file in order allows; by
   * default `to` is a level later
   */
  public addEdge(from: number, to: number, reason: string, inStep = false): void {
    this.sorted = undefined;
    this.edgeFrom.push(from);
    this.edgeTo.push(to);
    this.edgeReason.push(reason);
    this.edgeInStep.push(inStep);
  }

  /** Every edge as `{ from, to, reason }`, in the order added. */
  public *edges(): IterableIterator<GraphEdge> {
    for (let e = 0; e < this.edgeFrom.length; e++) {
      yield { from: this.edgeFrom[e], to: this.edgeTo[e], reason: this.edgeReason[e], inStep: this.edgeInStep[e] };
    }
  }

  /**
   * Adds a soft order over some nodes (the objects of one chart): a node of a
   * lower rank comes before a node of a higher rank wherever that closes no
   * cycle with the edges (`addEdge`, never dropped) and the soft pairs kept
   * before it, as kapp's `ignoreIfCyclical` rules do. A soft pair never starts
   * a new level: it only holds the later node back to the same level or after.
   *
   * @param nodes the nodes, in creation order
   * @param ranks each node's rank (lower first)
   */
  public addSoftOrder(nodes: readonly number[], ranks: readonly number[]): void {
    this.sorted = undefined;
    if (new Set(ranks).size > 1) this.softGroups.push({ nodes: [...nodes], ranks: [...ranks] });
  }

  /**
   * Orders the graph.
   *
   * Each node gets a level: the longest path to it, counting only non-barrier
   * nodes and only edges (a soft pair counts nothing), so every edge between
   * two real nodes goes to a strictly higher level. The order is by level,
   * then topological over the soft pairs kept, then by creation index: stable
   * while the graph is.
   *
   * Linear in nodes plus edges while every soft pair can be kept; when some
   * soft order conflicts with the edges, each conflicting group is resolved
   * pair by pair (a search per node of that group).
   *
   * @returns the order and levels, or the cycles that prevent one (of the
   * edges alone: a soft pair is never part of a cycle); computed once until
   * the graph changes
   */
  public sort(): SortResult {
    return (this.sorted ??= this.computeSort());
  }

  private computeSort(): SortResult {
    const n = this.values.length;
    const hard = kahn(n, this.edgeFrom, this.edgeTo);
    if (hard.released < n) {
      return { order: [], topological: [], levels: new Int32Array(n), cycles: this.findCycles(hard.indegree) };
    }
    const extended = this.withSoftOrder(n);
    const total = extended.total;
    const weight = new Uint8Array(total);
    for (let i = 0; i < n; i++) weight[i] = this.weights[i];
    const { from, to, soft } = extended;

    const out = csr(total, from, to);
    const indegree = new Int32Array(total);
    for (const t of to) indegree[t]++;
    const level = new Int32Array(total);
    const heap = new MinHeap(total);
    for (let i = 0; i < total; i++) if (indegree[i] === 0) heap.push(i, 0);
    const order: number[] = [];
    while (heap.size > 0) {
      const u = heap.pop();
      if (u < n) order.push(u);
      for (let k = out.start[u]; k < out.start[u + 1]; k++) {
        const e = out.edge[k];
        const v = to[e];
        const next = level[u] + (soft[e] ? 0 : weight[u]);
        if (level[v] < next) level[v] = next;
        if (--indegree[v] === 0) heap.push(v, level[v]);
      }
    }
    return { order, topological: order, levels: level.slice(0, n), cycles: [] };
  }

  /**
   * The edges plus the soft groups as edges through virtual barrier nodes
   * (numbered from `n`): per group and rank, "every node of this rank or lower
   * is done". Groups whose soft order conflicts with what is kept so far are
   * resolved pair by pair.
   */
  private withSoftOrder(n: number): { total: number; from: number[]; to: number[]; soft: Uint8Array } {
    const from = this.edgeFrom.slice();
    const to = this.edgeTo.slice();
    const hardCount = from.length;
    let total = n;
    const encodings = this.softGroups.map((g) => {
      const distinct = [...new Set(g.ranks)].sort((a, b) => a - b);
      const barrier = new Map(distinct.map((r, j) => [r, total + j]));
      total += distinct.length;
      const f: number[] = [];
      const t: number[] = [];
      distinct.forEach((r, j) => {
        if (j > 0) f.push(barrier.get(distinct[j - 1])!), t.push(barrier.get(r)!);
      });
      g.nodes.forEach((node, k) => {
        const j = distinct.indexOf(g.ranks[k]);
        f.push(node), t.push(barrier.get(distinct[j])!);
        if (j > 0) f.push(barrier.get(distinct[j - 1])!), t.push(node);
      });
      return { f, t };
    });
    const append = (f: readonly number[], t: readonly number[]) => {
      for (let k = 0; k < f.length; k++) from.push(f[k]), to.push(t[k]);
    };
    for (const e of encodings) append(e.f, e.t);
    if (kahn(total, from, to).released === total) return { total, from, to, soft: softFlags(from.length, hardCount, this.edgeInStep) };

    // Some soft order conflicts: keep each group whole where it can, else pair by pair.
    from.length = hardCount;
    to.length = hardCount;
    this.softGroups.forEach((g, i) => {
      const kept = from.length;
      append(encodings[i].f, encodings[i].t);
      if (kahn(total, from, to).released === total) return;
      from.length = kept;
      to.length = kept;
      this.softPairs(g, total, from, to);
    });
    return { total, from, to, soft: softFlags(from.length, hardCount, this.edgeInStep) };
  }

  /**
   * kapp's rule, pair by pair: for each node `v` of the group in creation
   * order, every node of a lower rank comes before it unless `v` already
   * reaches it (the pair would close a cycle). The pairs into one `v` are
   * added together: none of them creates a path out of `v`, so together they
   * close no cycle either.
   */
  private softPairs(g: SoftGroup, total: number, from: number[], to: number[]): void {
    const out: number[][] = Array.from({ length: total }, () => []);
    for (let e = 0; e < from.length; e++) out[from[e]].push(to[e]);
    const seen = new Int32Array(total).fill(-1);
    const stack: number[] = [];
    g.nodes.forEach((v, k) => {
      seen[v] = k;
      stack.push(v);
      while (stack.length > 0) {
        const u = stack.pop()!;
        for (const w of out[u]) {
          if (seen[w] !== k) {
            seen[w] = k;
            stack.push(w);
          }
        }
      }
      g.nodes.forEach((u, j) => {
        if (g.ranks[j] < g.ranks[k] && seen[u] !== k) {
          from.push(u);
          to.push(v);
          out[u].push(v);
        }
      });
    });
  }

  /**
   * Finds cycles among the nodes Kahn's algorithm could not release (those with
   * a remaining in-degree). Every such node has a remaining predecessor, so
   * walking predecessors always ends on a node seen before: a cycle.
   */
  private findCycles(indegree: Int32Array): number[][] {
    const n = this.values.length;
    const inStart = this.adjacency(this.edgeTo, this.edgeFrom);
    const walk = new Int32Array(n).fill(-1);
    const cycles: number[][] = [];
    for (let start = 0; start < n; start++) {
      if (indegree[start] === 0 || walk[start] !== -1) continue;
      const path: number[] = [];
      let v = start;
      while (walk[v] === -1) {
        walk[v] = start;
        path.push(v);
        v = this.firstRemaining(inStart, v, indegree);
      }
      if (walk[v] === start) {
        const cycle = path.slice(path.indexOf(v));
        cycle.push(v);
        cycles.push(cycle);
      }
    }
    return cycles;
  }

  /** The lowest-index predecessor of `v` that is still unreleased. */
  private firstRemaining(inStart: Adjacency, v: number, indegree: Int32Array): number {
    let best = -1;
    for (let k = inStart.start[v]; k < inStart.start[v + 1]; k++) {
      const u = inStart.targets[k];
      if (indegree[u] > 0 && (best === -1 || u < best)) best = u;
    }
    return best;
  }

  /** Compressed adjacency lists (CSR) from parallel edge arrays. */
  private adjacency(from: number[], to: number[]): Adjacency {
    const n = this.values.length;
    const start = new Int32Array(n + 1);
    for (const f of from) start[f + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const targets = new Int32Array(from.length);
    for (let e = 0; e < from.length; e++) targets[fill[from[e]]++] = to[e];
    return { start, targets };
  }
}

/** One edge of a `DependencyGraph`. */
export interface GraphEdge {
  /** The node that comes first. */
  readonly from: number;
  /** The node that depends on it. */
  readonly to: number;
  /** Why the edge exists, for example "CRD before custom resource". */
  readonly reason: string;
  /** True when `to` may share a step with `from` (after it inside the step). */
  readonly inStep: boolean;
}

/** The result of `DependencyGraph.sort()`. */
export interface SortResult {
  /**
   * Node indexes in apply order: by level, topological over the edges and the
   * soft pairs kept, ties by creation; empty when there are cycles.
   */
  readonly order: number[];
  /** A topological order of the edges (the same as `order`); empty when there are cycles. */
  readonly topological: number[];
  /** Each node's level (longest path to it, barriers not counted). */
  readonly levels: Int32Array;
  /**
   * Cycles, each as node indexes in "depends on" order, first node repeated at
   * the end: `[a, b, a]` reads "a depends on b depends on a".
   */
  readonly cycles: number[][];
}

interface SoftGroup {
  readonly nodes: number[];
  readonly ranks: number[];
}

/** Kahn's algorithm without order: how many nodes it releases, and the in-degrees left (non-zero on cycles). */
function kahn(n: number, from: readonly number[], to: readonly number[]): { released: number; indegree: Int32Array } {
  const out = csr(n, from, to);
  const indegree = new Int32Array(n);
  for (const t of to) indegree[t]++;
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue[tail++] = i;
  while (head < tail) {
    const u = queue[head++];
    for (let k = out.start[u]; k < out.start[u + 1]; k++) {
      if (--indegree[to[out.edge[k]]] === 0) queue[tail++] = to[out.edge[k]];
    }
  }
  return { released: tail, indegree };
}

/** Outgoing edge indexes per node, compressed (CSR). */
function csr(n: number, from: readonly number[], to: readonly number[]): { start: Int32Array; edge: Int32Array } {
  const start = new Int32Array(n + 1);
  for (const f of from) start[f + 1]++;
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const edge = new Int32Array(to.length);
  for (let e = 0; e < from.length; e++) edge[fill[from[e]]++] = e;
  return { start, edge };
}

/** 1 for the edges that add no level: `inStep` edges and the soft ones (from `hardCount` on). */
function softFlags(count: number, hardCount: number, inStep: readonly boolean[]): Uint8Array {
  const flags = new Uint8Array(count);
  for (let e = 0; e < hardCount; e++) if (inStep[e]) flags[e] = 1;
  flags.fill(1, hardCount);
  return flags;
}

/** A binary min-heap of node indexes keyed by (level, index). */
class MinHeap {
  private readonly keys: Float64Array;
  private readonly nodes: Int32Array;
  private count = 0;

  public constructor(capacity: number, private readonly width = capacity + 1) {
    this.keys = new Float64Array(capacity);
    this.nodes = new Int32Array(capacity);
  }

  public get size(): number {
    return this.count;
  }

  public push(node: number, level: number): void {
    const key = level * this.width + node;
    let i = this.count++;
    while (i > 0) {
      const parent = Math.floor((i - 1) / 2);
      if (this.keys[parent] <= key) break;
      this.keys[i] = this.keys[parent];
      this.nodes[i] = this.nodes[parent];
      i = parent;
    }
    this.keys[i] = key;
    this.nodes[i] = node;
  }

  public pop(): number {
    const top = this.nodes[0];
    const key = this.keys[--this.count];
    const node = this.nodes[this.count];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.count) break;
      if (child + 1 < this.count && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.keys[i] = this.keys[child];
      this.nodes[i] = this.nodes[child];
      i = child;
    }
    this.keys[i] = key;
    this.nodes[i] = node;
    return top;
  }
}

interface Adjacency {
  readonly start: Int32Array;
  readonly targets: Int32Array;
}
