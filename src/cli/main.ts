#!/usr/bin/env node
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { runAppCommand } from './app-run';
import { apply, APPLY_USAGE, durationMs } from './apply';
import { argsProblem, didYouMean, helpHint } from './args-problem';
import { audit, AUDIT_USAGE } from './audit';
import { appsBelow, readCdk8sConfig } from './cdk8s-config';
import { AskedFormat, askedFormat, CommandFailure, formatCommandFailureJson, REPORT_FORMATS, ReportFormat } from './command-failure';
import { EXIT_CODES_USAGE, ExitCode, exitCode, Outcome } from './exit-codes';
import { formatGithub, formatGithubFailure } from './format-github';
import { formatFailureJson, formatPlan, formatPlanJson, hasChanges } from './format-plan';
import { formatRefusal } from './format-refusal';
import { formatSarif, ownVersion, sarifRoot } from './format-sarif';
import { formatTeardown, formatTeardownJson, teardownHasWork } from './format-teardown';
import { EXPECT_LOCK_OPTION, expectLock, lockLine } from './lock-expectation';
import { planFileRefusal, readPlanFile } from './plan-file';
import { entryFileOf, failureText, ProgramFailure, programFailure } from './program-failure';
import { reportedFindings } from './report-findings';
import { formatFindings } from '../check/composition-error';
import { ViolationCode } from '../check/finding';
import { internalError } from '../check/internal-error';
import { shellWord } from '../private/shell-word';
import { UPDATE_LOCK_ENV } from '../release/update-lock';
import { PLAN_OUTDIR_ENV } from '../render/outdir-safety';
import { readReport, REPORT_ENV, SynthReport } from '../render/report-file';
import type { Plan } from '../render/writers/plan-json';

const USAGE = `Usage: cdk-capability plan [--app "<command>"] [--plan <plan.json>] [--json] [--format text|json|sarif|github] [--expect-lock] [--timeout <duration>] [--exit-zero]
       cdk-capability plan --teardown [--app "<command>"] [--plan <plan.json>] [--json] [--expect-lock] [--timeout <duration>] [--exit-zero]

Runs the app (default: the "app" of ./cdk8s.yaml) into a temporary folder,
without touching your output or lock, and prints its plan: the steps of both
lifecycles in apply order and the changes against the lock, field by field,
and which lock it compared against.

  --app   the command that runs the app, as in cdk8s.yaml
  --plan  print an existing plan.json instead of running the app
  --teardown  print instead how to delete what the release removes against
          the lock: in deletion order, with the commands
          (--json: docs/teardown-output.schema.json)
  --format  text (default); json (the --json document); sarif (SARIF 2.1.0,
          for code scanning); github (workflow annotations). Each finding
          carries its code, construct paths and, when known, the file and
          line that created each construct it names.
  --json  the same as --format json: findings, summary and plan
          (docs/plan-output.schema.json)
  --expect-lock  refuse (CAP014) when the app's lock file is missing, rather
          than plan a first release: for CI, where a missing lock is a
          checkout that left it out (docs/lock.md#a-missing-lock-in-ci)
  --timeout  how long the app may run (90s, 10m, 1h30m); past it, plan stops
          the app and every process it started, and reports a failure of
          kind timeout in the format asked for. Default: no limit

${EXIT_CODES_USAGE}`;

/** The usage of the command line itself: how to print the version and the help. */
const GENERAL_USAGE = `Usage: cdk-capability --version
       cdk-capability help [<command>]   (also -h, --help; <command> -h for one command's help)`;

/** The help of each command, by name. */
const COMMAND_HELP: Readonly<Record<string, string>> = { plan: USAGE, apply: APPLY_USAGE, audit: AUDIT_USAGE };

