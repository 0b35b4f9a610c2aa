import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(os.tmpdir(), 'cdk-capability-scratch');
let mine: string | undefined;

/**
 * A fresh temporary folder for one capability's cloud assembly. Synth copies
 * the assembly from here into the outdir, so the outdir is only ever written
 * by the atomic swap.
 *
 * Folders live under one folder per process, removed when the process exits;
 * the first call in a process also removes the folders of processes that are
 * gone (killed test workers never run exit handlers).
 */
export function assemblyScratchDir(): string {
  if (!mine) {
    sweepDeadProcesses();
    mine = path.join(ROOT, String(process.pid));
    fs.mkdirSync(mine, { recursive: true });
    const dir = mine;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return fs.mkdtempSync(path.join(mine, 'asm-'));
}

function sweepDeadProcesses(): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(ROOT);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    fs.rmSync(path.join(ROOT, entry), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
