/**
 * Two copies of cdk-capability in one process (an app, and a capability package with its own copy): each copy
 * has its own module state, so the run folder and the outdir lock one copy makes are, to the other, records of
 * "another run" that nothing refreshes during a short synth. They are this very process's records: never
 * watched for the stale window (15 s), never judged dead.
 */
import * as fs from 'fs';
import * as path from 'path';
import { readTree, removeTempDirs, tempDir } from './util';
import * as heartbeat from '../src/private/heartbeat';
import { isThisProcess, newOwner, watchSteps } from '../src/private/liveness';
import { holdOutdir, writeAtomically } from '../src/render/atomic-output';
import type { OutputTree } from '../src/render/output-tree';

// Shortened for the suite, as test/outdir-lock.test.ts does: on the old source each watch below lasts 600 ms.
const saved = { ...heartbeat.HEARTBEAT };
beforeAll(() => Object.assign(heartbeat.HEARTBEAT, { refreshMs: 50, staleMs: 600 }));
afterAll(() => {
  Object.assign(heartbeat.HEARTBEAT, saved);
  removeTempDirs();
});

/** Counts the steps of every `watch` of this copy while `fn` runs. */
function watchStepsOf(fn: () => void): number {
  let steps = 0;
  watchSteps.observe = () => {
    steps++;
  };
  try {
    fn();
  } finally {
    watchSteps.observe = undefined;
  }
  return steps;
}

/** A second copy of the modules a synth uses, with their own state, as a package's own copy of cdk-capability has. */
function secondCopy(): { runFolder: typeof import('../src/private/run-folder'); atomic: typeof import('../src/render/atomic-output'); heartbeat: typeof heartbeat } {
  let copy: ReturnType<typeof secondCopy> | undefined;
  jest.isolateModules(() => {
    copy = {
      runFolder: jest.requireActual('../src/private/run-folder'),
      atomic: jest.requireActual('../src/render/atomic-output'),
      heartbeat: jest.requireActual('../src/private/heartbeat'),
    };
  });
  Object.assign(copy!.heartbeat.HEARTBEAT, heartbeat.HEARTBEAT);
  return copy!;
}

const tree = (plan: string): OutputTree => ({ files: new Map([['plan.json', plan]]), copies: new Map() });

describe('two copies of cdk-capability in one process', () => {
  test("a synth does not watch the other copy's run folder (made at construction, not refreshed yet) and leaves it in place", () => {
    // GIVEN the other copy's run folder beside the outdir, made as an aws-cdk stage's is while the tree is built
    const outdir = path.join(tempDir(), 'dist');
    const other = secondCopy();
    const theirs = other.runFolder.RunFolder.for(outdir, true);

    // WHEN this copy holds the outdir (its synth's write step)
    let held: ReturnType<typeof holdOutdir> | undefined;
    const steps = watchStepsOf(() => {
      held = holdOutdir(outdir);
    });
    held!.release();

    // THEN nothing was watched, and the other copy's run folder is still there
    expect(steps).toBe(0);
    expect(fs.existsSync(path.join(theirs.path, 'owner.json'))).toBe(true);
    other.runFolder.RunFolder.release(outdir);
  });

  test('a synth into the outdir whose lock the other copy holds is refused at once with CAP011, without watching or taking it over', () => {
    // GIVEN the other copy writing the outdir during its short synth (its lock not refreshed: the thread is deferred)
    const outdir = path.join(tempDir(), 'dist');
    writeAtomically(outdir, tree('old'));
    const other = secondCopy();
    other.heartbeat.deferringThread(() => {
      const theirs = other.atomic.holdOutdir(outdir);
      try {
        // WHEN this copy writes the same outdir
        let error: unknown;
        const steps = watchStepsOf(() => {
          try {
            writeAtomically(outdir, tree('new'));
          } catch (e) {
            error = e;
          }
        });

        // THEN it is refused at once, and the output is as it was
        expect(steps).toBe(0);
        expect(String(error)).toBe(
          'CompositionError: The composition was refused with 1 violation:\n' +
            `CAP011 output not written: a synth of this same process (${process.pid}) is writing '${outdir}' (it holds the lock '${outdir}.lock'): ` +
            'this synth was started inside it, or by a second copy of cdk-capability loaded in this process, into the same outdir; nothing was changed. ' +
            'Synth one app into an outdir at a time: give the other app its own outdir (the outdir prop, or CDK8S_OUTDIR), or synth it after the first synth has returned.',
        );
        expect(readTree(outdir)['plan.json']).toBe('old');
      } finally {
        theirs.release();
      }
    });
  });
});

describe('a record of this very process', () => {
  test('is one with its boot and PID namespace, pid and process start; a pid reused by a later process is not', () => {
    const mine = newOwner();

    expect(mine.processStart).toMatch(/^\d+$/);
    expect(isThisProcess(mine)).toBe(true);
    expect(isThisProcess({ ...mine, processStart: String(Number(mine.processStart) + 1) })).toBe(false);
    expect(isThisProcess({ ...mine, namespace: 'another-boot/pid:[4026532999]' })).toBe(false);
    expect(isThisProcess({ ...mine, pid: mine.pid + 1 })).toBe(false);
    const { processStart: _, ...ofEarlierRelease } = mine;
    expect(isThisProcess(ofEarlierRelease)).toBe(false);
  });
});
