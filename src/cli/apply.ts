import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { ApplyCommand, applyCommands, shellLine } from './apply-commands';
import { argsProblem, helpHint } from './args-problem';
import { appsBelow, readCdk8sConfig } from './cdk8s-config';
import { exitCode } from './exit-codes';
import { handBackComments } from './hand-back-advice';
import { planFileRefusal, readPlanFile } from './plan-file';
import { planObjectProblems, writerLeafProblems } from './plan-objects';
import { readRuntimeFiles } from './runtime-files';
import { atMost } from '../private/at-most';

export const APPLY_USAGE = `Usage: cdk-capability apply [--outdir <dir>] [--dry-run] [--from-step <n>] [--timeout <duration>] [--deploy-timeout <duration>]

Carries out the plan a synth wrote to <outdir>/plan.json (run cdk8s synth
first), step by step in plan order:
  deploy step:  cdk deploy --app <outdir>/deploy --exclusively --require-approval never <stack>
  runtime step: kubectl apply --server-side, one field manager per writer of
                the composition (docs/cluster.md): the step's files whole as
                cdk-capability, then each writer's own fields as its manager
                (on stdin), then the releases of writers gone;
                then the waits that make the next step safe: each
                CustomResourceDefinition established, each ExternalSecret
                ready, each Deployment, StatefulSet and DaemonSet rolled out.
  field-ownership step (enforce): as a runtime step, then kubectl delete
                of the policies and bindings the release no longer has (step
                1 of plan --teardown), before any object is written.
Stops at the first command that fails or runs out of time, naming the step and
how to resume; exit code 1. A plan.json that is not one synth wrote is refused
(CAP016, one line per problem) before anything runs.
cdk and kubectl are taken from PATH, with your AWS and kubectl settings.

  --outdir          the synth's output folder (default: "output" of ./cdk8s.yaml, else dist)
  --dry-run         print the commands, one per line, and run nothing; a field
                    handed back from a runtime writer is said first, in
                    comments, with what to do about its controller. Values
                    of Secrets' data and stringData, and values shaped like
                    a secret, are printed masked, (sensitive), as the lock
                    masks them; the real bytes are in <outdir>'s runtime files
  --from-step       resume at step <n> (1-based), skipping the steps before it
  --timeout         how long each kubectl command may take, as kubectl reads a
                    duration (default 5m); the waits get it as their --timeout
  --deploy-timeout  how long each cdk deploy may take (default 60m)`;

/** The first line of a dry-run that masked a value: what is masked, and where the bytes apply sends are. */
export function maskedHeader(outdir: string): string {
  return `# values of Secrets' data and stringData and values shaped like a secret are shown masked, (sensitive), as the lock and the plan show them; apply sends the real bytes, from the runtime files in ${outdir}`;
}

/** How much longer than its own `--timeout` a wait may run before apply stops it: kubectl's own message comes first. */
const WAIT_GRACE_MS = 30_000;

/**
 * What to say when `apply` looked in the default `dist` of a folder with no `cdk8s.yaml` (a monorepo's root):
 * the apps below it, and the `--outdir` of the first; nothing where there is a `cdk8s.yaml`.
 */
function noConfigHint(): string {
  if (fs.existsSync('cdk8s.yaml')) return '';
  const apps = appsBelow();
  if (apps.length === 0) return 'there is no ./cdk8s.yaml in this folder: run apply in the folder of the app\'s cdk8s.yaml, or give its output folder (--outdir); or ';
  const config = readCdk8sConfig(path.join(apps[0], 'cdk8s.yaml'));
  const output = 'problem' in config ? 'dist' : config.output ?? 'dist';
  const shown = apps.length > 3 ? `${apps.slice(0, 3).join(', ')} and ${apps.length - 3} more` : apps.join(', ');
  return `there is no ./cdk8s.yaml in this folder, and the apps below it are ${shown}: run apply in an app's folder, or give its output folder (--outdir ${path.posix.join(apps[0], output)}); or `;
}

/** Options of `apply`, as parsed from its arguments. */
interface ApplyOptions {
  readonly outdir: string;
  /** Whether `--outdir` gave it (else it is ./cdk8s.yaml's, or `dist`). */
  readonly outdirGiven: boolean;
  readonly dryRun: boolean;
  readonly fromStep: number;
  readonly timeout: string;
  readonly timeoutMs: number;
  readonly deployTimeoutMs: number;
}

/**
 * Runs `cdk-capability apply`; returns the exit code.
 *
 * @param defaultOutdir the output folder without `--outdir` (the `output` of ./cdk8s.yaml, else `dist`), or
 *   what is wrong with ./cdk8s.yaml, said as a usage error when `--outdir` is not given
 */
