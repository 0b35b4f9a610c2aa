/**
 * Reading a manifest the program wrote, before any check has refused it: a value may be anything a TypeScript
 * program can put there (a number where a list goes, a Symbol as a name), and reading it must not throw.
 */

/** `x` when it is a list, else no elements. */
export function asList(x: unknown): any[] {
  return Array.isArray(x) ? x : [];
}

/**
 * A list element's key as a field name shows it (`containers[name=web]`). A key the program gave as a Symbol,
 * which a template literal refuses to convert, reads as `Symbol(...)`: the object is refused for it later
 * (`CAP010`), not while it is read.
 */
export function keyText(v: unknown): string {
  return typeof v === 'symbol' ? v.toString() : String(v);
}

/**
 * True when `value` holds itself: a map or list that holds, at any depth, a map or list above it. No walk of such
 * a value ends; JSON and YAML have no form for it (cdk8s and aws-cdk refuse it when they resolve it).
 */
export function holdsItself(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const open: Array<{ value: object; above: readonly object[] }> = [{ value, above: [] }];
  const walked = new Set<object>();
  while (open.length > 0) {
    const { value: v, above } = open.pop()!;
    walked.add(v);
    const chain = [...above, v];
    for (const child of Object.values(v)) {
      if (child === null || typeof child !== 'object') continue;
      if (chain.includes(child)) return true;
      if (!walked.has(child)) open.push({ value: child, above: chain });
    }
  }
  return false;
}