/** Each form of each command, the lines that open its usage (`plan --teardown` too; not their continuations): what an unknown command lists. */
const COMMANDS: readonly string[] = [
  ...new Set([
    ...[USAGE, APPLY_USAGE, AUDIT_USAGE].flatMap((u) => u.split('\n\n')[0].split('\n').map((l) => l.replace(/^Usage: /, '').trim()).filter((l) => l.startsWith('cdk-capability '))),
    'cdk-capability --version',
    'cdk-capability --help',
  ]),
];

/** The commands, by name. */
const COMMAND_NAMES: readonly string[] = ['plan', 'apply', 'audit'];

/** The report formats of `plan --format` (text is the readable plan). */
const FORMATS = REPORT_FORMATS;
type Format = ReportFormat;

/** The options of `cdk-capability plan`, as `parseArgs` takes them. */
const PLAN_OPTIONS = {
  'app': { type: 'string' },
  'plan': { type: 'string' },
  'help': { type: 'boolean', short: 'h' },
  'teardown': { type: 'boolean' },
  'format': { type: 'string' },
  'json': { type: 'boolean' },
  'exit-zero': { type: 'boolean' },
  'expect-lock': { type: 'boolean' },
  'timeout': { type: 'string' },
} as const;

/** The options of `cdk-capability plan`. */
interface PlanOptions {
  readonly 'app'?: string;
  readonly 'plan'?: string;
  readonly 'help'?: boolean;
  readonly 'teardown'?: boolean;
  readonly 'format'?: string;
  readonly 'json'?: boolean;
  readonly 'exit-zero'?: boolean;
  readonly 'expect-lock'?: boolean;
  readonly 'timeout'?: string;
}

/**
 * Runs the `cdk-capability` command line; returns the exit code. An exception no command expected (a bug) is
 * one `CAP000 internal error` line on stderr naming the command and the error, never a stack trace, and exit
 * code 1, as a failure is (also with `--exit-zero`).
 */
export function main(argv: string[]): number {
  endQuietlyOnClosedPipe();
  try {
    return runCommand(argv);
  } catch (e) {
    return crashed(argv[0], e);
  }
}

/**
 * A reader that stops reading early (`cdk-capability plan --json | head -1`) closes the pipe: the writes
 * still queued then fail with EPIPE, which Node raises as an unhandled 'error' event, a stack trace and exit
 * code 1 after the command has finished. That ends the output, not the command: the error is dropped, and
 * the exit code stays the command's. Any other error of stdout or stderr is raised as before.
 */
function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (!stream.listeners('error').includes(droppedIfClosedPipe)) stream.on('error', droppedIfClosedPipe);
  }
}

function droppedIfClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code !== 'EPIPE') throw e;
}

/** The one line of an exception that escaped a command, as synth reports a crash: `CAP000`, what crashed and the error. */
function crashed(command: string | undefined, e: unknown): number {
  const what = command === 'apply' || command === 'audit' || command === 'plan' ? `cdk-capability ${command}` : 'cdk-capability';
  const f = internalError(what, e);
  // one line: an error whose message spans lines (a wrapped cause) is joined, as a log line is read
  process.stderr.write(`${f.code} ${f.message.replace(/\s*\n\s*/g, ' ')}\n`);
  return exitCode({ kind: 'failed' });
}

