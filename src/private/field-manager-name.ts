import { lazily } from './lazy';

/** What every field manager of a writer of the composition starts with, so `managedFields` tells ours apart. */
export const FIELD_MANAGER_PREFIX = 'cdk-capability:';

/**
 * The field manager `apply` gives the whole merged object for a moment (the first apply of each step), and
 * that releases it again at the end of the step: between releases it owns nothing.
 */
export const APPLIER_FIELD_MANAGER = 'cdk-capability';

/**
 * What the field manager of a `RuntimeWriter` declared without `manager` starts with. Not
 * `FIELD_MANAGER_PREFIX`: `apply` never applies under it, and what its controller writes outside the
 * composition (every object of a kind) is not ours.
 */
export const RUNTIME_FIELD_MANAGER_PREFIX = 'cdk-capability-runtime:';

/**
 * True when `name` is, or could be, a field manager this library names itself: `cdk-capability`, a writer's
 * `cdk-capability:...`, a runtime writer's derived `cdk-capability-runtime:...`. A controller declared
 * under one would share it with the library's applies.
 */
export function isReservedFieldManager(name: string): boolean {
  return name === APPLIER_FIELD_MANAGER || name.startsWith(FIELD_MANAGER_PREFIX) || name.startsWith(RUNTIME_FIELD_MANAGER_PREFIX);
}

/** The API server's limit on a field manager's name, in bytes of UTF-8 (`FieldManagerMaxLength`). */
export const FIELD_MANAGER_MAX_BYTES = 128;

/**
 * Characters the API server accepts in a field manager's name: Go's `unicode.IsPrint`. Made on first use: a
 * Unicode class costs a module a millisecond to load, and a name of printable ASCII never needs it.
 */
export const printableClasses = lazily(() => ({ all: /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u, not: /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu }));

/** Printable ASCII, all of it `printableClasses().all`: the fast test. */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * True when the API server accepts `name` as a field manager's: a string of 1 to 128 bytes of UTF-8, every
 * character printable (`--field-manager` of kubectl, `fieldManager` of a request).
 *
 * @example
 * isFieldManagerName('network-operator'); // true
 * isFieldManagerName(''); // false
 * isFieldManagerName('bad\u0007manager'); // false
 */
export function isFieldManagerName(name: unknown): name is string {
  if (typeof name !== 'string' || name === '') return false;
  return PRINTABLE_ASCII.test(name)
    ? name.length <= FIELD_MANAGER_MAX_BYTES
    : Buffer.byteLength(name) <= FIELD_MANAGER_MAX_BYTES && printableClasses().all.test(name);
}
