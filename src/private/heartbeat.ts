import * as fs from 'fs';
import type { Worker } from 'worker_threads';

/**
 * How often a held lock or a live run folder is refreshed, and how long
 * without a refresh makes it stale. A test seam: tests shorten both.
 */
export const HEARTBEAT = {
  /** The refresh interval, in milliseconds. */
  refreshMs: 1_000,
  /** How long a record must go unrefreshed to count as stale, in milliseconds (many refreshes: a loaded machine still makes one). */
  staleMs: 15_000,
};

/**
 * How long a short synth (`deferringThread`) runs before the records it holds are handed to the refreshing
 * thread, in milliseconds: a fifth of `HEARTBEAT.staleMs` (3 s), so a synth step may still last four fifths of
 * it between two `pulse()`s, and most short synths (a second or two) end without the thread.
 */
function deferralMs(): number {
  return HEARTBEAT.staleMs / 5;
}

/** How long the refreshing thread idles with nothing to refresh before it ends. */
const IDLE_MS = 5_000;

/**
 * Milliseconds on this process's monotonic clock, as `performance.now()` counts them but without its module:
 * `perf_hooks` (or the global `performance`, which loads it) costs a program that does not load it itself about
 * 1.5 ms of start-up.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * The refreshing thread. Synth is synchronous JavaScript: a timer on the main
 * thread never fires while it runs, so a worker thread refreshes the records.
 * Each refresh reads the record first and sets its time only while it still
 * holds the token it was given: a record another run took over is never kept
 * alive, and is dropped.
 */
const WORKER_SOURCE = `
const { parentPort } = require('worker_threads');
const fs = require('fs');
const records = new Map();
let timer;
let interval = 0;
function refresh() {
  const now = new Date();
  for (const [file, token] of records) {
    try {
      const record = JSON.parse(fs.readFileSync(file, 'utf-8'));
      if (record.token !== token) { records.delete(file); continue; }
      fs.utimesSync(file, now, now);
    } catch {
      records.delete(file);
    }
  }
}
parentPort.on('message', (m) => {
  if (m.refreshMs !== interval) {
    interval = m.refreshMs;
    if (timer) clearInterval(timer);
    timer = setInterval(refresh, interval);
  }
  if (m.add) records.set(m.add, m.token);
  if (m.remove) records.delete(m.remove);
});
`;

let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
const beating = new Set<string>();
/** Inside `deferringThread`: when it began (`monotonicMs()`), and the records beaten since, not yet handed to the thread. */
let deferredSince: number | undefined;
const deferred = new Map<string, string>();

/**
 * Refreshes the time of `file` (a JSON record holding `token`) every
 * `HEARTBEAT.refreshMs`, from a worker thread, until `stopBeating(file)`, the
 * record no longer holds `token`, or the process ends. The thread never keeps
 * the process alive. Inside `deferringThread`, the thread starts only when a
 * `pulse()` finds the holding has lasted a fifth of `HEARTBEAT.staleMs`.
 */
export function beat(file: string, token: string): void {
  beating.add(file);
  if (deferredSince !== undefined && !worker) {
    deferred.set(file, token);
    return;
  }
  startThread();
  handOver();
  worker!.postMessage({ add: file, token, refreshMs: HEARTBEAT.refreshMs });
}

/**
 * `beat`, for a record made while the construct tree is being built (the run
 * folder an aws-cdk stage is given at construction): the thread is not started
 * for it yet, as the synth to come may be short. The synth refreshes it as it
 * starts and treats it as beaten then: a short synth (`deferringThread`) hands
 * it to the thread at its first `pulse()` once a fifth of `HEARTBEAT.staleMs` have
 * passed, or at its end; a synth that is not short (`refreshBeforeSynth`) or
 * not known to be short (its first `pulse()`), at once; so does any `beat`
 * that starts the thread. The record is not refreshed while the tree is
 * built: a tree built in less than `HEARTBEAT.staleMs` (15 s) never looks
 * stale, and a run folder whose process lives is never taken for a dead run's
 * in its own PID namespace, whatever its record's age.
 */
