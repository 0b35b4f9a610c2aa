import * as fs from 'fs';
import * as path from 'path';
import { entriesBeside, readTree, removeTempDirs, tempDir } from './util';
import { HEARTBEAT, stopBeating } from '../src/private/heartbeat';
import { newOwner, sleep, watchSteps } from '../src/private/liveness';
import { RunFolder } from '../src/private/run-folder';
import { holdOutdir, writeAtomically } from '../src/render/atomic-output';
import { OutdirLock } from '../src/render/outdir-lock';
import type { OutputTree } from '../src/render/output-tree';

// Issue 22 item 4. Timings shortened for the suite: a refresh every 50 ms, stale after 600 ms unrefreshed.
// Nothing here asserts a duration: the waits below are the lock's own staleness window, never a budget.
const saved = { ...HEARTBEAT };
beforeAll(() => Object.assign(HEARTBEAT, { refreshMs: 50, staleMs: 600 }));
afterAll(() => {
  Object.assign(HEARTBEAT, saved);
  removeTempDirs();
});

const MARKER = '{"generator":"cdk-capability","formatVersion":2,"files":["plan.json"]}\n';

function tree(plan: string): OutputTree {
  return { files: new Map([['plan.json', plan]]), copies: new Map() };
}

/** An outdir holding a first output, `old`. */
function previous(): { parent: string; outdir: string } {
  const parent = tempDir();
  const outdir = path.join(parent, 'dist');
  writeAtomically(outdir, tree('old'));
  return { parent, outdir };
}

