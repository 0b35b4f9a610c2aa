import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_LOCK_FILE } from './lock';
import { shellWord } from '../private/shell-word';

/**
 * The variable that asks a synth to rewrite the lock. One reader for all of
 * them: `CapabilityApp`, the validation plugin, `cdk-capability plan` and `apply`.
 */
export const UPDATE_LOCK_ENV = 'CDK_CAPABILITY_UPDATE_LOCK';

/** What {@link parseUpdateLock} read: rewrite the lock or not, or why the value is refused. */
export type UpdateLockSwitch = { readonly update: boolean; readonly problem?: undefined } | { readonly update?: undefined; readonly problem: string };

/**
 * `CDK_CAPABILITY_UPDATE_LOCK` read: update for `1`, `true`, `yes`; leave the
 * lock for unset, blank, `0`, `false`, `no` (any case); anything else is
 * refused (`CAP011`, before anything is written) with the returned problem.
 */
export function parseUpdateLock(value: string | undefined = process.env[UPDATE_LOCK_ENV]): UpdateLockSwitch {
  const v = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(v)) return { update: true };
  if (['', '0', 'false', 'no'].includes(v)) return { update: false };
  return {
    problem: `${UPDATE_LOCK_ENV} is ${JSON.stringify(value)}, which is neither 1, true or yes (rewrite the lock) nor 0, false, no or unset (leave it). Nothing was changed. Set it to one of those.`,
  };
}

/**
 * Why the lock of this release cannot be written to `lockFile`: its folder does not exist, or is a file.
 * Refused (`CAP011`) before anything is written rather than created: a folder that is not there is more
 * often a mistyped path than one to make.
 *
 * @returns the problem, or undefined when the folder is there
 */
export function lockFolderProblem(lockFile: string, value: string | undefined = process.env[UPDATE_LOCK_ENV]): string | undefined {
  const folder = path.dirname(path.resolve(lockFile));
  const names = `the folder '${displayPath(folder)}' of the lock file '${displayPath(lockFile)}'`;
  const cannot = `so the lock of this release cannot be written (${UPDATE_LOCK_ENV}=${value}). Nothing was changed.`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(folder);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: a file where a folder above it must be; anything else is left to the write, which names it (CAP011)
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    return `${names} does not exist, ${cannot} Create the folder (mkdir -p ${displayPath(folder)}), or correct the path of the lock file, and synth again.`;
  }
  if (stat.isDirectory()) return undefined;
  return `${names} is a file, not a folder, ${cannot} Correct the path of the lock file, or move that file away, and synth again.`;
}

/** What a release removes against the previous lock, which nothing deletes, for {@link lockWrittenLine}. */
export interface LockRemovals {
  /** How many objects it removes. */
  readonly objects: number;
  /** How many stacks it removes. */
  readonly stacks: number;
  /**
   * The `plan.json` written beside the lock, which holds their teardown; undefined when the output is not kept
   * (`cdk8s synth --stdout` writes it to a folder it removes).
   */
  readonly planFile?: string;
}

/**
 * The one line every writer of the lock prints after writing it. When the release removes objects or stacks
 * of the previous lock, it says how many and where their teardown is: a plan made against the new lock no
 * longer lists them, so the `plan.json` written with it is the last one that does.
 */
export function lockWrittenLine(lockFile: string, value: string | undefined = process.env[UPDATE_LOCK_ENV], removals?: LockRemovals): string {
  const line = `cdk-capability: wrote the lock of this release to ${displayPath(lockFile)} (${UPDATE_LOCK_ENV}=${value}); commit it.`;
  const count = (removals?.objects ?? 0) + (removals?.stacks ?? 0);
  if (!removals || count === 0) return line;
  const removed = [counted(removals.objects, 'object'), counted(removals.stacks, 'stack')].filter((c) => c !== '').join(' and ');
  const them = count === 1 ? 'it' : 'them';
  const their = count === 1 ? 'its' : 'their';
  const teardown = removals.planFile === undefined
    ? `\`cdk-capability plan --teardown\` against the previous lock prints ${their} deletion`
    : `\`cdk-capability plan --teardown --plan ${shellWord(displayPath(removals.planFile))}\` prints ${their} deletion (keep that plan.json)`;
  return `${line} This release removes ${removed} of the previous lock, which nothing deletes: ${teardown}; a plan made against this lock no longer lists ${them}.`;
}

/** `1 object`, `2 stacks`; empty for none. */
function counted(n: number, noun: string): string {
  return n === 0 ? '' : `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A path relative to the working directory when it is inside it, else absolute. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Where {@link defaultLockFile} looks. */
export interface LockSearch {
  /**
   * The program's entry file (the script node runs); ignored when it lies in a
   * `node_modules` folder (a tool such as jest or the cdk8s CLI runs the code).
   *
   * @default - process.argv[1]
   */
  readonly entry?: string;
  /** @default - process.cwd() */
  readonly cwd?: string;
}

/**
 * The default lock file, `capability.lock.json` beside the program's
 * `cdk8s.yaml`: the nearest one in the entry file's folder or above it, up to
 * the first folder holding a `package.json`; else beside the entry file. Without
 * an entry file of the program's own (a tool runs it), beside the `cdk8s.yaml`
 * of the working directory, which is where the cdk8s CLI runs.
 * So `cdk-capability plan --app "npx ts-node rel/main.ts"` run from a parent
 * folder compares against `rel/capability.lock.json`.
 */
export function defaultLockFile(search: LockSearch = {}): string {
  const cwd = path.resolve(search.cwd ?? process.cwd());
  const entry = search.entry ?? process.argv[1];
  if (entry === undefined || entry === '' || path.resolve(cwd, entry).split(path.sep).includes('node_modules')) {
    return path.join(cwd, DEFAULT_LOCK_FILE);
  }
  const start = path.dirname(path.resolve(cwd, entry));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cdk8s.yaml'))) return path.join(dir, DEFAULT_LOCK_FILE);
    if (fs.existsSync(path.join(dir, 'package.json')) || path.dirname(dir) === dir) break;
  }
  return path.join(start, DEFAULT_LOCK_FILE);
}
