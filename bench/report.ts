/**
 * The benchmark's report: the machine, every scenario's figures, the targets
 * and whether they hold, and where the time goes, as markdown.
 */
import * as os from 'os';
import * as path from 'path';
import type { ProfileSummary } from './cpu-profile';
import { Metric, ratio, Series, Spread, spread, stats, values } from './measure';
import { fmt, METRIC_NAMES, spreadText, targetLine } from './targets';

/** The machine a run was measured on. */
export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly os: string;
  readonly memoryGiB: number;
  /** 1-minute load average when the run started and ended (others share the machine). */
  readonly loadAverage: { start: number; end?: number };
  /** Versions of the tools measured. */
  readonly versions: Record<string, string>;
  /** Where outdirs and scratch folders live. */
  readonly tempBase: string;
}

/** Describes this machine. */
export function describeMachine(tempBase: string): Machine {
  const versions: Record<string, string> = {};
  for (const pkg of ['cdk8s', 'aws-cdk-lib', 'constructs', 'yaml']) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      versions[pkg] = require(path.join(require.resolve(pkg, { paths: [process.cwd()] }).split(`node_modules${path.sep}${pkg}`)[0], 'node_modules', pkg, 'package.json')).version;
    } catch {
      versions[pkg] = 'unknown';
    }
  }
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGiB: os.totalmem() / 2 ** 30,
    loadAverage: { start: os.loadavg()[0] },
    versions,
    tempBase,
  };
}

/** One size of a scenario: our series and, when they ran, the bare tool's and the floor's. */
export interface Row {
  readonly size: number;
  readonly ours: Series;
  readonly bare?: Series;
  readonly floor?: Series;
}

/** A target and what was measured against it. */
export interface Target {
  readonly target: string;
  readonly measured: string;
  readonly holds: boolean;
}

/** A scenario's figures and targets. */
export interface ScenarioReport {
  readonly id: string;
  readonly title: string;
  /** What each side builds, one paragraph. */
  readonly what: string;
  /** `compare` for ours vs bare (and the floor), `ledger` for the ledger alone. */
  readonly kind: 'compare' | 'ledger';
  readonly rows: Row[];
  /** The serializers tried for the floor, on this scenario's manifests. */
  readonly serializers?: Series[];
  readonly targets: Target[];
}

/** The profile of our slowest scenario. */
export interface ProfileReport {
  readonly scenario: string;
  readonly size: number;
  readonly runMs: number;
  readonly summary: ProfileSummary;
}

/** Everything the report shows. */
export interface BenchReport {
  readonly command: string;
  readonly quick: boolean;
  /** Timed runs per side when `--runs` set them (fewer repetitions than each scenario's own counts). */
  readonly runs?: number;
  readonly started: Date;
  readonly durationS: number;
  readonly machine: Machine;
  readonly scenarios: ScenarioReport[];
  readonly profile?: ProfileReport;
}

