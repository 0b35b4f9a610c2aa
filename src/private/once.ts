/** A function that computes `make()` on its first call and returns the same value on every later one. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
