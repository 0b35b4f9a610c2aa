import { Finding, finding, ViolationCode } from './finding';
import { printable } from '../private/guard';

/**
 * The `CAP000` finding of a crash inside synth: what crashed (a stage, a
 * rule), on which construct when known, and the error. A crash is a bug in
 * cdk-capability, never a verdict on the composition.
 *
 * @param what what crashed, for example `the 'collect' stage`
 * @param path the construct it crashed on, if known
 */
export function internalError(what: string, e: unknown, path?: string): Finding {
  const on = path === undefined ? '' : ` on '${path}'`;
  // an error's message that already ends a sentence ('... could not be cloned.') keeps its own stop
  const error = printable(e).trimEnd();
  const stop = /[.!?]$/.test(error) ? '' : '.';
  return finding(
    ViolationCode.INTERNAL_ERROR,
    `${what} crashed${on}: ${error}${stop} This is a bug in cdk-capability, not in your composition: please report it with the composition that triggers it.`,
    path === undefined ? [] : [path],
  );
}
