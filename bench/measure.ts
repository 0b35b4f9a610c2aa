/**
 * Runs scenario children and keeps their figures: one process per run, the
 * sides alternated after a warm-up, medians and min-max spreads over the runs.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ChildReport } from './child';
import { forgetCodeCache } from './package-build';

/** Which code a child runs: our library, the bare tool, the floor, the ledger alone, or one serializer. */
export type Side = 'ours' | 'bare' | 'floor' | 'ledger' | 'serializers';

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
  /** For `serializers`: which one. */
  readonly variant?: string;
  readonly runs: RunResult[];
}

/** How many runs of each side, and whether each side gets an untimed warm-up run first. */
export interface RunCounts {
  readonly ours: number;
  readonly bare: number;
  /** Runs of the floor (0 or absent: not measured). */
  readonly floor?: number;
  readonly warmupOurs?: boolean;
  readonly warmupBare?: boolean;
  readonly warmupFloor?: boolean;
}

/** The series of one size: ours always, the others when they ran. */
export interface Compared {
  readonly ours: Series;
  readonly bare?: Series;
  readonly floor?: Series;
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
 * Runs one child: `node [nodeArgs] child.js side scenario size outdir [extra]`,
 * in a fresh run folder (its working directory and TMPDIR, the outdir inside
 * it) that is removed afterwards.
 *
 * @param env added to the child's environment (the lock file of a previous release)
 */
export function runOnce(
  side: Side,
  scenario: string,
  size: number,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
  extra: string[] = [],
): RunResult {
  const runDir = fs.mkdtempSync(path.join(tempBase(), 'cdk-capability-bench-'));
  const outdir = path.join(runDir, 'dist');
  try {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [...nodeArgs, path.join(__dirname, 'child.js'), side, scenario, String(size), outdir, ...extra], {
      cwd: runDir,
      encoding: 'utf-8',
      maxBuffer: 64 * 1024 * 1024,
      // same environment for every side; the aws-cdk template validator is off as in our unit tests
      env: { ...process.env, TMPDIR: runDir, CDK_VALIDATION: 'false', ...env },
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

/** A previous release for our side: the lock a first synth wrote, and the environment that points runs at it. */
export interface PreviousRelease {
  readonly env: Record<string, string>;
  /** Removes the lock's folder. */
  dispose(): void;
}

/**
 * Makes the lock of a previous release: one untimed run of our side with
 * `CDK_CAPABILITY_UPDATE_LOCK=1` writing `capability.lock.json` into a temp
 * folder. Runs given the returned `env` read it, so the release checks
 * (interface compatibility, deletion safety) compare against it.
 *
 * @throws when the first synth fails or writes no lock
 */
export function previousRelease(scenario: string, size: number, log: (line: string) => void): PreviousRelease {
  const dir = fs.mkdtempSync(path.join(tempBase(), 'cdk-capability-bench-lock-'));
  const lockFile = path.join(dir, 'capability.lock.json');
  const env = { BENCH_LOCK_FILE: lockFile };
  const first = runOnce('ours', scenario, size, [], { ...env, CDK_CAPABILITY_UPDATE_LOCK: '1' });
  if (first.status !== 'ok' || !fs.existsSync(lockFile)) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${scenario} ${size}: the first synth, which writes the previous release's lock, ${first.status === 'ok' ? 'wrote no lock' : `failed: ${first.error}`}`);
  }
  log(`${scenario} ${size} ours previous release: lock written (${(fs.statSync(lockFile).size / 1024).toFixed(0)} KiB), ${describeRun(first)}`);
  return { env, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Measures the sides of a scenario at one size: an untimed warm-up of each
 * side, then runs alternated ours/bare/floor, bare/floor/ours, ... so drift on
 * a busy machine hits every side alike. Our warm-up starts without a code
 * cache of the bundle and leaves the one of this scenario (`forgetCodeCache`);
 * without a warm-up, the timed runs load the cache the last one left.
 *
 * @param log called after every run with a one-line progress note
 * @param env added to every child's environment
 */
export function compare(scenario: string, size: number, counts: RunCounts, log: (line: string) => void, env: Record<string, string> = {}): Compared {
  const make = (side: Side): Series => ({ side, scenario, size, runs: [] });
  const plan: Array<{ series: Series; runs: number; warmup: boolean }> = [
    { series: make('ours'), runs: counts.ours, warmup: counts.warmupOurs ?? true },
    { series: make('bare'), runs: counts.bare, warmup: counts.warmupBare ?? true },
    { series: make('floor'), runs: counts.floor ?? 0, warmup: counts.warmupFloor ?? true },
  ].filter((p) => p.runs > 0 || p.series.side === 'ours');
  const one = (series: Series, timed: boolean) => {
    const r = runOnce(series.side, scenario, size, [], env);
    if (timed) series.runs.push(r);
    log(`${scenario} ${size} ${series.side}${timed ? ` run ${series.runs.length}` : ' warm-up'}: ${describeRun(r)}`);
  };
  for (const p of plan) {
    if (!p.warmup || p.runs === 0) continue;
    // our warm-up writes the code cache of this scenario's app, which the timed runs load (forgetCodeCache)
    if (p.series.side === 'ours') forgetCodeCache();
    one(p.series, false);
  }
  const rounds = Math.max(...plan.map((p) => p.runs));
  for (let i = 0; i < rounds; i++) {
    const order = [...plan.slice(i % plan.length), ...plan.slice(0, i % plan.length)];
    for (const p of order) if (p.series.runs.length < p.runs) one(p.series, true);
  }
  const find = (side: Side) => plan.find((p) => p.series.side === side && p.runs > 0)?.series;
  return { ours: find('ours') ?? make('ours'), bare: find('bare'), floor: find('floor') };
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

/** Runs each serializer `runs` times on a floor scenario's manifests, alternated, each in its own process. */
export function measureSerializers(scenario: string, size: number, names: readonly string[], runs: number, log: (line: string) => void): Series[] {
  const all: Series[] = names.map((variant) => ({ side: 'serializers', scenario, size, variant, runs: [] }));
  for (let i = 0; i < runs; i++) {
    for (const s of [...all.slice(i % all.length), ...all.slice(0, i % all.length)]) {
      const r = runOnce('serializers', scenario, size, [], {}, [s.variant!]);
      s.runs.push(r);
      log(`serializers ${scenario} ${size} ${s.variant} run ${s.runs.length}: load ${r.loadMs.toFixed(0)} ms, serialize ${r.runMs.toFixed(0)} ms${r.status === 'crash' ? ` CRASH ${r.error}` : ''}`);
    }
  }
  return all;
}

/** The median of finite numbers; NaN when there are none. */
export function median(numbers: readonly number[]): number {
  const xs = numbers.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** A median with the smallest and largest value it was taken over. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** The median, min and max of finite numbers (NaN when there are none). */
export function spread(numbers: readonly number[]): Spread {
  const xs = numbers.filter((v) => Number.isFinite(v));
  return xs.length === 0 ? { median: NaN, min: NaN, max: NaN } : { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

/** What a run measured, by name; `maxRssMiB` is derived from `maxRssKb`. */
export type Metric = 'runMs' | 'cpuMs' | 'processMs' | 'processCpuMs' | 'maxRssMiB';

/** One metric of every successful run (every run when all crashed). */
export function values(series: Series, metric: Metric): number[] {
  const ok = series.runs.filter((r) => r.status === 'ok');
  const used = ok.length > 0 ? ok : series.runs;
  return used.map((r) => (metric === 'maxRssMiB' ? r.maxRssKb / 1024 : (r[metric] ?? NaN)));
}

/**
 * `a / b` for one metric, with its spread. Series of equal length are paired
 * run by run (the alternated runs were made side by side, so a pair shares the
 * machine's state) and the median, min and max are of the paired ratios;
 * otherwise the median is the ratio of medians and the spread its extremes.
 */
export function ratio(a: Series, b: Series, metric: Metric): Spread {
  const x = values(a, metric);
  const y = values(b, metric);
  if (x.length > 0 && x.length === y.length) return spread(x.map((v, i) => v / y[i]));
  const sx = spread(x);
  const sy = spread(y);
  return { median: sx.median / sy.median, min: sx.min / sy.max, max: sx.max / sy.min };
}

/** Figures of a series: medians over its successful runs, and its crashes. */
export interface SeriesStats {
  readonly runs: number;
  readonly ok: number;
  readonly runMs: number;
  readonly cpuMs: number;
  readonly processMs: number;
  readonly processCpuMs: number;
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
    runMs: median(values(series, 'runMs')),
    cpuMs: median(values(series, 'cpuMs')),
    processMs: median(values(series, 'processMs')),
    processCpuMs: median(values(series, 'processCpuMs')),
    loadMs: median(used.map((r) => r.loadMs)),
    maxRssMiB: median(values(series, 'maxRssMiB')),
    fillMs: median(used.map((r) => r.fillMs ?? NaN)),
    crash: series.runs.find((r) => r.status === 'crash'),
  };
}

/** One line about a run, for the progress log. */
export function describeRun(r: RunResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const base = `build+synth ${s(r.runMs)} (CPU ${s(r.cpuMs)}), process ${s(r.processMs)} (CPU ${s(r.processCpuMs ?? NaN)}), peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB`;
  return r.status === 'ok' ? base : `CRASH (${r.error}) ${base}`;
}
