import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { exitCode } from './exit-codes';
import type { PlanStep } from '../render/plan-steps';
import type { Plan } from '../render/writers/plan-json';

export const APPLY_USAGE = `Usage: cdk-capability apply [--outdir <dir>] [--dry-run] [--timeout <duration>]

Carries out the plan a synth wrote to <outdir>/plan.json (run cdk8s synth
first), step by step in plan order:
  deploy step:  cdk deploy --app <outdir>/deploy <stack> --exclusively --require-approval never
  runtime step: kubectl apply --server-side --field-manager=<capability> -f <file>
                then the waits that make the next step safe: each
                CustomResourceDefinition established, each Deployment,
                StatefulSet and DaemonSet rolled out.
Stops at the first command that fails, naming the step; exit code 1.
cdk and kubectl are taken from PATH, with your AWS and kubectl settings.

  --outdir   the synth's output folder (default: "output" of ./cdk8s.yaml, else dist)
  --dry-run  print the commands, one per line, and run nothing
  --timeout  how long each wait may take, as kubectl reads it (default 5m)`;

/** One command of the apply, and the step it belongs to. */
export interface ApplyCommand {
  /** The step's position in the plan, 1-based. */
  readonly step: number;
  /** The step's id. */
  readonly stepId: string;
  /** The executable, `cdk` or `kubectl`. */
  readonly program: string;
  /** Its arguments. */
  readonly args: readonly string[];
}

/** The kinds whose rollout a later step waits for, and the resource name kubectl takes for each. */
const ROLLOUTS: Readonly<Record<string, string>> = {
  'apps/Deployment': 'deployment',
  'apps/StatefulSet': 'statefulset',
  'apps/DaemonSet': 'daemonset',
};
const CRD = 'apiextensions.k8s.io/CustomResourceDefinition';

/**
 * Every command of the apply, in plan order: one `cdk deploy` per deploy step;
 * per runtime step one `kubectl apply` per file, then its waits.
 *
 * @param outdir the synth's output folder, as the commands should name it
 */
export function applyCommands(plan: Plan, outdir: string, timeout = '5m'): ApplyCommand[] {
  const commands: ApplyCommand[] = [];
  plan.steps.forEach((s, i) => {
    const add = (program: string, args: string[]) => commands.push({ step: i + 1, stepId: s.id, program, args });
    if (s.lifecycle === 'deploy') {
      add('cdk', ['deploy', '--app', path.join(outdir, 'deploy'), s.id, '--exclusively', '--require-approval', 'never']);
      return;
    }
    const manager = fieldManager(s);
    for (const file of s.files) add('kubectl', ['apply', '--server-side', `--field-manager=${manager}`, '-f', path.join(outdir, file)]);
    for (const o of (s.objects ?? []).map(parseObject)) {
      if (o.type === CRD) add('kubectl', ['wait', '--for=condition=Established', `--timeout=${timeout}`, `crd/${o.name}`]);
      const rollout = ROLLOUTS[o.type];
      if (rollout) add('kubectl', ['rollout', 'status', `${rollout}/${o.name}`, '-n', o.namespace ?? 'default', `--timeout=${timeout}`]);
    }
  });
  return commands;
}

/** The field manager of a runtime step: its capability, so each capability owns its fields on the cluster. */
function fieldManager(step: PlanStep): string {
  return step.capability ? step.capability.replace(/[^A-Za-z0-9._-]/g, '-') : 'cdk-capability';
}

/** `apps/Deployment edge/web` -> type `apps/Deployment`, namespace `edge`, name `web`; `Namespace edge` has no namespace. */
function parseObject(label: string): { type: string; namespace?: string; name: string } {
  const [type, ref = ''] = label.split(' ');
  const slash = ref.indexOf('/');
  return slash < 0 ? { type, name: ref } : { type, namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}

/** A command as a shell would take it: arguments quoted where needed. */
export function shellLine(c: ApplyCommand): string {
  return [c.program, ...c.args].map((a) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** Runs `cdk-capability apply`; returns the exit code. */
export function apply(argv: string[], defaultOutdir: () => string): number {
  let values: { 'outdir'?: string; 'dry-run'?: boolean; 'timeout'?: string; 'help'?: boolean };
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { 'outdir': { type: 'string' }, 'dry-run': { type: 'boolean' }, 'timeout': { type: 'string' }, 'help': { type: 'boolean' } },
    }).values;
  } catch (e) {
    process.stderr.write(`cdk-capability apply: ${(e as Error).message}\n\n${APPLY_USAGE}\n`);
    return exitCode({ kind: 'failed' });
  }
  if (values.help) {
    process.stdout.write(`${APPLY_USAGE}\n`);
    return 0;
  }
  const outdir = values.outdir ?? defaultOutdir();
  const planFile = path.join(outdir, 'plan.json');
  if (!fs.existsSync(planFile)) {
    process.stderr.write(`cdk-capability apply: no plan at '${planFile}': run cdk8s synth first (a refused synth writes none)\n`);
    return 1;
  }
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf-8')) as Plan;
  const commands = applyCommands(plan, outdir, values.timeout ?? '5m');
  if (values['dry-run']) {
    process.stdout.write(commands.map((c) => `${shellLine(c)}\n`).join(''));
    return 0;
  }
  for (const c of commands) {
    process.stdout.write(`cdk-capability apply: step ${c.step}/${plan.steps.length} ${c.stepId}: ${shellLine(c)}\n`);
    const run = spawnSync(c.program, c.args, { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    if (run.error || run.status !== 0) {
      const why = run.error ? `could not run: ${run.error.message}` : run.signal ? `was killed by ${run.signal}` : `exited with code ${run.status}`;
      process.stderr.write(
        `cdk-capability apply: step ${c.step} (${c.stepId}) failed: '${shellLine(c)}' ${why}. ` +
          `${c.step === 1 ? 'No step before it' : `Steps 1 to ${c.step - 1}`} applied; nothing after this command was run. Fix the cause and run apply again (every step is idempotent).\n`,
      );
      return 1;
    }
  }
  process.stdout.write(`cdk-capability apply: ${plan.steps.length} steps applied.\n`);
  return 0;
}
