import { isMap } from '../../private/maps';
import type { FieldTopology } from '../topology/field-topology';
import { elementKeyOf, listTypeOf } from '../topology/list-topology';

/**
 * Merges `fields` into `target` as server-side apply merges two managers'
 * fields, following the object's topology: granular maps and structs per key,
 * associative lists per element key, sets per value, everything else (scalars,
 * atomic maps, structs and lists) replaced.
 *
 * `target` is changed in place and returned (a fresh value when it cannot be
 * merged into); what is taken from `fields` is copied, so `fields` is never
 * aliased. Each list remembers its element index between calls, so N merges
 * into one object cost N times the size of what they write, not N times the
 * size of the object. Duplicate keys and repeated set values within one
 * `fields` list are kept, not folded together, so the merged object shows
 * them (the contradiction facts report them).
 *
 * @param target the value merged into (the emitted manifest, owned by the caller)
 * @param fields the value written
 * @param topology the topology of `target`'s node
 */
export function mergeFields(target: unknown, fields: unknown, topology: FieldTopology): unknown {
  if (fields === undefined) return target;
  if (topology.atomic) return clone(fields);
  if (Array.isArray(fields) && Array.isArray(target)) {
    const listType = listTypeOf(topology);
    if (listType === 'associative') return mergeAssociative(target, fields, topology);
    if (listType === 'set') return mergeSet(target, fields);
    return clone(fields);
  }
  if (isMap(fields) && isMap(target) && !topology.atomic && topology.type !== 'scalar' && topology.type !== 'list') {
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (v === undefined) continue;
      target[k] = Object.hasOwn(target, k) ? mergeFields(target[k], v, topology.field(k)) : clone(v);
    }
    return target;
  }
  return clone(fields);
}

/** Element key to index, per associative list merged into. */
const keyIndexes = new WeakMap<unknown[], Map<string, number>>();
/** JSON of each value, per set merged into. */
const setIndexes = new WeakMap<unknown[], Set<string>>();

function mergeAssociative(target: unknown[], fields: unknown[], topology: FieldTopology): unknown[] {
  const elementNode = topology.element();
  let index = keyIndexes.get(target);
  if (!index) {
    index = new Map();
    target.forEach((e, i) => {
      const key = elementKeyOf(e, topology);
      if (!index!.has(key)) index!.set(key, i);
    });
    keyIndexes.set(target, index);
  }
  const added: Array<[string, number]> = [];
  const seen = new Set<string>();
  for (const element of fields) {
    const key = elementKeyOf(element, topology);
    const at = index.get(key);
    const again = seen.has(key);
    seen.add(key);
    if (at === undefined || again) {
      added.push([key, target.length]);
      target.push(clone(element));
    } else {
      target[at] = mergeFields(target[at], element, elementNode);
    }
  }
  // indexed after the loop, and a key twice in `fields` pushed twice: the duplicate stays in the result
  for (const [key, i] of added) if (!index.has(key)) index.set(key, i);
  return target;
}

function mergeSet(target: unknown[], fields: unknown[]): unknown[] {
  let index = setIndexes.get(target);
  if (!index) {
    index = new Set(target.map((v) => JSON.stringify(v)));
    setIndexes.set(target, index);
  }
  const added: string[] = [];
  for (const value of fields) {
    const key = JSON.stringify(value);
    if (index.has(key)) continue; // already there: a set value is shared, not repeated
    added.push(key);
    target.push(clone(value));
  }
  // indexed after the loop, so a value twice in `fields` is pushed twice: the repeat stays in the result
  for (const key of added) index.add(key);
  return target;
}

function clone<T>(x: T): T {
  return x === undefined || x === null || typeof x !== 'object' ? x : structuredClone(x);
}
