import * as fs from 'fs';
import * as path from 'path';
import { CompositionError } from '../check/composition-error';
import { finding, toViolation, ViolationCode } from '../check/finding';
import { beat, HEARTBEAT, stopBeating } from '../private/heartbeat';
import { certainlyGone, isThisProcess, newOwner, Owner, parseOwner, watch } from '../private/liveness';
import type { RunFolder } from '../private/run-folder';
import { writeSteps } from '../private/write-steps';

/** What is at a lock's path: a lock of this release (a record), or of an earlier one (a folder holding `owner.json`). */
interface Held {
  /** Its owner, undefined when it names none (an earlier release's lock whose synth died before naming itself). */
  readonly owner?: Owner;
  /** Its record's text, to tell it apart from a lock taken over meanwhile. */
  readonly text: string;
}

/**
 * The lock of an outdir, `<outdir>.lock`, so two synths into one outdir never
 * interleave their output.
 *
 * The lock is a small JSON file, the owner's record (a random token, pid,
 * host, PID namespace, start time), created in one step with its record: the
 * record is written into the run folder first and hard-linked to the lock's
 * name, which fails when a lock is there. A worker thread refreshes the lock's
 * time while the owner lives (`heartbeat.ts`), so a lock is stale only when its
 * refresh stops: its owner was killed, or suspended. A lock whose owner shares
 * this PID namespace and no longer runs is stale at once; a pid is never
 * trusted across namespaces (two containers of one pod share a host name, not
 * pids), and no time from another clock is ever compared with this one.
 *
 * A stale lock is taken over: moved into the run folder (one rename, so of two
 * synths taking over one stale lock only one succeeds), checked to be the one
 * judged stale, and replaced by this synth's own, with a notice on stderr. Only
 * the owner releases a lock: `release` removes the lock only while it still
 * holds this owner's token.
 *
 * Why not a lock library: proper-lockfile, the well-kept one, refreshes its lock
 * from a timer of the main thread (which never fires while a synchronous synth
 * runs) and judges staleness by comparing the lock's time with this machine's
 * clock; this design keeps its mkdir-like exclusive create and its mtime
 * refresh, and changes those two.
 */
export class OutdirLock {
  /**
   * Takes the lock of `target`.
   *
   * A lock this very process holds (`isThisProcess`) is refused at once, never
   * watched: its holder is a synth still running in this process (one that
   * started this synth, or a synth of another copy of cdk-capability loaded in
   * it), whose lock is live however long its refresh is deferred.
   *
   * @throws a `CAP011` `CompositionError` when a live synth holds it
   */
  public static acquire(target: string, run: RunFolder): OutdirLock {
    const lock = `${target}.lock`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const owner = newOwner();
      if (create(lock, owner, run)) {
        beat(lock, owner.token);
        return new OutdirLock(target, lock, owner);
      }
      const held = read(lock);
      if (!held) continue; // released meanwhile
      if (held.owner && isThisProcess(held.owner)) throw busyHere(target, lock);
      const verdict = judge(lock, held);
      if (verdict.state === 'live') throw busy(target, lock, held.owner);
      if (verdict.state === 'stale' && takeOver(lock, held, path.join(run.path, `stale-lock-${attempt}`))) {
        process.stderr.write(`cdk-capability: took over the stale lock '${lock}' ${verdict.why}\n`);
      }
    }
    throw busy(target, lock, read(lock)?.owner);
  }

  private constructor(
    /** The outdir it locks. */
    private readonly target: string,
    /** The lock file. */
    public readonly file: string,
    private readonly owner: Owner,
  ) {}

  /**
   * Checks that this synth still holds the lock: another synth takes it over
   * only once its refresh has stopped for `HEARTBEAT.staleMs` (the process was
   * suspended).
   *
   * @throws a `CAP011` `CompositionError` when the lock is no longer this synth's
   */
  public assertHeld(): void {
    if (read(this.file)?.owner?.token === this.owner.token) return;
    const detail =
      `another synth took over the lock '${this.file}' while this one ran (its refresh had stopped for ${seconds(HEARTBEAT.staleMs)}: was this process suspended?), ` +
      `so this synth did not replace '${this.target}'; nothing was changed. Synth again.`;
    throw new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
  }

  /**
   * Releases the lock if it is still this synth's; a lock another synth took
   * over is left to it. (Another synth can take it over only once its refresh
   * has stopped for `HEARTBEAT.staleMs`, so not between the check and the
   * removal of a process that runs.)
   */
  public release(): void {
    stopBeating(this.file);
    if (read(this.file)?.owner?.token === this.owner.token) fs.rmSync(this.file, { force: true });
  }
}

