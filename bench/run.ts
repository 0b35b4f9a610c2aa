/**
 * `npm run bench [-- --quick] [-- --only charts,chain] [-- --no-profile]`
 *
 * Runs every scenario, ours against the bare tool in alternated separate
 * processes, prints the report, and after a full run of every scenario writes
 * it to bench/RESULTS.md (a quick or partial run writes bench/.out/RESULTS.md).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { summarizeProfileFile } from './cpu-profile';
import { compare, measureLedger, runOnce, Series, stats, tempBase } from './measure';
import { BenchReport, describeMachine, ProfileReport, renderReport, Row, ScenarioReport, Target } from './report';
import { WRITES_PER_OBJECT } from './scenarios/ledger';
import { CHAINED_CHARTS, CHART_COUNT, PARAMETERS_PER_TENANT } from './scenarios/sizes';

/** A ratio target: ours/bare at most this. */
const MAX_RATIO = 1.15;
/** "Roughly linear": doubling the size at most this much slower (linear is 2, quadratic 4). */
const MAX_DOUBLING_GROWTH = 2.5;

interface Options {
  readonly quick: boolean;
  readonly only?: ReadonlySet<string>;
  readonly profile: boolean;
}

const log = (line: string) => process.stderr.write(`  ${line}\n`);
const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function chartsScenario(o: Options): ScenarioReport {
  const size = 1000;
  const { ours, bare } = compare('charts', size, o.quick ? { ours: 2, bare: 2 } : { ours: 5, bare: 5 }, log);
  const rows: Row[] = [{ size, ours, bare }];
  return {
    id: 'charts',
    title: `${CHART_COUNT} runtime charts x 1,000 ConfigMaps`,
    what:
      `Ours: \`CapabilityApp\` > \`Capability\` > ${CHART_COUNT} \`RuntimeRouting\` charts of \`size\` ConfigMaps each (${CHART_COUNT * size} objects), \`app.synth()\`. ` +
      `Bare: cdk8s \`App\` with the same ${CHART_COUNT} \`Chart\`s and objects, \`app.synth()\`.`,
    kind: 'compare',
    rows,
    targets: ratioTargets(rows[0]),
  };
}

function chainedScenario(o: Options): ScenarioReport {
  const sizes = o.quick ? [100, 200] : [100, 200, 400];
  const rows: Row[] = sizes.map((size) => {
    const big = size >= 400;
    // bare cdk8s takes ~15 s at 400: two runs, no warm-up (the smaller sizes warmed the caches)
    const counts = o.quick ? { ours: 2, bare: 2 } : big ? { ours: 5, bare: 2, warmupBare: false } : { ours: 5, bare: 5 };
    return { size, ...compare('chained', size, counts, log) };
  });
  const last = rows[rows.length - 1];
  const o1 = stats(last.ours);
  const b1 = stats(last.bare!);
  const targets: Target[] = [
    {
      target: `bare/ours >= 10 at N=${last.size}, build+synth${o.quick ? ' (quick run: 200, the target is set at 400)' : ''}`,
      measured: `${fmt(b1.runMs / o1.runMs, 1)}x (${fmt(o1.runMs / 1000)} s vs ${fmt(b1.runMs / 1000)} s)`,
      holds: b1.runMs / o1.runMs >= 10,
    },
    {
      target: `bare/ours >= 10 at N=${last.size}, whole process`,
      measured: `${fmt(b1.processMs / o1.processMs, 1)}x (${fmt(o1.processMs / 1000)} s vs ${fmt(b1.processMs / 1000)} s)`,
      holds: b1.processMs / o1.processMs >= 10,
    },
    growthTarget(rows.map((r) => r.ours), 'ours roughly linear as N doubles'),
  ];
  return {
    id: 'chained',
    title: `${CHAINED_CHARTS} chained aggregates x N objects`,
    what:
      `${CHAINED_CHARTS} charts of N ConfigMaps each, every chart depending on the previous one with \`chart.addDependency(previous)\`. ` +
      'Ours: `RuntimeRouting` charts in one `Capability` (our graph turns a chart dependency into barrier nodes, linear in objects). ' +
      'Bare: cdk8s `Chart`s; cdk8s turns it into an edge from every object of one chart to every object of the other.',
    kind: 'compare',
    rows,
    targets,
  };
}

