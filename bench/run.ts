/**
 * `npm run bench [-- options]`
 *
 *   --quick                  fewer runs and smaller sizes (checks the harness; not figures)
 *   --only=charts,tenants    only these scenarios (`--list` names them)
 *   --sizes=30,100           measure the chosen scenarios at these sizes instead
 *   --runs=3                 timed runs per side instead of each scenario's own counts (a full run with
 *                            fewer repetitions when time is short: still every scenario, and RESULTS.md says so)
 *   --no-profile             skip the profile of our slowest scenario at the end
 *   --profile=tenants        profile only: one run under `node --cpu-prof`, top ten self-time functions
 *     [--side=bare] [--size=300]   ... of that side (ours, bare, floor) at that size
 *   --list                   the scenarios, their sizes and sides
 *
 * Runs every scenario, ours against the bare tool (and the floor) in
 * alternated separate processes, prints the report and a PASS/FAIL line per
 * target, and after a full run of every scenario (at its own sizes, with the
 * profile; `--runs` allowed) writes the report to bench/RESULTS.md (any other
 * run writes bench/.out/RESULTS.md).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { formatSummary, profileScenario } from './cpu-profile';
import { previousRelease, Series, stats, tempBase } from './measure';
import { installForBench } from './package-build';
import { BenchReport, describeMachine, ProfileReport, renderReport, ScenarioReport, targetLines } from './report';
import { BuildSide, hasBuilder } from './scenarios/registry';
import { Options, Scenario, SCENARIOS } from './suite';

const log = (line: string) => process.stderr.write(`  ${line}\n`);

/** `--name=value` or `--name value`. */
function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i === -1) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}

const list = (value: string | undefined) => value?.split(',').map((x) => x.trim()).filter((x) => x);

function parseOptions(argv: readonly string[]): Options {
  const only = list(flag(argv, 'only'));
  const sizes = list(flag(argv, 'sizes'))?.map(Number);
  const runs = flag(argv, 'runs');
  if (sizes?.some((s) => !Number.isInteger(s) || s <= 0)) throw new Error(`--sizes must be positive integers, such as --sizes=30,100 (got ${flag(argv, 'sizes')})`);
  if (runs !== undefined && !(Number(runs) >= 1)) throw new Error(`--runs must be 1 or more (got ${runs})`);
  for (const id of only ?? []) if (!SCENARIOS.some((s) => s.id === id)) throw new Error(`unknown scenario '${id}' (known: ${SCENARIOS.map((s) => s.id).join(', ')})`);
  return { quick: argv.includes('--quick'), only: only ? new Set(only) : undefined, profile: !argv.includes('--no-profile'), sizes, runs: runs === undefined ? undefined : Number(runs) };
}

/** The sizes a scenario is measured at in this run. */
const sizesOf = (s: Scenario, o: Options) => o.sizes ?? (o.quick ? s.sizes.quick : s.sizes.full);

/** `--list`: every scenario, its sizes and sides. */
function listScenarios(): void {
  for (const s of SCENARIOS) {
    const sides = (['ours', 'bare', 'floor'] as BuildSide[]).filter((side) => hasBuilder(side, s.id));
    const sizes = (xs: readonly number[]) => xs.map((x) => x.toLocaleString('en-US')).join(', ');
    console.log(`${s.id.padEnd(14)} sizes ${sizes(s.sizes.full)} (quick: ${sizes(s.sizes.quick)}); sides: ${s.id === 'ledger' ? 'the ledger alone' : sides.join(', ')}${s.previousRelease ? '; ours after a first release' : ''}`);
  }
}