export function apply(argv: string[], defaultOutdir: () => string | { readonly problem: string }): number {
  const parsed = parseApplyArgs(argv, defaultOutdir);
  if (typeof parsed === 'number') return parsed;
  const planFile = path.join(parsed.outdir, 'plan.json');
  if (!fs.existsSync(planFile)) {
    process.stderr.write(`cdk-capability apply: no plan at '${planFile}': ${parsed.outdirGiven ? '' : noConfigHint()}run cdk8s synth first (a refused synth writes none)\n`);
    return 1;
  }
  const read = readPlanFile(planFile);
  if ('problems' in read) {
    const fix = 'Run cdk8s synth again to rewrite it; apply carries out only a plan synth wrote. Nothing was run.';
    process.stderr.write(planFileRefusal(planFile, 'is not a plan cdk-capability wrote', read.problems, fix));
    return 1;
  }
  const { plan } = read;
  if (plan.steps.length === 0 && parsed.fromStep === 1) {
    // an empty composition: a plan with no step is one synth wrote, and applying it does nothing
    process.stdout.write(`cdk-capability apply: the plan at '${planFile}' has no steps (the composition declares no stack and no Kubernetes object): nothing to apply.\n`);
    return 0;
  }
  if (parsed.fromStep > plan.steps.length) {
    process.stderr.write(`cdk-capability apply: --from-step ${parsed.fromStep} is past the last step: the plan has ${plan.steps.length}\n`);
    return 1;
  }
  const files = readRuntimeFiles(plan, parsed.outdir, parsed.fromStep);
  if ('problems' in files) {
    const fix = 'Run cdk8s synth again to rewrite the plan and its files; apply carries out only what synth wrote. Nothing was run.';
    process.stderr.write(planFileRefusal(planFile, 'names a runtime file that is not as synth wrote it', files.problems, fix));
    return 1;
  }
  const documents = (file: string) => files.documents.get(file) ?? [];
  const listed = planObjectProblems(plan, parsed.outdir, documents, parsed.fromStep);
  // each writer's leaves are cut out of its object as the file holds it: a field edited out would stop the release halfway
  const mismatches = listed.length > 0 ? listed : atMost(writerLeafProblems(plan, parsed.outdir, documents, parsed.fromStep), 20);
  if (mismatches.length > 0) {
    // a plan.json of another outdir, or edited: the writers of the objects the files hold would not be applied
    const fix = 'Run cdk8s synth again to rewrite the plan and its files; apply carries out only what synth wrote. Nothing was run.';
    process.stderr.write(planFileRefusal(planFile, 'and its runtime files do not agree', mismatches, fix));
    return 1;
  }
  const commands = applyCommands(plan, parsed.outdir, { timeout: parsed.timeout, documents }).filter((c) => c.step >= parsed.fromStep);
  if (parsed.dryRun) {
    // what the operator must do before the release is applied comes first, as comments of the script
    // a dry-run lands in CI logs: a secret in a here-document is printed masked, as the lock and the plan mask it
    const masked = commands.some((c) => c.shown !== undefined) ? [maskedHeader(parsed.outdir)] : [];
    const lines = commands.map((c) => shellLine(c.shown === undefined ? c : { ...c, input: c.shown }));
    process.stdout.write([...masked, ...handBackComments(plan), ...lines].map((line) => `${line}\n`).join(''));
    return 0;
  }
  // the same advice before a real run: the operator reads it in the release's log, before the fields move
  for (const line of handBackComments(plan)) process.stdout.write(`cdk-capability apply: ${line}\n`);
  for (const c of commands) {
    process.stdout.write(`cdk-capability apply: step ${c.step}/${plan.steps.length} ${c.stepId}: ${shellLine(c, false)}\n`);
    const limit = c.kind === 'deploy' ? parsed.deployTimeoutMs : c.kind === 'wait' ? parsed.timeoutMs + WAIT_GRACE_MS : parsed.timeoutMs;
    const stdin = c.input === undefined ? 'ignore' : 'pipe';
    const run = spawnSync(c.program, c.args, { stdio: [stdin, 'inherit', 'inherit'], input: c.input, env: process.env, timeout: limit, killSignal: 'SIGKILL' });
    if (run.error || run.status !== 0) {
      if (c.optional && !run.error) {
        const why = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.status}`;
        process.stderr.write(`cdk-capability apply: step ${c.step} (${c.stepId}): ${c.optional.what} ${why}; going on (${c.optional.because}).\n`);
        continue;
      }
      process.stderr.write(failure(c, run, limit, parsed));
      return 1;
    }
  }
  const skipped = parsed.fromStep > 1 ? ` (from step ${parsed.fromStep}; steps 1 to ${parsed.fromStep - 1} skipped)` : '';
  process.stdout.write(`cdk-capability apply: ${plan.steps.length} steps applied${skipped}.\n`);
  return 0;
}

/** The options of `cdk-capability apply`, as `parseArgs` takes them. */
const APPLY_OPTIONS = {
  'outdir': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'from-step': { type: 'string' },
  'timeout': { type: 'string' },
  'deploy-timeout': { type: 'string' },
  'help': { type: 'boolean', short: 'h' },
} as const;

/** The options, or the exit code of a usage error (its message written). */
function parseApplyArgs(argv: string[], defaultOutdir: () => string | { readonly problem: string }): ApplyOptions | number {
  let values: { 'outdir'?: string; 'dry-run'?: boolean; 'from-step'?: string; 'timeout'?: string; 'deploy-timeout'?: string; 'help'?: boolean };
  const usage = (message: string) => {
    process.stderr.write(`cdk-capability apply: ${message}\n${helpHint('apply')}\n`);
    return exitCode({ kind: 'failed' });
  };
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: APPLY_OPTIONS,
    }).values;
  } catch (e) {
    const problem = argsProblem(e as Error, Object.keys(APPLY_OPTIONS));
    // a CI step that asks apply for a document: it has none, and says where the documents are
    const document = /^Unknown option '(--format|--format=.*|--json)'$/.test(problem)
      ? `${problem}: apply prints what it runs as text, and has no --format or --json; cdk-capability plan --format json|sarif|github gives the plan's document, before apply`
      : undefined;
    return usage(document ?? problem);
  }
  if (values.help) {
    process.stdout.write(`${APPLY_USAGE}\n`);
    return 0;
  }
  const timeout = values.timeout ?? '5m';
  const timeoutMs = durationMs(timeout);
  if (timeoutMs === undefined) return usage(`--timeout '${timeout}' is not a duration such as 90s, 5m or 1h30m`);
  const deployTimeout = values['deploy-timeout'] ?? '60m';
  const deployTimeoutMs = durationMs(deployTimeout);
  if (deployTimeoutMs === undefined) return usage(`--deploy-timeout '${deployTimeout}' is not a duration such as 90s, 5m or 1h30m`);
  const fromStep = values['from-step'] === undefined ? 1 : Number(values['from-step']);
  if (!Number.isInteger(fromStep) || fromStep < 1) return usage(`--from-step '${values['from-step']}' is not a step number (1 is the first step)`);
  const outdir = values.outdir ?? defaultOutdir();
  if (typeof outdir !== 'string') {
    process.stderr.write(`cdk-capability apply: ${outdir.problem}; or give --outdir\n`);
    return exitCode({ kind: 'failed' });
  }
  return { outdir, outdirGiven: values.outdir !== undefined, dryRun: values['dry-run'] ?? false, fromStep, timeout, timeoutMs, deployTimeoutMs };
}

/**
 * A duration as kubectl reads one (Go's `time.ParseDuration`), in
 * milliseconds: hours, minutes and seconds, `90s`, `5m`, `1h30m`.
 *
 * @returns undefined when it is none, or zero
 */
export function durationMs(text: string): number | undefined {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m || text === '') return undefined;
  const ms = ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
  return ms > 0 ? ms : undefined;
}

