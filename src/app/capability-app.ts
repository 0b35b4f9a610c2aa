import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps, YamlOutputType } from 'cdk8s';
import { IConstruct } from 'constructs';
import { awsCdkCliOutdir, awsCdkCliOutdirProblem, copyAssemblyForAwsCdkCli } from './aws-cdk-cli';
import { awsCdkContext } from './aws-context';
import { Cdk8sCliMode, cdk8sCliMode, leaveOutdirAbsent, stdoutTree } from './cdk8s-cli';
import { chartDependenciesOnly, renderChartsWithChartDependenciesOnly } from './chart-synth';
import { isShortSynth } from './short-synth';
import { synthesize, SynthesisResult } from './synthesize';
import { CompositionError, formatFindings } from '../check/composition-error';
import { compareFindings, finding, placementOf, toViolation, Violation, ViolationCode } from '../check/finding';
import { templateValidationEnabled } from '../collect/template-validation-switch';
import { appendAll } from '../private/append';
import { brand, hasBrand } from '../private/brand';
import { creationSite, recordCreationSites, SourceLocation } from '../private/creation-site';
import { recordDependencyCalls } from '../private/dependency-calls';
import { errorMessage } from '../private/errors';
import { deferringThread, refreshBeforeSynth } from '../private/heartbeat';
import { recordIncludedFiles } from '../private/included-files';
import { invalidInput } from '../private/invalid-input';
import { outsideCapabilityApp } from '../private/misplaced';
import { keysOf, misspeltKeyProblems } from '../private/near-miss';
import { RunFolder } from '../private/run-folder';
import { runFolderFailure } from '../private/scratch';
import { valueText } from '../private/value-text';
import { recordWriteCalls } from '../private/write-calls';
import { loadLock, serializeLock } from '../release/lock';
import { LockKey } from '../release/lock-key';
import { defaultLockFile, LockRemovals, lockFolderProblem, lockWrittenLine, parseUpdateLock } from '../release/update-lock';
import { HeldOutdir, holdOutdir, writeAtomically } from '../render/atomic-output';
import { EnforceOptions, enforceOptionsProblems } from '../render/enforcement/enforce-options';
import type { GitOps } from '../render/gitops/gitops';
import { outdirProblem, ProtectedPaths, resolveOutdir } from '../render/outdir-safety';
import { REPORT_ENV, SynthReport, withRule, writeReport } from '../render/report-file';
import type { TeardownStep } from '../render/teardown';
import { writeFailure } from '../render/write-failure';
import { WRITERS } from '../render/writers';
import type { Plan } from '../render/writers/plan-json';

/** Properties of a `CapabilityApp`. */
export interface CapabilityAppProps extends AppProps {
  /**
   * The lock file: the previous release, as you commit it. Synth checks interface
   * compatibility (`CAP007`) and deletion safety (`CAP008`) against it when it
   * exists; with `CDK_CAPABILITY_UPDATE_LOCK=1` (or `true`, `yes`) a synth that
   * passes every check rewrites it and says so on stderr. No lock file means a
   * first release.
   *
   * @default - 'capability.lock.json' beside the program's cdk8s.yaml (the nearest
   * one in the entry file's folder or above it), else beside the entry file
   */
  readonly lockFile?: string;

  /**
   * Also write `gitops/`, so an existing GitOps engine applies the runtime
   * steps in plan order: `GitOps.flux({ sourceRef, path })` or `GitOps.argoCd()`.
   *
   * @default - no `gitops/` folder
   */
  readonly gitops?: GitOps;

  /**
   * Make the API server enforce the ownership map: the runtime output gets a
   * first step, `field-ownership`, with one `ValidatingAdmissionPolicy` and
   * binding per protected kind, so that only the deployer changes the leaves
   * the composition declares and only a `RuntimeWriter`'s identity its own.
   * See docs/enforcement.md.
   *
   * @default - no admission policies
   */
  readonly enforce?: EnforceOptions;

  /**
   * Context values for every capability, as aws-cdk's `App` prop `context`:
   * feature flags and lookups. Like an aws-cdk `App`, the app also reads
   * `CDK_CONTEXT_JSON` (what the aws-cdk CLI passes: `cdk.json`,
   * `cdk.context.json`, `--context`), which wins; run without the aws-cdk CLI
   * (under `cdk8s synth`), it reads the `context` of `cdk.json` and then
   * `cdk.context.json` in the working directory itself, as the CLI would.
   *
   * @default - no context beyond those files and the variable
   */
  readonly context?: Record<string, unknown>;

