import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { readTree, removeTempDirs, tempDir } from './util';
import { writeAtomically } from '../src/render/atomic-output';

afterAll(removeTempDirs);

const ROOT = path.resolve(__dirname, '..');
let child: string;

/**
 * The child program as plain JavaScript: src/ and the fixture transpiled once into a temporary
 * folder, so each of the many children starts in a fraction of a second.
 */
beforeAll(() => {
  const out = tempDir();
  const sources = [...listTs(path.join(ROOT, 'src')), path.join(__dirname, 'fixtures', 'kill-writer.ts')];
  for (const file of sources) {
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
    const js = ts.transpileModule(fs.readFileSync(file, 'utf-8'), { compilerOptions });
    const dest = path.join(out, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, js.outputText);
  }
  child = path.join(out, 'test', 'fixtures', 'kill-writer.js');
});

function listTs(dir: string): string[] {
  // src/imports (generated CRD classes, large) is not reached by the write step
  const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== 'imports');
  return entries.flatMap((e) => (e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Every step of a write, in order, as `writeSteps` and `beforeWrite` name them. */
const STEPS = ['locked', 'file:plan.json', 'file:runtime/0003.yaml', 'staged', 'alongside-staged', 'previous-moved', 'output-moved', 'alongside-moved', 'done'];

/** The signals a CI runner sends a cancelled job, in the order it sends them (GitHub Actions: SIGINT, SIGTERM, then SIGKILL). */
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGKILL'];

/** The output of one version, as `readTree` gives it. */
function outputOf(version: string): Record<string, string> {
  const tree: Record<string, string> = { '.cdk-capability-output': '{"generator":"cdk-capability","formatVersion":1}\n', 'plan.json': JSON.stringify({ version }) + '\n', 'runtime/': '<dir>' };
  for (let i = 1; i <= 5; i++) tree[`runtime/000${i}.yaml`] = `version: ${version}\nfile: ${i}\n`;
  return tree;
}

/** How a child ended. */
interface Ended {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  readonly pid?: number;
}

function writeInChild(outdir: string, lockFile: string, version: string, step: string, signal: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
    const proc = spawn(process.execPath, [child, outdir, lockFile, version, step, signal], { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('error', reject);
    proc.on('close', (code, sig) => resolve({ code, signal: sig, stderr, pid: proc.pid }));
  });
}

/** Runs `jobs` two at a time: the suite runs on two cores. */
async function inPairs<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < jobs.length; i += 2) results.push(...(await Promise.all(jobs.slice(i, i + 2).map((j) => j()))));
  return results;
}

describe('a synth killed at any step of its write', () => {
  const cases = STEPS.flatMap((step) => SIGNALS.map((signal) => ({ step, signal })));

  test(`leaves the old or the new output whole, and the next synth succeeds (${cases.length} kills: ${STEPS.length} steps x ${SIGNALS.join(', ')})`, async () => {
    // GIVEN, for each case, an outdir holding version 1 and its lock file
    const dirs = await inPairs(
      cases.map(({ step, signal }) => async () => {
        const parent = tempDir();
        const outdir = path.join(parent, 'dist');
        const lockFile = path.join(parent, 'capability.lock.json');
        const first = await writeInChild(outdir, lockFile, '1', 'none', 'none');
        expect(first).toMatchObject({ code: 0, signal: null, stderr: '' });

        // WHEN a synth of version 2 is killed at the step
        const killed = await writeInChild(outdir, lockFile, '2', step, signal);
        return { step, signal, parent, outdir, lockFile, killed };
      }),
    );

    for (const { step, signal, parent, outdir, lockFile, killed } of dirs) {
      const label = `${step} / ${signal}`;
      // THEN it died of the signal (it never ran to a clean exit)...
      expect({ label, signal: step === 'none' ? null : killed.signal }).toEqual({ label, signal });
      // ...the outdir holds the old or the new output, whole (once an interrupted swap is put back)...
      const seen = fs.existsSync(outdir) ? readTree(outdir) : undefined;
      const lock = fs.readFileSync(lockFile, 'utf-8');
      const late = ['output-moved', 'alongside-moved', 'done'].includes(step);
      expect({ label, output: seen }).toEqual({ label, output: step === 'previous-moved' ? undefined : outputOf(late ? '2' : '1') });
      // ...the lock file is the old one until the new output is in place, then the new one...
      expect({ label, lock }).toEqual({ label, lock: JSON.stringify({ version: step === 'alongside-moved' || step === 'done' ? '2' : '1' }) + '\n' });

      // ...and the next synth takes over the dead synth's lock, restores what the kill interrupted, and writes version 3
      const notices: string[] = [];
      const spy = jest.spyOn(process.stderr, 'write').mockImplementation((text) => notices.push(String(text)) > 0);
      try {
        writeAtomically(outdir, { files: new Map([['plan.json', '{"version":"3"}\n']]), copies: new Map() });
      } finally {
        spy.mockRestore();
      }
      const expected = [`cdk-capability: took over the stale lock '${outdir}.lock' of process ${killed.pid}, which no longer runs\n`];
      if (step === 'previous-moved') expected.push(`cdk-capability: put back the output '${outdir}' that a synth killed during its swap had set aside\n`);
      expect({ label, notices }).toEqual({ label, notices: expected });
      expect({ label, output: readTree(outdir) }).toEqual({ label, output: { '.cdk-capability-output': outputOf('3')['.cdk-capability-output'], 'plan.json': '{"version":"3"}\n' } });
      // nothing of the dead synth is left: no lock, no run folder, no temporary lock file
      expect({ label, left: fs.readdirSync(parent).sort() }).toEqual({ label, left: ['capability.lock.json', 'dist'] });
    }
  });
});