/** Runs one command of the command line; returns its exit code. */
function runCommand(argv: string[]): number {
  const [command, ...rest] = argv;
  // `cdk-capability apply` (issue 17): carries out a synth's plan in order.
  if (command === 'apply') return apply(rest, outdirFromConfig);
  // `cdk-capability audit` (issue 25): the cluster's managedFields against the lock.
  if (command === 'audit') return audit(rest);
  if (command === '--version' || command === 'version') {
    process.stdout.write(`${ownVersion()}\n`);
    return ExitCode.NO_CHANGES;
  }
  if (command === '--help' || command === '-h' || command === 'help') return help(rest);
  if (command !== 'plan') return unknownCommand(argv);
  // the format asked for, read before the strict parse, so that a command line it refuses is answered in it
  const asked = askedFormat(rest, Object.entries(PLAN_OPTIONS).filter(([, o]) => o.type === 'string').map(([name]) => name));
  const usageError = (message: string, withHint = false) => planUsageError(message, asked, withHint);
  let values: PlanOptions;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: PLAN_OPTIONS,
    }).values;
  } catch (e) {
    return usageError(argsProblem(e as Error, Object.keys(PLAN_OPTIONS)), true);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return ExitCode.NO_CHANGES;
  }
  const exit = (outcome: Outcome) => exitCode(outcome, { exitZero: values['exit-zero'] });
  // --format (issue 17): reports for pull requests; --json is --format json.
  const format = (values.format ?? (values.json ? 'json' : 'text')) as Format;
  if (!FORMATS.includes(format)) return usageError(`unknown --format '${values.format}'${didYouMean(String(values.format), FORMATS)} (one of ${FORMATS.join(', ')})`, true);
  if (values.json && format !== 'json') return usageError(`--json is --format json: drop one of --json and --format ${format}`);
  if (values.teardown && format !== 'text' && format !== 'json') return usageError(`--teardown prints text or --json, not --format ${format}`);
  if (values.plan !== undefined && (format === 'sarif' || format === 'github')) {
    return usageError(`--format ${format} needs the app's findings, so it runs the app: drop --plan`);
  }
  if (values.plan !== undefined && values['expect-lock']) {
    return usageError(`${EXPECT_LOCK_OPTION} checks the lock the app's synth reads, and --plan runs no app: drop one of them`);
  }
  const timeoutMs = values.timeout === undefined ? undefined : durationMs(values.timeout);
  if (values.timeout !== undefined && timeoutMs === undefined) return usageError(`--timeout '${values.timeout}' is not a duration such as 90s, 10m or 1h30m (leave it out to wait for the app as long as it takes)`);
  if (values.plan !== undefined && values.timeout !== undefined) return usageError('--timeout limits how long the app may run, and --plan runs no app: drop one of them');

  let report: SynthReport;
  let entry: string | undefined;
  if (values.plan !== undefined) {
    const plan = readPlan(values.plan);
    if ('command' in plan) return commandFailed(plan, format);
    report = { formatVersion: 1, accepted: true, violations: [], warnings: [], plan };
  } else {
    if (values.app !== undefined && values.app.trim() === '') {
      return usageError(`--app '${values.app}' is empty: give the command that runs the app, as cdk8s.yaml's "app" does (--app "npx ts-node main.ts"), or leave --app out to run ./cdk8s.yaml's`);
    }
    const config = values.app === undefined ? readCdk8sConfig() : {};
    if ('problem' in config) return usageError(config.problem);
    const app = values.app ?? config.app;
    if (!app) {
      return usageError(
        fs.existsSync('cdk8s.yaml')
          ? 'no --app given and no "app" in ./cdk8s.yaml'
          : `no --app given and there is no ./cdk8s.yaml in this folder${noConfigHint()}`,
      );
    }
    const ran = runApp(app, timeoutMs === undefined ? undefined : { ms: timeoutMs, given: values.timeout! });
    // a failed app is reported in the format asked for, so CI reads a document, not an empty file
    if ('failure' in ran) return failed(ran.failure, format);
    // --expect-lock: a missing lock is a refusal, not a first release
    report = values['expect-lock'] ? expectLock(ran.report) : ran.report;
    // where a finding that names no construct is placed
    entry = entryFileOf(app, process.cwd());
  }

  if (values.teardown) {
    if (!report.accepted || !report.plan) {
      // --json: the refusal as plan --json prints it (docs/teardown-output.schema.json's refused document)
      if (format === 'json') process.stdout.write(formatPlanJson(report, reportedFindings(report, process.cwd(), entry)));
      return refused(report, exit, true, entry);
    }
    const plan = report.plan;
    process.stdout.write(format === 'json' ? formatTeardownJson(plan) : `${lockLine(report)}${formatTeardown(plan)}`);
    return exit({ kind: 'accepted', changes: teardownHasWork(plan) });
  }
  const root = process.cwd();
  const findings = reportedFindings(report, root, entry);
  if (format === 'json') {process.stdout.write(formatPlanJson(report, findings));} else if (format === 'sarif') {
    // code scanning resolves files from the workspace: on a runner they are relative to it, wherever plan runs
    const base = sarifRoot(root);
    process.stdout.write(formatSarif(base === root ? findings : reportedFindings(report, base, entry), base));
  } else if (format === 'github') {process.stdout.write(formatGithub(findings));}
  // warnings go to stderr in text, refused or not, as synth prints them (the other formats hold them)
  if (format === 'text') {
    for (const w of findings.filter((f) => f.severity === 'warning')) process.stderr.write(`${w.code} warning: ${w.message}\n`);
  }
  if (!report.accepted || !report.plan) return refused(report, exit, format === 'text', entry);
  if (format === 'text' || format === 'github') process.stdout.write(`${lockLine(report)}${formatPlan(report.plan)}`);
  return exit({ kind: 'accepted', changes: hasChanges(report.plan) });
}

