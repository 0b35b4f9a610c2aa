import { IConstruct } from 'constructs';
import { errorMessage } from './errors';

/**
 * Runs `fn` for `construct`; an error it throws carries the construct's path
 * (as aws-cdk's own errors do, in `constructPath`), so a crash report can say
 * which construct the crash happened on.
 */
export function inConstruct<T>(construct: IConstruct, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e !== null && typeof e === 'object' && !('constructPath' in e)) {
      try {
        Object.defineProperty(e, 'constructPath', { value: construct.node.path, enumerable: false });
      } catch {
        // a frozen value: report the crash without the path
      }
    }
    throw e;
  }
}

/**
 * The construct an error is about: the `constructPath` it carries (aws-cdk's
 * errors, and `inConstruct`), else the longest of `paths` quoted in its message.
 */
export function constructPathOf(e: unknown, paths: Iterable<string>): string | undefined {
  const carried = (e as { constructPath?: unknown } | undefined)?.constructPath;
  if (typeof carried === 'string' && carried) return carried;
  const message = printable(e);
  let found: string | undefined;
  for (const p of paths) {
    if (p && (found === undefined || p.length > found.length) && message.includes(`'${p}'`)) found = p;
  }
  return found;
}

/** The message of anything thrown, even a value that cannot be turned into a string (`Object.create(null)`). */
export function printable(e: unknown): string {
  try {
    return errorMessage(e);
  } catch {
    return 'a value that cannot be printed';
  }
}