/**
 * Creates `lock` with `owner`'s record in one step: the record is written in
 * the run folder and linked to the lock's name. Where the file system has no
 * hard links, the lock is created exclusively and the record written into it.
 *
 * @returns false when a lock is there
 */
function create(lock: string, owner: Owner, run: RunFolder): boolean {
  const text = JSON.stringify(owner) + '\n';
  const temporary = path.join(run.path, `lock-${owner.token}`);
  fs.writeFileSync(temporary, text);
  try {
    writeSteps.observe?.('lock-record-staged');
    fs.linkSync(temporary, lock);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
    return createWithoutLink(lock, text);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function createWithoutLink(lock: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lock, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** The lock at `file`, or undefined when there is none. */
function read(file: string): Held | undefined {
  try {
    const text = fs.statSync(file).isDirectory() ? fs.readFileSync(path.join(file, 'owner.json'), 'utf-8') : fs.readFileSync(file, 'utf-8');
    const owner = parseOwner(text);
    return owner ? { owner, text } : { text };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' && fs.existsSync(file) ? { text: '' } : undefined;
  }
}

/** What a lock found at its path is: live, stale (and why, for the notice), or gone or replaced meanwhile (look again). */
type Verdict = { readonly state: 'live' } | { readonly state: 'stale'; readonly why: string } | { readonly state: 'again' };

/**
 * Judges the lock `held` at `lock`: stale at once when its owner is certainly
 * gone, else after watching whether its refresh has stopped.
 */
function judge(lock: string, held: Held): Verdict {
  if (held.owner && certainlyGone(held.owner)) return { state: 'stale', why: `of process ${held.owner.pid}, which no longer runs` };
  const pulse = watch([lock]).get(lock);
  if (pulse === 'gone') return { state: 'again' };
  if (pulse === 'refreshed') return read(lock)?.text === held.text ? { state: 'live' } : { state: 'again' };
  const who = held.owner ? `of process ${held.owner.pid} on ${held.owner.host}` : 'that names no owner';
  return { state: 'stale', why: `${who}, not refreshed for ${seconds(HEARTBEAT.staleMs)}` };
}

/** Moves the stale lock `held` aside; puts it back when another synth had replaced it meanwhile. */
function takeOver(lock: string, held: Held, aside: string): boolean {
  try {
    fs.renameSync(lock, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // another synth took it over first
    throw e;
  }
  if (read(aside)?.text === held.text) {
    fs.rmSync(aside, { recursive: true, force: true });
    return true;
  }
  restore(aside, lock);
  return false;
}

/** Puts a lock moved aside back in place, unless a new lock is there now. */
function restore(aside: string, lock: string): void {
  try {
    if (fs.statSync(aside).isDirectory()) {
      fs.renameSync(aside, lock);
    } else {
      fs.linkSync(aside, lock);
      fs.rmSync(aside, { force: true });
    }
  } catch {
    // a new lock took its place; the one moved aside is removed with the run folder
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} seconds`;
}

function busy(target: string, lock: string, owner: Owner | undefined): CompositionError {
  const who = owner ? `process ${owner.pid} on ${owner.host}, since ${new Date(owner.started).toISOString()}` : 'a synth that has not named itself yet';
  const detail =
    `another synth (${who}) is writing '${target}'; nothing was changed. Wait for it to finish and synth again ` +
    `(its lock '${lock}' is refreshed while it runs, and taken over once its refresh stops for ${seconds(HEARTBEAT.staleMs)}).`;
  return new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}

function busyHere(target: string, lock: string): CompositionError {
  const detail =
    `a synth of this same process (${process.pid}) is writing '${target}' (it holds the lock '${lock}'): this synth was started inside it, ` +
    'or by a second copy of cdk-capability loaded in this process, into the same outdir; nothing was changed. Synth one app into an outdir ' +
    'at a time: give the other app its own outdir (the outdir prop, or CDK8S_OUTDIR), or synth it after the first synth has returned.';
  return new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}
