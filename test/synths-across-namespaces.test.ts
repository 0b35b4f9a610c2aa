import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANG_GUARD_MS, readTree, removeTempDirs, tempDir } from './util';
import { compileWriterChild, Ended, runWriter, WriterArgs } from './writer-child';
import { sleep } from '../src/private/liveness';

// Issue 22 item 4: two synths into one shared folder from two containers of one pod: the same host name,
// separate PID namespaces (`unshare --pid --fork`), so each can see the other's pid as its own or as no
// process at all. One waits or is refused; neither loses or mixes output. Needs root (or user namespaces).

afterAll(removeTempDirs);

/** Runs a command in a new PID namespace; `sh` stays PID 1 there, so node (PID 2) can still kill itself with a signal. */
const IN_NAMESPACE = ['unshare', '--pid', '--fork', '--kill-child', 'sh', '-c', 'exec "$@" & wait $!', 'sh'];

/** Why this machine cannot make PID namespaces, or undefined when it can. */
function cannotUnshare(): string | undefined {
  const probe = spawnSync(IN_NAMESPACE[0], [...IN_NAMESPACE.slice(1), 'sh', '-c', 'echo $$'], { encoding: 'utf-8' });
  if (probe.error) return `unshare is not available (${probe.error.message})`;
  return probe.status === 0 && probe.stdout.trim() === '2' ? undefined : `unshare --pid --fork failed (${(probe.stderr || probe.stdout).trim() || `exit ${probe.status}`})`;
}

const unavailable = cannotUnshare();
let child: string;
beforeAll(() => {
  child = compileWriterChild();
});

/** The output of one version, as `readTree` gives it. */
function outputOf(version: string): Record<string, string> {
  const files = ['plan.json', 'runtime/0001.yaml', 'runtime/0002.yaml', 'runtime/0003.yaml', 'runtime/0004.yaml', 'runtime/0005.yaml'];
  const marker = JSON.stringify({ generator: 'cdk-capability', formatVersion: 2, files }) + '\n';
  const tree: Record<string, string> = { '.cdk-capability-output': marker, 'plan.json': JSON.stringify({ version }) + '\n', 'runtime/': '<dir>' };
  for (let i = 1; i <= 5; i++) tree[`runtime/000${i}.yaml`] = `version: ${version}\nfile: ${i}\n`;
  return tree;
}

/** Fast heartbeats for the children: a refresh every 50 ms, stale after 800 ms unrefreshed. */
const TIMING = { refreshMs: 50, staleMs: 800 };

function inNamespace(args: Omit<WriterArgs, 'refreshMs' | 'staleMs'>): Promise<Ended> {
  return runWriter(child, { ...args, ...TIMING }, IN_NAMESPACE);
}

/** Waits until `file` exists: the paused child's seam. A hang guard only, never a time budget. */
function waitFor(file: string): void {
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`hung: ${file} never appeared`);
    sleep(20);
  }
}

describe('two synths in separate PID namespaces of one host, into one shared folder', () => {
  test('while the first writes, the second is refused (CAP011, naming the first); the first completes whole', async () => {
    if (unavailable) return console.log(`skipped: ${unavailable}`);
    // GIVEN version 1 written, then a synth of version 2 in its own PID namespace, paused with the lock held
    // and its output staged in its run folder
    const parent = tempDir();
    const outdir = path.join(parent, 'dist');
    const lockFile = path.join(parent, 'capability.lock.json');
    expect(await inNamespace({ outdir, lockFile, version: '1', step: 'none', action: 'none' })).toMatchObject({ code: 0, stderr: '' });
    const first = inNamespace({ outdir, lockFile, version: '2', step: 'staged', action: 'pause' });
    waitFor(`${outdir}.paused`);
    const holder = JSON.parse(fs.readFileSync(`${outdir}.lock`, 'utf-8'));

    // WHEN a synth of version 3 starts in another PID namespace, where the same pid is its own
    const second = await inNamespace({ outdir, lockFile, version: '3', step: 'none', action: 'none' });

    // THEN the first's pid in its namespace is the second's in its own (2: sh is 1), and the second was turned away
    expect(holder).toEqual(expect.objectContaining({ pid: 2, host: os.hostname(), namespace: expect.stringMatching(/\/pid:\[\d+\]$/) }));
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(
      new RegExp(`CAP011 output not written: another synth \\(process 2 on ${os.hostname()}, since [^)]+\\) is writing '${outdir}'; nothing was changed\\. Wait for it to finish and synth again`),
    );

    // WHEN the first goes on
    fs.writeFileSync(`${outdir}.resume`, '');
    expect(await first).toMatchObject({ code: 0, signal: null, stderr: '' });

    // THEN its output and its lock file are there, whole, and neither synth left anything behind
    expect(readTree(outdir)).toEqual(outputOf('2'));
    expect(fs.readFileSync(lockFile, 'utf-8')).toBe('{"version":"2"}\n');
    expect(fs.readdirSync(parent).sort()).toEqual(['capability.lock.json', 'dist', 'dist.paused', 'dist.resume']);
  });

  test('a synth killed in its namespace mid-swap: the next, in another namespace, waits for its refresh to stop, rolls the swap back and writes whole', async () => {
    if (unavailable) return console.log(`skipped: ${unavailable}`);
    // GIVEN version 1, and a synth of version 2 in its own PID namespace killed right after moving its output in
    const parent = tempDir();
    const outdir = path.join(parent, 'dist');
    const lockFile = path.join(parent, 'capability.lock.json');
    expect(await inNamespace({ outdir, lockFile, version: '1', step: 'none', action: 'none' })).toMatchObject({ code: 0 });
    const killed = await inNamespace({ outdir, lockFile, version: '2', step: 'output-moved', action: 'SIGKILL' });
    expect(killed.code).toBe(128 + 9);

    // WHEN a synth of version 3 runs in another PID namespace (the dead synth's pid means nothing there)
    const next = await inNamespace({ outdir, lockFile, version: '3', step: 'none', action: 'none' });

    // THEN it took the lock over only once its refresh had stopped, put version 1 back, and wrote version 3 whole
    expect(next.code).toBe(0);
    expect(next.stderr).toBe(
      `cdk-capability: took over the stale lock '${outdir}.lock' of process 2 on ${os.hostname()}, not refreshed for 0.8 seconds\n` +
        `cdk-capability: rolled back the swap of '${outdir}' that a killed synth left half done: the previous output and '${lockFile}' are as before it\n`,
    );
    expect(readTree(outdir)).toEqual(outputOf('3'));
    expect(fs.readFileSync(lockFile, 'utf-8')).toBe('{"version":"3"}\n');
    expect(fs.readdirSync(parent).sort()).toEqual(['capability.lock.json', 'dist']);
  });
});