  /**
   * Whether aws-cdk's built-in CloudFormation template validator checks every
   * capability's stacks, as it checks the stacks of an aws-cdk `App`: on by
   * default, off with `false` or `CDK_VALIDATION=false`. Its findings are
   * reported as aws-cdk reports them: warnings, unless the feature flag
   * `@aws-cdk/core:validateAgainstDefaultRules` is true (then errors refuse
   * the composition, `CAP010`).
   *
   * @default true
   */
  readonly builtinCloudFormationValidation?: boolean;
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
 * - `audit/objects.list`: every runtime object by its identity alone, with its
 *   namespace written out, for `kubectl get -f` to read the live objects that
 *   `cdk-capability audit` compares.
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
   * @throws CompositionError `CAP015` when the root is not a `CapabilityApp`
   */
  public static of(construct: IConstruct): CapabilityApp {
    const root = construct.node.root;
    if (!CapabilityApp.isCapabilityApp(root)) throw outsideCapabilityApp(construct.node.path);
    return root;
  }

  /** The GitOps engine `gitops/` is written for, if any. */
  public readonly gitops?: GitOps;

  /** The absolute path of the lock file. */
  public readonly lockFile: string;

  /** How the API server enforces the ownership map, if it does. */
  public readonly enforce?: EnforceOptions;

  /** Whether aws-cdk's template validator runs (the prop; `CDK_VALIDATION=false` also turns it off). */
  public readonly builtinCloudFormationValidation: boolean;

  /**
   * @param props cdk8s app options; `outdir` defaults to `CDK8S_OUTDIR` when it is
   * set and not blank, else `dist`; `CDK_CAPABILITY_PLAN_OUTDIR`, which
   * `cdk-capability plan` sets to its temporary folder, wins over both. Synth replaces the outdir as a whole, so it
   * refuses (`CAP011`) an outdir that holds files it did not write, or that is or
   * contains the working directory, the lock file or the program.
   * @throws CompositionError `CAP010` when a prop is not valid (`outdir` or `lockFile` not a path, `enforce` not as documented, `gitops` not made by `GitOps`,
   *   `builtinCloudFormationValidation` not a boolean, `context` not a map, cdk8s' `outputFileExtension`, `yamlOutputType`,
   *   `recordConstructMetadata` or `resolvers` not of its type, a prop that misspells one it takes:
   *   `outdri`, `lockfile`), naming each; other props it does not know pass, as cdk8s adds props across versions
   */
  constructor(props: CapabilityAppProps = {}) {
    super({ ...props, outdir: resolveOutdir(checkedProps(props).outdir) });
    brand(this, 'CapabilityApp');
    for (const [key, value] of Object.entries(awsCdkContext(props.context, process.env, process.cwd()))) this.node.setContext(key, value);
    this.builtinCloudFormationValidation = props.builtinCloudFormationValidation ?? true;
    // A report (cdk-capability plan) names the file and line that created each construct it reports.
    if (process.env[REPORT_ENV]) recordCreationSites(this);
    // Each escape hatch and Tag is a writer of its own, named by its call site.
    recordWriteCalls();
    // A message names the file an Include read each of its objects from.
    recordIncludedFiles();
    // A cycle message names who made each explicit dependency: a library for its own construct, or the program's line.
    recordDependencyCalls(this);
    // cdk8s' Testing.synth(chart) (chart.toJson()) renders a chart as cdk8s does, though stacks beside it hold dependencies.
    renderChartsWithChartDependenciesOnly();
    this.lockFile = props.lockFile !== undefined ? path.resolve(props.lockFile) : defaultLockFile();
    this.gitops = props.gitops;
    if (props.enforce !== undefined) this.enforce = props.enforce;
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
   * plan, when accepted) are also written to that file as JSON, refused or not; a
   * file that cannot be written is one `CAP011` line on stderr, and the synth goes on.
   */
  public synth(): void {
    // one walk of the tree, for both: nothing between here and collect changes it
    const constructs = this.node.findAll();
    // a short synth ends long before its lock could look stale: no refreshing thread unless it runs long
    if (isShortSynth(this, templateValidationEnabled(this.builtinCloudFormationValidation), constructs)) {
      deferringThread(() => this.synthOnce(constructs));
    } else {
      refreshBeforeSynth();
      this.synthOnce(constructs);
    }
  }

