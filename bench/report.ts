/**
 * The benchmark's report: the machine, every scenario's figures, the targets
 * and whether they hold, and where the time goes, as markdown.
 */
import * as os from 'os';
import * as path from 'path';
import type { ProfileSummary } from './cpu-profile';
import { Series, SeriesStats, stats } from './measure';

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

/** One size of a scenario: our series and, when there is one, the bare tool's. */
export interface Row {
  readonly size: number;
  readonly ours: Series;
  readonly bare?: Series;
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
  /** `compare` for ours vs bare, `ledger` for the ledger alone. */
  readonly kind: 'compare' | 'ledger';
  readonly rows: Row[];
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
  readonly started: Date;
  readonly durationS: number;
  readonly machine: Machine;
  readonly scenarios: ScenarioReport[];
  readonly profile?: ProfileReport;
}

const sec = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');
const mib = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} MiB` : '—');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '—');

/** A side's time: the median, or how it crashed. */
function timeCell(s: SeriesStats, field: 'runMs' | 'processMs'): string {
  if (s.ok === 0 && s.crash) return `crash after ${sec(s[field])}`;
  return sec(s[field]) + (s.crash ? ` (${s.runs - s.ok} of ${s.runs} crashed)` : '');
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
      'so no TypeScript compiler runs inside a measurement. Each side loads only its own tool: a bare cdk8s run never loads aws-cdk-lib or this library.',
    '- Runs alternate ours/bare, bare/ours, ... after an untimed warm-up run of each side (not repeated for the slowest cases: the 400-object bare chained charts, ' +
      'the bare chain crash, the chain beyond 10,000, the tenants; earlier runs have warmed the file cache by then). Figures are medians over the timed runs.',
    '- **build+synth**: the child\'s own wall time around building the construct tree and `app.synth()` (`performance.now()`), module loading excluded. ' +
      '**process**: spawn to exit as the parent sees it (node start-up, module loading, build, synth, exit). ' +
      '**build+synth CPU**: the child\'s CPU time (user + system, all threads, `process.cpuUsage()`) over the same span, which a busy machine disturbs much less than wall time. ' +
      '**peak RSS**: the child\'s own `process.resourceUsage().maxRSS`.',
    '- Both sides write their output with `app.synth()` into a fresh folder; ours also runs every check (duplicates, field ownership, cycles) and writes `plan.json`.',
    '- Note on module loading: aws-cdk-lib loads its modules lazily, on first use, so a bare aws-cdk run pays most of its loading inside build+synth, ' +
      'while ours loads aws-cdk-lib core before the clock starts (our constructs extend `Stage` and `Stack`). The process column compares like with like.',
    '',
  );

  out.push('## Targets', '');
  out.push('| scenario | target | measured | holds |', '|---|---|---|---|');
  for (const s of report.scenarios) {
    for (const t of s.targets) out.push(`| ${s.title} | ${t.target} | ${t.measured} | ${t.holds ? 'yes' : '**no**'} |`);
  }
  out.push('');

  for (const s of report.scenarios) {
    out.push(`## ${s.title}`, '', s.what, '');
    out.push(...(s.kind === 'ledger' ? ledgerTable(s.rows) : compareTable(s.rows)), '');
  }

  if (report.profile) out.push(...profileSection(report.profile));
  return out.join('\n');
}

function compareTable(rows: readonly Row[]): string[] {
  const lines = [
    '| size | ours build+synth | bare build+synth | ratio ours/bare | ours process | bare process | ratio ours/bare | ratio ours/bare, build+synth CPU | ours peak RSS | bare peak RSS | runs ours/bare |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const o = stats(row.ours);
    const b = row.bare ? stats(row.bare) : undefined;
    const bareOk = b && b.ok > 0;
    lines.push(
      `| ${row.size.toLocaleString('en-US')} | ${timeCell(o, 'runMs')} | ${b ? timeCell(b, 'runMs') : 'not run'} | ${bareOk ? ratio(o.runMs, b.runMs) : '—'} ` +
        `| ${timeCell(o, 'processMs')} | ${b ? timeCell(b, 'processMs') : 'not run'} | ${bareOk ? ratio(o.processMs, b.processMs) : '—'} | ${bareOk ? ratio(o.cpuMs, b.cpuMs) : '—'} ` +
        `| ${mib(o.maxRssMiB)} | ${b ? mib(b.maxRssMiB) : '—'} | ${o.runs}/${b?.runs ?? 0} |`,
    );
  }
  const crashes = rows.flatMap((r) => [r.ours, r.bare]).filter((s): s is Series => !!s).map((s) => ({ s, c: stats(s).crash })).filter((x) => x.c);
  for (const { s, c } of crashes) lines.push('', `Crash, ${s.side} at ${s.size.toLocaleString('en-US')}: \`${c!.error}\` (recorded as a result, not a harness failure).`);
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
      `The profiler slows the run down (build+synth ${sec(p.runMs)} in this run, ${sec(p.summary.totalMs)} sampled).`,
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
