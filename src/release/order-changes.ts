import type { Lock } from './lock';
import { compareText } from '../private/compare';

/**
 * A dependency between stacks and objects of both releases that this release adds or drops: the apply order
 * changes though no stack or object does (an `addDependency` added, a reference removed). `plan` counts it,
 * so a lock that no longer records the order the program declares is not read as current.
 */
export interface OrderChange {
  /** `added`: `unit` now waits for `waitsFor`; `removed`: it no longer does. */
  readonly change: 'added' | 'removed';
  /**
   * What waits: a stack or object as `changed` names it (`ConfigMap edge/y`, `stack cdn/Tenant`), or, for a
   * construct-level dependency, what is under a construct (`everything under cdn/B`).
   */
  readonly unit: string;
  /** What it waits for, named as `unit` is. */
  readonly waitsFor: string;
  /** Why, as the lock records it: `explicit dependency (addDependency)`, a reference, a namespace. */
  readonly reason: string;
}

/** One dependency of a lock, by the names both releases give its ends. */
interface NamedEdge {
  readonly unit: string;
  readonly waitsFor: string;
  readonly reason: string;
}

/**
 * The dependencies between stacks and objects of both releases that one lock records and the other does not,
 * the added ones first, each sorted by what waits. A dependency's ends are named by the unit's id, or a
 * construct-level dependency's by the construct's path; one whose end is a stack or object of one release alone
 * is left out (that stack or object is added or removed, which the plan shows), and so is a construct whose
 * stacks and objects are all of one release alone (a chart added with its dependency). The edges that only place
 * a stack or object under a construct (no reason) are no dependency of their own.
 *
 * @param previous the committed lock
 * @param next the lock of this release
 */
export function orderChanges(previous: Lock, next: Lock): OrderChange[] {
  if (sameOrder(previous, next)) return [];
  return orderChangesOf(previous, next);
}

/** `orderChanges` read off both locks' edges, whatever they are: what the shortcut of `sameOrder` must agree with. */
export function orderChangesOf(previous: Lock, next: Lock): OrderChange[] {
  const ids = new Set(previous.units.map((u) => u.id));
  const common = new Set(next.units.filter((u) => ids.has(u.id)).map((u) => u.id));
  const before = namedEdges(previous, common);
  const after = namedEdges(next, common);
  const changes = [
    ...[...after].filter(([key]) => !before.has(key)).map(([, e]) => ({ change: 'added' as const, ...e })),
    ...[...before].filter(([key]) => !after.has(key)).map(([, e]) => ({ change: 'removed' as const, ...e })),
  ];
  return changes.sort((a, b) => (a.change === b.change ? compareText(a.unit, b.unit) || compareText(a.waitsFor, b.waitsFor) : a.change === 'added' ? -1 : 1));
}

/**
 * True when two locks record one apply order, told without naming their edges: the same unit ids and construct
 * paths at the same indexes, and the same edges in the same order. Every edge's ends are then named alike in both,
 * so neither adds or drops one. A release unchanged against its lock is this, and its lock has an edge for every
 * reference, so naming them all would cost it more than any other part of the plan's comparison.
 */
function sameOrder(previous: Lock, next: Lock): boolean {
  const [a, b] = [previous, next];
  if (a.units.length !== b.units.length || a.barriers.length !== b.barriers.length || a.edges.length !== b.edges.length) return false;
  for (let i = 0; i < a.units.length; i++) if (a.units[i].id !== b.units[i].id) return false;
  for (let i = 0; i < a.barriers.length; i++) if (a.barriers[i] !== b.barriers[i]) return false;
  for (let i = 0; i < a.edges.length; i++) {
    const [x, y] = [a.edges[i], b.edges[i]];
    if (x[0] !== y[0] || x[1] !== y[1] || x[2] !== y[2]) return false;
  }
  return true;
}

/**
 * The dependencies of a lock whose ends are of both releases, by `<unit id> <- <unit id>` (a construct by
 * `construct:<path>`), with the names the plan shows.
 */
function namedEdges(lock: Lock, common: ReadonlySet<string>): Map<string, NamedEdge> {
  const n = lock.units.length;
  // a construct-level dependency's end is of both releases when a stack or object under it is
  const kept = new Set<number>();
  for (const [from, to, reason] of lock.edges) {
    if (reason !== '') continue;
    if (from < n && to >= n && common.has(lock.units[from].id)) kept.add(to);
    if (to < n && from >= n && common.has(lock.units[to].id)) kept.add(from);
  }
  const key = (i: number) => (i < n ? lock.units[i].id : `construct:${lock.barriers[i - n]}`);
  const name = (i: number) => (i < n ? lock.units[i].label : `everything under ${lock.barriers[i - n]}`);
  const ofBoth = (i: number) => (i < n ? common.has(lock.units[i].id) : kept.has(i));
  const edges = new Map<string, NamedEdge>();
  for (const [from, to, reason] of lock.edges) {
    if (reason === '' || !ofBoth(from) || !ofBoth(to)) continue;
    edges.set(`${key(to)} <- ${key(from)}`, { unit: name(to), waitsFor: name(from), reason });
  }
  return edges;
}
