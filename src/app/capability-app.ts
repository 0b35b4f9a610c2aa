import * as path from 'path';
import { App, AppProps } from 'cdk8s';
import { IConstruct } from 'constructs';
import { cdk8sCliMode, leaveOutdirAbsent, stdoutTree } from './cdk8s-cli';
import { synthesize, SynthesisResult } from './synthesize';
import { CompositionError, formatFindings } from '../check/composition-error';
import { compareFindings, finding, toViolation, Violation, ViolationCode } from '../check/finding';
import { brand, hasBrand } from '../private/brand';
import { creationSite, recordCreationSites, SourceLocation } from '../private/creation-site';
import { errorMessage } from '../private/errors';
import { RunFolder } from '../private/run-folder';
import { DEFAULT_LOCK_FILE, loadLock, serializeLock } from '../release/lock';
import { LockKey } from '../release/lock-key';
import { HeldOutdir, holdOutdir, writeAtomically } from '../render/atomic-output';
import type { GitOps } from '../render/gitops/gitops';
import { outdirProblem, ProtectedPaths, resolveOutdir } from '../render/outdir-safety';
import { REPORT_ENV, writeReport } from '../render/report-file';
import { writeFailure } from '../render/write-failure';
import { WRITERS } from '../render/writers';

/** Properties of a `CapabilityApp`. */
export interface CapabilityAppProps extends AppProps {
  /**
   * The lock file: the previous release, as you commit it. Synth checks interface
   * compatibility (`CAP007`) and deletion safety (`CAP008`) against it when it
   * exists; with `CDK_CAPABILITY_UPDATE_LOCK=1` (or `true`, `yes`) a synth that
   * passes every check rewrites it and says so on stderr. No lock file means a
   * first release.
   *
   * @default 'capability.lock.json' in the working directory
   */
  readonly lockFile?: string;

  /**
   * Also write `gitops/`, so an existing GitOps engine applies the runtime
   * steps in plan order: `GitOps.flux({ sourceRef, path })` or `GitOps.argoCd()`.
   *
   * @default - no `gitops/` folder
   */
  readonly gitops?: GitOps;
}

/**
 * The root of a cdk-capability program: a cdk8s `App` that synthesizes every
 * capability under it, both lifecycles, in dependency order.
 *
 * A drop-in for `new App()` in a cdk8s project: `cdk8s synth` runs it
 * unchanged. `synth()` writes, under the outdir:
 * - `plan.json`: the ordered steps of both lifecycles and why each edge exists;
 * - `deploy/`: one aws-cdk cloud assembly (`cdk deploy --app dist/deploy --all`);
 * - `runtime/`: Kubernetes manifests, one file per step, numbered in apply
 *   order, plus a `kustomization.yaml` that keeps that order.
 * - `gitops/` (with the prop `gitops`): Flux Kustomizations or Argo CD sync
 *   waves that apply the runtime steps in the same order.
 *
 * @example
 * const app = new CapabilityApp();
 * const cdn = new Capability(app, 'cdn');
 * new SharedBase(cdn, 'Base');
 * new RuntimeRouting(cdn, 'Routing');
 * app.synth();
 */
export class CapabilityApp extends App {
  /** True when `x` is a `CapabilityApp`, also across duplicate installs of this package. */
  public static isCapabilityApp(x: unknown): x is CapabilityApp {
    return hasBrand(x, 'CapabilityApp');
  }

  /**
   * The app at the root of `construct`'s tree.
   *
   * @throws when the root is not a `CapabilityApp`
   */
  public static of(construct: IConstruct): CapabilityApp {
    const root = construct.node.root;
    if (!CapabilityApp.isCapabilityApp(root)) {
      throw new Error(`'${construct.node.path}' is not in a CapabilityApp: create its root with new CapabilityApp()`);
    }
    return root;
  }

  /** The GitOps engine `gitops/` is written for, if any. */
  public readonly gitops?: GitOps;

  /** The absolute path of the lock file. */
  public readonly lockFile: string;