/** `--profile=<scenario>[,...]`: one profiled run each, top ten self-time functions printed; nothing else is measured. */
function profileOnly(argv: readonly string[], o: Options, outDir: string): void {
  const side = (flag(argv, 'side') ?? 'ours') as BuildSide;
  const size = flag(argv, 'size');
  for (const id of list(flag(argv, 'profile')) ?? []) {
    const scenario = SCENARIOS.find((s) => s.id === id);
    if (!scenario || !hasBuilder(side, id)) throw new Error(`nothing to profile for '${id}' on side '${side}' (--list shows the scenarios and their sides)`);
    const at = size ? Number(size) : sizesOf(scenario, o)[sizesOf(scenario, o).length - 1];
    const release = scenario.previousRelease && side === 'ours' ? previousRelease(id, at, log) : undefined;
    try {
      process.stderr.write(`profiling ${side} ${id} ${at} with --cpu-prof\n`);
      const { run, file, summary } = profileScenario(side, id, at, path.join(outDir, 'profile'), release?.env);
      console.log(`\n${side} ${id} at ${at.toLocaleString('en-US')}: build+synth ${(run.runMs / 1000).toFixed(2)} s, whole process ${(run.processMs / 1000).toFixed(2)} s (under the profiler)${run.status === 'crash' ? `, CRASH ${run.error}` : ''}`);
      console.log(formatSummary(summary, 10).join('\n'));
      console.log(`\nprofile: ${path.relative(process.cwd(), file)} (open in Chrome DevTools or VS Code for the call tree)`);
    } finally {
      release?.dispose();
    }
  }
}

/** Profiles one extra run of our slowest measured scenario. */
function profileSlowest(scenarios: readonly ScenarioReport[], outDir: string): ProfileReport | undefined {
  let slowest: Series | undefined;
  for (const s of scenarios) {
    if (s.kind !== 'compare') continue;
    for (const row of s.rows) if (stats(row.ours).ok > 0 && (!slowest || stats(row.ours).runMs > stats(slowest).runMs)) slowest = row.ours;
  }
  if (!slowest) return undefined;
  const scenario = SCENARIOS.find((s) => s.id === slowest!.scenario);
  const release = scenario?.previousRelease ? previousRelease(slowest.scenario, slowest.size, log) : undefined;
  try {
    log(`profiling ours ${slowest.scenario} ${slowest.size} with --cpu-prof`);
    const { run, summary } = profileScenario('ours', slowest.scenario, slowest.size, path.join(outDir, 'profile'), release?.env);
    return { scenario: slowest.scenario, size: slowest.size, runMs: run.runMs, summary };
  } finally {
    release?.dispose();
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('--list')) return listScenarios();
  const options = parseOptions(argv);
  // compiled to bench/.out/bench/run.js
  const outDir = path.resolve(__dirname, '..');
  const benchDir = path.resolve(outDir, '..');
  // our side runs the package as it ships (lib/bundle.js), built from the current src/
  const installed = installForBench(outDir);
  process.stderr.write(`package built into ${path.relative(process.cwd(), installed)} (scripts/bundle-lib.js)\n`);
  if (flag(argv, 'profile')) return profileOnly(argv, options, outDir);

  const machine = describeMachine(tempBase());
  const started = new Date();
  const t0 = Date.now();
  process.stderr.write(`cdk-capability bench${options.quick ? ' --quick' : ''}: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}\n`);

  const scenarios: ScenarioReport[] = [];
  for (const scenario of SCENARIOS) {
    if (options.only && !options.only.has(scenario.id)) continue;
    process.stderr.write(`${scenario.id}\n`);
    scenarios.push(scenario.measure(options, sizesOf(scenario, options), log));
  }
  const profile = options.profile ? profileSlowest(scenarios, outDir) : undefined;
  machine.loadAverage.end = os.loadavg()[0];

  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const durationS = (Date.now() - t0) / 1000;
  const report: BenchReport = { command, quick: options.quick, runs: options.runs, started, durationS, machine, scenarios, profile };
  const markdown = renderReport(report);
  process.stdout.write(markdown + '\n');

  // every scenario at its own sizes; fewer repetitions (--runs) still make a full run, and the report says so
  const complete = !options.quick && !options.only && !options.sizes && options.profile;
  const file = complete ? path.join(benchDir, 'RESULTS.md') : path.join(outDir, 'RESULTS.md');
  fs.writeFileSync(file, markdown + '\n');
  // the raw runs, for anyone who wants other statistics than medians
  fs.writeFileSync(path.join(outDir, complete ? 'results.json' : 'results-partial.json'), JSON.stringify(report, undefined, 2) + '\n');
  const lines = targetLines(scenarios);
  process.stderr.write(`\n${lines.join('\n')}\n\nwritten to ${path.relative(process.cwd(), file)}; targets held: ${lines.filter((l) => l.startsWith('PASS')).length}/${lines.length}\n`);
}

if (require.main === module) main();
