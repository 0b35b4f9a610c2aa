/**
 * One measured run, in its own process:
 *
 *   node bench/.out/bench/child.js <side> <scenario> <size> <outdir>
 *
 * `side` is `ours`, `bare` or `ledger`. Loads only the side it runs (a bare
 * cdk8s run never loads aws-cdk-lib or this library), times building the
 * construct tree plus synth, and prints one line `BENCH {json}` with its own
 * timings and peak RSS. A build or synth that throws (cdk8s' stack overflow on
 * long chains) is a recorded `crash`, not a harness failure.
 */
import { performance } from 'perf_hooks';

/** What a child prints after `BENCH `. */
export interface ChildReport {
  /** `ok`, or `crash` when the build or synth threw. */
  readonly status: 'ok' | 'crash';
  /** Script start to modules loaded, ms. */
  readonly loadMs: number;
  /** Building the tree plus synth (for `ledger`: `conflicts()` alone), ms. */
  readonly runMs: number;
  /** CPU time (user + system, all threads) of building plus synth, ms: less sensitive than wall time to a busy machine. */
  readonly cpuMs: number;
  /** For `ledger`: recording the writes, ms. */
  readonly fillMs?: number;
  /** For `ledger`: conflicts found. */
  readonly conflicts?: number;
  /** Peak resident set size of this process, KiB (`process.resourceUsage().maxRSS`). */
  readonly maxRssKb: number;
  /** The first line of the error, when it crashed. */
  readonly error?: string;
}

function main(argv: string[]): ChildReport {
  const [side, scenario, sizeArg, outdir] = argv;
  const size = Number(sizeArg);
  if (side === 'ledger') return runLedger(size);

  const load = performance.now();
  /* eslint-disable @typescript-eslint/no-require-imports */
  const builders: Record<string, (outdir: string, size: number) => void> =
    side === 'ours' ? require('./scenarios/ours').ours
      : scenario === 'tenants' ? require('./scenarios/bare-aws-cdk').bareAwsCdk
        : require('./scenarios/bare-cdk8s').bareCdk8s;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const build = builders[scenario];
  if (!build) throw new Error(`unknown scenario '${scenario}' for side '${side}'`);
  const loadMs = performance.now() - load;

  const start = performance.now();
  const cpu = process.cpuUsage();
  const cpuMs = () => {
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  try {
    build(outdir, size);
    return { status: 'ok', loadMs, runMs: performance.now() - start, cpuMs: cpuMs(), maxRssKb: process.resourceUsage().maxRSS };
  } catch (e) {
    const error = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0].slice(0, 200);
    return { status: 'crash', loadMs, runMs: performance.now() - start, cpuMs: cpuMs(), maxRssKb: process.resourceUsage().maxRSS, error };
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
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  if (conflicts.length !== expectedConflicts) {
    return { status: 'crash', loadMs, runMs, cpuMs, fillMs, maxRssKb: process.resourceUsage().maxRSS, error: `expected ${expectedConflicts} conflicts, found ${conflicts.length}` };
  }
  return { status: 'ok', loadMs, runMs, cpuMs, fillMs, conflicts: conflicts.length, maxRssKb: process.resourceUsage().maxRSS };
}

if (require.main === module) {
  process.stdout.write(`BENCH ${JSON.stringify(main(process.argv.slice(2)))}\n`);
}