  /**
   * The YAML of every chart, as cdk8s' `App.synthYaml` gives it (no checks, no stacks: `CapabilityTesting.synth`
   * checks the composition). The dependencies of the constructs of stacks (an aws-cdk Lambda on its role), and any
   * between a stack and a chart, are left out of cdk8s' ordering of the charts, which finds no chart for them.
   */
  public synthYaml(): string {
    return chartDependenciesOnly(this, () => super.synthYaml());
  }

  private synthOnce(constructs: readonly IConstruct[]): void {
    let held: HeldOutdir | undefined | 'refused';
    try {
      held = this.holdOutdir();
      if (held !== 'refused') this.synthAndWrite(held, constructs);
    } finally {
      if (held !== 'refused') held?.release();
      RunFolder.release(this.outdir);
    }
  }

  /**
   * What the release removes against the previous lock, for the line that says the lock was written: its
   * teardown is in the `plan.json` written beside it, unless `cdk8s synth --stdout` writes that to a folder
   * it removes.
   */
  private removals(plan: Plan | undefined, cli: Cdk8sCliMode): LockRemovals {
    const steps = plan?.teardown.steps ?? [];
    const count = (lifecycle: TeardownStep['lifecycle']) => steps.filter((s) => s.lifecycle === lifecycle).reduce((n, s) => n + s.units.length, 0);
    return { objects: count('runtime'), stacks: count('deploy'), ...(cli === 'stdout' ? {} : { planFile: path.join(this.outdir, 'plan.json') }) };
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
   * @returns 'refused' when another synth holds it, or its run folder could not be created while the tree
   *   was built, and the refusal was reported as `cdk8s synth` expects
   */
  private holdOutdir(): HeldOutdir | undefined | 'refused' {
    // the run folder beside the outdir could not be created while the tree was built (a read-only project)
    const early = runFolderFailure(this);
    if (early) return this.refuseUnwritten(writeFailure(this.outdir, early.error).violations);
    if (outdirProblem(this.outdir, this.protectedPaths())) return undefined;
    try {
      return holdOutdir(this.outdir);
    } catch (e) {
      return this.refuseUnwritten((CompositionError.isCompositionError(e) ? e : writeFailure(this.outdir, e)).violations);
    }
  }

  /**
   * Refuses a synth before anything is read or written, as every refusal reaches the user: in the report
   * file, then one coded line each on stderr under `cdk8s synth`, else a thrown `CompositionError`.
   *
   * @returns 'refused' under `cdk8s synth`
   */
  private refuseUnwritten(violations: readonly Violation[]): 'refused' {
    const file = process.env[REPORT_ENV];
    const lock = { file: this.lockFile, found: fs.existsSync(this.lockFile) };
    if (file) reportTo(file, { formatVersion: 1, accepted: false, violations: violations.map(withRule), warnings: [], lock });
    if (cdk8sCliMode(this.outdir) && leaveOutdirAbsent(this.outdir)) {
      process.stderr.write(`${formatFindings([...violations].sort(compareFindings))}\n`);
      return 'refused';
    }
    throw new CompositionError(violations);
  }

  private synthAndWrite(held: HeldOutdir | undefined, constructs: readonly IConstruct[]): void {
    const lockSwitch = parseUpdateLock();
    const cli = cdk8sCliMode(this.outdir);
    const reportFile = process.env[REPORT_ENV];
    const lock = { file: this.lockFile, found: fs.existsSync(this.lockFile) };
    // run by the AWS CDK CLI (`cdk synth` with cdk.json's "app" the program): the assembly also goes where it reads it
    const cdkOutdir = cli ? undefined : awsCdkCliOutdir();
    const early = lockSwitch.problem
      ?? (cdkOutdir ? awsCdkCliOutdirProblem(this.outdir, cdkOutdir) : undefined)
      ?? (lockSwitch.update ? lockFolderProblem(this.lockFile) : undefined);
    if (early !== undefined) {
      // Refused before anything else runs or is written; under cdk8s synth one coded line, no stack trace.
      const violation = toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, early, []));
      if (reportFile) reportTo(reportFile, { formatVersion: 1, accepted: false, violations: [violation], warnings: [], lock });
      if (cli && leaveOutdirAbsent(this.outdir)) {
        process.stderr.write(`${formatFindings([violation])}\n`);
        return;
      }
      throw new CompositionError([violation]);
    }
    const result = this.synthesize(constructs);
    const report = (violations: readonly Violation[]) => {
      if (!reportFile) return;
      const accepted = violations.length === 0;
      const locations = sourceLocations(this, [...violations, ...result.warnings]);
      const plan = accepted ? result.plan : undefined;
      const warnings = result.warnings.map(withRule);
      reportTo(reportFile, { formatVersion: 1, accepted, violations: violations.map(withRule), warnings, plan, locations, lock });
    };
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
    const lockToWrite = lockSwitch.update ? result.lock : undefined;
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
      process.stderr.write(`${lockWrittenLine(this.lockFile, undefined, this.removals(result.plan, cli))}\n`);
    }
    if (cdkOutdir) this.writeForAwsCdkCli(cdkOutdir);
    report([]);
  }

  /**
   * Under the AWS CDK CLI: the cloud assembly just written to `<outdir>/deploy`, also in the CLI's output folder.
   * The outdir is written first, so a failure here leaves the release written and says so.
   */
  private writeForAwsCdkCli(cdkOutdir: string): void {
    const assembly = path.join(this.outdir, 'deploy');
    const shown = path.relative(process.cwd(), cdkOutdir) || '.';
    if (!fs.existsSync(path.join(assembly, 'manifest.json'))) {
      process.stderr.write(`cdk-capability: the composition has no stack, so there is no cloud assembly for the AWS CDK CLI to read in '${shown}'; the runtime output is in '${path.relative(process.cwd(), this.outdir) || '.'}'.\n`);
      return;
    }
    try {
      copyAssemblyForAwsCdkCli(assembly, cdkOutdir);
    } catch (e) {
      const detail = `the release was written to '${path.relative(process.cwd(), this.outdir) || '.'}', but its cloud assembly could not be copied into the AWS CDK CLI's output folder '${shown}' (CDK_OUTDIR): ${errorMessage(e)}. `
        + 'Make that folder writable, or point the CLI at the written assembly instead: "app": "dist/deploy" in cdk.json, after a synth.';
      throw new CompositionError([toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []))]);
    }
  }

  /**
   * Collects, checks and renders the composition without writing anything and
   * without throwing for violations (`CapabilityTesting.synth` is the public way).
   *
   * @param constructs `this.node.findAll()`, when synth has just walked the tree
   * @returns the violations, and when there are none the plan and output
   * @internal
   */
  public synthesize(constructs?: readonly IConstruct[]): SynthesisResult {
    const { lock: previous, problems } = loadLock(this.lockFile);
    const lockProblems = [...problems];
    let lockKey: LockKey | undefined;
    try {
      lockKey = LockKey.fromEnv();
    } catch (e) {
      lockProblems.push(`${errorMessage(e)}.`);
    }
    const writers = this.gitops ? [...WRITERS, this.gitops.writer] : WRITERS;
    return synthesize(this, { previous, lockProblems, lockKey, writers, enforce: this.enforce, constructs });
  }
}

