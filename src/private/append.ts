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
