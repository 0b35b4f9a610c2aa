import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The file naming a run folder's owner, so a later run can tell a dead run's folder from a live one's. */
const OWNER_FILE = 'owner.json';

/** The file of a run folder that names the temporary files the run wrote outside it. */
const TEMPORARIES_FILE = 'temporaries.txt';

/** Who made a run folder or holds a lock. */
export interface Owner {
  /** The process id. */
  readonly pid: number;
  /** The machine: a pid means nothing on another host. */
  readonly host: string;
  /** When the run started, as `Date.now()`. */
  readonly started: number;
}

/** This process, as an owner. */
export function thisProcess(): Owner {
  return { pid: process.pid, host: os.hostname(), started: Date.now() };
}

/** The owner recorded in `folder`, or undefined when there is none or it cannot be read. */
export function readOwner(folder: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(folder, OWNER_FILE), 'utf-8'));
    return Number.isInteger(owner?.pid) && typeof owner.host === 'string' && typeof owner.started === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Records this process as the owner of `folder`. */
export function writeOwner(folder: string): void {
  fs.writeFileSync(path.join(folder, OWNER_FILE), JSON.stringify(thisProcess()) + '\n');
}

/** True when `owner` is a process on this machine that no longer runs. */
export function isDead(owner: Owner): boolean {
  if (owner.host !== os.hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EPERM';
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
 * an existing folder, never through a link); it is removed when the process
 * exits. The folder of a run that was killed is removed by the next run into
 * the same outdir (`sweepDeadRuns`), after its previous output is put back if
 * the kill came in the middle of a swap.
 */
export class RunFolder {
  /**
   * The run folder for `outdir` in this process: one per outdir, created on
   * first use.
   */
  public static for(outdir: string): RunFolder {
    const target = path.resolve(outdir);
    let folder = RunFolder.folders.get(target);
    if (!folder || !fs.existsSync(folder.path)) {
      folder = new RunFolder(target);
      RunFolder.folders.set(target, folder);
    }
    return folder;
  }

  /** Removes the run folder of `outdir` in this process, if there is one: the synth is over. */
  public static release(outdir: string): void {
    const target = path.resolve(outdir);
    const folder = RunFolder.folders.get(target);
    if (!folder) return;
    RunFolder.folders.delete(target);
    fs.rmSync(folder.path, { recursive: true, force: true });
  }

  /**
   * Recreates the assembly folder `dir` that this process's run folder once
   * issued, and the run folder around it, registered again for removal: for a
   * second synth whose stage reuses its first assembly's folder name.
   */
  public static recreate(dir: string): void {
    const outdir = RunFolder.issuedFor.get(dir);
    fs.mkdirSync(dir, { recursive: true });
    if (outdir === undefined) return;
    const runPath = path.dirname(path.dirname(dir));
    const current = RunFolder.folders.get(outdir);
    if (current?.path === runPath) return;
    if (current) fs.rmSync(current.path, { recursive: true, force: true });
    RunFolder.folders.set(outdir, new RunFolder(outdir, runPath));
  }

  private static readonly folders = new Map<string, RunFolder>();
  private static readonly issuedFor = new Map<string, string>();
  private static exitHookInstalled = false;

  /** The folder's absolute path. */
  public readonly path: string;
  private assemblies = 0;

  private constructor(private readonly outdir: string, existing?: string) {
    const parent = path.dirname(outdir);
    fs.mkdirSync(parent, { recursive: true });
    if (!existing) removeDeadRuns(outdir);
    this.path = existing ?? createExclusively(path.join(parent, `${runPrefix(outdir)}${process.pid}-`));
    writeOwner(this.path);
    if (existing) this.assemblies = fs.readdirSync(path.join(existing, 'assemblies')).length;
    if (!RunFolder.exitHookInstalled) {
      RunFolder.exitHookInstalled = true;
      process.once('exit', () => {
        for (const f of RunFolder.folders.values()) fs.rmSync(f.path, { recursive: true, force: true });
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
    for (const entry of fs.readdirSync(this.path)) {
      if (entry === TEMPORARIES_FILE) removeTemporaries(this.path);
      if (entry !== OWNER_FILE && entry !== 'assemblies') fs.rmSync(path.join(this.path, entry), { recursive: true, force: true });
    }
    if (this.assemblies === 0) {
      fs.rmSync(this.path, { recursive: true, force: true });
      for (const [key, folder] of RunFolder.folders) if (folder === this) RunFolder.folders.delete(key);
    }
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

/**
 * The run folders beside `outdir` whose process is gone (killed, or crashed
 * before its exit handler), oldest first.
 */
export function deadRuns(outdir: string): Array<{ path: string; owner: Owner }> {
  const parent = path.dirname(path.resolve(outdir));
  const prefix = runPrefix(outdir);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const dead: Array<{ path: string; owner: Owner }> = [];
  for (const entry of entries) {
    // only real folders with our prefix and an owner file: a planted link or a stranger's folder is left alone
    if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue;
    const folder = path.join(parent, entry.name);
    const owner = readOwner(folder);
    if (owner && owner.pid !== process.pid && isDead(owner)) dead.push({ path: folder, owner });
  }
  return dead.sort((a, b) => a.owner.started - b.owner.started);
}

/**
 * Removes the folders of dead runs beside `outdir` that hold no set-aside
 * output (`previous`): those are put back or removed under the outdir's lock
 * by the next write. Processes that die without running their exit handlers
 * (killed test workers, a cancelled CI job) leave such folders behind.
 */
function removeDeadRuns(outdir: string): void {
  for (const dead of deadRuns(outdir)) if (!fs.existsSync(path.join(dead.path, 'previous'))) removeRun(dead.path);
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
