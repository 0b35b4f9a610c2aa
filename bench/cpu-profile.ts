/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and adds up self time per
 * function and per area (this library, cdk8s, aws-cdk-lib, ...); profiles one
 * run of a scenario (`npm run bench -- --profile <scenario>`).
 *
 *   node bench/.out/bench/cpu-profile.js <file.cpuprofile> [top]
 */
import * as fs from 'fs';
import { SourceMap } from 'module';
import { join } from 'path';
import { RunResult, runOnce, Side } from './measure';

/** One node of the profile's call tree: the function it sampled. */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber?: number };
}

/** A V8 `.cpuprofile`, the parts read here. */
export interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

/** Self time of one function or area. */
export interface SelfTime {
  /** `function (file:line)`, or the area's name. */
  readonly name: string;
  /** Self time, ms. */
  readonly ms: number;
  /** Share of all sampled time, 0 to 1. */
  readonly share: number;
}

/** Self time per function and per area, each sorted by time, largest first. */
export interface ProfileSummary {
  /** All sampled time, ms, each gap between samples capped (`gapCapMs`). */
  readonly totalMs: number;
  /**
   * The longest time one sample is charged with, ms: twice the profile's median gap between samples (its
   * sampling interval). A longer gap is time the process did not run (descheduled on a busy machine): V8
   * charges it to the next sample, which would put a function that happened to run next at the top.
   */
  readonly gapCapMs: number;
  /** The time left out by the cap, ms (0 on a quiet machine). */
  readonly notRunningMs: number;
  /** Per function. */
  readonly functions: SelfTime[];
  /** Per area: `cdk-capability src/<folder>`, a package under node_modules, `node internals`, `(garbage collector)`... */
  readonly areas: SelfTime[];
}

/** Summarizes a parsed `.cpuprofile`. */
export function summarizeProfile(profile: Profile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const perFunction = new Map<string, number>();
  const perArea = new Map<string, number>();
  const capUs = 2 * median(profile.timeDeltas.slice(0, profile.samples.length));
  let totalUs = 0;
  let notRunningUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attributing it to sample i is how Chrome DevTools reads it
    const delta = profile.timeDeltas[i] ?? 0;
    const us = Math.min(delta, capUs);
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    totalUs += us;
    notRunningUs += delta - us;
    const frame = node.callFrame;
    const file = shortFile(frame.url);
    const fn = `${frame.functionName || '(anonymous)'}${file ? ` (${file}:${frame.lineNumber + 1})` : ''}`;
    perFunction.set(fn, (perFunction.get(fn) ?? 0) + us);
    const area = areaOf(frame.url, frame.functionName);
    perArea.set(area, (perArea.get(area) ?? 0) + us);
  }
  const rank = (m: Map<string, number>): SelfTime[] =>
    [...m].map(([name, us]) => ({ name, ms: us / 1000, share: totalUs ? us / totalUs : 0 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: totalUs / 1000, gapCapMs: capUs / 1000, notRunningMs: notRunningUs / 1000, functions: rank(perFunction), areas: rank(perArea) };
}

/** The median of `values` (0 for none). */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Reads and summarizes a `.cpuprofile` file, its bundled frames mapped to their sources (`toSources`). */
export function summarizeProfileFile(file: string): ProfileSummary {
  return summarizeProfile(toSources(JSON.parse(fs.readFileSync(file, 'utf-8')) as Profile, readSourceMap));
}

/** The source map beside a script (`<file>.map`), or undefined when it has none. */
function readSourceMap(file: string): SourceMap | undefined {
  const map = `${file}.map`;
  return fs.existsSync(map) ? new SourceMap(JSON.parse(fs.readFileSync(map, 'utf-8'))) : undefined;
}

/**
 * The profile with each frame of a script that has a source map (our side runs lib/bundle.js) moved to its
 * source file and line, so the summary names `src/<folder>/<file>.ts` and not one bundle. The map's sources are
 * relative to the script's folder.
 */
export function toSources(profile: Profile, sourceMapOf: (file: string) => SourceMap | undefined): Profile {
  const maps = new Map<string, SourceMap | undefined>();
  const nodes = profile.nodes.map((node) => {
    const { url, lineNumber, columnNumber } = node.callFrame;
    if (!url.startsWith('file://') || !url.endsWith('.js')) return node;
    const file = url.slice('file://'.length);
    if (!maps.has(file)) maps.set(file, sourceMapOf(file));
    const entry = maps.get(file)?.findEntry(lineNumber, columnNumber ?? 0);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) return node;
    const source = entry.originalSource.startsWith('file://') ? entry.originalSource.slice('file://'.length) : join(file, '..', entry.originalSource);
    return { ...node, callFrame: { ...node.callFrame, url: `file://${source}`, lineNumber: entry.originalLine } };
  });
  return { ...profile, nodes };
}