/** Runs `fn` with stderr captured. */
function stderrOf(fn: () => void): string[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((t) => lines.push(String(t)) > 0);
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/**
 * Rewrites the lock record at `file` as one of process 1 in another PID namespace (a container of the same pod),
 * keeping its token: the refreshing thread still refreshes it, and the lock is still its holder's.
 */
function asAnotherProcess(file: string): void {
  const record = JSON.parse(fs.readFileSync(file, 'utf-8'));
  fs.writeFileSync(file, JSON.stringify({ ...record, pid: 1, namespace: 'another-boot/pid:[4026532999]' }) + '\n');
}

/** The time of a file, to the nanosecond. */
function mtimeOf(file: string): bigint {
  return fs.statSync(file, { bigint: true }).mtimeNs;
}

describe('the outdir lock', () => {
  test('is a file created together with its owner record: a token, the pid, the host, the PID namespace and the process start', () => {
    const { outdir } = previous();

    const held = holdOutdir(outdir);
    try {
      const record = JSON.parse(fs.readFileSync(`${outdir}.lock`, 'utf-8'));
      expect(record).toEqual({ token: expect.stringMatching(/^[0-9a-f]{16}$/), pid: process.pid, host: expect.any(String), namespace: newOwner().namespace, started: expect.any(Number), processStart: newOwner().processStart });
      expect(record.namespace).toMatch(/^[0-9a-f-]{36}\/pid:\[\d+\]$/);
    } finally {
      held.release();
    }
    expect(fs.existsSync(`${outdir}.lock`)).toBe(false);
  });

  // Ported from proper-lockfile (moxystudio/node-proper-lockfile, test/lock.test.js @ 059a008d,
  // "should update the lockfile mtime automatically"): here the main thread is busy the whole time, as a synth is.
  test('is refreshed by a worker thread while the main thread is blocked in synchronous code', () => {
    const { outdir } = previous();
    const held = holdOutdir(outdir);
    try {
      const seen = new Set<bigint>([mtimeOf(held.lock.file)]);
      // WHEN the main thread does not yield for a few refresh intervals
      for (let i = 0; i < 20 && seen.size < 3; i++) {
        sleep(HEARTBEAT.refreshMs);
        seen.add(mtimeOf(held.lock.file));
      }
      // THEN the lock's time moved on, more than once
      expect(seen.size).toBeGreaterThanOrEqual(3);
    } finally {
      held.release();
    }
  });

  // Ported from proper-lockfile (test/lock.test.js @ 059a008d, "should fail if already locked").
  test('held by a live synth, it refuses a second one with CAP011 and nothing changes', () => {
    const { outdir } = previous();
    const held = holdOutdir(outdir);
    // held by another process: a lock of this very process is refused without watching (test/two-copies-liveness.test.ts)
    asAnotherProcess(held.lock.file);
    try {
      expect(() => writeAtomically(outdir, tree('new'))).toThrow(
        new RegExp(
          `^The composition was refused with 1 violation:\\nCAP011 output not written: another synth \\(process 1 on .+, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) is writing '${outdir}'; nothing was changed\\. ` +
            `Wait for it to finish and synth again \\(its lock '${outdir}\\.lock' is refreshed while it runs, and taken over once its refresh stops for 0\\.6 seconds\\)\\.$`,
        ),
      );
      expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'old' });
    } finally {
      held.release();
    }
  });

  // Ported from proper-lockfile (test/lock.test.js @ 059a008d, "should remove and acquire over stale locks"):
  // the lock an earlier release leaves (a folder, never refreshed) is stale once it stays as it is.
  test("an earlier release's lock folder that names no owner is taken over once it has not been refreshed for the stale window", () => {
    const { parent, outdir } = previous();
    fs.mkdirSync(`${outdir}.lock`);

    const notices = stderrOf(() => writeAtomically(outdir, tree('new')));

    expect(notices).toEqual([`cdk-capability: took over the stale lock '${outdir}.lock' that names no owner, not refreshed for 0.6 seconds\n`]);
    expect(readTree(outdir)).toEqual({ '.cdk-capability-output': MARKER, 'plan.json': 'new' });
    expect(entriesBeside(parent)).toEqual(['dist']);
  });

  test('a lock of a process in another PID namespace is never judged by its pid: live while refreshed, stale once its refresh stops', () => {
    // GIVEN a lock record of "process 1" in another namespace of this host (a container of the same pod)
    const { outdir } = previous();
    const record = { ...newOwner(), pid: 1, namespace: 'another-boot/pid:[4026532999]' };
    fs.writeFileSync(`${outdir}.lock`, JSON.stringify(record) + '\n');

    // WHEN its refresh has stopped (nobody refreshes it), a synth takes it over, after the stale window
    const notices = stderrOf(() => writeAtomically(outdir, tree('new')));

    // THEN the notice names it and the write went through
    expect(notices).toEqual([`cdk-capability: took over the stale lock '${outdir}.lock' of process 1 on ${record.host}, not refreshed for 0.6 seconds\n`]);
    expect(readTree(outdir)['plan.json']).toBe('new');
  });

  // Ported from proper-lockfile (test/lock.test.js @ 059a008d, "should call the compromised function if lock was
  // acquired by someone else due to staleness") and test/release.test.js: only the owner releases.
  test('a synth whose refresh stopped (a suspended process) loses its lock: it writes nothing, and its release leaves the new owner\'s lock', () => {
    // GIVEN a synth holding the outdir, whose refresh then stops
    const { parent, outdir } = previous();
    const first = holdOutdir(outdir);
    asAnotherProcess(first.lock.file);
    stopBeating(first.lock.file);

    // WHEN another synth (its own run folder) finds the lock stale and takes it over
    const otherRun = RunFolder.for(path.join(parent, 'dist-other'));
    let lock: OutdirLock | undefined;
    const second = stderrOf(() => {
      lock = OutdirLock.acquire(outdir, otherRun);
    });
    expect(second).toEqual([`cdk-capability: took over the stale lock '${outdir}.lock' of process 1 on ${newOwner().host}, not refreshed for 0.6 seconds\n`]);
    const taken = fs.readFileSync(`${outdir}.lock`, 'utf-8');

    // THEN the first synth's write is refused, nothing changed...
    expect(() => writeAtomically(outdir, tree('first'), { held: first })).toThrow(
      `CAP011 output not written: another synth took over the lock '${outdir}.lock' while this one ran (its refresh had stopped for 0.6 seconds: was this process suspended?), so this synth did not replace '${outdir}'; nothing was changed. Synth again.`,
    );
    expect(readTree(outdir)['plan.json']).toBe('old');
    // ...and releasing it leaves the new owner's lock in place
    first.release();
    expect(fs.readFileSync(`${outdir}.lock`, 'utf-8')).toBe(taken);
    lock!.release();
    RunFolder.release(path.join(parent, 'dist-other'));
    expect(entriesBeside(parent)).toEqual(['dist']);
  });

  test('released, it is gone, and the next synth takes it at once', () => {
    const { parent, outdir } = previous();

    holdOutdir(outdir).release();
    writeAtomically(outdir, tree('new'));

    expect(entriesBeside(parent)).toEqual(['dist']);
    expect(readTree(outdir)['plan.json']).toBe('new');
  });
});

