import { lazily } from './lazy';

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
