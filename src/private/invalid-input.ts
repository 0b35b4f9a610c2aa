import { constructionRefusal } from './misplaced';

/** The code of an object, or of what a construct was given, that would be refused where it goes (`ViolationCode.INVALID_OBJECT`). */
export const INVALID_OBJECT = 'CAP010';

/**
 * The `CAP010` refusal of what a construct was given, as it is created: a `CompositionError` (its
 * `isCompositionError` is true) whose one violation reads `CAP010 invalid object: <message>`.
 *
 * @param message what was given, where, the rule it breaks and how to fix it
 * @param path the construct path it names; none for the app's own props
 */
export function invalidInput(message: string, path?: string): Error {
  return constructionRefusal(INVALID_OBJECT, `invalid object: ${message}`, path);
}

/**
 * `text` as a DNS-1123 label would take it, for a message to suggest: lowercase, each run of other characters
 * one '-', no '-' at either end, at most 63 characters; empty when nothing of it is left.
 *
 * @example
 * dnsLabelLike('Acme Corp'); // 'acme-corp'
 */
export function dnsLabelLike(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '').slice(0, 63).replace(/-+$/, '');
}
