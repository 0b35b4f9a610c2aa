/**
 * Brands that make `isX` checks work across duplicate installs of this
 * package, where `instanceof` would fail (the constructs pattern).
 */
export function brand(target: object, name: string): void {
  Object.defineProperty(target, Symbol.for(`cdk-capability.${name}`), { value: true });
}

/** True when `x` carries the brand `name`. */
export function hasBrand(x: unknown, name: string): boolean {
  return x !== null && typeof x === 'object' && Symbol.for(`cdk-capability.${name}`) in x;
}
