/**
 * A JSON map as a manifest or template holds it: an object that is not null
 * and not a list (a class instance counts; a caller that must tell a token
 * from a literal asks `isPlainMap`).
 */
export function isMap(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/**
 * An object literal: a plain or null-prototype object, as a program writes
 * one and aws-cdk builds its overrides (not a list, a token, a boxed value or
 * another class's instance).
 */
export function isPlainMap(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}