/** The files of the running program (the script node was started with, the main module), which synth must never delete. */
function programFiles(): string[] {
  return [process.argv[1], require.main?.filename].filter((f): f is string => typeof f === 'string' && f !== '');
}

/** Where each construct the findings name was created, by construct path. */
function sourceLocations(root: IConstruct, findings: readonly Violation[]): Record<string, SourceLocation> | undefined {
  // a finding placed at a write that is no call (a Contribution's) is located at its writer's creation site
  const wanted = new Set(findings.flatMap((f) => f.paths.concat(placementOf(f)?.path ?? [])));
  if (wanted.size === 0) return undefined;
  const locations: Record<string, SourceLocation> = {};
  for (const c of root.node.findAll()) {
    if (!wanted.has(c.node.path)) continue;
    const site = creationSite(c);
    if (site) locations[c.node.path] = site;
  }
  return Object.keys(locations).length > 0 ? locations : undefined;
}

/** The props `CapabilityApp` takes: its own, and cdk8s' `AppProps` (the compiler holds the list to both). */
const KNOWN_PROPS = keysOf<CapabilityAppProps>({
  outdir: true,
  lockFile: true,
  gitops: true,
  enforce: true,
  context: true,
  builtinCloudFormationValidation: true,
  outputFileExtension: true,
  yamlOutputType: true,
  recordConstructMetadata: true,
  resolvers: true,
});

/**
 * `props`, or the `CAP010` refusal naming each prop that is not valid, in one violation: from JavaScript,
 * anything can be given, and an `outdir` or `lockFile` that is not a path would otherwise fail inside Node's
 * `path` without naming it.
 */
