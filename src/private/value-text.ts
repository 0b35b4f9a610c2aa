/**
 * A value as a message quotes it: its JSON, or `String(value)` for what JSON
 * has no text for (`undefined`, a Symbol), and a function by its name, not
 * its source.
 *
 * @example
 * valueText('edge'); // '"edge"'
 * valueText(undefined); // 'undefined'
 * valueText(GitOps.flux); // 'the function flux'
 */
export function valueText(value: unknown): string {
  if (typeof value === 'function') return value.name ? `the function ${value.name}` : 'a function';
  return JSON.stringify(value) ?? String(value);
}
