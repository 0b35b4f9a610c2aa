import * as fs from 'fs';
import * as path from 'path';
import { readTree, removeTempDirs, tempDir } from './util';
import { compileWriterChild, Ended, runWriter } from './writer-child';
import { appendAll } from '../src/private/append';
import { HEARTBEAT } from '../src/private/heartbeat';
import { holdOutdir, writeAtomically } from '../src/render/atomic-output';

afterAll(removeTempDirs);

let child: string;
beforeAll(() => {
  child = compileWriterChild();
});

/** Every step of a write, in order, as `writeSteps` and `beforeWrite` name them. */
const STEPS = ['locked', 'file:plan.json', 'file:runtime/0003.yaml', 'staged', 'alongside-staged', 'journaled', 'previous-moved', 'output-moved', 'alongside-moved', 'done'];

/** The signals a CI runner sends a cancelled job, in the order it sends them (GitHub Actions: SIGINT, SIGTERM, then SIGKILL). */
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGKILL'];

/** The steps after the swap's commit point (the new lock file renamed in): a kill there leaves the new release. */
const COMMITTED = ['alongside-moved', 'done'];

/** The output of one version, as `readTree` gives it. */
function outputOf(version: string): Record<string, string> {
  const files = ['plan.json', 'runtime/0001.yaml', 'runtime/0002.yaml', 'runtime/0003.yaml', 'runtime/0004.yaml', 'runtime/0005.yaml'];
  const marker = JSON.stringify({ generator: 'cdk-capability', formatVersion: 2, files }) + '\n';
  const tree: Record<string, string> = { '.cdk-capability-output': marker, 'plan.json': JSON.stringify({ version }) + '\n', 'runtime/': '<dir>' };
  for (let i = 1; i <= 5; i++) tree[`runtime/000${i}.yaml`] = `version: ${version}\nfile: ${i}\n`;
  return tree;
}

function writeInChild(outdir: string, lockFile: string, version: string, step: string, action: string): Promise<Ended> {
  return runWriter(child, { outdir, lockFile, version, step, action });
}

let versionOne: Promise<string> | undefined;

/**
 * Gives `parent` version 1 as a writer child leaves it (`dist/` and `capability.lock.json`): written once by a child
 * for the file, then copied, as every case starts from the same finished write (a child start per case is a Node
 * start on a loaded machine).
 */
async function givenVersionOne(parent: string): Promise<void> {
  versionOne ??= (async () => {
    const template = tempDir();
    const first = await writeInChild(path.join(template, 'dist'), path.join(template, 'capability.lock.json'), '1', 'none', 'none');
    expect(first).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(fs.readdirSync(template).sort()).toEqual(['capability.lock.json', 'dist']);
    return template;
  })();
  const template = await versionOne;
  for (const name of ['dist', 'capability.lock.json']) fs.cpSync(path.join(template, name), path.join(parent, name), { recursive: true });
  expect({ output: readTree(path.join(parent, 'dist')), lock: fs.readFileSync(path.join(parent, 'capability.lock.json'), 'utf-8') }).toEqual({ output: outputOf('1'), lock: '{"version":"1"}\n' });
}

/** Runs `jobs` two at a time: the suite runs on two cores. */
async function inPairs<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < jobs.length; i += 2) appendAll(results, await Promise.all(jobs.slice(i, i + 2).map((j) => j())));
  return results;
}

/** Runs `fn` with stderr captured. */
function noticesOf(fn: () => void): string[] {
  const notices: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((text) => notices.push(String(text)) > 0);
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return notices;
}

