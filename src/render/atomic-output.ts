import * as fs from 'fs';
import * as path from 'path';
import type { FileContent, PiecewiseText } from './file-content';
import { OutdirLock } from './outdir-lock';
import { filesUnder, OUTPUT_MARKER, outdirProblem, outputMarkerContent, ProtectedPaths } from './outdir-safety';
import type { OutputTree } from './output-tree';
import { recoverDeadRuns, removeJournal, writeJournal } from './swap-journal';
import { writeFailure } from './write-failure';
import { CompositionError } from '../check/composition-error';
import { finding, toViolation, ViolationCode } from '../check/finding';
import { internalError } from '../check/internal-error';
import { compareText } from '../private/compare';
import { pulse } from '../private/heartbeat';
import { RunFolder } from '../private/run-folder';
import { writeSteps } from '../private/write-steps';

/** A file written in the same transaction as the output: it changes only if the output does. */
export interface TransactionFile {
  /** The file's path. */
  readonly path: string;
  /** Its new content. */
  readonly content: string;
}

/** Options of `writeAtomically`. */
export interface WriteOptions {
  /**
   * What the outdir must never be or contain.
   *
   * @default - the working directory, and no file
   */
  readonly protectedPaths?: ProtectedPaths;
  /**
   * A file to replace together with the output (the lock file): staged before
   * the swap, moved into place after it; if it cannot be, the output is rolled
   * back.
   *
   * @default - none
   */
  readonly alongside?: TransactionFile;
  /**
   * The outdir, already held by the caller (`holdOutdir`) for the whole synth.
   *
   * @default - held for the write alone
   */
  readonly held?: HeldOutdir;
  /** Test seam: runs before each file is written. */
  readonly beforeWrite?: (relative: string) => void;
}


/** An outdir held for one synth: its lock taken, and what killed synths left beside it finished or rolled back. */
export interface HeldOutdir {
  /** The outdir's lock. */
  readonly lock: OutdirLock;
  /** This synth's run folder beside it. */
  readonly run: RunFolder;
  /** Releases the lock and empties the run folder of what the write left. */
  release(): void;
}

/**
 * Takes the lock of `outdir` (`OutdirLock`), then finishes or rolls back a
 * swap a killed synth left half done and removes the folders of dead runs, so
 * that the outdir and the lock file are of one release before anything reads
 * them. `CapabilityApp.synth` holds its outdir from before it reads the lock
 * file until its output is written.
 *
 * @throws a `CAP011` `CompositionError` when a live synth holds the lock
 */
export function holdOutdir(outdir: string): HeldOutdir {
  const target = path.resolve(outdir);
  const run = RunFolder.for(target);
  const lock = OutdirLock.acquire(target, run);
  try {
    writeSteps.observe?.('locked');
    for (const notice of recoverDeadRuns(target)) process.stderr.write(notice);
  } catch (e) {
    lock.release();
    throw e;
  }
  return {
    lock,
    run,
    release: () => {
      lock.release();
      run.prune();
    },
  };
}

/**
 * Writes `tree` to `outdir` atomically: everything goes to a fresh folder
 * beside it first (the run's folder, on the same file system), and only a
 * complete folder is swapped in. A synth that fails before the swap leaves the
 * previous output byte-for-byte as it was. Holds the outdir's lock meanwhile
 * (`holdOutdir`): a second synth into the same outdir fails with a clear error
 * instead of interleaving files; a lock left by a synth that was killed is
 * taken over, with a notice.
 *
 * Only our own output is ever replaced: an outdir that exists must hold the
 * marker a previous synth left (or be empty), and it must not be or contain the
 * working directory or a protected file; otherwise nothing is written and a
 * `CAP011` `CompositionError` says why. Every other failure of the write (a
 * full disk, a folder without write permission, ...) is a `CAP011` too, naming
 * the cause and the fix. Folders are created with the permissions the umask
 * gives, like any other tool's output.
 *
 * The swap is two or three renames (the old output aside, the new one in, the
 * new lock file onto the old): POSIX has no atomic exchange of two folders.
 * The run folder journals the swap before it begins; the last rename is its
 * commit point. A synth killed before it leaves the old output and the old
 * lock file once the next synth into the outdir has rolled the swap back; one
 * killed after it, the new output and the new lock file.
 */
export function writeAtomically(outdir: string, tree: OutputTree, options: WriteOptions = {}): void {
  const target = path.resolve(outdir);
  const protectedPaths = options.protectedPaths ?? { cwd: process.cwd(), files: [] };
  refuseUnsafeOutdir(outdir, protectedPaths);
  try {
    const held = options.held ?? holdOutdir(target);
    try {
      // Checked again under the lock: another synth or program may have written there meanwhile.
      refuseUnsafeOutdir(outdir, protectedPaths);
      writeStaged(target, held, tree, options);
    } finally {
      if (!options.held) held.release();
    }
  } catch (e) {
    if (CompositionError.isCompositionError(e)) throw e;
    throw writeFailure(outdir, e, options.alongside?.path);
  }
}

function refuseUnsafeOutdir(outdir: string, protectedPaths: ProtectedPaths): void {
  const problem = outdirProblem(outdir, protectedPaths);
  if (!problem) return;
  const detail = `${problem}. Nothing was changed. Point the outdir (the outdir prop, or CDK8S_OUTDIR) at a new or empty folder, or at one a previous synth wrote.`;
  throw new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}

