import { FieldPath } from './field-path';
import { Emit, isIdentityKey, LeafOptions, OwnedLeaf, walk, withoutKeys } from './leaves';
import { isMap } from '../../private/maps';
import type { FieldTopology } from '../topology/field-topology';
import { elementKeyOf, listTypeOf } from '../topology/list-topology';

type Opaque = (value: unknown) => boolean;

/**
 * The leaves that differ between two renders of one object, as a write that
 * turns `before` into `after` owns them: each leaf of `after` that `before`
 * lacks or holds with another value, and each leaf of `before` that `after`
 * lacks (a removal, owned as a write of that path). What a write callback
 * changed, read off the renders before and after it.
 *
 * The two renders are walked side by side: granular maps key by key and
 * associative lists element key by element key, so a subtree equal on both
 * sides costs a comparison, not a list of its leaves. Elsewhere (sets, atomic
 * values, a node whose shape changed) the leaves of both sides are listed and
 * compared as `ownedLeaves` lists them.
 *
 * @param topology the topology of the object's kind (of the root)
 */
export function changedLeaves(before: unknown, after: unknown, topology: FieldTopology, options: LeafOptions = {}): OwnedLeaf[] {
  const changed: OwnedLeaf[] = [];
  changedLeavesAt(before, after, topology, [], changed, options);
  return changed;
}

/**
 * `changedLeaves` of two values found at `path` (of topology `node`), added
 * to `out`. `path` is used as a stack and left as it was given.
 */
export function changedLeavesAt(
  before: unknown, after: unknown, node: FieldTopology, path: string[], out: OwnedLeaf[], options: LeafOptions = {},
): void {
  diff(before, after, node, path, out, options.isOpaque ?? (() => false));
}

function diff(before: unknown, after: unknown, node: FieldTopology, path: string[], out: OwnedLeaf[], isOpaque: Opaque): void {
  if (before === after) return;
  if (isGranularMap(before, node, path, isOpaque) && isGranularMap(after, node, path, isOpaque)) {
    diffMaps(before, after, node, path, out, isOpaque);
  } else if (areKeyedLists(before, after, node, path)) {
    diffKeyedLists(before as unknown[], after as unknown[], node, path, out, isOpaque);
  } else {
    diffLeaves(before, after, node, path, out, isOpaque);
  }
}

/** A map `walk` walks key by key at this node. */
function isGranularMap(value: unknown, node: FieldTopology, path: FieldPath, isOpaque: Opaque): value is Record<string, unknown> {
  return isMap(value) && !isOpaque(value) && !(path.length > 0 && node.atomic) && node.type !== 'scalar' && node.type !== 'list';
}

type JsonMap = Record<string, unknown>;

function diffMaps(before: JsonMap, after: JsonMap, node: FieldTopology, path: string[], out: OwnedLeaf[], isOpaque: Opaque): void {
  for (const k of Object.keys(after)) {
    if (isIdentityKey(path, k)) continue;
    path.push(k);
    diff(before[k], after[k], node.field(k), path, out, isOpaque);
    path.pop();
  }
  for (const k of Object.keys(before)) {
    if (k in after || isIdentityKey(path, k)) continue;
    path.push(k);
    diff(before[k], undefined, node.field(k), path, out, isOpaque);
    path.pop();
  }
  if (path.length === 0) return;
  // an empty map is a presence leaf of its own (walk's `defined === 0`); filled, it is still there: its new keys
  // are the writes, not the map
  if (!hasDefined(after) && hasDefined(before)) out.push({ path: [...path], presence: true });
}

function hasDefined(map: Record<string, unknown>): boolean {
  for (const k in map) if (Object.prototype.hasOwnProperty.call(map, k) && map[k] !== undefined) return true;
  return false;
}