describe('dead runs beside the outdir', () => {
  test('a run folder whose owner record stopped being refreshed is removed with the temporary files it recorded', () => {
    // GIVEN the folder of a run in another PID namespace that died: an owner record nobody refreshes, a staged lock file
    const { parent, outdir } = previous();
    const run = path.join(parent, '.dist.run-1-0123456789ab');
    fs.mkdirSync(run);
    fs.writeFileSync(path.join(run, 'owner.json'), JSON.stringify({ ...newOwner(), pid: 1, namespace: 'other/pid:[1]' }));
    const temporary = path.join(parent, 'capability.lock.json..dist.run-1-0123456789ab.tmp');
    fs.writeFileSync(temporary, 'half a lock');
    fs.writeFileSync(path.join(run, 'temporaries.txt'), `${temporary}\n`);

    // WHEN a synth writes
    writeAtomically(outdir, tree('new'));

    // THEN the dead run is gone, and so is its temporary file
    expect(entriesBeside(parent)).toEqual(['dist']);
  });

  test('the folder of a live run in another PID namespace (its record refreshed) is left alone', () => {
    // GIVEN a run folder whose owner record is refreshed while the synth watches it, as its run's worker thread
    // would: at each look of the watch (no thread racing the stale window, so a loaded machine gives the same verdict)
    const { parent, outdir } = previous();
    const run = path.join(parent, '.dist.run-1-aaaaaaaaaaaa');
    fs.mkdirSync(run);
    const record = path.join(run, 'owner.json');
    fs.writeFileSync(record, JSON.stringify({ ...newOwner(), pid: 1, namespace: 'other/pid:[1]' }));
    const refreshes: number[] = [];
    watchSteps.observe = () => {
      const t = new Date(Date.UTC(2030, 0, 1, 0, 0, refreshes.push(0)));
      fs.utimesSync(record, t, t);
    };
    try {
      // WHEN a synth writes (and sweeps dead runs)
      writeAtomically(outdir, tree('new'));
    } finally {
      watchSteps.observe = undefined;
    }

    // THEN it watched the record, saw it refreshed, and left the live run's folder alone
    expect(refreshes.length).toBeGreaterThan(0);
    expect(entriesBeside(parent)).toEqual(['.dist.run-1-aaaaaaaaaaaa', 'dist']);
    expect(readTree(outdir)['plan.json']).toBe('new');
  });

  test("a planted link or a stranger's folder named like a run folder is never followed or removed; an empty one (a run killed before naming itself) is", () => {
    // GIVEN, beside the outdir, a link, a folder with a stranger's file, and an empty folder, all named like run folders
    const { parent, outdir } = previous();
    const victim = tempDir();
    fs.mkdirSync(path.join(victim, '12345'));
    fs.symlinkSync(victim, path.join(parent, '.dist.run-99999999-aaaaaaaaaaaa'));
    fs.mkdirSync(path.join(parent, '.dist.run-99999998-bbbbbbbbbbbb'));
    fs.writeFileSync(path.join(parent, '.dist.run-99999998-bbbbbbbbbbbb', 'notes.txt'), 'mine\n');
    fs.mkdirSync(path.join(parent, '.dist.run-99999997-cccccccccccc'));

    // WHEN a synth writes (and sweeps dead runs)
    writeAtomically(outdir, tree('new'));

    // THEN the link and the stranger's folder are as they were; the empty folder is gone
    expect(fs.readdirSync(victim)).toEqual(['12345']);
    expect(fs.readdirSync(path.join(parent, '.dist.run-99999998-bbbbbbbbbbbb'))).toEqual(['notes.txt']);
    expect(entriesBeside(parent)).toEqual(['.dist.run-99999998-bbbbbbbbbbbb', '.dist.run-99999999-aaaaaaaaaaaa', 'dist']);
  });
});
