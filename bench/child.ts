/**
 * One measured run, in its own process:
 *
 *   node bench/.out/bench/child.js <side> <scenario> <size> <outdir> [serializer]
 *
 * `side` is `ours`, `bare` or `floor` (see scenarios/registry.ts), `ledger`
 * (the field ledger alone) or `serializers` (one serializer on the floor's
 * manifests). Loads only the side it runs, times building plus synth, and
 * prints one line `BENCH {json}` with its own timings, CPU time and peak RSS.
 * `BENCH_LOCK_FILE` names the previous release's lock for our side. A build or
 * synth that throws (cdk8s' stack overflow on long chains) is a recorded
 * `crash`, not a harness failure.
 */
import { performance } from 'perf_hooks';
import type { SerializerName } from './scenarios/serializers';

/** What a child prints after `BENCH `. */
export interface ChildReport {
  /** `ok`, or `crash` when the build or synth threw. */
  readonly status: 'ok' | 'crash';
  /** Script start to modules loaded, ms. */
  readonly loadMs: number;
  /** Building the tree plus synth (for `ledger`: `conflicts()` alone; for `serializers`: serializing), ms. */
  readonly runMs: number;
  /** CPU time (user + system, all threads) of building plus synth, ms: less sensitive than wall time to a busy machine. */
  readonly cpuMs: number;
  /** CPU time (user + system, all threads) of the whole process up to the report: node start-up and module loading included, ms. */
  readonly processCpuMs?: number;
  /** For `ledger`: recording the writes, ms. */
  readonly fillMs?: number;
  /** For `ledger`: conflicts found. */
  readonly conflicts?: number;
  /** For `serializers`: bytes written and their sha256. */
  readonly bytes?: number;
  readonly digest?: string;
  /** Peak resident set size of this process, KiB (`process.resourceUsage().maxRSS`). */
  readonly maxRssKb: number;
  /** The first line of the error, when it crashed. */
  readonly error?: string;
}

const cpuSince = (from?: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

function main(argv: string[]): ChildReport {
  const [side, scenario, sizeArg, outdir, serializer] = argv;
  const size = Number(sizeArg);
  if (side === 'ledger') return runLedger(size);
  if (side === 'serializers') return runSerializers(serializer as SerializerName, scenario, size);
  if (side !== 'ours' && side !== 'bare' && side !== 'floor') throw new Error(`unknown side '${side}'`);

  const load = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadBuilder } = require('./scenarios/registry') as typeof import('./scenarios/registry');
  const build = loadBuilder(side, scenario);
  const loadMs = performance.now() - load;

  const start = performance.now();
  const cpu = process.cpuUsage();
  const end = (status: 'ok' | 'crash', error?: string): ChildReport => ({
    status,
    loadMs,
    runMs: performance.now() - start,
    cpuMs: cpuSince(cpu),
    processCpuMs: cpuSince(),
    maxRssKb: process.resourceUsage().maxRSS,
    ...(error ? { error } : {}),
  });
  try {
    build(outdir, size, { lockFile: process.env.BENCH_LOCK_FILE || undefined });
    return end('ok');
  } catch (e) {
    return end('crash', (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0].slice(0, 200));
  }
}

function runLedger(writes: number): ChildReport {
  const load = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { fillLedger } = require('./scenarios/ledger') as typeof import('./scenarios/ledger');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { findFieldConflicts } = require('../src/check/rules/field-conflicts') as typeof import('../src/check/rules/field-conflicts');
  const loadMs = performance.now() - load;
  const fillStart = performance.now();
  const { ledger, expectedConflicts } = fillLedger(writes);
  const fillMs = performance.now() - fillStart;
  const t0 = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const conflicts = findFieldConflicts(ledger.facts().objects);
  const runMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpuMs = cpuSince(cpu);
  const base = { loadMs, runMs, cpuMs, processCpuMs: cpuSince(), fillMs, maxRssKb: process.resourceUsage().maxRSS };
  if (conflicts.length !== expectedConflicts) return { status: 'crash', ...base, error: `expected ${expectedConflicts} conflicts, found ${conflicts.length}` };
  return { status: 'ok', ...base, conflicts: conflicts.length };
}

function runSerializers(name: SerializerName, scenario: string, size: number): ChildReport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runSerializer } = require('./scenarios/serializers') as typeof import('./scenarios/serializers');
  const cpu = process.cpuUsage();
  const run = runSerializer(name, scenario, size);
  return { status: 'ok', ...run, cpuMs: cpuSince(cpu), processCpuMs: cpuSince(), maxRssKb: process.resourceUsage().maxRSS };
}

if (require.main === module) {
  process.stdout.write(`BENCH ${JSON.stringify(main(process.argv.slice(2)))}\n`);
}
