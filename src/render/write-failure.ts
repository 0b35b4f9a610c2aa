import * as path from 'path';
import { CompositionError } from '../check/composition-error';
import { finding, toViolation, ViolationCode } from '../check/finding';
import { errorMessage } from '../private/errors';

/** What a file-system error code means for a write, and what to do about it. */
const CAUSES: Readonly<Record<string, { cause: string; fix: string }>> = {
  ENOSPC: { cause: 'the disk is full', fix: 'free some space on the disk and synth again' },
  EDQUOT: { cause: 'the disk quota is exceeded', fix: 'free some space within your quota and synth again' },
  EACCES: { cause: 'permission denied', fix: "make the outdir's folder writable by this user, or point the outdir elsewhere" },
  EPERM: { cause: 'the operation is not permitted', fix: "make the outdir's folder writable by this user, or point the outdir elsewhere" },
  EROFS: { cause: 'the file system is read-only', fix: 'point the outdir (the outdir prop, or CDK8S_OUTDIR) at a writable folder' },
  ENOTDIR: { cause: 'a part of the path is a file, not a folder', fix: 'remove or rename that file, or point the outdir elsewhere' },
  EISDIR: { cause: 'a folder is where a file must go', fix: 'remove or rename that folder, or point the outdir elsewhere' },
  ENOENT: { cause: 'a folder was removed while synth was writing', fix: 'make sure no other program cleans the folder during synth, and synth again' },
  EBUSY: { cause: 'the folder is in use (a mount point, or open in another program)', fix: 'close what holds it, or point the outdir at a folder that is not a mount point' },
  EMFILE: { cause: 'too many files are open', fix: 'raise the open-file limit (ulimit -n) and synth again' },
  ENAMETOOLONG: { cause: 'a path is too long for the file system', fix: 'point the outdir at a shorter path' },
};

/**
 * A failure of the write step as a coded `CAP011` refusal: the cause in plain
 * words, the path and call that failed, the fix, and the promise that the
 * previous output (and the lock file) are as they were.
 */
export function writeFailure(outdir: string, error: unknown, alongside?: string): CompositionError {
  const e = error as NodeJS.ErrnoException;
  const cause = e?.code ? CAUSES[e.code] : undefined;
  const known = cause && (e.code === 'EACCES' || e.code === 'EPERM') ? { ...cause, fix: permissionFix(outdir, e, alongside) } : cause;
  const where = e?.path ? ` (${e.code}, ${e.syscall ?? 'write'} '${shownPath(e.path)}')` : '';
  const kept = alongside ? `The previous output and '${alongside}' are unchanged.` : 'The previous output is unchanged.';
  const detail = known
    ? `could not write the output '${outdir}': ${known.cause}${where}. ${kept} Fix: ${known.fix}.`
    : `could not write the output '${outdir}': ${errorMessage(error)}${where}. ${kept}`;
  return new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}

/**
 * The fix for a refused permission, naming the folder that refused:
 * - the outdir itself, when moving it aside failed: the run folder was created
 *   in the outdir's folder before the swap, so that folder is writable, and
 *   Linux moves a folder to another parent only when the folder itself is
 *   writable (its `..` entry changes);
 * - the lock file's folder, when the failing path lies there: the new lock is
 *   written beside the lock file and renamed over it;
 * - else the outdir's folder, where the run folder, the outdir's `.lock` and
 *   the new output are created.
 */
function permissionFix(outdir: string, e: NodeJS.ErrnoException, alongside: string | undefined): string {
  const failed = e.path ? path.resolve(e.path) : undefined;
  const target = path.resolve(outdir);
  if (failed === target && e.syscall === 'rename') {
    return `make the outdir '${shownPath(target)}' itself writable by this user (chmod u+w ${shownPath(target)}): synth moves it aside to swap in the new output; or point the outdir elsewhere`;
  }
  if (alongside && failed && path.dirname(failed) === path.dirname(path.resolve(alongside))) {
    const folder = path.dirname(path.resolve(alongside));
    return `make the lock file's folder '${shownPath(folder)}' writable by this user: the new lock is written beside the lock file and renamed over it; or point the lockFile prop elsewhere`;
  }
  return `make the outdir's folder '${shownPath(path.dirname(target))}' writable by this user, or point the outdir elsewhere`;
}

/** A path relative to the working directory when it lies below it, else absolute. */
function shownPath(p: string): string {
  const relative = path.relative(process.cwd(), p);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? p : relative;
}
