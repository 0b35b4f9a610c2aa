/** The message of anything thrown, without its stack. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Node's `util.inspect.custom`, by its registered name: no import of `util` for it. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes `console.error(error)` (and `util.inspect`) print a refusal as its report, `CompositionError: The
 * composition was refused ...` then one `CAPnnn ...` line each, instead of the report in brackets, as Node
 * shows an error whose stack holds no frame (a refusal's stack is its report alone).
 */
export function inspectedAsReport(error: Error): void {
  Object.defineProperty(error, INSPECT, { value: () => error.stack, enumerable: false, configurable: true });
}
