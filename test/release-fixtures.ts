import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CapabilityApp, Violation } from '../src';
import type { SynthesisResult } from '../src/app/synthesize';

/**
 * Helpers of the release-safety tests (lock, CAP007, CAP008, CAP005, plan):
 * every release is a fresh `CapabilityApp` writing to a temporary folder with
 * its lock file in that folder, never the repository's.
 */

const created: string[] = [];

/** A fresh temporary folder, removed by `removeReleaseDirs()`. */
export function releaseDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-release-'));
  created.push(dir);
  return dir;
}

/** Removes every folder `releaseDir()` created; call it from `afterAll`. */
export function removeReleaseDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Builds one release of a composition into an app; `V` says which variant. */
export type ReleaseBuilder<V> = (app: CapabilityApp, variant: V) => void;

/** Where a series of releases keeps its lock and outputs. */
export interface ReleaseSeries {
  /** The temporary folder. */
  readonly dir: string;
  /** The lock file, `<dir>/capability.lock.json`. */
  readonly lockFile: string;
}

/** A new series with no lock yet. */
export function newSeries(): ReleaseSeries {
  const dir = releaseDir();
  return { dir, lockFile: path.join(dir, 'capability.lock.json') };
}

let releases = 0;

/** A new app of the series, writing to a fresh outdir under the series folder. */
export function appOf(series: ReleaseSeries): CapabilityApp {
  return new CapabilityApp({ outdir: path.join(series.dir, `dist-${++releases}`), lockFile: series.lockFile });
}

/**
 * Runs `fn` with the environment variable `name` set to `value` (or unset), and
 * restores it as it was afterwards, also when `fn` throws.
 */
export function withEnv<T>(name: string, value: string | undefined, fn: () => T): T {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

/** Runs `fn` with `CDK_CAPABILITY_UPDATE_LOCK` set to `value` (or unset), restoring it afterwards. */
export function withUpdateLock<T>(value: string | undefined, fn: () => T): T {
  return withEnv('CDK_CAPABILITY_UPDATE_LOCK', value, fn);
}

/** Runs `fn` with `CDK_CAPABILITY_LOCK_KEY` set to `key` (or unset), restoring it afterwards. */
export function withLockKey<T>(key: string | undefined, fn: () => T): T {
  return withEnv('CDK_CAPABILITY_LOCK_KEY', key, fn);
}

/**
 * Releases `variant` the way a user does: `app.synth()` with
 * `CDK_CAPABILITY_UPDATE_LOCK=1`, which writes the real lock file.
 *
 * @returns the app that was synthesized
 * @throws when the release is refused (a test's GIVEN must be accepted)
 */
export function release<V>(series: ReleaseSeries, build: ReleaseBuilder<V>, variant: V): CapabilityApp {
  const app = appOf(series);
  build(app, variant);
  withUpdateLock('1', () => app.synth());
  if (!fs.existsSync(series.lockFile)) throw new Error(`the release did not write the lock file '${series.lockFile}'`);
  return app;
}

/** A series whose lock is the real lock of `variant`, released with `release()`. */
export function lockedSeries<V>(build: ReleaseBuilder<V>, variant: V): ReleaseSeries {
  const series = newSeries();
  release(series, build, variant);
  return series;
}

/** Builds the next release of the series and checks it against the lock, writing nothing. */
export function nextRelease<V>(series: ReleaseSeries, build: ReleaseBuilder<V>, variant: V): SynthesisResult {
  const app = appOf(series);
  build(app, variant);
  return app.synthesize();
}

/** The violations reduced to what the tests compare: code, message and paths. */
export function coded(violations: readonly Violation[]): Array<{ code: string; message: string; paths: string[] }> {
  return violations.map((v) => ({ code: v.code, message: v.message, paths: v.paths }));
}

/** `text` as a regular expression matching itself literally. */
export function literal(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}