  /**
   * @param props cdk8s app options; `outdir` defaults to `CDK8S_OUTDIR` when it is
   * set and not blank, else `dist`. Synth replaces the outdir as a whole, so it
   * refuses (`CAP011`) an outdir that holds files it did not write, or that is or
   * contains the working directory, the lock file or the program.
   */
  constructor(props: CapabilityAppProps = {}) {
    super({ ...props, outdir: resolveOutdir(props.outdir) });
    brand(this, 'CapabilityApp');
    // A report (cdk-capability plan) names the file and line that created each construct it reports.
    if (process.env[REPORT_ENV]) recordCreationSites(this);
    this.lockFile = path.resolve(props.lockFile ?? DEFAULT_LOCK_FILE);
    this.gitops = props.gitops;
  }

  /**
   * Checks the composition and writes its output atomically.
   *
   * @throws CompositionError with every violation, sorted, when the composition
   * is refused; nothing is written then and the previous output stays as it was.
   * Under `cdk8s synth` it prints the report instead (code first, one line each,
   * no stack trace) and returns without creating the outdir, so the CLI exits
   * with code 1 and its single line `ERROR: synthesis failed`. Under
   * `cdk8s synth --stdout` the outdir gets the runtime objects once, in apply
   * order, in one `manifests.yaml` (the only `.yaml` file the CLI then prints).
   * Warnings (`possible secret`) are printed to stderr, code first, and do not refuse.
   * With `CDK_CAPABILITY_REPORT=<file>` in the environment, the findings (and the
   * plan, when accepted) are also written to that file as JSON, refused or not.
   */
  public synth(): void {
    let held: HeldOutdir | undefined | 'refused';
    try {
      held = this.holdOutdir();
      if (held !== 'refused') this.synthAndWrite(held);
    } finally {
      if (held !== 'refused') held?.release();
      RunFolder.release(this.outdir);
    }
  }

  /** What synth must never replace, however the outdir is set: the working directory, the lock file and the program. */
  private protectedPaths(): ProtectedPaths {
    return { cwd: process.cwd(), files: [this.lockFile, ...programFiles()] };
  }

  /**
   * Holds the outdir (its lock, and what killed synths left beside it put
   * right) from before the lock file is read until the output is written, so
   * this synth reads the lock file of the release the outdir holds. An outdir
   * synth may not write is not held: the write refuses it.
   *
   * @returns 'refused' when another synth holds it and the refusal was reported as `cdk8s synth` expects
   */
  private holdOutdir(): HeldOutdir | undefined | 'refused' {
    if (outdirProblem(this.outdir, this.protectedPaths())) return undefined;
    try {
      return holdOutdir(this.outdir);
    } catch (e) {
      const violations = (CompositionError.isCompositionError(e) ? e : writeFailure(this.outdir, e)).violations;
      const file = process.env[REPORT_ENV];
      if (file) writeReport(file, { formatVersion: 1, accepted: false, violations, warnings: [] });
      if (cdk8sCliMode(this.outdir) && leaveOutdirAbsent(this.outdir)) {
        process.stderr.write(`${formatFindings([...violations].sort(compareFindings))}\n`);
        return 'refused';
      }
      throw new CompositionError(violations);
    }
  }