/**
 * `cdk-capability help [<command>]` (also `-h`, `--help`): the help of every command, or of the one named. A name
 * that is no command is answered as an unknown command is.
 */
function help(rest: readonly string[]): number {
  const [named] = rest;
  if (named === undefined) {
    process.stdout.write(`${USAGE}\n\n${APPLY_USAGE}\n\n${AUDIT_USAGE}\n\n${GENERAL_USAGE}\n`);
    return ExitCode.NO_CHANGES;
  }
  const usage = COMMAND_HELP[named];
  if (usage === undefined) return unknownCommand(rest);
  process.stdout.write(`${usage}\n`);
  return ExitCode.NO_CHANGES;
}

/**
 * How to go on where plan finds no `./cdk8s.yaml`: the apps below the folder (a monorepo's root), and the two ways
 * to plan the first; else where to run it.
 */
function noConfigHint(): string {
  const apps = appsBelow();
  if (apps.length === 0) return ': run it where cdk8s.yaml is, or give the command that runs the app (--app "npx ts-node main.ts")';
  const shown = apps.length > 3 ? `${apps.slice(0, 3).join(', ')} and ${apps.length - 3} more` : apps.join(', ');
  return `, and the apps below it are ${shown}: run plan in an app's folder (cd ${shellWord(apps[0])} && npx cdk-capability plan), `
    + `or give the command that runs one from here, such as --app "npx ts-node ${path.posix.join(apps[0], 'main.ts')}"`;
}

/**
 * A usage error: one line naming the problem on stderr (then, for an option or format it does not know, where
 * the options are listed: not the whole help), and, when the command line
 * asks for a document (`--format json|sarif|github`, `--json`), that document of it on stdout, so that CI reads
 * one; a `--format` naming no format prints text alone, and says so. Exit code 1, also with `--exit-zero`.
 */
function planUsageError(message: string, asked: AskedFormat, withHint: boolean): number {
  const asText = 'unknown' in asked
    ? `\nThis usage error is printed as text alone: --format '${asked.unknown}' names no format of cdk-capability plan (${FORMATS.join(', ')}).`
    : '';
  if ('format' in asked) printFailureDocument({ command: 'plan', kind: 'usage', message }, asked.format);
  process.stderr.write(`cdk-capability plan: ${message}${asText}\n${withHint ? `${helpHint('plan')}\n` : ''}`);
  return exitCode({ kind: 'failed' });
}

/**
 * No command, or one that is not a command: named (with the command it most likely misspells), then each command
 * with one line of usage, on stderr. When the command line asks for a document (`--format json|sarif|github`,
 * `--json`, anywhere on it), that document of the usage error on stdout too, as plan's and audit's own usage errors
 * are, so that CI reads one. An option given before the command is named as such. Exit code 1.
 */