/** The one line that says which command failed, why, what was applied, and how to resume. */
function failure(c: ApplyCommand, run: ReturnType<typeof spawnSync>, limit: number, options: ApplyOptions): string {
  const timedOut = (run.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  const why = timedOut
    ? `did not finish within ${minutesOrSeconds(limit)} and was stopped${c.kind === 'deploy' ? ' (CloudFormation may still be updating the stack: check it before you resume)' : ''}`
    : run.error
      ? `could not run: ${run.error.message}`
      : run.signal
        ? `was killed by ${run.signal}`
        : `exited with code ${run.status}`;
  const applied = c.step === options.fromStep ? `No step before it${options.fromStep > 1 ? ` (from step ${options.fromStep})` : ''}` : `Steps ${options.fromStep} to ${c.step - 1}`;
  const resume = ['cdk-capability', 'apply', '--outdir', options.outdir, '--from-step', String(c.step)];
  return (
    `cdk-capability apply: step ${c.step} (${c.stepId}) failed: '${shellLine(c, false)}' ${why}. ` +
    `${applied} applied; nothing after this command was run. Fix the cause and resume with: ${shellLine({ program: resume[0], args: resume.slice(1) })} ` +
    '(every step is idempotent).\n'
  );
}

function minutesOrSeconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`;
}
