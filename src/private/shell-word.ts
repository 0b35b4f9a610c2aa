/** A single quote inside a single-quoted shell word: close, escaped quote, reopen. */
const QUOTED_QUOTE = '\'\\\'\'';

/** A word as a POSIX shell reads it literally: unquoted when safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._/:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, QUOTED_QUOTE)}'`;
}
