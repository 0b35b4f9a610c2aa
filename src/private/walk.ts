/**
 * Calls `visit` for every string and number in a JSON-like value, map keys
 * included (`isKey`), with the path to it. The path array is reused: copy it
 * (`[...path]`) to keep it. One walk allocates nothing per value, which matters
 * for checks that read every field of every manifest.
 */
export function forEachScalar(value: unknown, visit: (scalar: string | number, path: readonly string[], isKey: boolean) => void): void {
  const path: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string' || typeof v === 'number') {
      visit(v, path, false);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(String(i));
        walk(v[i]);
        path.pop();
      }
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        path.push(k);
        visit(k, path, true);
        walk((v as Record<string, unknown>)[k]);
        path.pop();
      }
    }
  };
  walk(value);
}
