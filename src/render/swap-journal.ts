import * as fs from 'fs';
import * as path from 'path';
import { OUTPUT_MARKER } from './outdir-safety';
import { certainlyGone, Pulse, watch } from '../private/liveness';
import { createExclusively, JOURNAL_FILE, ownerFile, removeRun, RunFolderEntry, runFolders } from '../private/run-folder';

/**
 * What a swap is about to do, written into the run folder before its first
 * rename, so that the next synth can finish or undo the swap of a run killed
 * in the middle of it.
 *
 * The swap is: the old output into `previous`, `staged` into `outdir`, then
 * `alongside.temporary` onto `alongside.target` (the lock file). The last
 * rename is the commit point: a swap killed before it is rolled back (old
 * output, old lock file), one killed after it is complete (new output, new
 * lock file) and only its leftovers are removed.
 */
export interface SwapJournal {
  /** The version of this record. */
  readonly formatVersion: 1;
  /** The outdir, absolute. */
  readonly outdir: string;
  /** The new output, complete, in the run folder. */
  readonly staged: string;
  /** Where the old output goes during the swap. */
  readonly previous: string;
  /** Whether there was an old output to move aside. */
  readonly hadPrevious: boolean;
  /** The file replaced in the same transaction (the lock file), staged beside its target. */
  readonly alongside?: { readonly temporary: string; readonly target: string };
}

/** Records `journal` in `runPath`, atomically (a temporary file renamed into place). */
export function writeJournal(runPath: string, journal: SwapJournal): void {
  const file = path.join(runPath, JOURNAL_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(journal) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** Removes the journal of a swap that is complete or undone. */
export function removeJournal(runPath: string): void {
  fs.rmSync(path.join(runPath, JOURNAL_FILE), { force: true });
}

/**
 * Under the outdir's lock: finds the runs beside `outdir` that are dead,
 * finishes or rolls back a swap one of them left half done, and removes their
 * folders with the temporary files they recorded. A run is dead when it shared
 * this PID namespace and its process is gone, or when its owner record has not
 * been refreshed for `HEARTBEAT.staleMs` (watched on this process's clock); a
 * run folder that names no owner is removed only if it stayed empty that long
 * (a run killed between creating it and naming itself), so a stranger's folder
 * with files is never removed.
 *
 * @returns notices for the user, one per swap finished or rolled back
 */
export function recoverDeadRuns(outdir: string): string[] {
  const runs = runFolders(outdir);
  const dead = runs.filter((r) => r.owner && certainlyGone(r.owner));
  const undecided = runs.filter((r) => !dead.includes(r));
  const watched = watch(undecided.map(watchedFile));
  for (const r of undecided) {
    const pulse: Pulse | undefined = watched.get(watchedFile(r));
    if (pulse === 'stale' && (r.owner || fs.readdirSync(r.path).length === 0)) dead.push(r);
  }
  const notices: string[] = [];
  for (const r of dead.sort((a, b) => (a.owner?.started ?? 0) - (b.owner?.started ?? 0))) {
    const notice = finishOrUndo(r.path, path.resolve(outdir));
    if (notice) notices.push(notice);
    removeRun(r.path);
  }
  return notices;
}

/** What shows that a run lives: its owner record, refreshed; for a run that has not named itself yet, its folder. */
function watchedFile(r: RunFolderEntry): string {
  return r.owner ? ownerFile(r.path) : r.path;
}

/** Finishes or undoes the swap a dead run left in `runPath`; a notice when it changed the outdir. */
function finishOrUndo(runPath: string, outdir: string): string | undefined {
  const journal = readJournal(runPath);
  if (!journal) return putBackLegacy(runPath, outdir);
  const committed = journal.alongside ? !fs.existsSync(journal.alongside.temporary) : !fs.existsSync(journal.staged);
  if (committed) return undefined;
  const aside = () => fs.renameSync(outdir, path.join(createExclusively(path.join(runPath, 'rolled-back-')), 'output'));
  let changed = false;
  if (journal.hadPrevious) {
    if (fs.existsSync(journal.previous)) {
      if (fs.existsSync(outdir)) aside();
      fs.renameSync(journal.previous, outdir);
      changed = true;
    }
  } else if (!fs.existsSync(journal.staged) && fs.existsSync(outdir)) {
    aside();
    changed = true;
  }
  const lock = journal.alongside ? ` and '${journal.alongside.target}' are` : ' is';
  return changed ? `cdk-capability: rolled back the swap of '${outdir}' that a killed synth left half done: the previous output${lock} as before it\n` : undefined;
}

function readJournal(runPath: string): SwapJournal | undefined {
  try {
    const j = JSON.parse(fs.readFileSync(path.join(runPath, JOURNAL_FILE), 'utf-8'));
    return j?.formatVersion === 1 && typeof j.outdir === 'string' && typeof j.staged === 'string' && typeof j.previous === 'string' ? j : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A run of a release before the journal: killed between moving the old output
 * aside and the new one in, it left no outdir and the old output in `previous`.
 */
function putBackLegacy(runPath: string, outdir: string): string | undefined {
  const previous = path.join(runPath, 'previous');
  if (fs.existsSync(outdir) || !fs.existsSync(path.join(previous, OUTPUT_MARKER))) return undefined;
  fs.renameSync(previous, outdir);
  return `cdk-capability: put back the output '${outdir}' that a synth killed during its swap had set aside\n`;
}