/** Two non-empty associative lists, each without a repeated key: compared element key by element key. */
function areKeyedLists(before: unknown, after: unknown, node: FieldTopology, path: FieldPath): boolean {
  return Array.isArray(before) && Array.isArray(after) && before.length > 0 && after.length > 0
    && !(path.length > 0 && node.atomic) && listTypeOf(node) === 'associative';
}

function diffKeyedLists(before: unknown[], after: unknown[], node: FieldTopology, path: string[], out: OwnedLeaf[], isOpaque: Opaque): void {
  const old = byKey(before, node);
  const now = byKey(after, node);
  if (!old || !now) {
    diffLeaves(before, after, node, path, out, isOpaque); // a repeated key: as walk lists it
    return;
  }
  const elementNode = node.element();
  const element = (key: string, b: unknown, a: unknown) => {
    path.push(key);
    const innerB = isMap(b) ? withoutKeys(b, node.keys!) : undefined;
    const innerA = isMap(a) ? withoutKeys(a, node.keys!) : undefined;
    if (innerB && innerA && Object.keys(innerB).length > 0 && Object.keys(innerA).length > 0) {
      diff(innerB, innerA, elementNode, path, out, isOpaque);
    } else {
      const list = (e: unknown, emit: Emit) => {
        if (e === undefined) return;
        const inner = isMap(e) ? withoutKeys(e, node.keys!) : undefined;
        if (inner === undefined || Object.keys(inner).length === 0) emit({ path: [...path], ...(inner ? { presence: true as const } : {}) }, e);
        else walk(inner, elementNode, path, emit, isOpaque);
      };
      compare(b, a, list, out);
    }
    path.pop();
  };
  for (const [key, a] of now) element(key, old.get(key), a);
  for (const [key, b] of old) if (!now.has(key)) element(key, b, undefined);
}

/** The elements of a keyed list by element key, or undefined when a key repeats. */
function byKey(list: readonly unknown[], node: FieldTopology): Map<string, unknown> | undefined {
  const elements = new Map<string, unknown>();
  for (const e of list) {
    const key = elementKeyOf(e, node);
    if (elements.has(key)) return undefined;
    elements.set(key, e);
  }
  return elements;
}

/**
 * The changed leaves of one subtree, listed in full on both sides and
 * compared by value (the leaves `ownedLeaves` lists at `path`).
 */
function diffLeaves(before: unknown, after: unknown, node: FieldTopology, path: string[], out: OwnedLeaf[], isOpaque: Opaque): void {
  compare(before, after, (doc, emit) => walk(doc, node, path, emit, isOpaque), out);
}

/** Compares the leaves `list` gives for `before` and for `after` by path and value. */
function compare(before: unknown, after: unknown, list: (doc: unknown, emit: Emit) => void, out: OwnedLeaf[]): void {
  const valuesOf = (doc: unknown) => {
    const values = new Map<string, { leaf: OwnedLeaf; value: string }>();
    list(doc, (leaf, value) => values.set(leaf.path.join('\u0000'), { leaf, value: JSON.stringify(value) ?? 'undefined' }));
    return values;
  };
  const old = valuesOf(before);
  const now = valuesOf(after);
  for (const [key, { leaf, value }] of now) if (old.get(key)?.value !== value) out.push(leaf);
  let filled: Set<string> | undefined;
  for (const [key, { leaf }] of old) {
    if (now.has(key)) continue;
    // a presence leaf (an empty map, a key-only element) with leaves below it now is still there, filled
    if (leaf.presence && (filled ??= prefixesOf(now.values())).has(key)) continue;
    out.push({ path: leaf.path });
  }
}

/** Every strict prefix of the leaves' paths, joined as `compare` keys them. */
function prefixesOf(leaves: Iterable<{ leaf: OwnedLeaf }>): Set<string> {
  const prefixes = new Set<string>();
  for (const { leaf } of leaves) for (let i = 1; i < leaf.path.length; i++) prefixes.add(leaf.path.slice(0, i).join('\u0000'));
  return prefixes;
}
