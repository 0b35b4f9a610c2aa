import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { Capability, CapabilityApp, Plan, RuntimeRouting } from '../src';
import { appOf, lockedSeries, release, removeReleaseDirs, ReleaseSeries, withUpdateLock } from './release-fixtures';
import { capturingOutput, configMap } from './util';
import { main } from '../src/cli/main';

/**
 * A release whose only change is the apply order (a dependency added or dropped between stacks and objects of
 * both releases) is a change the plan shows and counts: before, the plan said "0 to add, 0 to change, 0 to
 * remove" and exited 0, so a CI job that takes exit 0 for "the lock is current" passed with a lock that no
 * longer recorded the order the program declares.
 */

afterAll(removeReleaseDirs);

type Variant = 'none' | 'objects' | 'charts' | 'new chart';

/** GIVEN: charts A (ConfigMap x) and B (ConfigMaps y, z) in namespace edge; the variant adds one dependency. */
function shop(app: CapabilityApp, variant: Variant): void {
  const cap = new Capability(app, 'cdn');
  const a = new RuntimeRouting(cap, 'A');
  const b = new RuntimeRouting(cap, 'B');
  const x = configMap(a, 'X', 'x', 'edge');
  const y = configMap(b, 'Y', 'y', 'edge');
  configMap(b, 'Z', 'z', 'edge');
  if (variant === 'objects') y.addDependency(x);
  if (variant === 'charts') b.addDependency(a);
  if (variant === 'new chart') {
    const c = new RuntimeRouting(cap, 'C');
    configMap(c, 'W', 'w', 'edge');
    c.addDependency(a);
  }
}

/** Synthesizes `variant` against the series' lock, writing no lock, and returns the plan and its outdir. */
function planOf(series: ReleaseSeries, variant: Variant): { plan: Plan; outdir: string } {
  const app = appOf(series);
  shop(app, variant);
  withUpdateLock(undefined, () => app.synth());
  return { plan: JSON.parse(fs.readFileSync(path.join(app.outdir, 'plan.json'), 'utf-8')), outdir: app.outdir };
}

/** `cdk-capability plan --plan <outdir>/plan.json`, in process. */
function runPlan(outdir: string, ...flags: string[]): { code: number; stdout: string } {
  const { result, stdout } = capturingOutput(() => main(['plan', '--plan', path.join(outdir, 'plan.json'), ...flags]));
  return { code: result, stdout };
}

describe('an apply order changed against the lock', () => {
  test('an addDependency between two objects of both releases is one order change: counted, listed, and plan exits 2', () => {
    const series = lockedSeries(shop, 'none');
    const { plan, outdir } = planOf(series, 'objects');
    expect(plan.changes.order).toEqual([
      { change: 'added', unit: 'ConfigMap edge/y', waitsFor: 'ConfigMap edge/x', reason: 'explicit dependency (addDependency)' },
    ]);
    const { code, stdout } = runPlan(outdir);
    expect(code).toBe(2);
    expect(stdout.split('\n')[0]).toBe('Plan: 0 to add, 0 to change, 0 to remove, 1 order change.');
    expect(stdout).toContain('\nOrder (dependencies between stacks and objects of both releases):\n  + ConfigMap edge/y now waits for ConfigMap edge/x (explicit dependency (addDependency))\n');
  });

  test('the dependency dropped again is a removed order change', () => {
    const series = lockedSeries(shop, 'objects');
    const { plan } = planOf(series, 'none');
    expect(plan.changes.order).toEqual([
      { change: 'removed', unit: 'ConfigMap edge/y', waitsFor: 'ConfigMap edge/x', reason: 'explicit dependency (addDependency)' },
    ]);
  });

  test('a chart dependency between charts of both releases names what is under each chart', () => {
    const series = lockedSeries(shop, 'none');
    expect(planOf(series, 'charts').plan.changes.order).toEqual([
      { change: 'added', unit: 'everything under cdn/B', waitsFor: 'everything under cdn/A', reason: 'explicit dependency (addDependency)' },
    ]);
  });

  test('a chart added with its dependency is an addition, not an order change', () => {
    const series = lockedSeries(shop, 'none');
    const { plan } = planOf(series, 'new chart');
    expect(plan.changes.added).toEqual(['ConfigMap edge/w']);
    expect(plan.changes.order).toBeUndefined();
  });

  test('the same program again has no order change and plan exits 0; once the lock is written, neither has the changed one', () => {
    const series = lockedSeries(shop, 'none');
    expect(planOf(series, 'none').plan.changes.order).toBeUndefined();
    expect(runPlan(planOf(series, 'none').outdir).code).toBe(0);
    release(series, shop, 'charts');
    const { plan, outdir } = planOf(series, 'charts');
    expect(plan.changes.order).toBeUndefined();
    expect(runPlan(outdir).code).toBe(0);
  });

  test('plan --json holds the order change and is valid against docs/plan-output.schema.json', () => {
    const series = lockedSeries(shop, 'none');
    const { outdir } = planOf(series, 'objects');
    const { code, stdout } = runPlan(outdir, '--json');
    expect(code).toBe(2);
    const printed = JSON.parse(stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'plan-output.schema.json'), 'utf-8'));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    expect(validate(printed) ? [] : validate.errors).toEqual([]);
    expect(printed.plan.changes.order).toEqual([
      { change: 'added', unit: 'ConfigMap edge/y', waitsFor: 'ConfigMap edge/x', reason: 'explicit dependency (addDependency)' },
    ]);
    expect(printed.summary).toEqual({ add: 0, change: 0, remove: 0, changes: true });
  });
});
