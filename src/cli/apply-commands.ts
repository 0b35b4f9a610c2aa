import * as path from 'path';
import { OptionalApply, runtimeApplies } from './field-manager-applies';
import { clusterScopedCrdKinds } from '../cluster/apply-namespaces';
import { ADMISSION_GROUP, FIELD_OWNERSHIP_STEP } from '../release/locked-policies';
import { teardownTiming } from '../render/teardown';
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
  /**
   * What it does: a deploy, an apply, a wait (a wait runs as long as `--timeout` lets it), or the deletion of
   * the field-ownership policies and bindings the release no longer has.
   */
  readonly kind: 'deploy' | 'apply' | 'wait' | 'delete';
  /** What it reads on stdin (`-f -`): a writer's own objects, when anything. */
  readonly input?: string;
  /** `input` as `--dry-run` prints it, its secrets masked (`KubectlApply.shown`); absent when nothing in it is masked. */
  readonly shown?: string;
  /** Present when its failure only warns, saying why: a release of an object not there yet, a hand-over the controller owns already. */
  readonly optional?: OptionalApply;
}

/** Options of `applyCommands`. */
export interface ApplyCommandOptions {
  /**
   * How long each wait may take, as kubectl reads a duration.
   *
   * @default '5m'
   */
  readonly timeout?: string;
  /** The objects of a file of a runtime step (relative to the outdir), as `readRuntimeFiles` read them, for the writers' own objects. */
  readonly documents: (file: string) => readonly unknown[];
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
 * Every command of the apply, in plan order. It reads the plan (and the runtime
 * files, for the writers' own objects) and runs nothing. One `cdk deploy` per
 * deploy step; per runtime step the applies of `runtimeApplies` (one field
 * manager per writer, docs/cluster.md; a namespaced object that names no namespace
 * in `default`, as the waits name it), then its waits, in this order: each CRD established, each
 * External Secrets `ExternalSecret` ready (its Secret exists, so no later step
 * and no rollout waits on a missing Secret), each Deployment, StatefulSet and
 * DaemonSet rolled out.
 *
 * The field-ownership policies and bindings the release no longer has (the teardown's first step, `when:
 * 'after-field-ownership'`) are deleted right after the release's field-ownership step, as part of it: once
 * the policies that protect the objects now are in force, and before any object is written, which a removed
 * policy would judge by its old owners. A release without that step (`enforce` removed) deletes them at
 * the start of its first runtime step.
 *
 * @param outdir the synth's output folder, as the commands should name it
 */
export function applyCommands(plan: Plan, outdir: string, options: ApplyCommandOptions): ApplyCommand[] {
  const timeout = options.timeout ?? '5m';
  const documents = options.documents;
  const commands: ApplyCommand[] = [];
  // a CRD of an earlier step makes its custom resources cluster-scoped: they need no -n default
  const clusterScoped = clusterScopedCrdKinds(plan.steps.flatMap((s) => (s.lifecycle === 'runtime' ? s.files.flatMap((f) => documents(f)) : [])));
  const removed = removedPolicies(plan);
  const policyStep = plan.steps.findIndex((s) => s.id === FIELD_OWNERSHIP_STEP && s.lifecycle === 'runtime');
  // without a field-ownership step (enforce removed): before the first object is written
  const deleteBefore = policyStep === -1 ? plan.steps.findIndex((s) => s.lifecycle === 'runtime') : -1;
  plan.steps.forEach((s, i) => {
    const add = (kind: ApplyCommand['kind'], program: string, args: readonly string[], extra = {}) => commands.push({ step: i + 1, stepId: s.id, program, args, kind, ...extra });
    if (s.lifecycle === 'deploy') {
      add('deploy', 'cdk', ['deploy', '--app', path.join(outdir, 'deploy'), '--exclusively', '--require-approval', 'never', s.id]);
      return;
    }
    if (removed && i === deleteBefore) add('delete', 'kubectl', removed);
    // one field manager per writer (issue 25): src/cluster/apply-sequence.ts
    for (const { args, ...extra } of runtimeApplies(plan, s, outdir, documents, clusterScoped)) add('apply', 'kubectl', args, extra);
    if (removed && i === policyStep) add('delete', 'kubectl', removed);
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

/** The kinds of the field-ownership step's objects, as a teardown's units name them. */
const POLICY_TYPES: Readonly<Record<string, string>> = {
  [`${ADMISSION_GROUP}/ValidatingAdmissionPolicyBinding`]: `validatingadmissionpolicybinding.${ADMISSION_GROUP}`,
  [`${ADMISSION_GROUP}/ValidatingAdmissionPolicy`]: `validatingadmissionpolicy.${ADMISSION_GROUP}`,
};

/** A Kubernetes object name (a DNS-1123 subdomain): what a unit of the field-ownership step may name. */
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/**
 * kubectl's arguments that delete the field-ownership policies and bindings the release no longer has, the
 * bindings first, as the teardown's command does; undefined when it removes none (or its plan, written before
 * `after-field-ownership`, told to delete them before the release was applied).
 */
function removedPolicies(plan: Plan): string[] | undefined {
  const step = plan.teardown?.steps.find((s) => s.fieldOwnership && teardownTiming(s) === 'after-field-ownership');
  const resources = (step?.units ?? []).flatMap((label) => {
    const o = parseObject(label);
    const resource = POLICY_TYPES[o.type];
    return resource !== undefined && o.namespace === undefined && OBJECT_NAME.test(o.name) ? [`${resource}/${o.name}`] : [];
  });
  return resources.length > 0 ? ['delete', '--wait=true', '--ignore-not-found', ...resources] : undefined;
}

/** `apps/Deployment edge/web` -> type `apps/Deployment`, namespace `edge`, name `web`; `Namespace edge` has no namespace. */
export function parseObject(label: string): { type: string; namespace?: string; name: string } {
  const [type, ref = ''] = label.split(' ');
  const slash = ref.indexOf('/');
  return slash < 0 ? { type, name: ref } : { type, namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}

/**
 * A command as a shell would take it: arguments quoted where needed, and its stdin as a here-document
 * (`withInput`) or not shown.
 */
export function shellLine(c: Pick<ApplyCommand, 'program' | 'args' | 'input'>, withInput = true): string {
  const line = [c.program, ...c.args].map((a) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
  return c.input === undefined || !withInput ? line : `${line} <<'EOF'\n${c.input}EOF`;
}
