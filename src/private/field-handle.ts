/** What a contract's field handle is a handle of: the contract's construct path and the field's name. */
export interface FieldHandleOrigin {
  /** The contract's construct path. */
  readonly contract: string;
  /** The field's name. */
  readonly field: string;
}

const origins = new WeakMap<object, FieldHandleOrigin>();

/** Marks `handle` (or one of its methods) as the handle `consume` made of `origin`'s field, for messages to tell it from a value. */
export function markFieldHandle(handle: object, origin: FieldHandleOrigin): void {
  origins.set(handle, origin);
}

/** The contract and field of a handle `consume` made (or of one of its methods), or undefined for any other value. */
export function fieldHandleOrigin(x: unknown): FieldHandleOrigin | undefined {
  return (x !== null && typeof x === 'object') || typeof x === 'function' ? origins.get(x) : undefined;
}
