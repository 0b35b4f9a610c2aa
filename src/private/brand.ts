/** The brands' symbols, by name: `Symbol.for` looks its key up in the global registry, which is slow on a hot path. */
const SYMBOLS = new Map<string, symbol>();

function symbolOf(name: string): symbol {
  let symbol = SYMBOLS.get(name);
  if (symbol === undefined) {
    symbol = Symbol.for(`cdk-capability.${name}`);
    SYMBOLS.set(name, symbol);
  }
  return symbol;
}

/**
 * Brands that make `isX` checks work across duplicate installs of this
 * package, where `instanceof` would fail (the constructs pattern).
 */
export function brand(target: object, name: string): void {
  Object.defineProperty(target, symbolOf(name), { value: true });
}

/** True when `x` carries the brand `name`. */
export function hasBrand(x: unknown, name: string): boolean {
  return x !== null && typeof x === 'object' && symbolOf(name) in x;
}
