/**
 * The oracle of the write property tests (CloudFormation overrides, JSON patches): what each writer wrote, seen
 * on its own, and where to find each of its values in what was rendered. Paths are lists of map keys.
 */

/** One write: a value set at a path, replacing what was there (an override, a patch `add` or `replace`). */
export interface KeyedWrite {
  readonly keys: readonly string[];
  readonly value: unknown;
}

/** A writer's own view of what it wrote: its writes applied in order, each replacing the value at its path (the last key replaced). */
export function writtenBy(writes: readonly KeyedWrite[]): Record<string, unknown> {
  const raw: Record<string, any> = {};
  for (const { keys, value } of writes) {
    let node = raw;
    for (const k of keys.slice(0, -1)) {
      if (node[k] === null || typeof node[k] !== 'object' || Array.isArray(node[k])) node[k] = {};
      node = node[k];
    }
    node[keys[keys.length - 1]] = value;
  }
  return raw;
}

/** The leaves of a value, each as its path of keys and its value. */
export function leaves(v: unknown, at: string[] = []): Array<[string[], unknown]> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
    return Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]));
  }
  return at.length === 0 ? [] : [[at, v]];
}

/** The value at a path of keys in a document, or undefined. */
export function valueAt(doc: unknown, keys: readonly string[]): unknown {
  return keys.reduce<any>((node, k) => (node !== null && typeof node === 'object' ? node[k] : undefined), doc);
}
