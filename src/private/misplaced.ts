import type { IConstruct } from 'constructs';
import { brand, hasBrand } from './brand';

/** The code of a construct created outside a capability (`ViolationCode.MISPLACED_CONSTRUCT`). */
export const MISPLACED_CONSTRUCT = 'CAP015';

/**
 * Returns `scope` when a `Capability` is `scope` or one of its ancestors;
 * throws otherwise, before the construct is added, the refusal
 * `CompositionError` carries (`CompositionError.isCompositionError` is true
 * for it): `CAP015 misplaced construct: ...`.
 *
 * @param what the class being created, as the message names it (`SharedBase`)
 */
export function requireCapability<T extends IConstruct>(scope: T, id: string, what: string): T {
  if (scope.node.scopes.some((s) => hasBrand(s, 'Capability'))) return scope;
  const path = scope.node.path ? `${scope.node.path}/${id}` : id;
  const message = `misplaced construct: ${what} '${path}' is created outside any Capability, but it belongs to one. `
    + `Create it with a Capability, or a construct inside one, as scope (new ${what}(capability, '${id}')); `
    + 'a chart or stack class that extends it keeps its own constructor.';
  const violation = { code: MISPLACED_CONSTRUCT, message, paths: [path] };
  const error = new Error(`The composition was refused with 1 violation:\n${MISPLACED_CONSTRUCT} ${message}`);
  error.name = 'CompositionError';
  error.stack = `${error.name}: ${error.message}`;
  brand(error, 'CompositionError');
  Object.defineProperty(error, 'violations', { value: [violation], enumerable: false });
  return thrown(error);
}

function thrown(error: Error): never {
  throw error;
}
