/** The signals that end a Node process at once unless it listens for them: Ctrl-C, and a CI runner cancelling a job. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** The cleanups of the work in progress, and of work over whose event loop turn has not come yet. */
const cleanups = new Set<() => void>();

/** What `cleanUpOnSignal` installed. */
export interface SignalCleanup {
  /**
   * The work is over (the lock released). Its cleanup, and our listeners when no other work needs them, are
   * removed once the event loop has turned, so that a signal that arrived during the work, which Node delivers
   * only then, still ends the process.
   */
  done(): void;
}

/**
 * Listens for SIGINT and SIGTERM while a piece of work leaves files behind if the process dies in it (an outdir's
 * lock, a run folder): a signal runs `cleanup`, then raises the signal again with our listener removed, so the
 * process ends as it would have without us (status 130 for SIGINT, 143 for SIGTERM, in a shell).
 *
 * Node runs a signal's listeners on the event loop: a signal that arrives during synchronous work (a synth) is
 * handled once that work has returned, never in the middle of it. While the listener is installed, a Ctrl-C
 * therefore lets the work finish (a write of the output is completed whole), then ends the process; without it,
 * the process would die at once and leave the lock and its run folder to the next synth.
 *
 * A signal the program listens for itself is left to the program: no listener is added for it, since ours would
 * raise it again and the program's handler would run twice. The program's handler runs after the synchronous
 * work too, when the lock has been released. A listener the program adds while ours is installed has the signal
 * once, as it was sent: the cleanup runs, and the process is left to the program.
 *
 * @param cleanup what to remove; it must be safe to call again, and after the work is over
 * @returns how to say that the work is over
 */
export function cleanUpOnSignal(cleanup: () => void): SignalCleanup {
  cleanups.add(cleanup);
  for (const s of SIGNALS) if (process.listenerCount(s) === 0) process.on(s, onSignal);
  let over = false;
  return {
    done: () => {
      if (over) return;
      over = true;
      setImmediate(() => {
        cleanups.delete(cleanup);
        if (cleanups.size === 0) removeListeners();
      });
    },
  };
}

function onSignal(signal: NodeJS.Signals): void {
  removeListeners();
  for (const c of [...cleanups]) c();
  cleanups.clear();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function removeListeners(): void {
  for (const s of SIGNALS) process.removeListener(s, onSignal);
}
