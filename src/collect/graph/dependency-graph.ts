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
  private readonly edgeInferred: boolean[] = [];
  private readonly edgeOrigin: Array<string | undefined> = [];
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
   * @param origin what makes the edge, for a cycle report: the `addDependency`
   * call and on which construct, or the field that implies it
   */
  public addEdge(from: number, to: number, reason: string, inStep = false, origin?: string): void {
    this.pushEdge(from, to, reason, inStep, false, origin);
  }

  /**
   * Adds an inferred, ordering-only edge: kept wherever it closes no cycle with
   * the edges of `addEdge` and the inferred edges kept before it (in the order
   * added), dropped otherwise, as the soft order is. `sort().dropped` names
   * each edge dropped and the path it would have closed.
   *
   * @param inStep as for `addEdge`
   * @param origin as for `addEdge`
   */
  public addInferredEdge(from: number, to: number, reason: string, inStep = false, origin?: string): void {
    this.pushEdge(from, to, reason, inStep, true, origin);
  }

  /** The edge with index `e` (the order added). */
  public edge(e: number): GraphEdge {
    return {
      index: e,
      from: this.edgeFrom[e],
      to: this.edgeTo[e],
      reason: this.edgeReason[e],
      inStep: this.edgeInStep[e],
      inferred: this.edgeInferred[e],
      origin: this.edgeOrigin[e],
    };
  }

  /**
   * Every edge the order honours, in the order added: all of them, except the
   * inferred edges that `sort()` dropped.
   */
  public *edges(): IterableIterator<GraphEdge> {
    const dropped = this.edgeInferred.includes(true) ? new Set(this.sort().dropped.map((d) => d.edge)) : undefined;
    for (let e = 0; e < this.edgeFrom.length; e++) if (!dropped?.has(e)) yield this.edge(e);
  }

  private pushEdge(from: number, to: number, reason: string, inStep: boolean, inferred: boolean, origin: string | undefined): void {
    this.sorted = undefined;
    this.edgeFrom.push(from);
    this.edgeTo.push(to);
    this.edgeReason.push(reason);
    this.edgeInStep.push(inStep);
    this.edgeInferred.push(inferred);
    this.edgeOrigin.push(origin);
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
   * hard edges alone: an inferred edge or a soft pair is never part of a
   * cycle), and the inferred edges dropped; computed once until the graph changes
   */
  public sort(): SortResult {
    return (this.sorted ??= this.computeSort());
  }

  private computeSort(): SortResult {
    const n = this.values.length;
    // the common graph, of hard edges alone: ordered in one pass, which a cycle leaves short (then found below)
    if (this.softGroups.length === 0 && !this.edgeInferred.includes(true)) {
      const sorted = this.ordered(n, this.edgeFrom, this.edgeTo, softFlags(this.edgeFrom.length, this.edgeFrom.length, this.edgeInStep));
      if (sorted.order.length === n) return { ...sorted, cycles: [], cycleEdges: [], dropped: [] };
    }
    const all = this.edgeFrom.map((_, e) => e);
    const hardEdges = all.filter((e) => !this.edgeInferred[e]);
    const hard = kahn(n, hardEdges.map((e) => this.edgeFrom[e]), hardEdges.map((e) => this.edgeTo[e]));
    if (hard.released < n) {
      const found = this.findCycles(hard.indegree, hardEdges);
      const cycles = found.map((c) => c.nodes);
      return { order: [], topological: [], levels: new Int32Array(n), cycles, cycleEdges: found.map((c) => c.edges), dropped: [] };
    }
    const { kept, dropped } = this.keepInferred(n, hardEdges);
    const { total, from, to, soft } = this.withSoftOrder(n, kept);
    return { ...this.ordered(total, from, to, soft), cycles: [], cycleEdges: [], dropped };
  }

  /**
   * The order and levels over edges `from` -> `to` (`soft`: 1 for an edge that adds no level) between the nodes
   * and, from `this.values.length` on, the virtual nodes up to `total`; on a cycle, the order is short of the nodes.
   */
  private ordered(total: number, from: readonly number[], to: readonly number[], soft: Uint8Array): Pick<SortResult, 'order' | 'topological' | 'levels'> {
    const n = this.values.length;
    const weight = new Uint8Array(total);
    for (let i = 0; i < n; i++) weight[i] = this.weights[i];
    const out = csr(total, from, to);
    const indegree = new Int32Array(total);
    for (let e = 0; e < to.length; e++) indegree[to[e]]++;
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
    return { order, topological: order, levels: level.slice(0, n) };
  }

  /**
   * The edges kept: every hard edge, and each inferred edge, in the order
   * added, unless what is kept already leads from its `to` back to its
   * `from` (it would close a cycle); that path is recorded with the drop.
   */
  private keepInferred(n: number, hardEdges: readonly number[]): { kept: number[]; dropped: DroppedEdge[] } {
    const inferred = this.edgeFrom.map((_, e) => e).filter((e) => this.edgeInferred[e]);
    const everything = [...hardEdges, ...inferred];
    if (inferred.length === 0 || kahn(n, everything.map((e) => this.edgeFrom[e]), everything.map((e) => this.edgeTo[e])).released === n) {
      return { kept: everything, dropped: [] };
    }
    const out: number[][] = Array.from({ length: n }, () => []);
    const kept = [...hardEdges];
    for (const e of kept) out[this.edgeFrom[e]].push(e);
    const dropped: DroppedEdge[] = [];
    for (const e of inferred) {
      const path = this.path(out, this.edgeTo[e], this.edgeFrom[e]);
      if (path) {
        dropped.push({ edge: e, closes: path });
      } else {
        kept.push(e);
        out[this.edgeFrom[e]].push(e);
      }
    }
    return { kept, dropped };
  }

  /** The edges of a path from `start` to `goal` over `out` (breadth first: a shortest one), or undefined. */
  private path(out: readonly number[][], start: number, goal: number): number[] | undefined {
    const via = new Map<number, number>([[start, -1]]);
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head];
      if (u === goal) {
        const edges: number[] = [];
        for (let v = goal; v !== start; v = this.edgeFrom[via.get(v)!]) edges.push(via.get(v)!);
        return edges.reverse();
      }
      for (const e of out[u]) {
        const v = this.edgeTo[e];
        if (!via.has(v)) via.set(v, e), queue.push(v);
      }
    }
    return undefined;
  }

  /**
   * The edges plus the soft groups as edges through virtual barrier nodes
   * (numbered from `n`): per group and rank, "every node of this rank or lower
   * is done". Groups whose soft order conflicts with what is kept so far are
   * resolved pair by pair.
   */
  private withSoftOrder(n: number, kept: readonly number[]): { total: number; from: number[]; to: number[]; soft: Uint8Array } {
    const from = kept.map((e) => this.edgeFrom[e]);
    const to = kept.map((e) => this.edgeTo[e]);
    const inStep = kept.map((e) => this.edgeInStep[e]);
    const hardCount = from.length;
    // what is kept closes no cycle (the hard edges were checked, each inferred one kept closes none): with no soft
    // group there is nothing more to check, and a synth's one run would walk every edge again in cold code
    if (this.softGroups.length === 0) return { total: n, from, to, soft: softFlags(from.length, hardCount, inStep) };
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
    if (kahn(total, from, to).released === total) return { total, from, to, soft: softFlags(from.length, hardCount, inStep) };

    // Some soft order conflicts: keep each group whole where it can, else pair by pair.
    from.length = hardCount;
    to.length = hardCount;
    this.softGroups.forEach((g, i) => {
      const before = from.length;
      append(encodings[i].f, encodings[i].t);
      if (kahn(total, from, to).released === total) return;
      from.length = before;
      to.length = before;
      this.softPairs(g, total, from, to);
    });
    return { total, from, to, soft: softFlags(from.length, hardCount, inStep) };
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
   * a remaining in-degree), over the hard edges. Every such node has a remaining
   * predecessor, so walking predecessors always ends on a node seen before: a cycle.
   */
  private findCycles(indegree: Int32Array, hardEdges: readonly number[]): Array<{ nodes: number[]; edges: number[] }> {
    const n = this.values.length;
    const incoming = this.incoming(hardEdges);
    const walk = new Int32Array(n).fill(-1);
    const cycles: Array<{ nodes: number[]; edges: number[] }> = [];
    for (let start = 0; start < n; start++) {
      if (indegree[start] === 0 || walk[start] !== -1) continue;
      const path: number[] = [];
      const via: number[] = [];
      let v = start;
      while (walk[v] === -1) {
        walk[v] = start;
        path.push(v);
        const e = this.firstRemaining(incoming, v, indegree);
        via.push(e);
        v = this.edgeFrom[e];
      }
      if (walk[v] === start) {
        const at = path.indexOf(v);
        const nodes = path.slice(at);
        nodes.push(v);
        cycles.push({ nodes, edges: via.slice(at) });
      }
    }
    return cycles;
  }

  /** The edge into `v` from its lowest-index predecessor that is still unreleased. */
  private firstRemaining(incoming: Adjacency, v: number, indegree: Int32Array): number {
    let best = -1;
    for (let k = incoming.start[v]; k < incoming.start[v + 1]; k++) {
      const e = incoming.targets[k];
      const u = this.edgeFrom[e];
      if (indegree[u] > 0 && (best === -1 || u < this.edgeFrom[best])) best = e;
    }
    return best;
  }

  /** The incoming edge indexes of each node (CSR), over `edges`. */
  private incoming(edges: readonly number[]): Adjacency {
    const n = this.values.length;
    const start = new Int32Array(n + 1);
    for (const e of edges) start[this.edgeTo[e] + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const targets = new Int32Array(edges.length);
    for (const e of edges) targets[fill[this.edgeTo[e]]++] = e;
    return { start, targets };
  }
}

