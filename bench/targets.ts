/**
 * The benchmark's targets: each one a comparison of measured series against a
 * bound, evaluated from the runs with its spread, printed as a PASS/FAIL line.
 */
import { Metric, ratio, Series, Spread, spread, stats, values } from './measure';
import type { Target } from './report';

/** "Roughly linear": doubling the size at most this much slower (linear is 2, quadratic 4). */
export const MAX_DOUBLING_GROWTH = 2.5;

/** A number with `digits` decimals, or `—`. */
export const fmt = (x: number, digits = 2): string => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** `1.04 (0.98–1.10)`: a median and the range it was taken over. */
export const spreadText = (s: Spread, digits = 2): string => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

/** How targets and tables name a metric. */
export const METRIC_NAMES: Record<Metric, string> = {
  runMs: 'build+synth wall',
  cpuMs: 'build+synth CPU',
  processMs: 'whole-process wall',
  processCpuMs: 'whole-process CPU',
  maxRssMiB: 'peak RSS',
};

/** One metric of a series as text: `1.23 s` or `130 MiB`, median. */
export function metricText(series: Series, metric: Metric): string {
  const m = spread(values(series, metric)).median;
  return metric === 'maxRssMiB' ? `${fmt(m, 0)} MiB` : `${fmt(m / 1000)} s`;
}

const ok = (s: Series | undefined): s is Series => !!s && stats(s).ok > 0;

/**
 * `a / b <= max` on one metric, at the median of the (paired) ratios.
 *
 * @param names how the target names the two sides
 */
export function ratioTarget(a: Series, b: Series | undefined, metric: Metric, max: number, names: readonly [string, string] = ['ours', 'bare']): Target {
  const target = `N=${a.size.toLocaleString('en-US')}: ${names[0]}/${names[1]} ${METRIC_NAMES[metric]} <= ${max}`;
  if (!ok(a) || !ok(b)) return { target, measured: `not measured (${!ok(a) ? names[0] : names[1]} has no successful run)`, holds: false };
  const r = ratio(a, b, metric);
  return { target, measured: `${spreadText(r)}; ${metricText(a, metric)} vs ${metricText(b, metric)}`, holds: r.median <= max };
}

/**
 * `ours/floor whole-process wall <= max`, its measurement followed by the bare tool's own bare/floor on the
 * same runs, for scale: what the floor costs is far below what either tool pays to load and run. Bare/floor is
 * no target; the target holds on ours/floor alone.
 */
export function floorTarget(ours: Series, bare: Series | undefined, floor: Series | undefined, max: number): Target {
  const target = ratioTarget(ours, floor, 'processMs', max, ['ours', 'floor']);
  if (!ok(bare) || !ok(floor)) return target;
  return { ...target, measured: `${target.measured}; bare/floor ${spreadText(ratio(bare, floor, 'processMs'))}` };
}

/** `bare / ours >= min` on one metric: how many times faster ours is. */
export function speedupTarget(ours: Series, bare: Series | undefined, metric: Metric, min: number, note = ''): Target {
  const target = `N=${ours.size.toLocaleString('en-US')}: bare/ours ${METRIC_NAMES[metric]} >= ${min}${note}`;
  if (!ok(ours) || !ok(bare)) return { target, measured: 'not measured', holds: false };
  const r = ratio(bare, ours, metric);
  return { target, measured: `${spreadText(r, 1)}x; ${metricText(ours, metric)} vs ${metricText(bare, metric)}`, holds: r.median >= min };
}

/**
 * Growth of a series over successive sizes, each step normalized to one
 * doubling: `(t(n2) / t(n1)) ^ (1 / log2(n2 / n1))`, at the medians, with the
 * range from the extremes of the runs. Linear is x2.
 */
export function growthTarget(series: readonly Series[], what: string, metric: Metric = 'runMs'): Target {
  const steps: string[] = [];
  let worst = 0;
  for (let i = 1; i < series.length; i++) {
    const a = spread(values(series[i - 1], metric));
    const b = spread(values(series[i], metric));
    const d = Math.log2(series[i].size / series[i - 1].size);
    const factor: Spread = { median: (b.median / a.median) ** (1 / d), min: (b.min / a.max) ** (1 / d), max: (b.max / a.min) ** (1 / d) };
    worst = Math.max(worst, Number.isFinite(factor.median) ? factor.median : Infinity);
    steps.push(`${series[i - 1].size.toLocaleString('en-US')}→${series[i].size.toLocaleString('en-US')}: x${spreadText(factor)}${d !== 1 ? ' per doubling' : ''}`);
  }
  return {
    target: `${what}: ${METRIC_NAMES[metric]} x${MAX_DOUBLING_GROWTH} or less per doubling (linear is x2)`,
    measured: steps.join('; ') || 'one size only',
    holds: steps.length > 0 && worst <= MAX_DOUBLING_GROWTH && series.every((s) => stats(s).ok === stats(s).runs && stats(s).runs > 0),
  };
}

/** Our side completed every run at the largest size. */
export function completesTarget(series: Series): Target {
  const s = stats(series);
  return {
    target: `ours completes at ${series.size.toLocaleString('en-US')}`,
    measured: s.ok === s.runs && s.runs > 0 ? `completed, ${fmt(s.runMs / 1000)} s build+synth, ${fmt(s.maxRssMiB, 0)} MiB` : `crashed: ${s.crash?.error}`,
    holds: s.ok === s.runs && s.runs > 0,
  };
}

/** `PASS  <scenario>: <target> — <measured>`, one line. */
export function targetLine(scenario: string, t: Target): string {
  return `${t.holds ? 'PASS' : 'FAIL'}  ${scenario}: ${t.target} — ${t.measured}`;
}
