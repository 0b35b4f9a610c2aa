import { Lazy } from 'cdk8s';
import { isPlainMap } from '../private/maps';

/**
 * A Contribution's fields with every cdk8s `Lazy` in them produced, as cdk8s resolves a `Lazy` in a declaration's
 * own props at synth. Anything else is kept as it is: an aws-cdk token stays a token, which the boundary check
 * refuses in a runtime object. The fields themselves when they hold no `Lazy`.
 */
export function withLaziesResolved<T>(value: T): T {
  return holdsLazy(value) ? (resolved(value) as T) : value;
}

function resolved(value: unknown): unknown {
  if (value instanceof Lazy) return resolved(value.produce());
  if (Array.isArray(value)) return value.map(resolved);
  if (isPlainMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]));
  return value;
}

function holdsLazy(value: unknown): boolean {
  if (value instanceof Lazy) return true;
  if (Array.isArray(value)) return value.some(holdsLazy);
  return isPlainMap(value) && Object.values(value).some(holdsLazy);
}

