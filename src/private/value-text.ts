/**
 * A value as a message quotes it: its JSON, or `String(value)` for what JSON
 * has no text for (`undefined`, a function, a Symbol).
 *
 * @example
 * valueText('edge'); // '"edge"'
 * valueText(undefined); // 'undefined'
 */
export function valueText(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