function unknownCommand(argv: readonly string[]): number {
  const [command] = argv;
  const what = command === undefined
    ? 'no command given'
    : command.startsWith('-') ? optionFirst(argv) : `unknown command '${command}'${didYouMean(command, COMMAND_NAMES)}`;
  const asked = askedFormat(argv, Object.entries(PLAN_OPTIONS).filter(([, o]) => o.type === 'string').map(([name]) => name));
  if ('format' in asked) printFailureDocument({ command: undefined, kind: 'usage', message: what }, asked.format);
  process.stderr.write(`cdk-capability: ${what}. The commands:\n${COMMANDS.map((c) => `  ${c}\n`).join('')}Run cdk-capability <command> --help for its options.\n`);
  return exitCode({ kind: 'failed' });
}

/**
 * A command line that starts with an option: says that the command comes first, with the command line reordered
 * when a command is on it further on (`--format json plan` is `plan --format json`).
 */
function optionFirst(argv: readonly string[]): string {
  const at = argv.findIndex((a) => COMMAND_NAMES.includes(a));
  const reordered = at < 0 ? '' : `: cdk-capability ${[argv[at], ...argv.slice(0, at), ...argv.slice(at + 1)].join(' ')}`;
  return `no command given before '${argv[0]}': the command comes first, then its options${reordered}`;
}

/** The document of a command's own failure on stdout, in a format CI reads; nothing for text (stderr says it). */
function printFailureDocument(f: CommandFailure, format: Format): void {
  const root = process.cwd();
  if (format === 'json') process.stdout.write(formatCommandFailureJson(f));
  else if (format === 'sarif') process.stdout.write(formatSarif([], sarifRoot(root), f));
  else if (format === 'github') process.stdout.write(formatGithubFailure(f));
}

/** A failure of the command on its input (a `--plan` file it cannot print): its document, then its lines on stderr. Exit code 1. */
function commandFailed(f: CommandFailure & { readonly stderr: string }, format: Format): number {
  printFailureDocument(f, format);
  process.stderr.write(f.stderr);
  return exitCode({ kind: 'failed' });
}

/**
 * An app that gave no plan (it failed, or is no CapabilityApp), in the format asked for, after its own stderr:
 * text says under it that the error is the program's own; json, sarif and github print their document of it
 * (`failure`, a failed invocation, an annotation at the program's frame). Exit code 1, also with `--exit-zero`.
 */
function failed(failure: ProgramFailure, format: Format): number {
  const root = process.cwd();
  if (format === 'json') process.stdout.write(formatFailureJson(failure, root));
  else if (format === 'sarif') process.stdout.write(formatSarif([], sarifRoot(root), failure));
  else if (format === 'github') process.stdout.write(formatGithubFailure(failure));
  process.stderr.write(`cdk-capability plan: ${failureText(failure, root)}\n`);
  return exitCode({ kind: 'failed' });
}

/** Says on stderr that the composition was refused, after its violations when nothing printed them yet. */
function refused(report: SynthReport, exit: (o: Outcome) => number, printViolations = true, entry?: string): number {
  const n = report.violations.length;
  if (printViolations && n > 0) {
    // each violation with where the program created what it names, as --format github and sarif place it
    const errors = reportedFindings(report, process.cwd(), entry).filter((f) => f.severity === 'error');
    process.stderr.write(`${errors.length === n ? formatRefusal(errors) : formatFindings(report.violations)}\n`);
  }
  process.stderr.write(`cdk-capability plan: the composition was refused with ${n} violation${n === 1 ? '' : 's'}; nothing to apply.\n`);
  return exit({ kind: 'refused' });
}

/** `--timeout`: in milliseconds, and as given. */
interface AppTimeout {
  readonly ms: number;
  readonly given: string;
}

/**
 * Runs the app into a temporary folder with a report file, and reads the report; or, having printed the app's
 * stderr on stderr, how it failed: it crashed before synth, failed after it, or is not a CapabilityApp.
 */