const sec = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');
const mib = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} MiB` : '—');

/** A metric of a series: median (min–max), or how it crashed. */
function cell(series: Series | undefined, metric: Metric): string {
  if (!series || series.runs.length === 0) return 'not run';
  const s = stats(series);
  const v = spread(values(series, metric));
  const unit = metric === 'maxRssMiB' ? (x: number) => fmt(x, 0) : (x: number) => fmt(x / 1000);
  const text = `${unit(v.median)} (${unit(v.min)}–${unit(v.max)})${metric === 'maxRssMiB' ? ' MiB' : ' s'}`;
  if (s.ok === 0 && s.crash) return metric === 'maxRssMiB' ? `${mib(v.median)} (crashed)` : `crash after ${sec(v.median)}`;
  return text + (s.crash ? ` (${s.runs - s.ok} of ${s.runs} crashed)` : '');
}

/** The PASS/FAIL lines of every target, as the run prints them. */
export function targetLines(scenarios: readonly ScenarioReport[]): string[] {
  return scenarios.flatMap((s) => s.targets.map((t) => targetLine(s.id, t)));
}

/** Renders the whole report as markdown. */
export function renderReport(report: BenchReport): string {
  const m = report.machine;
  const out: string[] = [];
  out.push('# Benchmark results', '');
  out.push(
    `Measured with \`${report.command}\`${report.quick ? ' (quick: fewer runs and sizes; not the reference figures)' : ''}, ` +
      `${report.started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${(report.durationS / 60).toFixed(1)} min in all. ` +
      'Figures below all come from that one run; the file is rewritten by every full run.',
    '',
  );
  if (report.runs !== undefined) {
    out.push(
      `**Repetitions reduced**: ${report.runs} timed run${report.runs === 1 ? '' : 's'} per side in every scenario (\`--runs=${report.runs}\`) instead of each scenario's own counts ` +
        '(3 to 10), to fit the time left on a shared machine; every scenario and size was still measured. Medians over fewer runs move more with the load.',
      '',
    );
  }
  out.push('## Machine', '');
  out.push(`- ${m.cpus} CPUs, ${m.cpuModel}, ${m.memoryGiB.toFixed(0)} GiB memory, ${m.os}`);
  out.push(`- Node ${m.node}; ${Object.entries(m.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out.push(
    `- 1-minute load average ${m.loadAverage.start.toFixed(1)} at the start, ${m.loadAverage.end?.toFixed(1) ?? '?'} at the end ` +
      '(the machine is shared; absolute times move with the load, ratios of alternated runs much less)',
  );
  out.push(`- outdirs and scratch folders under \`${m.tempBase}\`, fresh for every run`, '');

  out.push('## How it is measured', '');
  out.push(
    '- Every run is its own `node` process running compiled JavaScript (`bench/.out`, built by `tsc -p bench/tsconfig.json`), ' +
      'so no TypeScript compiler runs inside a measurement. Each side loads only its own tools: a bare cdk8s run never loads aws-cdk-lib or this library, ' +
      'only the cdk8s-plus scenarios load cdk8s-plus, the floor loads `yaml` only.',
    '- Runs alternate ours/bare/floor, bare/floor/ours, ... after an untimed warm-up run of each side (not repeated for the slowest cases: the 400-object bare chained charts, ' +
      'the bare chain crash, the larger sizes of the growth scenarios, `stacks`; earlier runs have warmed the file cache by then). ' +
      'Every figure is the median over the timed runs, with the smallest and largest value in parentheses. ' +
      'A ratio of two sides with the same number of runs pairs them run by run (each pair ran side by side) and gives the median (min–max) of the paired ratios; ' +
      'otherwise it is the ratio of the medians, its range from the extremes.',
    '- **build+synth**: the child\'s own wall time around building the construct tree and synth (`performance.now()`), module loading excluded. ' +
      '**whole-process wall**: spawn to exit as the parent sees it (node start-up, module loading, build, synth, exit). ' +
      '**build+synth CPU** and **whole-process CPU**: the child\'s CPU time (user + system, all threads, `process.cpuUsage()`) over build+synth, and from process start to its report, ' +
      'which a busy machine disturbs much less than wall time. **peak RSS**: the child\'s own `process.resourceUsage().maxRSS`.',
    '- Ours imports `cdk-capability/runtime` in every scenario without aws-cdk stacks, as the README tells a composition of charts alone to (it loads no aws-cdk-lib module), and `cdk-capability` in `stacks`, `tenants` and `validated`.',
    '- **Ours runs the package as it ships**: before any run, the bench builds it from the current `src/` with `scripts/bundle-lib.js` (the last step of `npm run compile`) into ' +
      '`bench/.out/node_modules/cdk-capability`, so `require(\'cdk-capability\')` loads `lib/bundle.js`, one file, as an installed package does (bench/package-build.ts). ' +
      'The profile maps the bundle\'s frames back to `src/` through its source map. ' +
      'Its first run leaves V8\'s code cache of the bundle beside it, as a user\'s first synth does (docs/ARCHITECTURE.md, "The build output"); our warm-up run of each scenario and size starts without one and writes the cache of that scenario\'s app, as a project\'s first run of its one app does (`forgetCodeCache`, bench/package-build.ts), and the timed runs load with it.',
    '- Both sides write their output with `synth()` into a fresh folder; ours also runs every check (duplicates, field ownership, cycles, references, and with a lock the release checks) and writes `plan.json`.',
    '- **The aws-cdk template validator is off on both sides** but in the `validated` scenario: every other child runs with `CDK_VALIDATION=false`, and the bare aws-cdk apps pass `builtinCloudFormationValidation: false`. ' +
      'It is a WASM validator aws-cdk 2.27x runs on every synth, which would dominate both sides (docs: FIELD-NOTES); `validated` measures it on, as apps run by default. ' +
      'The bare apps also pass `analyticsReporting: false`, as ours emits no `CDKMetadata` resource.',
    '- Note on module loading: aws-cdk-lib loads its modules lazily, on first use, so a bare aws-cdk run pays most of its loading inside build+synth, ' +
      'while ours loads aws-cdk-lib core before the clock starts (our constructs extend `Stage` and `Stack`). The whole-process columns compare like with like, so the ratio targets use them.',
    '',
  );
  out.push(...floorSection());

  out.push('## Targets', '');
  out.push('| scenario | target | measured: median (min–max) | holds |', '|---|---|---|---|');
  for (const s of report.scenarios) {
    for (const t of s.targets) out.push(`| ${s.title} | ${t.target} | ${t.measured} | ${t.holds ? 'yes' : '**no**'} |`);
  }
  out.push('', '```', ...targetLines(report.scenarios), '```', '');

  for (const s of report.scenarios) {
    out.push(`## ${s.title}`, '', s.what, '');
    out.push(...(s.kind === 'ledger' ? ledgerTable(s.rows) : compareTables(s.rows)), '');
    if (s.serializers?.length) out.push(...serializerTable(s.serializers), '');
  }

  if (report.profile) out.push(...profileSection(report.profile));
  return out.join('\n');
}

