import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CODE_TITLES, compareFindings, ViolationCode } from '../check/finding';
import { ruleId } from '../check/rule';
import { displayPath } from '../release/update-lock';
import type { ReportedViolation, SynthReport } from '../render/report-file';

/** The `plan` option that makes a missing lock a refusal: for CI, where the lock of the last release must be there. */
export const EXPECT_LOCK_OPTION = '--expect-lock';

/**
 * The report of a plan run with `--expect-lock`: refused with one `CAP014` when the synth found no lock where
 * it looked, since a plan without it is a first release (everything an addition, `CAP007` and `CAP008` off),
 * which in CI is a lock the checkout left out, never a release. Unchanged when the lock was there, or when the
 * report does not say where the synth looked.
 */
export function expectLock(report: SynthReport): SynthReport {
  if (!report.lock || report.lock.found) return report;
  const violation: ReportedViolation = {
    code: ViolationCode.LOCK_FILE,
    message: `${CODE_TITLES[ViolationCode.LOCK_FILE]}: ${missingLockDetail(report.lock.file)}`,
    paths: [],
    rule: ruleId(ViolationCode.LOCK_FILE, CODE_TITLES[ViolationCode.LOCK_FILE]),
  };
  const { plan: _plan, ...rest } = report;
  return { ...rest, accepted: false, violations: [...report.violations, violation].sort(compareFindings) };
}

/**
 * What a missing lock's `CAP014` says after its title: where the synth looked, why that refuses, and the fix,
 * naming the cause git can tell (a `.gitignore` line, a file git tracks that the working tree lacks).
 */
export function missingLockDetail(file: string): string {
  const where = displayPath(file);
  const why = `${EXPECT_LOCK_OPTION} was given, and there is no lock at '${where}': without it this plan is a first release, every stack and object an addition, and the release checks (CAP007, CAP008) compare with nothing.`;
  const firstRelease = `For a real first release, run plan without ${EXPECT_LOCK_OPTION}, and commit the lock CDK_CAPABILITY_UPDATE_LOCK=1 npx cdk8s synth writes (docs/lock.md#a-missing-lock-in-ci).`;
  return `${why} ${gitCause(file, where) ?? `Restore it from the branch that released last (git checkout origin/main -- ${where}), or run plan in the folder of the app's cdk8s.yaml.`} ${firstRelease}`;
}

/** Why git did not give the checkout the lock, when git can tell: an ignore rule, or a file of the index the working tree lacks. */
function gitCause(file: string, where: string): string | undefined {
  const cwd = path.dirname(file);
  const git = (...args: string[]) => spawnSync('git', args, { cwd: existingFolder(cwd), encoding: 'utf-8' });
  const tracked = git('ls-files', '--cached', '--', file);
  if (tracked.status === 0 && tracked.stdout.trim() !== '') {
    return `git tracks it, but the working tree lacks it (deleted, or outside a sparse checkout): git checkout HEAD -- ${where} (with a sparse checkout, git sparse-checkout add ${displayPath(cwd) || '.'}).`;
  }
  const ignored = git('check-ignore', '--verbose', '--no-index', '--', file);
  if (ignored.status === 0) {
    // `<source>:<line>:<pattern>\t<path>`, the source relative to the top of the work tree (or absolute: core.excludesFile)
    const rule = /^(.*?):(\d+):(.*)\t/.exec(ignored.stdout);
    const top = git('rev-parse', '--show-toplevel').stdout.trim() || existingFolder(cwd);
    const line = rule ? `${displayPath(path.resolve(top, rule[1]))}:${rule[2]} ('${rule[3]}')` : ignored.stdout.trim();
    return `git ignores it (${line}), so it was never committed: remove that line, then commit the lock.`;
  }
  return undefined;
}

/** The nearest folder at or above `folder` that exists: where git can run. */
function existingFolder(folder: string): string {
  let f = folder;
  while (!fs.existsSync(f) && path.dirname(f) !== f) f = path.dirname(f);
  return f;
}

/** Which lock the plan compared against, or where it looked and found none; empty for a plan read from a file. */
export function lockLine(report: SynthReport): string {
  if (!report.lock) return '';
  const where = displayPath(report.lock.file);
  if (report.lock.found) return `Lock: compared against ${where}.\n`;
  return [
    `Lock: none at ${where}, so this is a first release: every stack and object is an addition, and no release check (CAP007, CAP008) compares it with an earlier release.`,
    `      If a release was accepted before, restore its lock (git checkout origin/main -- ${where}); in CI, plan ${EXPECT_LOCK_OPTION} refuses a missing lock.`,
    '',
  ].join('\n');
}