function chainScenario(o: Options): ScenarioReport {
  const bareSize = 10_000;
  // a crash is deterministic and bare cdk8s takes 15 s or more to reach it: one bare run, no warm-up
  const rows: Row[] = [{ size: bareSize, ...compare('chain', bareSize, { ours: o.quick ? 1 : 2, bare: 1, warmupBare: false }, log) }];
  const sizes = o.quick ? [20_000] : [25_000, 50_000, 100_000];
  for (const size of sizes) {
    // the smaller sizes warm up the larger ones; 100,000 takes ~30 s a run
    rows.push({ size, ...compare('chain', size, { ours: o.quick || size >= 50_000 ? 2 : 3, bare: 0, warmupOurs: false }, log) });
  }
  const largest = rows[rows.length - 1];
  const grown = o.quick ? rows : rows.slice(1);
  const l = stats(largest.ours);
  const bare = stats(rows[0].bare!);
  const targets: Target[] = [
    {
      target: `ours completes at ${largest.size.toLocaleString('en-US')}`,
      measured: l.ok === l.runs ? `completed, ${fmt(l.runMs / 1000)} s build+synth, ${fmt(l.maxRssMiB, 0)} MiB` : `crashed: ${l.crash?.error}`,
      holds: l.ok === l.runs && l.runs > 0,
    },
    growthTarget(grown.map((r) => r.ours), `ours linear: ${grown.map((r) => `${r.size / 1000}k`).join(', ')}`),
    {
      target: `bare cdk8s at ${bareSize.toLocaleString('en-US')} (for the record: it is expected to crash)`,
      measured: bare.ok === 0 ? `crash after ${fmt(bare.runMs / 1000)} s: ${bare.crash?.error}` : `completed in ${fmt(bare.runMs / 1000)} s`,
      holds: true,
    },
  ];
  return {
    id: 'chain',
    title: 'A chain of dependent ConfigMaps',
    what: 'One chart of N ConfigMaps, each `addDependency` on the one before. Ours: a `RuntimeRouting` chart (one runtime file per step: N files). Bare: a cdk8s `Chart`, run at 10,000 only.',
    kind: 'compare',
    rows,
    targets,
  };
}

function tenantsScenario(o: Options): ScenarioReport {
  const size = 200;
  const { ours, bare } = compare('tenants', size, { ours: o.quick ? 1 : 3, bare: o.quick ? 1 : 3, warmupOurs: false, warmupBare: false }, log);
  const rows: Row[] = [{ size, ours, bare }];
  return {
    id: 'tenants',
    title: `${size} tenant DeploymentAggregates x ${PARAMETERS_PER_TENANT} resources`,
    what:
      `Ours: one \`Capability\` with a \`SharedBase\` (1 SSM parameter) and ${size} \`DeploymentAggregate\`s of ${PARAMETERS_PER_TENANT} \`ssm.StringParameter\`s each (distinct names), \`app.synth()\`. ` +
      `Bare: aws-cdk \`App({ builtinCloudFormationValidation: false })\` with the same ${size + 1} stacks, each tenant \`addStackDependency(base)\` as ours adds, \`app.synth()\`. ` +
      'Both run with `CDK_VALIDATION=false`.',
    kind: 'compare',
    rows,
    targets: ratioTargets(rows[0]),
  };
}

function ledgerScenario(o: Options): ScenarioReport {
  const writes = 100_000;
  const series = measureLedger(writes, o.quick ? 2 : 5, log);
  const s = stats(series);
  return {
    id: 'ledger',
    title: 'Field ledger, 100,000 writes',
    what:
      `\`new FieldLedger()\`, ${writes.toLocaleString('en-US')} \`record()\` calls over ${(writes / WRITES_PER_OBJECT).toLocaleString('en-US')} objects ` +
      '(two writers per object, leaves 3 to 6 segments deep, one contested leaf on every hundredth object), then `conflicts()` alone timed with `process.hrtime` in its own process.',
    kind: 'ledger',
    rows: [{ size: writes, ours: series }],
    targets: [{ target: '`conflicts()` < 0.5 s', measured: `${fmt(s.runMs, 1)} ms`, holds: s.ok > 0 && s.runMs < 500 }],
  };
}

function ratioTargets(row: Row): Target[] {
  const o = stats(row.ours);
  const b = stats(row.bare!);
  return (['runMs', 'processMs'] as const).map((f) => ({
    target: `ours/bare <= ${MAX_RATIO}, ${f === 'runMs' ? 'build+synth' : 'whole process'}`,
    measured: `${fmt(o[f] / b[f])} (${fmt(o[f] / 1000)} s vs ${fmt(b[f] / 1000)} s)${f === 'runMs' ? `; CPU time ratio ${fmt(o.cpuMs / b.cpuMs)}` : ''}`,
    holds: o.ok > 0 && b.ok > 0 && o[f] / b[f] <= MAX_RATIO,
  }));
}

