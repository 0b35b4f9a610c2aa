import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import { HEARTBEAT, monotonicMs } from './heartbeat';

/**
 * Who holds a lock or made a run folder. The `token` names one holding; the
 * rest says who to tell the user about, and lets a process that shares the
 * holder's PID namespace see at once that the holder is gone.
 */
export interface Owner {
  /** Random: one per lock taken or run folder made. */
  readonly token: string;
  /** The process id, in the holder's PID namespace. */
  readonly pid: number;
  /** The machine's host name (containers of one pod share it). */
  readonly host: string;
  /** The kernel boot and PID namespace the pid belongs to; absent where the system does not say (no /proc). */
  readonly namespace?: string;
  /** When it was taken, as the holder's clock says: shown to people, never compared. */
  readonly started: number;
  /**
   * When the holder's process started, in clock ticks after boot (`/proc/<pid>/stat`): with the namespace and
   * the pid, it names one process, never a later one given the same pid. Absent where `/proc` does not say, and
   * in records of earlier releases.
   */
  readonly processStart?: string;
}

let ownNamespace: string | undefined | null = null;
let ownStart: string | undefined | null = null;

/**
 * The kernel boot and PID namespace of this process (`<boot id>/pid:[<inode>]`):
 * two processes with equal namespaces see the same pids. Undefined where
 * `/proc` does not say.
 */
export function pidNamespace(): string | undefined {
  if (ownNamespace === null) {
    try {
      ownNamespace = `${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf-8').trim()}/${fs.readlinkSync('/proc/self/ns/pid')}`;
    } catch {
      ownNamespace = undefined;
    }
  }
  return ownNamespace;
}

/** When this process started, in clock ticks after boot (field 22 of `/proc/self/stat`); undefined where `/proc` does not say. */
function processStart(): string | undefined {
  if (ownStart === null) {
    try {
      // the fields after the command name, which may hold spaces and parentheses, start with the third
      const stat = fs.readFileSync('/proc/self/stat', 'utf-8');
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      ownStart = /^\d+$/.test(start ?? '') ? start : undefined;
    } catch {
      ownStart = undefined;
    }
  }
  return ownStart;
}

/** A new owner record for this process. */
export function newOwner(): Owner {
  const namespace = pidNamespace();
  const start = namespace ? processStart() : undefined;
  return {
    token: randomBytes(8).toString('hex'),
    pid: process.pid,
    host: os.hostname(),
    ...(namespace ? { namespace } : {}),
    started: Date.now(),
    ...(start ? { processStart: start } : {}),
  };
}

/**
 * True when `owner` is this very process: its kernel boot, PID namespace, pid and process start are this
 * process's. Such a record lives as long as this process does, whether or not anything refreshes it: a
 * record of another copy of cdk-capability loaded in this process (its own module state, its own refreshing
 * thread, deferred during a short synth), or of a synth this process runs further up its stack. Watching it
 * for `HEARTBEAT.staleMs` would only wait, then wrongly judge it stale. A record that does not say when its
 * process started (an earlier release's, or where `/proc` does not say) is never taken for this process's.
 */
export function isThisProcess(owner: Owner): boolean {
  const mine = pidNamespace();
  const start = processStart();
  return mine !== undefined && start !== undefined && owner.namespace === mine && owner.pid === process.pid && owner.processStart === start;
}

/** `text` read as an owner record, or undefined when it is none. */
export function parseOwner(text: string): Owner | undefined {
  try {
    const o = JSON.parse(text);
    const valid = typeof o?.token === 'string' && Number.isInteger(o.pid) && typeof o.host === 'string' && typeof o.started === 'number';
    const optional = (o.namespace === undefined || typeof o.namespace === 'string') && (o.processStart === undefined || typeof o.processStart === 'string');
    return valid && optional ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True only when `owner` is certainly gone: it shares this process's kernel
 * boot and PID namespace, and no process has its pid. A pid is never trusted
 * across namespaces (two containers of one pod share a host name, not pids),
 * and a pid that runs may be a reused one: then only the refresh tells.
 */
export function certainlyGone(owner: Owner): boolean {
  const mine = pidNamespace();
  if (mine === undefined || owner.namespace !== mine) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** What watching a record showed. */
export type Pulse = 'refreshed' | 'stale' | 'gone';

/**
 * Watches `files` (records, or folders) until each is refreshed, removed, or
 * has stayed exactly as it was for `HEARTBEAT.staleMs`, measured on this
 * process's monotonic clock: no other machine's clock is ever compared with
 * this one. Reads each through a fresh open, so a network file system cannot
 * answer from its cache.
 *
 * @returns what each file showed
 */
export function watch(files: readonly string[]): Map<string, Pulse> {
  const result = new Map<string, Pulse>();
  const first = new Map<string, string>();
  for (const f of files) {
    const s = stamp(f);
    if (s === undefined) result.set(f, 'gone');
    else first.set(f, s);
  }
  const started = monotonicMs();
  const step = Math.max(10, Math.min(100, Math.floor(HEARTBEAT.refreshMs / 4)));
  // At least one look after the first stamp, however long this thread was held up before it.
  while (first.size > 0) {
    sleep(step);
    watchSteps.observe?.();
    for (const [f, before] of first) {
      const now = stamp(f);
      if (now === before) continue;
      result.set(f, now === undefined ? 'gone' : 'refreshed');
      first.delete(f);
    }
    if (monotonicMs() - started >= HEARTBEAT.staleMs) break;
  }
  for (const f of first.keys()) result.set(f, 'stale');
  return result;
}

/**
 * Test seam: called in `watch` after each wait, before the files are looked at
 * again, so a test can refresh a record at a known point of the watch instead
 * of racing a thread against its window.
 */
export const watchSteps: { observe?: () => void } = {};

/** What changes when a record is refreshed, rewritten or replaced: its time, size and inode. */
function stamp(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const s = fs.fstatSync(fd, { bigint: true });
    return `${s.mtimeNs}:${s.size}:${s.ino}`;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Blocks this thread for `ms` milliseconds (synth is synchronous: there is no event loop to wait on). */
export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