function writeStaged(target: string, held: HeldOutdir, tree: OutputTree, options: WriteOptions): void {
  const { run } = held;
  const staging = run.freshFolder('output');
  for (const [relative, content] of [...tree.files].sort(([a], [b]) => compareText(a, b))) {
    options.beforeWrite?.(relative);
    const file = confined(staging, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeContent(file, relative, content);
  }
  for (const [relative, source] of tree.copies) {
    options.beforeWrite?.(relative);
    const dest = confined(staging, relative);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    placeCopy(source, dest);
  }
  // last: the marker lists what the output holds, so the next synth knows any other file for someone's
  fs.writeFileSync(path.join(staging, OUTPUT_MARKER), outputMarkerContent(filesUnder(staging)));
  writeSteps.observe?.('staged');
  pulse();
  const alongside = options.alongside && stageAlongside(run, options.alongside);
  held.lock.assertHeld();
  swap(staging, target, run, alongside);
  writeSteps.observe?.('done');
}

/** Pieces are gathered into writes of about this many characters: few system calls, little held at once. */
const WRITE_CHUNK = 65_536;

/**
 * Writes a generated file: its text at once, or its pieces as they are made.
 * A piece that cannot be made is a bug of ours, not a failed write: it is the
 * `CAP000` of the file, and nothing is swapped in.
 */
function writeContent(file: string, relative: string, content: FileContent): void {
  if (typeof content === 'string') {
    fs.writeFileSync(file, content);
    return;
  }
  const fd = fs.openSync(file, 'w');
  try {
    let pending = '';
    for (const piece of generated(relative, content)) {
      pending += piece;
      if (pending.length >= WRITE_CHUNK) {
        fs.writeSync(fd, pending);
        pending = '';
      }
    }
    if (pending !== '') fs.writeSync(fd, pending);
  } finally {
    fs.closeSync(fd);
  }
}

/** The pieces of a content; a throw while making one becomes the `CAP000` that names the file. */
function* generated(relative: string, content: PiecewiseText): Generator<string> {
  let pieces: Iterator<string>;
  try {
    pieces = content.pieces()[Symbol.iterator]();
  } catch (e) {
    throw madeBadly(relative, e);
  }
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = pieces.next();
    } catch (e) {
      throw madeBadly(relative, e);
    }
    if (next.done) return;
    yield next.value;
  }
}

function madeBadly(relative: string, e: unknown): CompositionError {
  return new CompositionError([toViolation(internalError(`making the content of '${relative}'`, e))]);
}

/**
 * Puts `source` (a file or a folder) at `dest` without writing its bytes again:
 * hard links, file by file, where the file system allows them (the run folder
 * is beside the outdir); a copy elsewhere. Links inside stay links, verbatim.
 */
function placeCopy(source: string, dest: string): void {
  const stat = fs.lstatSync(source);
  if (stat.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(source), dest);
  } else if (stat.isDirectory()) {
    fs.mkdirSync(dest);
    for (const entry of fs.readdirSync(source)) placeCopy(path.join(source, entry), path.join(dest, entry));
  } else {
    try {
      fs.linkSync(source, dest);
    } catch (e) {
      if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
      fs.copyFileSync(source, dest);
    }
  }
}

/** A staged transaction file: its temporary copy, written beside its target. */
interface StagedFile {
  readonly temporary: string;
  readonly target: string;
}

function stageAlongside(run: RunFolder, file: TransactionFile): StagedFile {
  const target = path.resolve(file.path);
  const temporary = `${target}.${path.basename(run.path)}.tmp`;
  run.recordTemporary(temporary);
  fs.writeFileSync(temporary, file.content);
  writeSteps.observe?.('alongside-staged');
  return { temporary, target };
}

/**
 * Journals the swap in the run folder, then moves the old output aside (into
 * the run folder), the new one in, then the transaction file into place (the
 * commit point), then removes the old output. A failure before the commit
 * point restores the old output; a kill before it is rolled back by the next
 * synth (`recoverDeadRuns`).
 */
function swap(staging: string, target: string, run: RunFolder, alongside: StagedFile | undefined): void {
  const previous = path.join(run.path, 'previous');
  const hadPrevious = fs.existsSync(target);
  writeJournal(run.path, { formatVersion: 1, outdir: target, staged: staging, previous, hadPrevious, ...(alongside ? { alongside } : {}) });
  writeSteps.observe?.('journaled');
  try {
    if (hadPrevious) fs.renameSync(target, previous);
    writeSteps.observe?.('previous-moved');
    try {
      fs.renameSync(staging, target);
    } catch (e) {
      if (hadPrevious) fs.renameSync(previous, target);
      throw e;
    }
    writeSteps.observe?.('output-moved');
    if (alongside) {
      try {
        fs.renameSync(alongside.temporary, alongside.target);
      } catch (e) {
        fs.renameSync(target, path.join(run.path, 'rolled-back'));
        if (hadPrevious) fs.renameSync(previous, target);
        throw e;
      }
      writeSteps.observe?.('alongside-moved');
    }
  } finally {
    if (alongside) fs.rmSync(alongside.temporary, { force: true });
  }
  removeJournal(run.path);
  if (hadPrevious) fs.rmSync(previous, { recursive: true, force: true });
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
