import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { beat, beatBeforeSynth, stopBeating } from './heartbeat';
import { certainlyGone, isThisProcess, newOwner, Owner, parseOwner } from './liveness';
import { writeSteps } from './write-steps';

/** The file naming a run folder's owner, so a later run can tell a dead run's folder from a live one's. */
const OWNER_FILE = 'owner.json';

/** The file of a run folder that names the temporary files the run wrote outside it. */
const TEMPORARIES_FILE = 'temporaries.txt';

/** The file of a run folder that records a swap in progress (`render/swap-journal.ts`). */
export const JOURNAL_FILE = 'journal.json';

/** The owner recorded in `folder`, or undefined when there is none or it cannot be read. */
export function readOwner(folder: string): Owner | undefined {
  try {
    return parseOwner(fs.readFileSync(path.join(folder, OWNER_FILE), 'utf-8'));
  } catch {
    return undefined;
  }
}

/**
 * The folder one synth run works in, beside the outdir: the cloud assemblies
 * are synthesized into it, the new output is staged in it, and the previous
 * output is moved into it during the swap. Being in the outdir's parent, it is
 * on the outdir's file system, so every move is a rename and every byte is
 * written once.
 *
 * Its name is `.<outdir name>.run-<pid>-<random>`, created exclusively (never
 * an existing folder, never through a link), with an owner record that a
 * worker thread refreshes while the run lives (`heartbeat.ts`); it is removed
 * when the process exits. The folder of a run that was killed is removed by
 * the next run into the same outdir: at once when the dead run shared its PID
 * namespace, else once its owner record has stopped being refreshed; a swap it
 * left half done is finished or rolled back first (`render/swap-journal.ts`).
 */
export class RunFolder {
  /**
   * The run folder for `outdir` in this process: one per outdir, created on
   * first use.
   *
   * @param beforeSynth whether it is asked for while the construct tree is being built (an aws-cdk stage's
   *   outdir): its owner record is refreshed from the synth on (`beatBeforeSynth`)
   */
  public static for(outdir: string, beforeSynth = false): RunFolder {
    const target = path.resolve(outdir);
    let folder = RunFolder.folders.get(target);
    if (!folder || !fs.existsSync(folder.path)) {
      folder?.remove();
      folder = new RunFolder(target, undefined, beforeSynth);
      RunFolder.folders.set(target, folder);
    }
    return folder;
  }

  /** Removes the run folder of `outdir` in this process, if there is one: the synth is over. */
  public static release(outdir: string): void {
    const target = path.resolve(outdir);
    for (const beside of RunFolder.besides.get(target) ?? []) beside.remove();
    RunFolder.besides.delete(target);
    const folder = RunFolder.folders.get(target);
    if (!folder) return;
    RunFolder.folders.delete(target);
    folder.remove();
  }

  /**
   * Recreates the assembly folder `dir` that this process's run folder once
   * issued, and the run folder around it, registered again for removal: for a
   * second synth whose stage reuses its first assembly's folder name. The run
   * folder of a synth in progress (its outdir lock, its staged output) stays
   * as it is: the recreated one is kept beside it until the synth is over.
   */
  public static recreate(dir: string): void {
    const outdir = RunFolder.issuedFor.get(dir);
    fs.mkdirSync(dir, { recursive: true });
    if (outdir === undefined) return;
    const runPath = path.dirname(path.dirname(dir));
    const current = RunFolder.folders.get(outdir);
    if (current?.path === runPath) return;
    if (current && fs.existsSync(current.path)) {
      const besides = RunFolder.besides.get(outdir) ?? [];
      if (!besides.some((f) => f.path === runPath)) RunFolder.besides.set(outdir, [...besides, new RunFolder(outdir, runPath)]);
      return;
    }
    current?.remove();
    RunFolder.folders.set(outdir, new RunFolder(outdir, runPath));
  }

  /** The paths of this process's own run folders. */
  public static ownPaths(): string[] {
    return [...RunFolder.folders.values(), ...[...RunFolder.besides.values()].flat()].map((f) => f.path);
  }

  private static readonly folders = new Map<string, RunFolder>();
  private static readonly issuedFor = new Map<string, string>();
  /** Recreated run folders kept beside the run folder of a synth in progress, by outdir (`recreate`). */
  private static readonly besides = new Map<string, RunFolder[]>();
  private static exitHookInstalled = false;

  /** The folder's absolute path. */
  public readonly path: string;
  /** Its owner record, as `owner.json` holds it. */
  public readonly owner: Owner;
  private assemblies = 0;

  private constructor(private readonly outdir: string, existing?: string, beforeSynth = false) {
    const parent = path.dirname(outdir);
    fs.mkdirSync(parent, { recursive: true });
    if (!existing) removeDeadRuns(outdir);
    this.path = existing ?? createExclusively(path.join(parent, `${runPrefix(outdir)}${process.pid}-`));
    if (!existing) writeSteps.observe?.('run-created');
    this.owner = newOwner();
    fs.writeFileSync(path.join(this.path, OWNER_FILE), JSON.stringify(this.owner) + '\n');
    (beforeSynth ? beatBeforeSynth : beat)(ownerFile(this.path), this.owner.token);
    if (existing) this.assemblies = fs.readdirSync(path.join(existing, 'assemblies')).length;
    if (!RunFolder.exitHookInstalled) {
      RunFolder.exitHookInstalled = true;
      process.once('exit', () => {
        for (const f of RunFolder.ownPaths()) fs.rmSync(f, { recursive: true, force: true });
      });
    }
  }

