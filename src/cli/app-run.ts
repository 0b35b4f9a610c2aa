import { spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** How the app's command ended: as `spawnSync` says, and whether it ran out of its time limit. */
export interface AppRun {
  /** Its exit code; null when a signal ended it. */
  readonly status: number | null;
  /** The signal that ended it, if one did. */
  readonly signal: string | null;
  /** What it printed on stdout. */
  readonly stdout: string;
  /** What it printed on stderr. */
  readonly stderr: string;
  /** Why it could not be run, or its output not read (the shell missing, its output past the buffer). */
  readonly error?: Error;
  /** True when it was still running at the time limit, and was stopped with every process it started. */
  readonly timedOut: boolean;
}

/**
 * The watchdog that runs the app under a time limit (`node -e <this> <command> <ms> <result file>`): it starts the
 * command in a process group of its own (`detached`), with this process's stdio, and at the limit kills the whole
 * group with SIGKILL (`taskkill /T /F` on Windows), the shell, Node and anything they started, so none is left
 * holding the output open; it passes SIGINT, SIGTERM and SIGHUP on to the group, as a terminal would have sent
 * them there; and writes how the command ended to the result file.
 */
const WATCHDOG = `
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const [command, ms, resultFile] = process.argv.slice(1);
const windows = process.platform === 'win32';
const child = spawn(command, { shell: true, stdio: 'inherit', detached: !windows });
let timedOut = false;
const signalGroup = (signal) => {
  try {
    if (windows) spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-child.pid, signal);
  } catch {}
};
const timer = setTimeout(() => { timedOut = true; signalGroup('SIGKILL'); }, Number(ms));
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => signalGroup(s));
child.on('error', (e) => { clearTimeout(timer); fs.writeFileSync(resultFile, JSON.stringify({ error: e.message })); });
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  // what the command left in its group after it ended is stopped too when it ran out of time
  if (timedOut) signalGroup('SIGKILL');
  fs.writeFileSync(resultFile, JSON.stringify({ code, signal, timedOut }));
  process.exit(0);
});
`;

/**
 * Runs the app's command through the shell and waits for it; with a time limit, through {@link WATCHDOG}, which
 * stops it and its processes at the limit. Without one, as it always ran: `spawnSync` alone, waiting as long as
 * it takes.
 *
 * @param command the command that runs the app (`--app`, or cdk8s.yaml's `app`)
 * @param env its environment
 * @param timeoutMs the time limit, in milliseconds; none when undefined
 * @param scratch a folder of the caller's, for the watchdog's result file
 */
export function runAppCommand(command: string, env: NodeJS.ProcessEnv, timeoutMs: number | undefined, scratch: string): AppRun {
  if (timeoutMs === undefined) {
    const run = spawnSync(command, { shell: true, encoding: 'utf-8', env });
    return { ...ended(run), timedOut: false };
  }
  const resultFile = path.join(scratch, 'app-run.json');
  const run = spawnSync(process.execPath, ['-e', WATCHDOG, command, String(timeoutMs), resultFile], { encoding: 'utf-8', env });
  let result: { code?: number | null; signal?: string | null; timedOut?: boolean; error?: string } | undefined;
  try {
    result = JSON.parse(fs.readFileSync(resultFile, 'utf-8'));
  } catch {
    // the watchdog itself ended without a result (killed): what spawnSync saw of it is all there is
    return { ...ended(run), timedOut: false };
  }
  if (result?.error !== undefined) return { ...ended(run), status: null, signal: null, error: new Error(result.error), timedOut: false };
  return { ...ended(run), status: result?.code ?? null, signal: result?.signal ?? null, timedOut: result?.timedOut === true };
}

function ended(run: SpawnSyncReturns<string>): Omit<AppRun, 'timedOut'> {
  return { status: run.status, signal: run.signal, stdout: run.stdout ?? '', stderr: run.stderr ?? '', ...(run.error ? { error: run.error } : {}) };
}
