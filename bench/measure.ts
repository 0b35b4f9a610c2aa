/**
 * Runs scenario children and keeps their figures: one process per run, the
 * two sides alternated after a warm-up, medians over the runs.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ChildReport } from './child';

/** Which code a child runs: our library, the bare tool, or the ledger alone. */
export type Side = 'ours' | 'bare' | 'ledger';

/** One run: what the child reported, plus the whole-process wall time the parent saw. */
export interface RunResult extends ChildReport {
  /** Spawn to exit, as measured by the parent (node start-up and module loading included), ms. */
  readonly processMs: number;
}

/** Every run of one side of one scenario at one size. */
export interface Series {
  readonly side: Side;
  readonly scenario: string;
  readonly size: number;
  readonly runs: RunResult[];
}

/** How many runs of each side, and whether each side gets an untimed warm-up run first. */
export interface RunCounts {
  readonly ours: number;
  readonly bare: number;
  readonly warmupOurs?: boolean;
  readonly warmupBare?: boolean;
}

/** Where runs write: a tmpfs when there is one, so disk speed does not enter the figures. */
export function tempBase(): string {
  const shm = '/dev/shm';
  try {
    fs.accessSync(shm, fs.constants.W_OK);
    return shm;
  } catch {
    return os.tmpdir();
  }
}

/**
 * Runs one child: `node [nodeArgs] child.js side scenario size outdir`, with a
 * fresh outdir and scratch folder (TMPDIR) that are removed afterwards.
 */
export function runOnce(side: Side, scenario: string, size: number, nodeArgs: string[] = []): RunResult {
  const runDir = fs.mkdtempSync(path.join(tempBase(), 'cdk-capability-bench-'));
  const outdir = path.join(runDir, 'dist');
  try {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [...nodeArgs, path.join(__dirname, 'child.js'), side, scenario, String(size), outdir], {
      encoding: 'utf-8',
      maxBuffer: 64 * 1024 * 1024,
      // same environment for both sides; the aws-cdk template validator is off as in our unit tests
      env: { ...process.env, TMPDIR: runDir, CDK_VALIDATION: 'false' },
    });
    const processMs = Number(process.hrtime.bigint() - start) / 1e6;
    const line = (child.stdout ?? '').split('\n').find((l) => l.startsWith('BENCH '));
    if (line) return { ...(JSON.parse(line.slice('BENCH '.length)) as ChildReport), processMs };
    const lastError = (child.stderr ?? '').trim().split('\n').filter((l) => /Error|error/.test(l)).pop() ?? '';
    const how = child.signal ? `killed by ${child.signal}` : `exit code ${child.status}`;
    return { status: 'crash', loadMs: NaN, runMs: NaN, cpuMs: NaN, maxRssKb: NaN, processMs, error: `${how}${lastError ? `: ${lastError.trim().slice(0, 200)}` : ''}` };
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * Measures both sides of a scenario at one size: an untimed warm-up of each
 * side, then runs alternated ours/bare, bare/ours, ... so drift on a busy
 * machine hits both sides alike.
 *
 * @param log called after every run with a one-line progress note
 */
export function compare(scenario: string, size: number, counts: RunCounts, log: (line: string) => void): { ours: Series; bare?: Series } {
  const ours: Series = { side: 'ours', scenario, size, runs: [] };
  const bare: Series = { side: 'bare', scenario, size, runs: [] };
  const one = (series: Series, timed: boolean) => {
    const r = runOnce(series.side, scenario, size);
    if (timed) series.runs.push(r);
    log(`${scenario} ${size} ${series.side}${timed ? ` run ${series.runs.length}` : ' warm-up'}: ${describeRun(r)}`);
  };
  if (counts.warmupOurs ?? true) one(ours, false);
  if (counts.bare > 0 && (counts.warmupBare ?? true)) one(bare, false);
  for (let i = 0; i < Math.max(counts.ours, counts.bare); i++) {
    const order = i % 2 === 0 ? [ours, bare] : [bare, ours];
    for (const s of order) if (s.runs.length < (s.side === 'ours' ? counts.ours : counts.bare)) one(s, true);
  }
  return counts.bare > 0 ? { ours, bare } : { ours };
}

/** Runs the ledger scenario `runs` times, each in its own process, after one warm-up. */
export function measureLedger(writes: number, runs: number, log: (line: string) => void): Series {
  const series: Series = { side: 'ledger', scenario: 'ledger', size: writes, runs: [] };
  for (let i = 0; i <= runs; i++) {
    const r = runOnce('ledger', 'ledger', writes);
    if (i > 0) series.runs.push(r);
    log(`ledger ${writes} ${i === 0 ? 'warm-up' : `run ${i}`}: conflicts() ${r.runMs.toFixed(1)} ms${r.status === 'crash' ? ` CRASH ${r.error}` : ''}`);
  }
  return series;
}

/** The median of finite numbers; NaN when there are none. */
export function median(values: readonly number[]): number {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** Figures of a series: medians over its successful runs, and its crashes. */
export interface SeriesStats {
  readonly runs: number;
  readonly ok: number;
  readonly runMs: number;
  readonly cpuMs: number;
  readonly processMs: number;
  readonly loadMs: number;
  readonly maxRssMiB: number;
  readonly fillMs: number;
  readonly crash?: RunResult;
}

/** Medians over the successful runs of a series (all runs when every one crashed). */
export function stats(series: Series): SeriesStats {
  const ok = series.runs.filter((r) => r.status === 'ok');
  const used = ok.length > 0 ? ok : series.runs;
  return {
    runs: series.runs.length,
    ok: ok.length,
    runMs: median(used.map((r) => r.runMs)),
    cpuMs: median(used.map((r) => r.cpuMs)),
    processMs: median(used.map((r) => r.processMs)),
    loadMs: median(used.map((r) => r.loadMs)),
    maxRssMiB: median(used.map((r) => r.maxRssKb / 1024)),
    fillMs: median(used.map((r) => r.fillMs ?? NaN)),
    crash: series.runs.find((r) => r.status === 'crash'),
  };
}

function describeRun(r: RunResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const base = `build+synth ${s(r.runMs)} (CPU ${s(r.cpuMs)}), process ${s(r.processMs)}, peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB`;
  return r.status === 'ok' ? base : `CRASH (${r.error}) ${base}`;
}