export function beatBeforeSynth(file: string, token: string): void {
  if (worker || deferredSince !== undefined) return beat(file, token);
  beating.add(file);
  deferred.set(file, token);
}

/**
 * At the start of a synth that is not short: hands the records beaten before
 * it (`beatBeforeSynth`) to the refreshing thread, started now, and refreshes
 * them at once.
 */
export function refreshBeforeSynth(): void {
  touchDeferred();
  handOver();
}

/** Refreshes the deferred records now, as the thread would. */
function touchDeferred(): void {
  const now = new Date();
  for (const file of deferred.keys()) {
    try {
      fs.utimesSync(file, now, now);
    } catch {
      // gone: its holder removed it; the thread drops such a record too
    }
  }
}

function startThread(): void {
  if (idle) clearTimeout(idle);
  idle = undefined;
  if (!worker) {
    // loaded here, not with this module: about 3 ms a short synth, which never starts the thread, would pay
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker: WorkerThread } = require('worker_threads') as typeof import('worker_threads');
    worker = new WorkerThread(WORKER_SOURCE, { eval: true });
    worker.unref();
  }
}

/**
 * Runs `run` (a synth expected to end well within `HEARTBEAT.staleMs`) without
 * starting the refreshing thread up front. A record is stale only once it has
 * stayed unrefreshed for `HEARTBEAT.staleMs`, and a holding released sooner
 * never needs a refresh; the thread is a second V8 isolate (about 9 MiB and
 * 60 ms of CPU), most of what a small synth costs beyond cdk8s'. Records beaten
 * meanwhile are handed to the thread at the first `pulse()` that comes
 * a fifth of `HEARTBEAT.staleMs` or more after `run` began, and at its end if they are
 * still beaten then, so a synth that turns out long is refreshed as before.
 */
export function deferringThread<T>(run: () => T): T {
  if (deferredSince !== undefined) return run();
  touchDeferred(); // records beaten before the synth (while the tree was built) are as fresh as its start
  deferredSince = monotonicMs();
  try {
    return run();
  } finally {
    deferredSince = undefined;
    handOver();
  }
}

/**
 * Between a synth's steps: starts the refreshing thread for the deferred records once the deferral has
 * lasted a fifth of `HEARTBEAT.staleMs`, or at once outside `deferringThread` (a synth not known to be short).
 */
export function pulse(): void {
  if (deferred.size === 0) return;
  // outside a deferral the synth is not known to be short: records beaten before it go to the thread now
  if (deferredSince === undefined || monotonicMs() - deferredSince >= deferralMs()) handOver();
}

/** Whether the refreshing thread runs (a test seam). */
export function refreshingThread(): boolean {
  return worker !== undefined;
}

function handOver(): void {
  if (deferred.size === 0) return;
  startThread();
  for (const [file, token] of deferred) worker!.postMessage({ add: file, token, refreshMs: HEARTBEAT.refreshMs });
  deferred.clear();
}

/** Stops refreshing `file`; the thread ends once nothing has been refreshed for a while. */
export function stopBeating(file: string): void {
  deferred.delete(file);
  if (!beating.delete(file) || !worker) return;
  worker.postMessage({ remove: file, refreshMs: HEARTBEAT.refreshMs });
  if (beating.size > 0) return;
  const ending = worker;
  idle = setTimeout(() => {
    if (worker !== ending || beating.size > 0) return;
    worker = undefined;
    void ending.terminate();
  }, IDLE_MS);
  idle.unref();
}

/**
 * Ends the refreshing thread now, whatever it refreshes (a test seam: a test
 * file's end, where the jest worker that ran it should exit without waiting
 * for threads its synths left beating).
 */
export async function endRefreshingThread(): Promise<void> {
  if (idle) clearTimeout(idle);
  idle = undefined;
  beating.clear();
  deferred.clear();
  const ending = worker;
  worker = undefined;
  if (ending) await ending.terminate();
}
