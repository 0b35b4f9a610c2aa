import * as path from 'path';
import type { PlanStep } from '../render/plan-steps';
import type { Plan } from '../render/writers/plan-json';

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
  /** What it does: a deploy, an apply, or a wait (a wait runs as long as `--timeout` lets it). */
  readonly kind: 'deploy' | 'apply' | 'wait';
}

/** Options of `applyCommands`. */
export interface ApplyCommandOptions {
  /**
   * How long each wait may take, as kubectl reads a duration.
   *
   * @default '5m'
   */
  readonly timeout?: string;
}

/** The kinds whose rollout a later step waits for, and the resource name kubectl takes for each. */
const ROLLOUTS: Readonly<Record<string, string>> = {
  'apps/Deployment': 'deployment',
  'apps/StatefulSet': 'statefulset',
  'apps/DaemonSet': 'daemonset',
};
const CRD = 'apiextensions.k8s.io/CustomResourceDefinition';
const EXTERNAL_SECRET = 'external-secrets.io/ExternalSecret';

/** The kinds whose objects the waits name on kubectl's command line. */
export const WAITED_KINDS: ReadonlySet<string> = new Set([CRD, EXTERNAL_SECRET, ...Object.keys(ROLLOUTS)]);

/**
 * Every command of the apply, in plan order. Pure: it reads the plan and runs
 * nothing. One `cdk deploy` per deploy step; per runtime step one `kubectl
 * apply` per file, then its waits, in this order: each CRD established, each
 * External Secrets `ExternalSecret` ready (its Secret exists, so no later step
 * and no rollout waits on a missing Secret), each Deployment, StatefulSet and
 * DaemonSet rolled out.
 *
 * @param outdir the synth's output folder, as the commands should name it
 */
export function applyCommands(plan: Plan, outdir: string, options: ApplyCommandOptions = {}): ApplyCommand[] {
  const timeout = options.timeout ?? '5m';
  const commands: ApplyCommand[] = [];
  plan.steps.forEach((s, i) => {
    const add = (kind: ApplyCommand['kind'], program: string, args: string[]) => commands.push({ step: i + 1, stepId: s.id, program, args, kind });
    if (s.lifecycle === 'deploy') {
      add('deploy', 'cdk', ['deploy', '--app', path.join(outdir, 'deploy'), '--exclusively', '--require-approval', 'never', s.id]);
      return;
    }
    const manager = fieldManager(s);
    for (const file of s.files) add('apply', 'kubectl', ['apply', '--server-side', `--field-manager=${manager}`, '-f', path.join(outdir, file)]);
    const objects = (s.objects ?? []).map(parseObject);
    for (const o of objects.filter((x) => x.type === CRD)) add('wait', 'kubectl', ['wait', '--for=condition=Established', `--timeout=${timeout}`, `crd/${o.name}`]);
    for (const o of objects.filter((x) => x.type === EXTERNAL_SECRET)) {
      add('wait', 'kubectl', ['wait', '--for=condition=Ready', `--timeout=${timeout}`, `externalsecrets.external-secrets.io/${o.name}`, '-n', o.namespace ?? 'default']);
    }
    for (const o of objects) {
      const rollout = ROLLOUTS[o.type];
      if (rollout) add('wait', 'kubectl', ['rollout', 'status', `${rollout}/${o.name}`, '-n', o.namespace ?? 'default', `--timeout=${timeout}`]);
    }
  });
  return commands;
}

/** The field manager of a runtime step: its capability, so each capability owns its fields on the cluster. */
function fieldManager(step: PlanStep): string {
  return step.capability ? step.capability.replace(/[^A-Za-z0-9._-]/g, '-') : 'cdk-capability';
}

/** `apps/Deployment edge/web` -> type `apps/Deployment`, namespace `edge`, name `web`; `Namespace edge` has no namespace. */
export function parseObject(label: string): { type: string; namespace?: string; name: string } {
  const [type, ref = ''] = label.split(' ');
  const slash = ref.indexOf('/');
  return slash < 0 ? { type, name: ref } : { type, namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}

/** A command as a shell would take it: arguments quoted where needed. */
export function shellLine(c: Pick<ApplyCommand, 'program' | 'args'>): string {
  return [c.program, ...c.args].map((a) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
}
