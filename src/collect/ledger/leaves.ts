import { FieldPath, setValueKey } from './field-path';
import { isMap } from '../../private/maps';
import type { FieldTopology } from '../topology/field-topology';
import { elementKeyOf, listTypeOf, topologyAt } from '../topology/list-topology';

/** Fields that identify an object; nobody owns them. */
const IDENTITY: ReadonlySet<string> = new Set(['apiVersion', 'kind']);
const METADATA_IDENTITY: ReadonlySet<string> = new Set(['name', 'namespace']);

/** One path a write owns. */
export interface OwnedLeaf {
  /** The path, in server-side apply's sense. */
  readonly path: FieldPath;
  /**
   * True when the write only makes the node exist: an empty granular map, a
   * keyed list element with nothing but its key, a value of a set. Server-side
   * apply records such a node in the writer's set, yet another writer writing
   * it too, or writing inside it, contests nothing. Only a write that replaces
   * the node (a scalar, an atomic value, a JSON patch's remove) contests it.
   */
  readonly presence?: true;
  /**
   * Set when the write reaches this leaf only by setting the value of an
   * ancestor, the path given (a patch or override of a whole map drops the
   * keys another writer set in it): for messages, which name the map.
   */
  readonly replacing?: FieldPath;
}

/** Options of `leavesOf`. */
export interface LeafOptions {
  /** Values written whole, never walked into (aws-cdk tokens). */
  readonly isOpaque?: (value: unknown) => boolean;
}

/**
 * Every path a manifest (or a value written at `prefix`) owns, as server-side
 * apply owns it, read off the object's field topology: scalars; granular maps
 * and structs per key; associative lists per element key (key fields are the
 * element's identity, not owned); sets per value; atomic lists, maps and
 * structs as one leaf. Empty granular maps, key-only elements and set values
 * are presence leaves (see `OwnedLeaf.presence`). Identity fields
 * (`apiVersion`, `kind`, `metadata.name`, `metadata.namespace`) are left out.
 *
 * @param value the manifest, or the value written at `prefix`
 * @param topology the topology of the object's kind, from `topologyOf` (of the root, even with a prefix)
 * @param prefix the path `value` is written at
 */
export function ownedLeaves(value: unknown, topology: FieldTopology, prefix: FieldPath = [], options: LeafOptions = {}): OwnedLeaf[] {
  const out: OwnedLeaf[] = [];
  const node = prefix.length > 0 ? topologyAt(topology, prefix) : topology;
  walk(value, node, [...prefix], (leaf) => out.push(leaf), options.isOpaque ?? (() => false));
  return out;
}

/** The paths of `ownedLeaves`, presence leaves included, for callers that need no more. */
export function leavesOf(value: unknown, topology: FieldTopology, prefix: FieldPath = [], options: LeafOptions = {}): FieldPath[] {
  return ownedLeaves(value, topology, prefix, options).map((l) => l.path);
}

/** Emits each owned leaf with the value it holds (the element for a key-only element, the value for a set value). */
export type Emit = (leaf: OwnedLeaf, value: unknown) => void;

/**
 * Visits each owned leaf (`visitLeaves`): its path, as the walk's stack (read it before returning: it changes after),
 * whether it is a presence leaf (`OwnedLeaf.presence`), and the value it holds.
 */
export type Visit = (path: readonly string[], presence: boolean, value: unknown) => void;

/**
 * Emits every owned leaf of `value`, found at `path` (its topology `node`),
 * with the value it holds; `ownedLeaves` over an emitter. `path` is used as a
 * stack and left as it was given.
 */
export function walk(value: unknown, node: FieldTopology, path: string[], emit: Emit, isOpaque: (v: unknown) => boolean): void {
  visitLeaves(value, node, path, (at, presence, v) => emit(presence ? { path: [...at], presence: true } : { path: [...at] }, v), isOpaque);
}

/**
 * Visits every owned leaf of `value`, found at `path` (its topology `node`), in the order `walk` emits them, without
 * making a leaf: for a caller that needs only the paths as they go by (`WriterSets` keys a manifest's leaves by them).
 * `path` is used as a stack and left as it was given.
 */
export function visitLeaves(value: unknown, node: FieldTopology, path: string[], visit: Visit, isOpaque: (v: unknown) => boolean): void {
  if (value === undefined) return;
  if (isOpaque(value) || value === null || typeof value !== 'object') {
    visit(path, false, value);
    return;
  }
  const root = path.length === 0;
  if (!root && node.atomic) {
    visit(path, false, value);
    return;
  }
  if (Array.isArray(value)) {
    const listType = listTypeOf(node); // deduced lists are atomic; a list where the schema has none is one value
    if (listType === 'set') {
      for (let i = 0; i < value.length; i++) {
        const element: unknown = value[i];
        path.push(setValueKey(element));
        visit(path, true, element);
        path.pop();
      }
      if (value.length === 0) visit(path, true, value);
    } else if (listType === 'associative') {
      const elementNode = node.element();
      for (let i = 0; i < value.length; i++) {
        const element: unknown = value[i];
        const key = elementKeyOf(element, node);
        path.push(key);
        const inner = isMap(element) ? withoutKeys(element, node.keys!) : undefined;
        if (inner === undefined || Object.keys(inner).length === 0) visit(path, inner !== undefined, element);
        else visitLeaves(inner, elementNode, path, visit, isOpaque);
        path.pop();
      }
      if (value.length === 0) visit(path, true, value);
    } else {
      visit(path, false, value);
    }
    return;
  }
  if (node.type === 'scalar' || node.type === 'list') {
    visit(path, false, value); // a map where the schema has a scalar or a list: it replaces the value whole
    return;
  }
  let defined = 0;
  // indexed loops, not `for...of`: V8 optimizes this walk in a synth's one run, and the iterator protocol's
  // implicit try/finally made that compile cost more than the walk
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    defined++;
    if (isIdentityKey(path, k)) continue;
    path.push(k);
    visitLeaves(v, node.field(k), path, visit, isOpaque);
    path.pop();
  }
  if (defined === 0 && !root) visit(path, true, value);
}

/** True when `key` under `path` is an identity field (`apiVersion`, `kind`, `metadata.name`, `metadata.namespace`), which nobody owns. */
export function isIdentityKey(path: readonly string[], key: string): boolean {
  return (path.length === 0 && IDENTITY.has(key)) || (path.length === 1 && path[0] === 'metadata' && METADATA_IDENTITY.has(key));
}

/** An element without its key fields (undefined fields left out). */
export function withoutKeys(element: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const inner: Record<string, unknown> = {};
  for (const k of Object.keys(element)) {
    if (!keys.includes(k) && element[k] !== undefined) inner[k] = element[k];
  }
  return inner;
}

