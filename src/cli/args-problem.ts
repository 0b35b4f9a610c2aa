import { nearMiss } from '../private/near-miss';

/**
 * What is wrong with a command's arguments, from `parseArgs`' error: its message, except for an unknown option,
 * which is named with the option of the command it most likely misspells (`nearMiss`), when one is that close:
 * `Unknown option '--formt' (did you mean '--format'?)`. Node's own message for it, when positionals are
 * allowed, ends in how to pass a positional starting with `-`; the command says that itself where it applies.
 *
 * @param e the error `parseArgs` threw
 * @param options the command's long options, without their dashes
 */
export function argsProblem(e: Error, options: readonly string[]): string {
  const unknown = (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']*)'/.exec(e.message) : null;
  if (!unknown) return e.message;
  const given = unknown[1];
  const guess = given.startsWith('--') ? nearMiss(given.slice(2), options) : undefined;
  return `Unknown option '${given}'${guess ? ` (did you mean '--${guess}'?)` : ''}`;
}

/** `(did you mean '<guess>'?)` after a value that is not one of `known`, with a space before it; empty when none is close. */
export function didYouMean(value: string, known: readonly string[]): string {
  const guess = nearMiss(value, known);
  return guess === undefined ? '' : ` (did you mean '${guess}'?)`;
}

/**
 * The line a usage error ends with, in place of the command's whole help: where its options are listed.
 *
 * @param command the command, as typed after `cdk-capability` (`plan`)
 */
export function helpHint(command: string): string {
  return `Run 'cdk-capability ${command} --help' for the options.`;
}
