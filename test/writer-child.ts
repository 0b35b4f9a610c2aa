import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { tempDir } from './util';

const ROOT = path.resolve(__dirname, '..');

/**
 * The child program of test/fixtures/kill-writer.ts as plain JavaScript: src/ and the fixture transpiled once
 * into a temporary folder, so each of the many children starts in a fraction of a second. Call it from
 * `beforeAll`.
 *
 * @returns the child's entry file
 */
export function compileWriterChild(): string {
  const out = tempDir();
  const sources = [...listTs(path.join(ROOT, 'src')), path.join(__dirname, 'fixtures', 'kill-writer.ts')];
  for (const file of sources) {
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
    const js = ts.transpileModule(fs.readFileSync(file, 'utf-8'), { compilerOptions });
    const dest = path.join(out, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, js.outputText);
  }
  return path.join(out, 'test', 'fixtures', 'kill-writer.js');
}

function listTs(dir: string): string[] {
  // src/imports (generated CRD classes, large) is not reached by the write step
  const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== 'imports');
  return entries.flatMap((e) => (e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** How a child ended. */
export interface Ended {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  readonly pid?: number;
}

/** What a writer child is told: see test/fixtures/kill-writer.ts. */
export interface WriterArgs {
  readonly outdir: string;
  readonly lockFile: string;
  readonly version: string;
  /** The step to act at, or 'none'. */
  readonly step: string;
  /** A signal to kill itself with, 'pause', or 'none'. */
  readonly action: string;
  /** Shorter heartbeat timings than the defaults. */
  readonly refreshMs?: number;
  readonly staleMs?: number;
}

/**
 * Runs the writer child and resolves when it has ended.
 *
 * @param wrap a command to run the child under (`unshare --pid --fork ...`), before node's own arguments
 */
export function runWriter(child: string, args: WriterArgs, wrap: readonly string[] = []): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
    const childArgs = [child, args.outdir, args.lockFile, args.version, args.step, args.action, String(args.refreshMs ?? ''), String(args.staleMs ?? '')];
    const [program, ...rest] = [...wrap, process.execPath, ...childArgs];
    const proc = spawn(program, rest, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('error', reject);
    proc.on('close', (code, sig) => resolve({ code, signal: sig, stderr, pid: proc.pid }));
  });
}