function floorSection(): string[] {
  return [
    '## What the floor is',
    '',
    'The floor (scenarios `charts`, `small`, `tenants`) is what producing the same objects costs at the least, measured exactly like the two sides: ' +
      'node start-up, loading its one module (`yaml`), building the same objects as plain JavaScript objects (no construct tree, no token resolution, no checks, no ordering), ' +
      'serializing them and writing them. Its manifests and templates are byte-identical to the bare side\'s (the bench smoke test compares them), so it does the same useful work.',
    '',
    '- Serialized the fastest way found that writes the same bytes: `yaml`\'s `stringify` with cdk8s\' options (`keepUndefined`, `lineWidth: 0`, YAML 1.1), ' +
      'which is cdk8s\' own `Yaml.stringify` without loading cdk8s; CloudFormation templates with `JSON.stringify(template, undefined, 1)`, as aws-cdk writes them. ' +
      'The serializer tables below compare the candidates, each in its own process on the scenario\'s manifests; one JSON document per object is far faster, ' +
      'and is valid YAML that kubectl reads, but not the same files, so the floor does not use it.',
    '- Written with the fewest system calls: one `mkdirSync` per folder, then one `writeFileSync` per file (open, write, close), the whole file as one string.',
    '- Files: each chart\'s manifest file and each stack\'s template, with the bare side\'s names, plus one `manifest.json` naming each stack, its template and its dependencies. ' +
      'None of the bookkeeping files: aws-cdk\'s `tree.json`, asset and metadata files; our `plan.json`, `interface.json`, lock and kustomization.',
    '- For scale, each scenario\'s ratio table has a bare/floor row, and each ours/floor target prints bare/floor beside it: how far the bare tool itself is ' +
      'from the floor on the same runs. It is no target.',
    '',
  ];
}

function compareTables(rows: readonly Row[]): string[] {
  const lines = [
    '| size | side | build+synth wall | build+synth CPU | whole-process wall | whole-process CPU | peak RSS | runs |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    for (const series of [row.ours, row.bare, row.floor]) {
      if (!series) continue;
      lines.push(
        `| ${row.size.toLocaleString('en-US')} | ${series.side} | ${cell(series, 'runMs')} | ${cell(series, 'cpuMs')} | ${cell(series, 'processMs')} | ${cell(series, 'processCpuMs')} | ${cell(series, 'maxRssMiB')} | ${series.runs.length} |`,
      );
    }
  }
  const compared = rows.filter((r) => usable(r.bare) || usable(r.floor));
  if (compared.length > 0) {
    const metrics: Metric[] = ['processMs', 'processCpuMs', 'maxRssMiB', 'runMs', 'cpuMs'];
    lines.push('', `| size | ratio | ${metrics.map((m) => METRIC_NAMES[m]).join(' | ')} |`, `|---:|---|${metrics.map(() => '---:').join('|')}|`);
    for (const row of compared) {
      // bare/floor: how far the bare tool itself is from the floor, the yardstick for ours/floor
      for (const [name, side, other] of [['ours/bare', row.ours, row.bare], ['ours/floor', row.ours, row.floor], ['bare/floor', row.bare, row.floor]] as const) {
        if (!usable(other) || !usable(side)) continue;
        lines.push(`| ${row.size.toLocaleString('en-US')} | ${name} | ${metrics.map((m) => spreadText(ratio(side, other, m))).join(' | ')} |`);
      }
    }
  }
  const crashes = rows
    .flatMap((r) => [r.ours, r.bare, r.floor])
    .filter((s): s is Series => !!s)
    .map((s) => ({ s, c: stats(s).crash }))
    .filter((x) => x.c);
  for (const { s, c } of crashes) lines.push('', `Crash, ${s.side} at ${s.size.toLocaleString('en-US')}: \`${c!.error}\` (recorded as a result, not a harness failure).`);
  return lines;
}

const usable = (s: Series | undefined): s is Series => !!s && stats(s).ok > 0;