/**
 * A source of the bundle as the repository names it: the map names each `../src/<file>` beside the installed
 * package's lib/ (`node_modules/cdk-capability/src/...`), which is this repository's `src/<file>`.
 */
function ownSource(path: string): string {
  const own = path.lastIndexOf('node_modules/cdk-capability/src/');
  return own === -1 ? path : `/${path.slice(own + 'node_modules/cdk-capability/'.length)}`;
}

/** A path short enough for a table: from `node_modules/<pkg>/` or from `src/`. */
function shortFile(url: string): string {
  if (!url) return '';
  const path = ownSource(url.replace(/^file:\/\//, ''));
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) return path.slice(nm + 'node_modules/'.length);
  const src = path.lastIndexOf('/src/');
  if (src !== -1) return path.slice(src + 1);
  return path.startsWith('node:') ? path : path.split('/').slice(-2).join('/');
}

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 and native code';
  const path = ownSource(url.replace(/^file:\/\//, ''));
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const src = path.lastIndexOf('/src/');
  if (src !== -1) return `cdk-capability src/${path.slice(src + 5).split('/')[0].replace(/\.js$/, '.ts')}`;
  if (path.startsWith('node:')) return 'node internals';
  return 'other';
}

/** A profiled run: what the child reported, the `.cpuprofile` it left, and its summary. */
export interface ProfiledRun {
  readonly run: RunResult;
  readonly file: string;
  readonly summary: ProfileSummary;
}

/**
 * Runs one child of `side` on `scenario` at `size` under `node --cpu-prof`
 * and summarizes its profile. The `.cpuprofile` is kept in `dir` (open it in
 * Chrome DevTools or VS Code for the call tree).
 *
 * @param env added to the child's environment (the lock of a previous release)
 * @throws when the run leaves no profile (it crashed before exiting normally)
 */
export function profileScenario(side: Side, scenario: string, size: number, dir: string, env: Record<string, string> = {}): ProfiledRun {
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  const run = runOnce(side, scenario, size, ['--cpu-prof', `--cpu-prof-dir=${dir}`], env);
  const made = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (made.length === 0) throw new Error(`${side} ${scenario} ${size} left no profile${run.error ? `: ${run.error}` : ''}`);
  const file = join(dir, `${scenario}-${side}-${size}.cpuprofile`);
  fs.renameSync(join(dir, made[0]), file);
  return { run, file, summary: summarizeProfileFile(file) };
}

/** The summary as text: the largest areas, then the `top` functions by self time. */
export function formatSummary(summary: ProfileSummary, top = 10): string[] {
  const line = (t: SelfTime) => `${t.ms.toFixed(0).padStart(8)} ms ${(100 * t.share).toFixed(1).padStart(5)}%  ${t.name}`;
  return [
    `total sampled: ${summary.totalMs.toFixed(0)} ms` +
      (summary.notRunningMs > 0 ? ` (${summary.notRunningMs.toFixed(0)} ms of gaps longer than ${summary.gapCapMs.toFixed(1)} ms left out: the process was not running)` : ''),
    '',
    'self time by area:',
    ...summary.areas.slice(0, 12).map(line),
    '',
    `top ${top} functions by self time:`,
    ...summary.functions.slice(0, top).map(line),
  ];
}

if (require.main === module) {
  const [file, top = '15'] = process.argv.slice(2);
  console.log(formatSummary(summarizeProfileFile(file), Number(top)).join('\n'));
}
