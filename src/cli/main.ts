#!/usr/bin/env node
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { Yaml } from 'cdk8s';
import { formatPlan, formatPlanJson, hasChanges, PlanExit } from './format-plan';
import { readReport, REPORT_ENV } from '../render/report-file';
import type { Plan } from '../render/writers/plan-json';

const USAGE = `Usage: cdk-capability plan [--app "<command>"] [--plan <plan.json>] [--json]

Runs the app (default: the "app" of ./cdk8s.yaml) into a temporary folder,
without touching your output or lock, and prints its plan: the steps of both
lifecycles in apply order and the changes against the lock, field by field.

  --app   the command that runs the app, as in cdk8s.yaml
  --plan  print an existing plan.json instead of running the app
  --json  print the plan as JSON (docs/plan-output.schema.json)

Exit codes, as terraform plan -detailed-exitcode:
  0  accepted, no changes against the lock
  2  accepted, with changes (a first release always has some)
  1  refused (the coded violations are printed), or a usage or internal error`;

/** Runs the `cdk-capability` command line; returns the exit code. */
export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command !== 'plan') {
    process.stdout.write(`${USAGE}\n`);
    return command === '--help' ? 0 : PlanExit.ERROR;
  }
  let values: { app?: string; plan?: string; help?: boolean; json?: boolean };
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        app: { type: 'string' },
        plan: { type: 'string' },
        help: { type: 'boolean' },
        // releases: machine-readable output
        json: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`cdk-capability plan: ${(e as Error).message}\n\n${USAGE}\n`);
    return PlanExit.ERROR;
  }
  const show = (plan: Plan): number => {
    process.stdout.write(values.json ? formatPlanJson(plan) : formatPlan(plan));
    return hasChanges(plan) ? PlanExit.CHANGES : PlanExit.NO_CHANGES;
  };
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
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
    const env = { ...process.env, CDK8S_OUTDIR: path.join(scratch, 'dist'), CDK_CAPABILITY_UPDATE_LOCK: '', [REPORT_ENV]: report };
    const run = spawnSync(app, { shell: true, encoding: 'utf-8', env });
    const result = readReport(report);
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
