/**
 * Appends `items` to `target`, one at a time. `target.push(...items)` passes
 * every item as an argument on the call stack, and a user-sized array (150,000
 * findings, references or edges) overflows it; a loop never does.
 *
 * @returns `target`
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * Appends `item` to the list `map` holds under `key`, made when missing.
 * Growing the list in place keeps gathering n items linear; writing
 * `[...(map.get(key) ?? []), item]` back copies the list every time.
 */
export function appendTo<K, T>(map: Map<K, T[]>, key: K, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
