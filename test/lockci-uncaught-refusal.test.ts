import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANG_GUARD_MS, NODE_TS } from './util';

// A refusal thrown out of a program that `node` runs and nobody catches is printed as its report, once: not
// Node's `[CompositionError: ...]` with the library's throw line above it. Each case runs a real child process:
// the top-level one with ts-node's transpile-only hook, as `npx ts-node main.ts` runs it; the others with the
// tests' transpile hook (test/support/transpile-hook.js), a tenth of ts-node's start-up CPU.

const ROOT = path.resolve(__dirname, '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'lockci-uncaught', 'refused.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const REPORT = [
  'CompositionError: The composition was refused with 1 violation:',
  "CAP001 duplicate object: ConfigMap same is declared by 'cdn/Routing/A' and 'cdn/Routing/B'. Declare it once; let the other construct write its own fields with new Contribution(scope, id, { target, fields }).",
];

interface Run { readonly code: number | null; readonly stdout: string; readonly stderr: string }

function runNode(mode: string, hook: readonly string[]): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockci-uncaught-'));
  dirs.push(dir);
  const env: NodeJS.ProcessEnv = { ...process.env, LOCKCI_MODE: mode, LOCKCI_DIR: dir, CDK_VALIDATION: 'false' };
  for (const name of ['CDK8S_OUTDIR', 'CDK_CAPABILITY_REPORT', 'CDK8S_RECORD_CONSTRUCT_METADATA', 'NODE_OPTIONS']) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...hook, FIXTURE], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a refusal no one catches, in a program node runs', () => {
  let runs: Record<string, Run>;

  beforeAll(async () => {
    // GIVEN a program whose composition is refused
    // WHEN node runs it: synth at the top level, in an async main, with the program's own handler, and caught then another error
    runs = { sync: await runNode('sync', ['-r', 'ts-node/register/transpile-only']) };
    for (const mode of ['async', 'handled', 'other']) runs[mode] = await runNode(mode, NODE_TS);
  }, 4 * HANG_GUARD_MS);

  test('at the top level: stderr is the report, once, and nothing else; exit code 1', () => {
    expect(runs.sync).toEqual({ code: 1, stdout: '', stderr: `${REPORT.join('\n')}\n` });
  });

  test('in an async main whose rejection nobody handles: the report, once; exit code 1', () => {
    expect(runs.async).toEqual({ code: 1, stdout: '', stderr: `${REPORT.join('\n')}\n` });
  });

  test("a program that handles uncaught exceptions itself keeps its handler's say", () => {
    expect(runs.handled).toEqual({ code: 3, stdout: '', stderr: 'handled by the program: CompositionError\n' });
  });

  test('another error after a caught refusal is printed by Node as always', () => {
    expect(runs.other.code).toBe(1);
    expect(runs.other.stderr).toMatch(/\nError: the program failed after the refusal\n {4}at /);
    expect(runs.other.stderr).not.toContain('CAP001');
  });
});