  /** A new, empty folder for one cloud assembly. */
  public assemblyDir(): string {
    const dir = path.join(this.path, 'assemblies', String(++this.assemblies));
    fs.mkdirSync(dir, { recursive: true });
    RunFolder.issuedFor.set(dir, this.outdir);
    return dir;
  }

  /**
   * Removes what a write left in the folder (staging, set-aside output), and
   * the folder itself when it holds no cloud assembly a later synth of this
   * process may still link from.
   */
  public prune(): void {
    if (!fs.existsSync(this.path)) return;
    for (const entry of fs.readdirSync(this.path)) {
      if (entry === TEMPORARIES_FILE) removeTemporaries(this.path);
      if (entry !== OWNER_FILE && entry !== 'assemblies') fs.rmSync(path.join(this.path, entry), { recursive: true, force: true });
    }
    if (this.assemblies === 0) {
      this.remove();
      for (const [key, folder] of RunFolder.folders) if (folder === this) RunFolder.folders.delete(key);
    }
  }

  /** Stops refreshing the folder's owner record and removes the folder. */
  private remove(): void {
    stopBeating(ownerFile(this.path));
    fs.rmSync(this.path, { recursive: true, force: true });
  }

  /**
   * Records a temporary file this run writes outside its folder (beside the
   * lock file), so that if the run is killed the next one removes it.
   */
  public recordTemporary(file: string): void {
    fs.appendFileSync(path.join(this.path, TEMPORARIES_FILE), `${file}\n`);
  }

  /** A new, empty folder under this run's folder, for one staged output. */
  public freshFolder(name: string): string {
    return createExclusively(path.join(this.path, `${name}-`));
  }
}

/** The name prefix of the run folders of `outdir`. */
export function runPrefix(outdir: string): string {
  return `.${path.basename(outdir)}.run-`;
}

/** A run folder beside an outdir, and its owner when it names one. */
export interface RunFolderEntry {
  /** The folder's absolute path. */
  readonly path: string;
  /** Its owner, undefined while (or when, for a run killed right after creating it) it names none. */
  readonly owner?: Owner;
}

/**
 * The run folders beside `outdir` other than this process's own (those of every
 * copy of cdk-capability loaded in it, `isThisProcess`): real folders
 * named as run folders are named (a planted link is never followed). A folder
 * without an owner record is listed too: only watching it tells a run that is
 * starting up from one killed before it could name itself.
 */
export function runFolders(outdir: string): RunFolderEntry[] {
  const parent = path.dirname(path.resolve(outdir));
  const prefix = runPrefix(outdir);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const own = new Set(RunFolder.ownPaths());
  const found: RunFolderEntry[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix) || !RUN_NAME.test(entry.name.slice(prefix.length))) continue;
    const folder = path.join(parent, entry.name);
    if (own.has(folder)) continue;
    const owner = readOwner(folder);
    // another copy of cdk-capability in this process made it (its own RunFolder): live while this process is
    if (owner && isThisProcess(owner)) continue;
    found.push(owner ? { path: folder, owner } : { path: folder });
  }
  return found;
}

/** The owner record of a run folder, which its run refreshes while it lives. */
export function ownerFile(folder: string): string {
  return path.join(folder, OWNER_FILE);
}

/** What follows the run prefix in a run folder's name: `<pid>-<12 hex digits>`. */
const RUN_NAME = /^\d+-[0-9a-f]{12}$/;

/**
 * Removes the folders of runs beside `outdir` that are certainly dead (they
 * shared this PID namespace and their process is gone) and hold no swap in
 * progress: those are finished or rolled back under the outdir's lock by the
 * next write, and so are runs whose death only their stopped refresh shows.
 */
function removeDeadRuns(outdir: string): void {
  for (const run of runFolders(outdir)) {
    if (run.owner && certainlyGone(run.owner) && !fs.existsSync(path.join(run.path, JOURNAL_FILE)) && !fs.existsSync(path.join(run.path, 'previous'))) {
      removeRun(run.path);
    }
  }
}

/** Removes a run folder of a run that is over, with the temporary files it recorded. */
export function removeRun(folder: string): void {
  removeTemporaries(folder);
  fs.rmSync(folder, { recursive: true, force: true });
}

function removeTemporaries(folder: string): void {
  let recorded: string;
  try {
    recorded = fs.readFileSync(path.join(folder, TEMPORARIES_FILE), 'utf-8');
  } catch {
    return;
  }
  for (const file of recorded.split('\n').filter((f) => f !== '')) fs.rmSync(file, { force: true });
}

/**
 * Creates a new folder named `prefix` plus random characters, exclusively, with
 * the permissions the umask gives (`mkdtemp` would make it private, 0700).
 */
export function createExclusively(prefix: string): string {
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
