#!/usr/bin/env node
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { Yaml } from 'cdk8s';
import { apply, APPLY_USAGE } from './apply';
import { audit, AUDIT_USAGE } from './audit';
import { formatGithub } from './format-github';
import { formatPlan, formatPlanJson, hasChanges, PlanExit } from './format-plan';
import { formatSarif } from './format-sarif';
import { formatTeardown } from './format-teardown';
import { reportedFindings } from './report-findings';
import { readReport, REPORT_ENV, SynthReport } from '../render/report-file';
import type { Plan } from '../render/writers/plan-json';

const USAGE = `Usage: cdk-capability plan [--app "<command>"] [--plan <plan.json>] [--json] [--format text|json|sarif|github]
       cdk-capability plan --teardown [--app "<command>"] [--plan <plan.json>]

Runs the app (default: the "app" of ./cdk8s.yaml) into a temporary folder,
without touching your output or lock, and prints its plan: the steps of both
lifecycles in apply order and the changes against the lock, field by field.

  --app   the command that runs the app, as in cdk8s.yaml
  --plan  print an existing plan.json instead of running the app
  --teardown  print instead how to delete what the release removes against
          the lock: in deletion order, with the commands
  --format  text (default); json (findings and plan, for machines); sarif
          (SARIF 2.1.0, for code scanning); github (workflow annotations).
          Each finding carries its code, construct paths and, when known, the
          file and line that created the construct. Exit code 1 on refusal.
  --json  print the plan as JSON (docs/plan-output.schema.json)

Exit codes, as terraform plan -detailed-exitcode:
  0  accepted, no changes against the lock
  2  accepted, with changes (a first release always has some)
  1  refused (the coded violations are printed), or a usage or internal error`;

/** The report formats of `plan --format` (text is the readable plan). */
const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type Format = (typeof FORMATS)[number];

/** Runs the `cdk-capability` command line; returns the exit code. */
export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  // `cdk-capability apply` (issue 17): carries out a synth's plan in order.
  if (command === 'apply') return apply(rest, outdirFromConfig);
  // `cdk-capability audit` (issue 25): the cluster's managedFields against the lock.
  if (command === 'audit') return audit(rest);
  if (command !== 'plan') {
    process.stdout.write(`${USAGE}\n\n${APPLY_USAGE}\n\n${AUDIT_USAGE}\n`);
    return command === '--help' ? 0 : PlanExit.ERROR;
  }
  let values: { app?: string; plan?: string; help?: boolean; teardown?: boolean; format?: string; json?: boolean };
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        app: { type: 'string' },
        plan: { type: 'string' },
        help: { type: 'boolean' },
        teardown: { type: 'boolean' },
        format: { type: 'string' },
        json: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`cdk-capability plan: ${(e as Error).message}\n\n${USAGE}\n`);
    return PlanExit.ERROR;
  }
  const show = (plan: Plan): number => {
    if (values.teardown) {
      process.stdout.write(formatTeardown(plan));
      return PlanExit.NO_CHANGES;
    }
    process.stdout.write(values.json ? formatPlanJson(plan) : formatPlan(plan));
    return hasChanges(plan) ? PlanExit.CHANGES : PlanExit.NO_CHANGES;
  };
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // --format (issue 17): reports for pull requests.
  const format = (values.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) {
    process.stderr.write(`cdk-capability plan: unknown --format '${values.format}' (one of ${FORMATS.join(', ')})\n\n${USAGE}\n`);
    return 2;
  }
  if (values.plan !== undefined && format !== 'text') {
    process.stderr.write('cdk-capability plan: --format needs the app\'s findings, so it runs the app: drop --plan\n');
    return 2;
  }
  if (values.plan !== undefined) return print(values.plan, show);

  const app = values.app ?? appFromConfig();
  if (!app) {
    process.stderr.write('cdk-capability plan: no --app given and no "app" in ./cdk8s.yaml\n');
    return PlanExit.ERROR;
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-capability-plan-'));
  const report = path.join(scratch, 'report.json');
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_OUTDIR: path.join(scratch, 'dist'), CDK_CAPABILITY_UPDATE_LOCK: '', [REPORT_ENV]: report };
    // Set only by the cdk8s CLI: without it the app throws on a refusal as a program of its own does.
    delete env.CDK8S_RECORD_CONSTRUCT_METADATA;
    const run = spawnSync(app, { shell: true, encoding: 'utf-8', env });
    const result = readReport(report);
    if (format !== 'text' && result) return printReport(result, format);
    if (run.status !== 0 || !result?.plan) {
      process.stderr.write(run.stderr || run.stdout || '');
      process.stderr.write(`\ncdk-capability plan: the composition was refused (exit code ${run.status}); nothing to apply.\n`);
      return PlanExit.ERROR;
    }
    return show(result.plan);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Prints a synth's report in a machine format; 1 when the composition was refused. */
function printReport(report: SynthReport, format: Exclude<Format, 'text'>): number {
  const root = process.cwd();
  const findings = reportedFindings(report, root);
  if (format === 'json') {
    process.stdout.write(JSON.stringify({ formatVersion: 1, accepted: report.accepted, findings, plan: report.plan }, undefined, 2) + '\n');
  } else if (format === 'sarif') {
    process.stdout.write(formatSarif(findings, root));
  } else {
    process.stdout.write(formatGithub(findings));
    if (report.accepted && report.plan) process.stdout.write(formatPlan(report.plan));
  }
  if (report.accepted) return 0;
  const n = report.violations.length;
  process.stderr.write(`cdk-capability plan: the composition was refused with ${n} violation${n === 1 ? '' : 's'}; nothing to apply.\n`);
  return 1;
}

function outdirFromConfig(): string {
  const output = fs.existsSync('cdk8s.yaml') ? Yaml.load('cdk8s.yaml')[0]?.output : undefined;
  return typeof output === 'string' && output !== '' ? output : 'dist';
}

function appFromConfig(): string | undefined {
  if (!fs.existsSync('cdk8s.yaml')) return undefined;
  return Yaml.load('cdk8s.yaml')[0]?.app;
}

function print(file: string, show: (plan: Plan) => number): number {
  if (!fs.existsSync(file)) {
    process.stderr.write(`cdk-capability plan: no plan at '${file}'\n`);
    return PlanExit.ERROR;
  }
  let plan: Plan;
  try {
    plan = JSON.parse(fs.readFileSync(file, 'utf-8')) as Plan;
  } catch (e) {
    process.stderr.write(`cdk-capability plan: '${file}' is not JSON (${(e as Error).message})\n`);
    return PlanExit.ERROR;
  }
  return show(plan);
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
