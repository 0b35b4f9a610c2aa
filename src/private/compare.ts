/**
 * Compares two strings by UTF-16 code units: the same order on every machine,
 * whatever its locale (`localeCompare` is not), so files and reports are
 * deterministic.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
