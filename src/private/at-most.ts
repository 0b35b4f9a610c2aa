/**
 * At most `max` problems: when there are more, the first `max - 1` and one
 * line counting the rest (`and 3 more problems like these`).
 *
 * @param what what the rest are, in the plural (`problems`, `files`)
 */
export function atMost(problems: readonly string[], max: number, what = 'problems'): string[] {
  if (problems.length <= max) return [...problems];
  return [...problems.slice(0, max - 1), `and ${problems.length - max + 1} more ${what} like these`];
}
