import * as fs from 'fs';
import * as path from 'path';

/** What a synth writes: generated files and files copied from scratch space. */
export interface OutputTree {
  /** Generated files: path relative to the outdir, and content. */
  readonly files: Map<string, string>;
  /** Copies: path relative to the outdir, and the absolute source file or folder. */
  readonly copies: Map<string, string>;
}

/**
 * Writes `tree` to `outdir` atomically: everything goes to a fresh sibling
 * folder first, and only a complete folder is swapped in. A synth that fails
 * before the swap leaves the previous output byte-for-byte as it was. Holds
 * the lock `<outdir>.lock` meanwhile: a second synth into the same outdir fails
 * with a clear error instead of interleaving files.
 *
 * @param hooks test seams: `beforeWrite` runs before each file is written
 */
export function writeAtomically(outdir: string, tree: OutputTree, hooks: { beforeWrite?: (relative: string) => void } = {}): void {
  const target = path.resolve(outdir);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const unlock = lockOutdir(target);
  try {
    writeStaged(target, tree, hooks);
  } finally {
    unlock();
  }
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
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.staging-`));
  try {
    for (const [relative, content] of [...tree.files].sort(([a], [b]) => a.localeCompare(b))) {
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