function runApp(app: string, timeout?: AppTimeout): { readonly report: SynthReport } | { readonly failure: ProgramFailure } {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-plan-'));
  const reportFile = path.join(scratch, 'report.json');
  try {
    const outdir = path.join(scratch, 'dist');
    // PLAN_OUTDIR_ENV wins over an outdir the program sets, so its real output is never touched
    const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_OUTDIR: outdir, [PLAN_OUTDIR_ENV]: outdir, [UPDATE_LOCK_ENV]: '', [REPORT_ENV]: reportFile };
    // Set only by the cdk8s CLI: without it the app throws on a refusal as a program of its own does.
    delete env.CDK8S_RECORD_CONSTRUCT_METADATA;
    const run = runAppCommand(app, env, timeout?.ms, scratch);
    const report = readReport(reportFile);
    if (run.timedOut) {
      // stopped at the limit: a report means it synthesized, then kept running (an open handle keeps Node alive)
      const printed = run.stderr || run.stdout || '';
      process.stderr.write(printed);
      return { failure: { ...programFailure('timeout', app, { signal: 'SIGKILL' }, printed, process.cwd()), timeout: timeout!.given, synthesized: report !== undefined } };
    }
    // a refused synth throws, so the app ends with an error; an accepted one that does not end well failed after it
    if (report && (!report.accepted || run.status === 0)) return { report };
    const printed = run.stderr || run.stdout || '';
    process.stderr.write(printed);
    const ended = run.status === null ? { signal: run.signal ?? 'unknown' } : { code: run.status };
    const kind = report ? 'after-synth' : run.status === 0 ? 'no-report' : 'before-synth';
    // a spawn that failed itself (the shell missing, the output past spawnSync's buffer) says why in run.error
    return { failure: programFailure(kind, app, ended, run.error ? `${printed}${printed === '' || printed.endsWith('\n') ? '' : '\n'}${run.error.message}` : printed, process.cwd()) };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The output folder of ./cdk8s.yaml, `dist` when it gives none; or what is wrong with the file. */
function outdirFromConfig(): string | { readonly problem: string } {
  const config = readCdk8sConfig();
  return 'problem' in config ? config : config.output ?? 'dist';
}

/**
 * The plan of a `--plan` file; or why it cannot be printed, with the lines stderr says it in: no such file, a
 * folder, or `CAP016`, a file that is not a plan synth wrote (truncated, edited, another tool's, another version's).
 */
function readPlan(file: string): Plan | (CommandFailure & { readonly stderr: string }) {
  const unread = (message: string, code?: ViolationCode) => ({ command: 'plan', kind: 'plan-file', file, message, ...(code ? { code } : {}) } as const);
  if (!fs.existsSync(file)) {
    const message = `no plan at '${file}': give the plan.json synth writes into its output folder (--plan dist/plan.json)`;
    return { ...unread(message), stderr: `cdk-capability plan: ${message}\n` };
  }
  if (fs.statSync(file).isDirectory()) {
    // an output folder given for its plan: say which file to give, not that a folder is no valid JSON
    const inside = path.join(file, 'plan.json');
    const hint = fs.existsSync(inside) ? `: give the plan synth wrote there, --plan ${inside}` : ': give the plan.json synth writes into its output folder';
    const message = `'${file}' is a folder, not a plan file${hint}`;
    return { ...unread(message), stderr: `cdk-capability plan: ${message}\n` };
  }
  // the check apply makes: a truncated or hand-edited plan is a coded refusal, never a crash while printing it
  const read = readPlanFile(file);
  if ('problems' in read) {
    const lines = planFileRefusal(file, 'is not a plan cdk-capability wrote', read.problems, 'Run cdk8s synth again to rewrite it. Nothing was printed.');
    return { ...unread(lines.trimEnd(), ViolationCode.PLAN_FILE), stderr: lines };
  }
  return read.plan;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
