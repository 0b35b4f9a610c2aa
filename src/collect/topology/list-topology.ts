import type { FieldTopology } from './field-topology';
import { isMap } from '../../private/maps';
import { elementKey, FieldPath, isElementKey, isSetValue, setValueKey } from '../ledger/field-path';

/** How the elements of a list are owned: the list as one leaf, per scalar value, or per element key. */
export type ListType = 'atomic' | 'set' | 'associative';

/**
 * How a node's list elements are owned: its `listType` for a list (an
 * associative list without keys counts as atomic), atomic for a deduced node
 * (a list without a schema is one value) and for a node where the schema has
 * no list at all.
 */
export function listTypeOf(node: FieldTopology): ListType {
  if (node.type !== 'list') return 'atomic';
  if (node.listType === 'associative') return node.keys && node.keys.length > 0 ? 'associative' : 'atomic';
  return node.listType ?? 'atomic';
}

/**
 * The element key segment of an element of the associative list `list`
 * (`k:{"containerPort":80,"protocol":"TCP"}`), the schema's key defaults
 * filled in and a missing key without a default spelt `null`.
 */
export function elementKeyOf(element: unknown, list: FieldTopology): string {
  return elementKey(keyValuesOf(element, list));
}

/** The key fields of an element of `list` and their values, key defaults filled in; a missing key without a default is `null`. */
export function keyValuesOf(element: unknown, list: FieldTopology): Record<string, unknown> {
  const e = (isMap(element) ? element : {}) as Record<string, unknown>;
  const defaults = list.keyDefaults ?? {};
  const values: Record<string, unknown> = {};
  for (const k of list.keys ?? []) values[k] = e[k] ?? defaults[k] ?? null;
  return values;
}

/** The key fields of `list` that `element` lacks and that have no default: the API server refuses such an element. */
export function missingKeysOf(element: unknown, list: FieldTopology): string[] {
  const e = (isMap(element) ? element : {}) as Record<string, unknown>;
  const defaults = list.keyDefaults ?? {};
  return (list.keys ?? []).filter((k) => (e[k] === undefined || e[k] === null) && defaults[k] === undefined);
}

/** The topology node at a path (map keys, element keys and set values stepped through). */
export function topologyAt(root: FieldTopology, path: FieldPath): FieldTopology {
  let node = root;
  for (const segment of path) node = isElementKey(segment) || isSetValue(segment) ? node.element() : node.field(segment);
  return node;
}

/**
 * The value a document holds at a field path: map keys looked up, element
 * keys matched against each element's key (defaults filled in), a set value
 * found by its value, a plain index into a list taken as one; undefined when
 * the path is not in the document.
 *
 * @param root the topology of the document's root
 */
export function valueAt(doc: unknown, path: FieldPath, root: FieldTopology): unknown {
  let current: unknown = doc;
  let node = root;
  for (const segment of path) {
    if (current === undefined || current === null) return undefined;
    if (isElementKey(segment) || isSetValue(segment)) {
      if (!Array.isArray(current)) return undefined;
      const set = isSetValue(segment);
      current = current.find((e) => (set ? setValueKey(e) : elementKeyOf(e, node)) === segment);
      node = node.element();
    } else if (Array.isArray(current)) {
      current = /^\d+$/.test(segment) ? current[Number(segment)] : undefined; // an index into an atomic list (a CloudFormation override path)
      node = node.element();
    } else {
      current = typeof current === 'object' ? (current as Record<string, unknown>)[segment] : undefined;
      node = node.field(segment);
    }
  }
  return current;
}

/**
 * The segment of each element of a list, as the ledger names an element: its element key for an associative
 * list, its value for a set; its index for an atomic list, a list inside an atomic node (`insideAtomic`), and a
 * keyed list two of whose elements have one key, which no key names apart.
 */
export function elementSegments(list: readonly unknown[], node: FieldTopology, insideAtomic: boolean): ReadonlyArray<string | number> {
  const type = insideAtomic ? 'atomic' : listTypeOf(node);
  if (type === 'atomic') return list.map((_, i) => i);
  const segments = list.map((e) => (type === 'set' ? setValueKey(e) : elementKeyOf(e, node)));
  return new Set(segments).size === segments.length ? segments : list.map((_, i) => i);
}