/** One edge of a `DependencyGraph`. */
export interface GraphEdge {
  /** Its index: the order added. */
  readonly index: number;
  /** The node that comes first. */
  readonly from: number;
  /** The node that depends on it. */
  readonly to: number;
  /** Why the edge exists, for example "CRD before custom resource". */
  readonly reason: string;
  /** True when `to` may share a step with `from` (after it inside the step). */
  readonly inStep: boolean;
  /** True for an inferred, ordering-only edge (`addInferredEdge`), which gives way to a cycle. */
  readonly inferred: boolean;
  /** What makes the edge (an `addDependency` call, the field that implies it), when known. */
  readonly origin?: string;
}

/** An inferred edge that `sort()` dropped, and why. */
export interface DroppedEdge {
  /** The index of the dropped edge. */
  readonly edge: number;
  /** The edges already kept that lead from its `to` back to its `from`: the cycle it would have closed. */
  readonly closes: number[];
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
  /**
   * The edges of each cycle: `cycleEdges[k][i]` is the edge by which
   * `cycles[k][i]` depends on `cycles[k][i + 1]` (from the latter to the former).
   */
  readonly cycleEdges: number[][];
  /** The inferred edges dropped because they would close a cycle, in the order added. */
  readonly dropped: DroppedEdge[];
}

interface SoftGroup {
  readonly nodes: number[];
  readonly ranks: number[];
}

/** Kahn's algorithm without order: how many nodes it releases, and the in-degrees left (non-zero on cycles). */
function kahn(n: number, from: readonly number[], to: readonly number[]): { released: number; indegree: Int32Array } {
  const out = csr(n, from, to);
  const indegree = new Int32Array(n);
  for (let e = 0; e < to.length; e++) indegree[to[e]]++;
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
  // indexed loops here and in `kahn`, not `for...of`: V8 optimizes them in a synth's one run, and the iterator
  // protocol's implicit try/finally made that compile cost more than the loop
  for (let e = 0; e < from.length; e++) start[from[e] + 1]++;
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
