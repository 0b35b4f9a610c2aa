import * as fs from 'fs';
import * as path from 'path';
import { CompositionError } from '../check/composition-error';
import { finding, toViolation, ViolationCode } from '../check/finding';
import { isDead, Owner, readOwner, RunFolder, writeOwner } from '../private/run-folder';

/**
 * How old a lock must be before it counts as stale even though its owner
 * cannot be shown dead (it ran on another machine, or its pid was reused): no
 * synth runs this long.
 */
export const STALE_LOCK_AGE_MS = 60 * 60 * 1000;

/** How old a lock without an owner file must be to count as stale (its synth died between creating it and naming itself). */
const OWNERLESS_LOCK_AGE_MS = 60 * 1000;

/**
 * Takes the outdir's lock, a sibling folder `<outdir>.lock` created
 * exclusively and holding its owner's pid, host and start time, so two synths
 * into one outdir cannot interleave their files.
 *
 * A lock whose owner is a process of this machine that no longer runs (a synth
 * killed mid-write), or that is older than `STALE_LOCK_AGE_MS`, is stale: it is
 * moved into this run's folder (one rename, so of two synths taking over the
 * same stale lock only one succeeds) and taken, with a notice on stderr.
 *
 * @returns the function that releases it
 * @throws a `CAP011` `CompositionError` when a live synth holds it
 */
export function lockOutdir(target: string, run: RunFolder): () => void {
  const lock = `${target}.lock`;
  for (let attempt = 1; ; attempt++) {
    try {
      fs.mkdirSync(lock);
      writeOwner(lock);
      return () => fs.rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw e;
    }
    const owner = readOwner(lock);
    const age = ageOf(lock);
    if (age === undefined) continue; // released meanwhile: try again
    const stale = owner ? isDead(owner) || age > STALE_LOCK_AGE_MS : age > OWNERLESS_LOCK_AGE_MS;
    if (!stale) throw busy(target, lock, owner);
    const moved = path.join(run.path, `stale-lock-${attempt}`);
    try {
      fs.renameSync(lock, moved);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // another synth took it over first
      throw e;
    }
    if (!sameOwner(readOwner(moved), owner)) {
      // Between reading and moving, another synth took the stale lock over: give its lock back.
      try {
        fs.renameSync(moved, lock);
      } catch {
        // it has released it meanwhile
      }
      throw busy(target, lock, readOwner(lock));
    }
    process.stderr.write(`cdk-capability: took over the stale lock '${lock}' ${staleness(owner, age)}\n`);
  }
}

function staleness(owner: Owner | undefined, age: number): string {
  const minutes = `${Math.round(age / 60000)} minutes ago`;
  if (!owner) return `that names no owner, created ${minutes}`;
  return isDead(owner) ? `of process ${owner.pid}, which no longer runs` : `of process ${owner.pid} on ${owner.host}, created ${minutes}`;
}

function ageOf(lock: string): number | undefined {
  try {
    return Date.now() - fs.statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}

function sameOwner(a: Owner | undefined, b: Owner | undefined): boolean {
  return a?.pid === b?.pid && a?.host === b?.host && a?.started === b?.started;
}

function busy(target: string, lock: string, owner: Owner | undefined): CompositionError {
  const who = owner ? `process ${owner.pid} on ${owner.host}, since ${new Date(owner.started).toISOString()}` : 'a synth that has not named itself yet';
  const detail = `another synth (${who}) is writing '${target}'; nothing was changed. Wait for it to finish and synth again; if no synth is running, remove '${lock}'.`;
  return new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
}
