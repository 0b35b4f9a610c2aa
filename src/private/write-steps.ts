/**
 * The steps of a write, in order: the run folder created (before it names
 * its owner), the lock's record staged in it (before it is linked to the lock's
 * name), the lock taken, each file, the output staged, the lock file staged,
 * the swap journaled, the previous output moved aside, the new output moved in,
 * the new lock file moved in (the commit point), done.
 */
export type WriteStep =
  | 'run-created'
  | 'lock-record-staged'
  | 'locked'
  | 'staged'
  | 'alongside-staged'
  | 'journaled'
  | 'previous-moved'
  | 'output-moved'
  | 'alongside-moved'
  | 'done';

/**
 * Test seam: a process-wide observer of write steps, so a test can stop (or
 * kill) a synth at any of them. `observe` sees each step as it is reached.
 */
export const writeSteps: { observe?: (step: WriteStep) => void } = {};