  private synthAndWrite(held: HeldOutdir | undefined): void {
    const updateLock = parseUpdateLock(process.env[UPDATE_LOCK_ENV]);
    if (typeof updateLock === 'string') {
      const violation = toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, updateLock, []));
      const file = process.env[REPORT_ENV];
      if (file) writeReport(file, { formatVersion: 1, accepted: false, violations: [violation], warnings: [] });
      throw new CompositionError([violation]);
    }
    const result = this.synthesize();
    const reportFile = process.env[REPORT_ENV];
    const report = (violations: readonly Violation[]) => {
      if (!reportFile) return;
      const accepted = violations.length === 0;
      const locations = sourceLocations(this, [...violations, ...result.warnings]);
      const plan = accepted ? result.plan : undefined;
      writeReport(reportFile, { formatVersion: 1, accepted, violations, warnings: result.warnings, plan, locations });
    };
    const cli = cdk8sCliMode(this.outdir);
    const refuse = (violations: readonly Violation[]): void => {
      report(violations);
      if (cli && leaveOutdirAbsent(this.outdir)) {
        // Under `cdk8s synth` a non-zero exit makes the CLI print its own stack trace;
        // exit 0 with no outdir makes it print one ERROR line and exit 1.
        process.stderr.write(`${formatFindings([...violations].sort(compareFindings))}\n`);
        return;
      }
      throw new CompositionError(violations);
    };
    for (const w of result.warnings) process.stderr.write(`${w.code} warning: ${w.message}\n`);
    if (result.violations.length > 0 || !result.output) return refuse(result.violations);
    const output = cli === 'stdout' ? stdoutTree(result.output, result.runtimeFiles ?? []) : result.output;
    const lockToWrite = updateLock ? result.lock : undefined;
    try {
      writeAtomically(this.outdir, output, {
        protectedPaths: this.protectedPaths(),
        alongside: lockToWrite ? { path: this.lockFile, content: serializeLock(lockToWrite) } : undefined,
        held,
      });
    } catch (e) {
      if (CompositionError.isCompositionError(e)) return refuse(e.violations);
      throw e;
    }
    if (lockToWrite) {
      process.stderr.write(`cdk-capability: wrote the lock of this release to ${this.lockFile} (${UPDATE_LOCK_ENV}=${process.env[UPDATE_LOCK_ENV]}); commit it.\n`);
    }
    report([]);
  }

  /**
   * Collects, checks and renders the composition without writing anything and
   * without throwing for violations (`CapabilityTesting.synth` is the public way).
   *
   * @returns the violations, and when there are none the plan and output
   * @internal
   */
  public synthesize(): SynthesisResult {
    const { lock: previous, problems } = loadLock(this.lockFile);
    const lockProblems = [...problems];
    let lockKey: LockKey | undefined;
    try {
      lockKey = LockKey.fromEnv();
    } catch (e) {
      lockProblems.push(`${errorMessage(e)}.`);
    }
    const writers = this.gitops ? [...WRITERS, this.gitops.writer] : WRITERS;
    return synthesize(this, { previous, lockProblems, lockKey, writers });
  }
}

/** The variable that asks synth to rewrite the lock. */
const UPDATE_LOCK_ENV = 'CDK_CAPABILITY_UPDATE_LOCK';

/**
 * `CDK_CAPABILITY_UPDATE_LOCK` read: true for `1`, `true`, `yes`; false when
 * unset, blank, `0`, `false`, `no` (any case); else why the value is refused.
 */
export function parseUpdateLock(value: string | undefined): boolean | string {
  const v = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(v)) return true;
  if (['', '0', 'false', 'no'].includes(v)) return false;
  return `${UPDATE_LOCK_ENV} is ${JSON.stringify(value)}, which is neither 1, true or yes (rewrite the lock) nor 0, false, no or unset (leave it). Nothing was changed. Set it to one of those.`;
}

/** The files of the running program (the script node was started with, the main module), which synth must never delete. */
function programFiles(): string[] {
  return [process.argv[1], require.main?.filename].filter((f): f is string => typeof f === 'string' && f !== '');
}

/** Where each construct the findings name was created, by construct path. */
function sourceLocations(root: IConstruct, findings: readonly Violation[]): Record<string, SourceLocation> | undefined {
  const wanted = new Set(findings.flatMap((f) => f.paths));
  if (wanted.size === 0) return undefined;
  const locations: Record<string, SourceLocation> = {};
  for (const c of root.node.findAll()) {
    if (!wanted.has(c.node.path)) continue;
    const site = creationSite(c);
    if (site) locations[c.node.path] = site;
  }
  return Object.keys(locations).length > 0 ? locations : undefined;
}
