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
   * Adds an edge: `from` comes before `to`, for `reason`.
   */
  public addEdge(from: number, to: number, reason: string): void {
    this.sorted = undefined;
    this.edgeFrom.push(from);
    this.edgeTo.push(to);
    this.edgeReason.push(reason);
  }

  /** Every edge as `{ from, to, reason }`, in the order added. */
  public *edges(): IterableIterator<GraphEdge> {
    for (let e = 0; e < this.edgeFrom.length; e++) {
      yield { from: this.edgeFrom[e], to: this.edgeTo[e], reason: this.edgeReason[e] };
    }
  }

  /**
   * Orders the graph.
   *
   * Each node gets a level: the longest path to it, counting only non-barrier
   * nodes, so every edge between two real nodes goes to a strictly higher level.
   * The order is by level, then by creation index: stable while the graph is.
   *
   * @returns the order and levels, or the cycles that prevent one; computed once
   * until the graph changes
   */
  public sort(): SortResult {
    return (this.sorted ??= this.computeSort());
  }

  private computeSort(): SortResult {
    const n = this.values.length;
    const outStart = this.adjacency(this.edgeFrom, this.edgeTo);
    const indegree = new Int32Array(n);
    for (const to of this.edgeTo) indegree[to]++;

    const level = new Int32Array(n);
    const queue = new Int32Array(n);
    let head = 0;
    let tail = 0;
    for (let i = 0; i < n; i++) if (indegree[i] === 0) queue[tail++] = i;
    while (head < tail) {
      const u = queue[head++];
      const next = level[u] + this.weights[u];
      for (let k = outStart.start[u]; k < outStart.start[u + 1]; k++) {
        const v = outStart.targets[k];
        if (level[v] < next) level[v] = next;
        if (--indegree[v] === 0) queue[tail++] = v;
      }
    }

    if (tail < n) {
      return { order: [], topological: [], levels: level, cycles: this.findCycles(indegree) };
    }
    const topological = Array.from(queue);
    const order = topological.slice().sort((a, b) => level[a] - level[b] || a - b);
    return { order, topological, levels: level, cycles: [] };
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
}

/** The result of `DependencyGraph.sort()`. */
export interface SortResult {
  /** Node indexes in apply order (level, then creation); empty when there are cycles. */
  readonly order: number[];
  /** Node indexes in the order Kahn's algorithm released them; empty when there are cycles. */
  readonly topological: number[];
  /** Each node's level (longest path to it, barriers not counted). */
  readonly levels: Int32Array;
  /**
   * Cycles, each as node indexes in "depends on" order, first node repeated at
   * the end: `[a, b, a]` reads "a depends on b depends on a".
   */
  readonly cycles: number[][];
}

interface Adjacency {
  readonly start: Int32Array;
  readonly targets: Int32Array;
}