function serializerTable(all: readonly Series[]): string[] {
  const reference = all[0]?.runs.find((r) => r.digest)?.digest;
  const lines = [
    `Serializers tried for the floor, on the manifests of size ${all[0].size.toLocaleString('en-US')}, each in its own process (load: requiring its module; serialize: every manifest once, cold, as a synth does):`,
    '',
    '| serializer | load | serialize | output | same bytes as cdk8s | runs |',
    '|---|---:|---:|---:|---|---:|',
  ];
  for (const s of all) {
    const load = spread(s.runs.map((r) => r.loadMs));
    const run = spread(values(s, 'runMs'));
    const first = s.runs.find((r) => r.digest);
    const d = (x: number) => (x < 10 ? 1 : 0);
    const ms = (x: Spread) => `${fmt(x.median, d(x.median))} (${fmt(x.min, d(x.min))}–${fmt(x.max, d(x.max))}) ms`;
    lines.push(`| ${s.variant} | ${ms(load)} | ${ms(run)} | ${first ? `${(first.bytes! / 1024).toFixed(0)} KiB` : '—'} | ${first ? (first.digest === reference ? 'yes' : 'no') : '—'} | ${s.runs.length} |`);
  }
  return lines;
}

function ledgerTable(rows: readonly Row[]): string[] {
  const lines = [
    '| writes | conflicts found | `conflicts()` | recording the writes | process | peak RSS | runs |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const s = stats(row.ours);
    const found = row.ours.runs.find((r) => r.conflicts !== undefined)?.conflicts ?? '—';
    lines.push(
      `| ${row.size.toLocaleString('en-US')} | ${found} | ${s.ok ? `${s.runMs.toFixed(1)} ms` : `failed: ${s.crash?.error}`} | ${s.fillMs.toFixed(0)} ms | ${sec(s.processMs)} | ${mib(s.maxRssMiB)} | ${s.runs} |`,
    );
  }
  return lines;
}

function profileSection(p: ProfileReport): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines = [
    '## Where the time goes',
    '',
    `One extra run of our slowest scenario (${p.scenario}, size ${p.size.toLocaleString('en-US')}) under \`node --cpu-prof\`, ` +
      'summarized by `bench/cpu-profile.ts` (self time per function and per area, from the samples of the `.cpuprofile`). ' +
      `The profiler slows the run down (build+synth ${sec(p.runMs)} in this run, ${sec(p.summary.totalMs)} sampled). ` +
      `Each sample is charged at most ${p.summary.gapCapMs.toFixed(1)} ms, twice the profile's median sampling interval: a longer gap is time the process did not run ` +
      `(descheduled on a busy machine), which V8 charges to the next sample (${sec(p.summary.notRunningMs)} left out in this run). ` +
      'Any scenario can be profiled on its own: `npm run bench -- --profile <scenario> [--side=bare|floor] [--size=N]` prints its top ten self-time functions.',
    '',
    summaryLine(p.summary),
    '',
    '| area | self time | share |',
    '|---|---:|---:|',
    ...p.summary.areas.slice(0, 10).map((a) => `| ${a.name} | ${a.ms.toFixed(0)} ms | ${pct(a.share)} |`),
    '',
    '| function | self time | share |',
    '|---|---:|---:|',
    ...p.summary.functions.slice(0, 15).map((f) => `| \`${f.name}\` | ${f.ms.toFixed(0)} ms | ${pct(f.share)} |`),
    '',
    'Areas: `cdk-capability src/<folder>` is this library; a package name is time inside that package; ' +
      '`V8 and native code` is native work with no script location (file system calls such as `writeFileUtf8`, `mkdir`, `unlink` show up by name in the function table); ' +
      '`(garbage collector)` is V8\'s collector.',
    '',
  ];
  return lines;
}

/** Native file system calls as they appear in a profile (no script location). */
const FS_CALLS = new Set(['writeFileUtf8', 'writeFileSync', 'mkdir', 'open', 'close', 'lstat', 'stat', 'unlink', 'rmdir', 'readdir', 'rename', 'readFileUtf8', 'copyFile', 'cpSyncCopyDir']);

/** One sentence on where the time goes: the largest areas, this library's own share, file system calls. */
function summaryLine(summary: ProfileSummary): string {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const ours = summary.areas.filter((a) => a.name.startsWith('cdk-capability'));
  const oursShare = ours.reduce((n, a) => n + a.share, 0);
  const fsShare = summary.functions.filter((f) => FS_CALLS.has(f.name)).reduce((n, f) => n + f.share, 0);
  const top = summary.areas.slice(0, 3).map((a) => `${a.name} ${pct(a.share)}`).join(', ');
  const mine = ours.slice(0, 3).map((a) => `${a.name.replace('cdk-capability ', '')} ${pct(a.share)}`).join(', ');
  return `In short: the largest areas are ${top}. This library's own code takes ${pct(oursShare)} of the self time${mine ? ` (largest: ${mine})` : ''}; ` +
    `native file system calls take ${pct(fsShare)}.`;
}