describe('a synth killed at any step of its write', () => {
  const cases = STEPS.flatMap((step) => SIGNALS.map((signal) => ({ step, signal })));

  test(`leaves the old output and lock file or the new ones, once the next synth has finished or rolled back its swap (${cases.length} kills: ${STEPS.length} steps x ${SIGNALS.join(', ')})`, async () => {
    // GIVEN, for each case, an outdir holding version 1 and its lock file
    const dirs = await inPairs(
      cases.map(({ step, signal }) => async () => {
        const parent = tempDir();
        const outdir = path.join(parent, 'dist');
        const lockFile = path.join(parent, 'capability.lock.json');
        await givenVersionOne(parent);

        // WHEN a synth of version 2 is killed at the step
        const killed = await writeInChild(outdir, lockFile, '2', step, signal);
        return { step, signal, parent, outdir, lockFile, killed };
      }),
    );

    for (const { step, signal, parent, outdir, lockFile, killed } of dirs) {
      const label = `${step} / ${signal}`;
      // THEN it died of the signal (it never ran to a clean exit)...
      expect({ label, signal: killed.signal }).toEqual({ label, signal });

      // ...and the next synth to hold the outdir takes over the dead synth's lock at once (it shared this PID
      // namespace and its process is gone) and finishes or rolls back what the kill interrupted: the outdir and
      // the lock file are of one release, whole
      const notices = noticesOf(() => holdOutdir(outdir).release());
      const version = COMMITTED.includes(step) ? '2' : '1';
      expect({ label, output: readTree(outdir), lock: fs.readFileSync(lockFile, 'utf-8') }).toEqual({ label, output: outputOf(version), lock: JSON.stringify({ version }) + '\n' });
      const expected = [`cdk-capability: took over the stale lock '${outdir}.lock' of process ${killed.pid}, which no longer runs\n`];
      if (['previous-moved', 'output-moved'].includes(step)) {
        expected.push(`cdk-capability: rolled back the swap of '${outdir}' that a killed synth left half done: the previous output and '${lockFile}' are as before it\n`);
      }
      expect({ label, notices }).toEqual({ label, notices: expected });
      // nothing of the dead synth is left: no lock, no run folder, no temporary lock file
      expect({ label, left: fs.readdirSync(parent).sort() }).toEqual({ label, left: ['capability.lock.json', 'dist'] });

      // ...and a synth after it writes version 3
      writeAtomically(outdir, { files: new Map([['plan.json', '{"version":"3"}\n']]), copies: new Map() });
      expect({ label, output: readTree(outdir) }).toEqual({ label, output: { '.cdk-capability-output': '{"generator":"cdk-capability","formatVersion":2,"files":["plan.json"]}\n', 'plan.json': '{"version":"3"}\n' } });
    }
  });

  test('killed while taking the lock (its run folder created but not yet named, or its lock record staged but not yet linked), it leaves no lock: the next synth takes it at once and removes the dead run', async () => {
    // GIVEN, for each case, version 1 and its lock file, then a synth of version 2 killed in one of the two steps before it holds the lock
    const early = ['run-created', 'lock-record-staged'].flatMap((step) => SIGNALS.map((signal) => ({ step, signal })));
    const dirs = await inPairs(
      early.map(({ step, signal }) => async () => {
        const parent = tempDir();
        const outdir = path.join(parent, 'dist');
        const lockFile = path.join(parent, 'capability.lock.json');
        await givenVersionOne(parent);
        const killed = await writeInChild(outdir, lockFile, '2', step, signal);
        return { step, signal, parent, outdir, lockFile, killed };
      }),
    );
    // a run folder that never named its owner is judged by its refresh alone: watched for a shortened stale window
    const saved = { ...HEARTBEAT };
    Object.assign(HEARTBEAT, { refreshMs: 50, staleMs: 800 });
    try {
      for (const { step, signal, parent, outdir, lockFile, killed } of dirs) {
        const label = `${step} / ${signal}`;
        expect({ label, signal: killed.signal }).toEqual({ label, signal });
        // THEN there is no lock without its owner (the record is linked in whole, or not at all), and only the dead run's folder is left
        const left = fs.readdirSync(parent).sort();
        expect({ label, left: left.filter((e) => !e.startsWith('.dist.run-')) }).toEqual({ label, left: ['capability.lock.json', 'dist'] });
        expect({ label, runs: left.filter((e) => e.startsWith('.dist.run-')).length }).toEqual({ label, runs: 1 });

        // WHEN the next synth holds the outdir: no refusal, no lock to take over, nothing to roll back
        const notices = noticesOf(() => holdOutdir(outdir).release());

        // THEN version 1 is untouched and the dead run's folder is gone
        expect({ label, notices, output: readTree(outdir), lock: fs.readFileSync(lockFile, 'utf-8') }).toEqual({ label, notices: [], output: outputOf('1'), lock: '{"version":"1"}\n' });
        expect({ label, left: fs.readdirSync(parent).sort() }).toEqual({ label, left: ['capability.lock.json', 'dist'] });
      }
    } finally {
      Object.assign(HEARTBEAT, saved);
    }
  });

  test('killed between moving its output in and its lock file in (the commit point), the outdir briefly holds the new output beside the old lock file; the next synth rolls it back', async () => {
    // GIVEN version 1, and a synth of version 2 killed right after renaming its output in
    const parent = tempDir();
    const outdir = path.join(parent, 'dist');
    const lockFile = path.join(parent, 'capability.lock.json');
    expect(await writeInChild(outdir, lockFile, '1', 'none', 'none')).toMatchObject({ code: 0 });
    expect(await writeInChild(outdir, lockFile, '2', 'output-moved', 'SIGKILL')).toMatchObject({ signal: 'SIGKILL' });

    // THEN until a synth holds the outdir again, the files disagree (POSIX cannot rename two paths at once)...
    expect([readTree(outdir)['plan.json'], fs.readFileSync(lockFile, 'utf-8')]).toEqual(['{"version":"2"}\n', '{"version":"1"}\n']);
    // ...the dead run's journal says what it was doing...
    const run = fs.readdirSync(parent).find((e) => e.startsWith('.dist.run-'))!;
    expect(JSON.parse(fs.readFileSync(path.join(parent, run, 'journal.json'), 'utf-8'))).toEqual(expect.objectContaining({ formatVersion: 1, outdir, hadPrevious: true }));

    // WHEN the next synth holds the outdir
    noticesOf(() => holdOutdir(outdir).release());

    // THEN both are version 1 again
    expect([readTree(outdir), fs.readFileSync(lockFile, 'utf-8')]).toEqual([outputOf('1'), '{"version":"1"}\n']);
  });
});
