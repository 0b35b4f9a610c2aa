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
