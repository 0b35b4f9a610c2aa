import type { FieldPath } from './field-path';

/** A node of a `FieldIndex`: a value when a path ends here, and the children by segment. */
interface Node<V> {
  value?: V;
  has: boolean;
  children?: Map<string, Node<V>>;
}

/**
 * Values by field path, as a tree of path segments (structured-merge-diff's
 * `fieldpath.Set` keeps its members so), so the questions the ledger asks
 * about prefixes cost the depth of a path, not the size of the index: which
 * members are a path or an ancestor of it (`forEachPrefix`), and whether any
 * lies below it (`hasBelow`).
 *
 * @typeParam V what is kept at a member path
 */
export class FieldIndex<V> {
  private readonly root: Node<V> = { has: false };
  private count = 0;

  /** How many paths are members. */
  public get size(): number {
    return this.count;
  }

  /** The value at `path`, or undefined when it is no member. */
  public get(path: FieldPath): V | undefined {
    return this.find(path)?.value;
  }

  /** True when `path` is a member. */
  public has(path: FieldPath): boolean {
    return this.find(path)?.has ?? false;
  }

  /** Sets the value at `path`, making it a member. */
  public set(path: FieldPath, value: V): this {
    const node = this.make(path);
    if (!node.has) this.count++;
    node.has = true;
    node.value = value;
    return this;
  }

  /** The value at `path`, made with `init` (and `path` made a member) when it is none. */
  public upsert(path: FieldPath, init: () => V): V {
    const node = this.make(path);
    if (!node.has) {
      node.has = true;
      node.value = init();
      this.count++;
    }
    return node.value as V;
  }

  /**
   * Calls `visit` for each member that is `path` or an ancestor of it, root
   * first, with the member's value and its depth (its number of segments).
   */
  public forEachPrefix(path: FieldPath, visit: (value: V, depth: number) => void): void {
    let node: Node<V> | undefined = this.root;
    if (node.has) visit(node.value as V, 0);
    for (let i = 0; i < path.length; i++) {
      node = node.children?.get(path[i]);
      if (!node) return;
      if (node.has) visit(node.value as V, i + 1);
    }
  }

  /** True when some member lies strictly below `path`. */
  public hasBelow(path: FieldPath): boolean {
    const node = this.find(path);
    return node?.children !== undefined && node.children.size > 0;
  }

  /** Calls `visit` for each member strictly below `path`, with its value. */
  public forEachBelow(path: FieldPath, visit: (value: V) => void): void {
    const start = this.find(path);
    const stack: Array<Node<V>> = start?.children ? [...start.children.values()] : [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.has) visit(node.value as V);
      if (node.children) for (const child of node.children.values()) stack.push(child);
    }
  }

  /** Every member and its value, depth first, children in insertion order. */
  public *entries(): IterableIterator<[FieldPath, V]> {
    const stack: Array<[Node<V>, string[]]> = [[this.root, []]];
    while (stack.length > 0) {
      const [node, path] = stack.pop()!;
      if (node.has) yield [path, node.value as V];
      const children = node.children ? [...node.children] : [];
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i][1], [...path, children[i][0]]]);
    }
  }

  // `find` and `make` with indexed loops, not `for...of`: V8 optimizes them in a synth's one run, and the iterator
  // protocol's implicit try/finally made that compile cost more than the loop
  private find(path: FieldPath): Node<V> | undefined {
    let node: Node<V> | undefined = this.root;
    for (let i = 0; i < path.length; i++) {
      node = node.children?.get(path[i]);
      if (!node) return undefined;
    }
    return node;
  }

  private make(path: FieldPath): Node<V> {
    let node = this.root;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (!child) {
        child = { has: false };
        node.children.set(segment, child);
      }
      node = child;
    }
    return node;
  }
}

/**
 * A set of field paths, prefix-aware, as structured-merge-diff's
 * `fieldpath.Set`: the leaves a writer owns, the fields a rule asks about.
 *
 * @example
 * const owned = new FieldSet().insert(['spec', 'replicas']).insert(['spec', 'template']);
 * owned.has(['spec', 'replicas']);                        // true
 * owned.intersects(['spec', 'template', 'spec', 'containers']); // true: an ancestor is a member
 * owned.intersects(['spec']);                             // true: members lie below it
 * owned.intersects(['metadata']);                         // false
 */
export class FieldSet implements Iterable<FieldPath> {
  /** A set of `paths`. */
  public static of(paths: Iterable<FieldPath>): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }

  private readonly index = new FieldIndex<true>();

  /** How many paths are members. */
  public get size(): number {
    return this.index.size;
  }

  /** Adds `path`. */
  public insert(path: FieldPath): this {
    this.index.set(path, true);
    return this;
  }

  /** True when `path` itself is a member. */
  public has(path: FieldPath): boolean {
    return this.index.has(path);
  }

  /**
   * True when `path` meets the set: it is a member, a member is an ancestor of
   * it (the member owns it whole), or a member lies below it.
   */
  public intersects(path: FieldPath): boolean {
    if (this.index.size === 0) return false; // most sets asked are empty: an object without a plain escape hatch
    let found = false;
    this.index.forEachPrefix(path, () => {
      found = true;
    });
    return found || this.index.hasBelow(path);
  }

  /** The nearest member that is a strict ancestor of `path` (a leaf that owns `path` whole), if any. */
  public ancestorOf(path: FieldPath): FieldPath | undefined {
    let depth = -1;
    this.index.forEachPrefix(path, (_, d) => {
      if (d < path.length) depth = d;
    });
    return depth < 0 ? undefined : path.slice(0, depth);
  }

  /** True when `path` is a member or a member lies below it: what removing `path` would remove. */
  public hasAtOrBelow(path: FieldPath): boolean {
    return this.index.has(path) || this.index.hasBelow(path);
  }

  /** The members, depth first. */
  public *[Symbol.iterator](): IterableIterator<FieldPath> {
    for (const [path] of this.index.entries()) yield path;
  }
}