/** Time growth of a series at successive sizes, each step normalized to a doubling. */
function growthTarget(series: readonly Series[], what: string): Target {
  const steps: string[] = [];
  let worst = 0;
  for (let i = 1; i < series.length; i++) {
    const a = stats(series[i - 1]);
    const b = stats(series[i]);
    const doublings = Math.log2(series[i].size / series[i - 1].size);
    const perDoubling = (b.runMs / a.runMs) ** (1 / doublings);
    worst = Math.max(worst, perDoubling);
    steps.push(`${series[i - 1].size.toLocaleString('en-US')}→${series[i].size.toLocaleString('en-US')}: x${fmt(perDoubling)}${doublings !== 1 ? ' per doubling' : ''}`);
  }
  return {
    target: `${what} (build+synth x${MAX_DOUBLING_GROWTH} or less per doubling; linear is x2)`,
    measured: steps.join('; ') || 'one size only',
    holds: steps.length > 0 && worst <= MAX_DOUBLING_GROWTH,
  };
}

/** Profiles one extra run of our slowest measured scenario. */
function profileSlowest(scenarios: readonly ScenarioReport[], outDir: string): ProfileReport | undefined {
  let slowest: Series | undefined;
  for (const s of scenarios) {
    if (s.kind !== 'compare') continue;
    for (const row of s.rows) if (!slowest || stats(row.ours).runMs > stats(slowest).runMs) slowest = row.ours;
  }
  if (!slowest) return undefined;
  const dir = path.join(outDir, 'profile');
  fs.rmSync(dir, { recursive: true, force: true });
  log(`profiling ours ${slowest.scenario} ${slowest.size} with --cpu-prof`);
  const run = runOnce('ours', slowest.scenario, slowest.size, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return undefined;
  return { scenario: slowest.scenario, size: slowest.size, runMs: run.runMs, summary: summarizeProfileFile(path.join(dir, file)) };
}

function parseOptions(argv: readonly string[]): Options {
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  return { quick: argv.includes('--quick'), only: only ? new Set(only.split(',')) : undefined, profile: !argv.includes('--no-profile') };
}

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  // compiled to bench/.out/bench/run.js
  const outDir = path.resolve(__dirname, '..');
  const benchDir = path.resolve(outDir, '..');
  const machine = describeMachine(tempBase());
  const started = new Date();
  const t0 = Date.now();
  process.stderr.write(`cdk-capability bench${options.quick ? ' --quick' : ''}: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}\n`);

  const all: Array<[string, (o: Options) => ScenarioReport]> = [
    ['charts', chartsScenario],
    ['chained', chainedScenario],
    ['chain', chainScenario],
    ['tenants', tenantsScenario],
    ['ledger', ledgerScenario],
  ];
  const scenarios: ScenarioReport[] = [];
  for (const [id, run] of all) {
    if (options.only && !options.only.has(id)) continue;
    process.stderr.write(`${id}\n`);
    scenarios.push(run(options));
  }
  const profile = options.profile ? profileSlowest(scenarios, outDir) : undefined;
  machine.loadAverage.end = os.loadavg()[0];

  const args = process.argv.slice(2).filter((a) => a !== '--quick');
  const command = `npm run bench${options.quick ? ' -- --quick' : ''}${args.length ? `${options.quick ? '' : ' --'} ${args.join(' ')}` : ''}`;
  const report: BenchReport = { command, quick: options.quick, started, durationS: (Date.now() - t0) / 1000, machine, scenarios, profile };
  const markdown = renderReport(report);
  process.stdout.write(markdown + '\n');

  const complete = !options.quick && !options.only && options.profile;
  const file = complete ? path.join(benchDir, 'RESULTS.md') : path.join(outDir, 'RESULTS.md');
  fs.writeFileSync(file, markdown + '\n');
  // the raw runs, for anyone who wants other statistics than medians
  fs.writeFileSync(path.join(outDir, complete ? 'results.json' : 'results-partial.json'), JSON.stringify(report, undefined, 2) + '\n');
  process.stderr.write(`\nwritten to ${path.relative(process.cwd(), file)}; targets held: ${scenarios.flatMap((s) => s.targets).filter((t) => t.holds).length}/${scenarios.flatMap((s) => s.targets).length}\n`);
}

if (require.main === module) main();