function checkedProps(props: CapabilityAppProps): CapabilityAppProps {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    throw invalidInput(`CapabilityApp props (${valueText(props)}) must be an object, such as { outdir: 'dist' }`);
  }
  const problems: string[] = [];
  const pathProp = (name: 'outdir' | 'lockFile', example: string) => {
    const value: unknown = props[name];
    // an empty string is a path (the working directory), which synth refuses with CAP011 as it refuses '.'
    if (value !== undefined && typeof value !== 'string') problems.push(`'${name}' (${valueText(value)}) must be a path, such as '${example}'`);
  };
  pathProp('outdir', 'dist');
  pathProp('lockFile', 'capability.lock.json');
  const { builtinCloudFormationValidation: validation, context } = props as { builtinCloudFormationValidation?: unknown; context?: unknown };
  if (validation !== undefined && typeof validation !== 'boolean') problems.push(`'builtinCloudFormationValidation' (${valueText(validation)}) must be true or false`);
  if (context !== undefined && (context === null || typeof context !== 'object' || Array.isArray(context))) {
    problems.push(`'context' (${valueText(context)}) must be a map of context keys to values, such as { '@aws-cdk/core:newStyleStackSynthesis': true }`);
  }
  appendAll(problems, cdk8sPropsProblems(props));
  if (props.gitops !== undefined && !hasBrand(props.gitops, 'GitOps')) {
    problems.push(`'gitops' (${valueText(props.gitops)}) must be made by GitOps.flux({ sourceRef: { name: 'platform' } }) or GitOps.argoCd()`);
  }
  if (props.enforce !== undefined) appendAll(problems, enforceOptionsProblems(props.enforce));
  // a prop it does not know passes (cdk8s adds props of its own across versions), unless it misspells one it knows
  appendAll(problems, misspeltKeyProblems(props, KNOWN_PROPS));
  if (problems.length > 0) throw invalidInput(`CapabilityApp props: ${problems.join('; ')}`);
  return props;
}

/** Why the props `CapabilityApp` passes on to cdk8s' `App` are refused: cdk8s takes any value and fails later, or never says. */
function cdk8sPropsProblems(props: AppProps): string[] {
  const problems: string[] = [];
  const { outputFileExtension, yamlOutputType, recordConstructMetadata, resolvers } = props as Record<string, unknown>;
  if (outputFileExtension !== undefined && typeof outputFileExtension !== 'string') {
    problems.push(`'outputFileExtension' (${valueText(outputFileExtension)}) must be a file extension, such as '.k8s.yaml'`);
  }
  if (yamlOutputType !== undefined && !Object.values(YamlOutputType).some((v) => typeof v === 'number' && v === yamlOutputType)) {
    problems.push(`'yamlOutputType' (${valueText(yamlOutputType)}) must be a YamlOutputType of cdk8s, such as YamlOutputType.FILE_PER_CHART`);
  }
  if (recordConstructMetadata !== undefined && typeof recordConstructMetadata !== 'boolean') {
    problems.push(`'recordConstructMetadata' (${valueText(recordConstructMetadata)}) must be true or false`);
  }
  const isResolver = (r: unknown) => r !== null && typeof r === 'object' && typeof (r as { resolve?: unknown }).resolve === 'function';
  if (resolvers !== undefined && !(Array.isArray(resolvers) && resolvers.every(isResolver))) {
    problems.push(`'resolvers' (${valueText(resolvers)}) must be a list of cdk8s resolvers (objects with a resolve(context) method), such as [new LazyResolver()]`);
  }
  return problems;
}

/**
 * Writes the report `CDK_CAPABILITY_REPORT` asks for. A report that cannot be written (its folder is a file, a
 * read-only disk) is said on stderr as a coded line, and the synth goes on: its violations are never hidden
 * behind the report's error, and `cdk-capability plan` then says the app left no report.
 */
function reportTo(file: string, report: SynthReport): void {
  try {
    writeReport(file, report);
  } catch (e) {
    const detail = `the report ${REPORT_ENV} names, '${file}', could not be written (${errorMessage(e)}): point ${REPORT_ENV} at a file in a folder this program can write. The synth itself goes on.`;
    const violation = toViolation(finding(ViolationCode.OUTPUT_NOT_WRITTEN, detail, []));
    process.stderr.write(`${violation.code} ${violation.message}\n`);
  }
}
