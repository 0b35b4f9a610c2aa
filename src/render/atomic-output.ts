import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { OUTPUT_MARKER, OUTPUT_MARKER_CONTENT, outdirProblem, ProtectedPaths } from './outdir-safety';
import type { OutputTree } from './output-tree';
import { CompositionError } from '../check/composition-error';
import { finding, toViolation, ViolationCode } from '../check/finding';
import { compareText } from '../private/compare';

/** Options of `writeAtomically`. */
export interface WriteOptions {
  /**
   * What the outdir must never be or contain.
   *
   * @default - the working directory, and no file
   */
  readonly protectedPaths?: ProtectedPaths;
  /** Test seam: runs before each file is written. */
  readonly beforeWrite?: (relative: string) => void;
}

/**
 * Writes `tree` to `outdir` atomically: everything goes to a fresh sibling
 * folder first, and only a complete folder is swapped in. A synth that fails
 * before the swap leaves the previous output byte-for-byte as it was. Holds
 * the lock `<outdir>.lock` meanwhile: a second synth into the same outdir fails
 * with a clear error instead of interleaving files.
 *
 * Only our own output is ever replaced: an outdir that exists must hold the
 * marker a previous synth left (or be empty), and it must not be or contain the
 * working directory or a protected file; otherwise nothing is written and a
 * `CAP011` `CompositionError` says why. Folders are created with the
 * permissions the umask gives, like any other tool's output.
 */
export function writeAtomically(outdir: string, tree: OutputTree, options: WriteOptions = {}): void {
  const target = path.resolve(outdir);
  const protectedPaths = options.protectedPaths ?? { cwd: process.cwd(), files: [] };
  refuseUnsafeOutdir(outdir, protectedPaths);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const unlock = lockOutdir(target);
  try {
    // Checked again under the lock: another synth or program may have written there meanwhile.
    refuseUnsafeOutdir(outdir, protectedPaths);
    writeStaged(target, tree, options);
  } finally {
    unlock();
  }
}

function refuseUnsafeOutdir(outdir: string, protectedPaths: ProtectedPaths): void {
  const problem = outdirProblem(outdir, protectedPaths);
  if (!problem) return;
  const detail = `${problem}. Nothing was changed. Point the outdir (the outdir prop, or CDK8S_OUTDIR) at a new or empty folder, or at one a previous synth wrote.`;
  throw new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}

/**
 * Takes the outdir's lock, a sibling folder `<outdir>.lock` created
 * exclusively, so two synths into one outdir cannot interleave their files.
 *
 * @returns the function that releases it
 * @throws when another synth holds it
 */
function lockOutdir(target: string): () => void {
  const lock = `${target}.lock`;
  try {
    fs.mkdirSync(lock);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    throw new Error(`another synth is writing '${target}' (lock '${lock}' exists; remove it if no synth is running)`);
  }
  return () => fs.rmSync(lock, { recursive: true, force: true });
}

function writeStaged(target: string, tree: OutputTree, hooks: { beforeWrite?: (relative: string) => void }): void {
  const parent = path.dirname(target);
  const staging = freshFolder(path.join(parent, `.${path.basename(target)}.staging-`));
  try {
    fs.writeFileSync(path.join(staging, OUTPUT_MARKER), OUTPUT_MARKER_CONTENT);
    for (const [relative, content] of [...tree.files].sort(([a], [b]) => compareText(a, b))) {
      hooks.beforeWrite?.(relative);
      const file = confined(staging, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    for (const [relative, source] of tree.copies) {
      hooks.beforeWrite?.(relative);
      const dest = confined(staging, relative);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      // verbatimSymlinks: a link in an asset stays as staged; without it Node rewrites relative links to absolute scratch paths
      fs.cpSync(source, dest, { recursive: true, verbatimSymlinks: true });
    }
    swap(staging, target);
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Creates a new folder named `prefix` plus random characters, exclusively, with
 * the permissions the umask gives (`mkdtemp` would make it private, 0700).
 */
function freshFolder(prefix: string): string {
  for (;;) {
    const dir = `${prefix}${randomBytes(6).toString('hex')}`;
    try {
      fs.mkdirSync(dir, { mode: 0o777 });
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * Resolves `relative` under `root`, refusing anything that would land outside
 * it (absolute paths, `..` segments). Names are derived and sanitized before
 * they get here; this is the last line of defence.
 */
export function confined(root: string, relative: string): string {
  const resolved = path.resolve(root, relative);
  if (path.isAbsolute(relative) || !resolved.startsWith(root + path.sep)) {
    throw new Error(`refusing to write '${relative}' outside the output folder '${root}'`);
  }
  return resolved;
}

/** Moves the old output aside, the new one in, then removes the old one. */
function swap(staging: string, target: string): void {
  let previous: string | undefined;
  if (fs.existsSync(target)) {
    previous = `${staging}.previous`;
    fs.renameSync(target, previous);
  }
  try {
    fs.renameSync(staging, target);
  } catch (e) {
    if (previous) fs.renameSync(previous, target);
    throw new Error(`could not move the new output into '${target}' (another synth may be writing there): ${(e as Error).message}`);
  }
  if (previous) fs.rmSync(previous, { recursive: true, force: true });
}
