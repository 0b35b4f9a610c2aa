import type { AuditFindingKind, WriterLeaves } from './audit';
import { APPLIER_FIELD_MANAGER, GITOPS_APPLIERS } from './field-manager';
import type { ManagedFieldsEntry } from './live-objects';
import { engineOf, previousApplier, previousApplierAdvice, previousApplierNotYet } from './previous-applier';
import { FieldPath, formatPath } from '../collect/ledger/field-path';

/**
 * What the cluster shows of the release's field-ownership policies (`enforce`), which should have refused an
 * update that changed or dropped a field of another writer: the advice differs with each.
 */
export type PolicyState =
  /** The lock records none: the release has no `enforce`. */
  | { readonly state: 'none' }
  /** Some of the lock's are not in the cluster (each also a `missing-object`). */
  | { readonly state: 'missing'; readonly objects: readonly string[] }
  /** Bindings of the lock in the cluster that do not deny: their `validationActions` lack `Deny`. */
  | { readonly state: 'not-deny'; readonly bindings: ReadonlyArray<{ readonly label: string; readonly actions: unknown }> }
  /** Every one in the cluster, each binding with `Deny`. */
  | { readonly state: 'deny' }
  /** Every one in the cluster, but the input does not show what a binding does (no `spec.validationActions`). */
  | { readonly state: 'present' };

/** What a finding's message is made of. */
export interface FindingFacts {
  /** The object, as messages name it. */
  readonly object: string;
  readonly kind: AuditFindingKind;
  /** The fields, sorted. */
  readonly fields: readonly FieldPath[];
  /** The manager the cluster names. */
  readonly manager?: ManagedFieldsEntry;
  /** The writer the lock gives the fields to, and its manager. */
  readonly writer?: WriterLeaves;
  readonly writerManager?: string;
  /** The runtime writer whose field manager `manager` is, when it is one's. */
  readonly managerWriter?: WriterLeaves;
  /**
   * The runtime writer whose declared manager owns nothing on the object while `manager`, which no writer
   * declares, holds every field of it: most likely the name its controller writes under.
   */
  readonly misnamedWriter?: WriterLeaves;
  /** The runtime writer the fields were handed back from, when `manager` is its field manager (`LockedUnit.handedBack`). */
  readonly handedBackFrom?: string;
  /** The one manager that applied the release (`--applied-by`), when given. */
  readonly appliedBy?: string;
  /** The release's admission policies, as the cluster shows them. */
  readonly policies: PolicyState;
  /** The object as kubectl's arguments name it (`Deployment.apps/web -n shop`), for a command the message gives. */
  readonly target?: string;
}

/**
 * Why an update that changed a field of the release's writer is there although the release's policies deny: a
 * person's `kubectl edit` is refused unless it ran as the deployer (impersonating it, or with its credentials).
 */
const DENIED_YET_THERE = "The release's admission policy is in the cluster with Deny, and refuses such an update by any identity but the field's owner: " +
  "the update came before the policy, or that client ran as the owner's identity (the deployer's, for a field of the release: its credentials, or kubectl --as).";

/** The manager under which kubectl records an `apply` without `--server-side` (as an `Update`). */
export const CLIENT_SIDE_APPLY_MANAGER = 'kubectl-client-side-apply';
/**
 * The manager the API server gives the fields an object held before its first server-side apply: it was
 * created or changed with a client-side apply, `kubectl create` or another update, then adopted.
 */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';
/** The annotation a client-side `kubectl apply` keeps its last applied configuration in. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * What a write by a client-side manager was, and how to undo what it left, for the two managers that are
 * no controller: a `kubectl apply` without `--server-side`, and the fields held before the object's first
 * server-side apply. Undefined for any other manager.
 */
function clientSideWrite(
  manager: string | undefined,
  target: string | undefined,
  appliedBy: string | undefined,
): { cause: string; retake: string; leftOver: string } | undefined {
  // a release a GitOps engine applied (--applied-by) is taken back by that engine, whose apply forces, not by cdk-capability apply
  const engine = appliedBy === undefined
    ? undefined
    : `Let ${appliedBy} apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it): its server-side apply forces, and takes them back`;
  const annotate = `kubectl annotate ${target ?? '<the object>'} ${LAST_APPLIED}-`;
  // `%` stands for the fields (`it`, `them`), filled in by the message
  const leftOver = 'No writer of the release writes %: if nothing needs %, remove %';
  if (manager === CLIENT_SIDE_APPLY_MANAGER) {
    return {
      cause: 'a kubectl apply without --server-side (kubectl records a client-side apply as an Update under that manager)',
      retake: engine ? `${engine}; do not apply the release with a plain kubectl apply -f` : 'Apply the release with cdk-capability apply, which applies each writer\'s fields server-side under its own manager and takes them back, not with a plain kubectl apply -f',
      leftOver: `${leftOver} (the annotation ${LAST_APPLIED} that a client-side apply leaves: ${annotate}), or pass --ignore-manager ${manager}.`,
    };
  }
  if (manager === BEFORE_FIRST_APPLY_MANAGER) {
    return {
      cause: 'the placeholder for what the object held before its first server-side apply (it was created or changed with a client-side kubectl apply, kubectl create or another update, then adopted)',
      retake: engine ?? 'Run cdk-capability apply: it applies each object whole with --force-conflicts, which takes such fields from the placeholder, then under each writer\'s own manager',
      leftOver: `${leftOver} (for the annotation ${LAST_APPLIED}: ${annotate}), or pass --ignore-manager ${manager}.`,
    };
  }
  return undefined;
}

/**
 * What a finding means and what to do, in a sentence or two, naming the object, the fields, the manager and
 * the writer displaced. The advice is one that works when followed: a runtime writer's field is restored by
 * its controller, never by applying the release; a runtime writer's manager owning a field outside its
 * fields is its controller writing it; a field a GitOps engine's manager holds may be the release itself.
 */
export function auditMessage(f: FindingFacts): string {
  const one = f.fields.length === 1;
  const what = fieldList(f.fields);
  const its = one ? 'it' : 'them';
  const is = one ? 'is' : 'are';
  const was = one ? 'was' : 'were';
  const whose = f.writer ? ` of '${f.writer.writer}'${f.writerManager ? ` (field manager ${f.writerManager})` : ''}` : '';
  const by = f.manager ? `'${f.manager.manager}' (${f.manager.operation}${f.manager.time ? ` at ${f.manager.time}` : ''})` : '';
  const rw = f.managerWriter;
  const rwBy = rw ? `${by}, the field manager of the runtime writer '${rw.writer}',` : by;
  const outside = rw ? `outside its fields (${fieldList(rw.leaves.map((l) => l.path))})` : '';
  const gitops = f.manager && f.appliedBy === undefined && GITOPS_APPLIERS.includes(f.manager.manager)
    ? ` If ${f.manager.manager} applied the release (a GitOps engine applies every writer's fields under its one manager), audit with --applied-by ${f.manager.manager}.`
    : '';
  /** The advice for a field of a writer that its controller no longer owns: apply never writes it. */
  const controllerTakesBack = (how: string) =>
    `Stop that client ${how} ${its}, and let the runtime writer's controller write ${its} again: the release never writes a runtime writer's field, so applying it restores nothing (a controller that applies server-side takes ${its} back only with force). ` +
    `If that client is the one that writes ${its}, declare it as the RuntimeWriter of ${its} in place of '${f.writer!.writer}'.`;
  /** How a message tells to apply the release again: by the GitOps engine that applied it (`--applied-by`), or plainly. */
  const again = f.appliedBy === undefined
    ? 'apply the release again'
    : `let ${f.appliedBy} apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it)`;
  /** The advice for a runtime writer's controller writing a field of another writer. */
  const outsideFix = (writer: WriterLeaves) =>
    `If its controller owns ${its}, add ${its} to that RuntimeWriter's fields and take ${its} out of '${writer.writer}' (synth refuses two writers of one field); ` +
    `else make the controller write only its own fields (server-side apply, or a patch) and ${again} to restore ${its}. ${policySentence(f.policies, f.appliedBy)}`;

  const client = clientSideWrite(f.manager?.manager, f.target, f.appliedBy);
  /** The previous applier whose manager `manager` is, when the release switched from it to `--applied-by`'s. */
  const previous = f.manager ? previousApplier(f.manager.manager, f.appliedBy) : undefined;
  const from = f.handedBackFrom;
  /** How a finding names a manager that owns fields handed back from its runtime writer. */
  const fromBy = `${by}, the field manager of the runtime writer '${from}' that ${what} ${was} handed back from,`;
  /** What to do when that manager's controller took such a field again: stop it, and restore the field. */
  const stopAndRestore = `Stop the controller writing ${its} (the release writes ${its} now), and ${again} to restore ${its}.`;

  switch (f.kind) {
    case 'stripped':
      return rw
        ? `${f.object}: ${what}${whose} ${is} gone and owned by nobody: a full-object update that did not carry ${its} dropped ${its}; the latest update is by ${rwBy} which may change only its own fields. Make that controller send only its own fields (server-side apply, or a patch), and ${again} to restore ${its}. ${policySentence(f.policies, f.appliedBy)}`
        : `${f.object}: ${what}${whose} ${is} gone and owned by nobody: a full-object update that did not carry ${its} dropped ${its}${f.manager ? `; the latest update is by ${by}` : ''}. Make that client use server-side apply with its own fields only, or declare it as a RuntimeWriter so the admission policy stops it; ${again} to restore ${its}.`;
    case 'overwritten-by-update':
      if (from !== undefined) return `${f.object}: ${what}${whose} ${is} now owned by ${fromBy} whose update changed ${its}: its controller still writes ${its}. ${stopAndRestore} ${policySentence(f.policies, f.appliedBy)}`;
      if (rw && f.writer) return `${f.object}: ${what}${whose} ${is} now owned by ${rwBy} whose update changed ${its}, ${outside}. ${outsideFix(f.writer)}`;
      if (f.writer?.runtime && f.manager?.subresource === 'scale') return scaleMessage(f.object, `${what}${whose}`, by, f.manager.manager, f.writer.writer);
      if (f.misnamedWriter) return misnamedMessage(f, `${what}${whose} ${is} now owned by ${by}, whose update changed ${its}`);
      if (f.writer?.runtime) {
        return `${f.object}: ${what}${whose} ${is} now owned by ${by}, whose update changed ${its} (a kubectl edit, or a controller's full-object Update()): the runtime writer's controller no longer owns ${its}. ${controllerTakesBack('writing')}${gitops}`;
      }
      if (client) return `${f.object}: ${what}${whose} ${is} owned by ${by}, ${client.cause}, not by the writer. ${client.retake}.${gitops}`;
      return `${f.object}: ${what}${whose} ${is} now owned by ${by}, whose update changed ${its} (a kubectl edit, or a controller's full-object Update()): the writer no longer owns ${its}. ` +
        `Declare that client as a RuntimeWriter of ${its}, or stop it, and ${again}.` +
        `${f.policies.state === 'deny' ? ` ${DENIED_YET_THERE}` : ''}${gitops}`;
    case 'taken-over':
      if (from !== undefined) return `${f.object}: ${what}${whose} ${is} owned by ${fromBy} alone, whose apply took ${its} over (--force-conflicts): its controller still writes ${its}. ${stopAndRestore}`;
      if (rw && f.writer) return `${f.object}: ${what}${whose} ${is} owned by ${by} alone, the field manager of the runtime writer '${rw.writer}', whose apply took ${its} over (--force-conflicts), ${outside}. ${outsideFix(f.writer)}`;
      if (f.misnamedWriter) return misnamedMessage(f, `${what}${whose} ${is} owned by ${by} alone`);
      if (f.writer?.runtime) {
        return `${f.object}: ${what}${whose} ${is} owned by ${by} alone: an apply took ${its} over from the runtime writer's controller (--force-conflicts). ${controllerTakesBack('applying')}${gitops}`;
      }
      if (previous !== undefined) return `${f.object}: ${what}${whose} ${is} owned by ${by} alone: ${previousApplierNotYet(f.manager!.manager, previous, f.appliedBy!, its)}`;
      if (gitops) {
        // audited for cdk-capability apply (no --applied-by, no engine in the lock): the engine applied the release, or the one before a switch
        const m = f.manager!.manager;
        return `${f.object}: ${what}${whose} ${is} owned by ${by} alone. If ${m} applied the release (a GitOps engine applies every writer's fields under its one manager), `
          + `audit with --applied-by ${m}; else ${previousApplierNotYet(m, `the previous engine's (${engineOf(m)}'s ${m})`, 'cdk-capability apply', its)}`;
      }
      return `${f.object}: ${what}${whose} ${is} owned by ${by} alone: an apply took ${its} over (--force-conflicts). Declare that manager's writer in the composition, or stop it, and apply the release again.`;
    case 'unowned':
      return `${f.object}: ${what}${whose} ${is} in the object but owned by ${f.manager ? `'${f.manager.manager}' only` : 'nobody'}, not by the writer's manager: its apply did not run (an apply stopped inside a step). ${applyAgain(f.appliedBy, 'Run cdk-capability apply again.')}`;
    case 'stale-owner':
      if (from !== undefined) return `${f.object}: ${by} still owns ${what}, which ${was} handed back from the runtime writer '${from}' to '${f.writer!.writer}'${f.writerManager ? ` (field manager ${f.writerManager})` : ''}: ${handBackFix(f.manager!, its)}`;
      if (rw) {
        const given = f.writer ? `, which the lock gives to '${f.writer.writer}'` : '';
        const move = f.writer ? `; or, if its controller owns ${its}, add ${its} to that RuntimeWriter's fields and take ${its} out of '${f.writer.writer}' (synth refuses two writers of one field)` : '';
        const add = f.writer ? '' : `If its controller writes ${its} as its own (an annotation or label it keeps on the object), add ${its} to that RuntimeWriter's fields; else make`;
        return `${f.object}: ${rwBy} also owns ${what}, ${outside}${given}: its controller writes ${its}, and applying the release changes nothing while it does. ` +
          `${add || 'Make'} the controller send only its own fields (${release(f.manager!, its, f.writer !== undefined)})${move}.`;
      }
      if (f.writer?.runtime && f.writerManager) {
        const reapply = f.appliedBy === undefined ? 'run cdk-capability apply again, whose applies release' : `let ${f.appliedBy} apply the release again, which releases`;
        return `${f.object}: ${by} still owns ${what}, which the lock gives to the runtime writer '${f.writer.writer}' (field manager ${f.writerManager}): a hand-over to its controller whose apply did not run. ` +
          `Hand ${its} over first: apply the object's identity with ${its} at ${one ? 'its' : 'their'} live value under the controller's manager (kubectl apply --server-side --field-manager=${f.writerManager}); ` +
          `then ${reapply} ${its} (without the hand-over the release would remove ${its} until the controller writes ${its} again).`;
      }
      return f.manager?.manager === APPLIER_FIELD_MANAGER || !f.writer
        ? `${f.object}: ${by} owns ${what}, which no writer of the lock has: a release whose apply has not run, or stopped inside its step. ${applyAgain(f.appliedBy, 'Run cdk-capability apply again (every step is idempotent).')}`
        : `${f.object}: ${by} still owns ${what}, which the lock gives to '${f.writer.writer}': a handover or removal whose release did not run. ${applyAgain(f.appliedBy, 'Apply the release again with cdk-capability apply.')}`;
    case 'undeclared-manager':
      if (f.misnamedWriter) {
        const w = f.misnamedWriter;
        return `${f.object}: ${by} owns ${what}, and no writer of the composition declares that manager; it also holds every field of the runtime writer '${w.writer}', ` +
          `whose declared manager '${w.manager}' owns nothing on the object: the RuntimeWriter's manager is likely not the name its controller writes under. ` +
          `Declare manager: '${f.manager!.manager}' on '${constructPath(w.writer)}', and add ${its} to its fields if its controller writes ${its}; else stop that client writing ${its}.`;
      }
      if (client) return `${f.object}: ${by} owns ${what}, ${client.cause}. ${client.leftOver.replace(/%/g, one ? 'it' : 'them')}${gitops}`;
      if (previous !== undefined) return `${f.object}: ${by} owns ${what}, and no writer of the composition declares that manager: ${previousApplierAdvice(f.manager!.manager, previous, f.appliedBy!, its)}`;
      if (gitops) {
        // audited without --applied-by: the engine applied the release, or applied the one before a switch to cdk-capability apply
        const m = f.manager!.manager;
        return `${f.object}: ${by} owns ${what}, and no writer of the composition declares that manager. If ${m} applied the release (a GitOps engine applies every writer's fields under its one manager), `
          + `audit with --applied-by ${m}; else ${previousApplierAdvice(m, `the previous engine's (${engineOf(m)}'s ${m})`, 'cdk-capability apply', its)}`;
      }
      return `${f.object}: ${by} owns ${what}, and no writer of the composition declares that manager: drift, or a controller the composition does not declare. Declare it as a RuntimeWriter with its fields and manager, pass --ignore-manager for a controller you accept, or remove its writes.${gitops}`;
    default:
      return `${f.object}: ${f.kind}`;
  }
}

/**
 * How a finding tells to apply the release again: `plain` (with `cdk-capability apply`), or, when a GitOps
 * engine applied it (`--applied-by`), by that engine: `cdk-capability apply` would apply each writer's fields
 * under its own manager beside the engine's, which audit with `--applied-by` then reports.
 */
export function applyAgain(appliedBy: string | undefined, plain: string): string {
  return appliedBy === undefined
    ? plain
    : `Let ${appliedBy} apply the release again (reconcile the Flux Kustomization, or sync the Argo CD Application, that applies it), not cdk-capability apply.`;
}

/**
 * A runtime writer's field that a manager no writer declares changed through the scale subresource: a
 * HorizontalPodAutoscaler (its controller runs in kube-controller-manager and writes under that manager), or
 * `kubectl scale`. The autoscaler's RuntimeWriter declared without that manager is the usual cause.
 */
function scaleMessage(object: string, fields: string, by: string, manager: string, writer: string): string {
  const hpa = manager === 'kube-controller-manager'
    ? 'the HorizontalPodAutoscaler controller, which runs in kube-controller-manager and writes the replicas through the scale subresource under that field manager'
    : 'a write through the scale subresource (an autoscaler, or kubectl scale)';
  return `${object}: ${fields} is now owned by ${by}, ${hpa}; the RuntimeWriter does not declare that manager. ` +
    `If it is the autoscaler '${writer}' stands for, declare the RuntimeWriter with manager: '${manager}', so the lock names the manager its controller writes under; else stop that client scaling the workload.`;
}

/**
 * The advice for a runtime writer's fields held by a manager no writer declares while the manager it declares
 * owns nothing on the object: the RuntimeWriter's `manager` is likely not the name its controller writes under.
 *
 * @param owned what the fields are and who owns them (`data.x of 'w' is owned by 'm' alone`)
 */
function misnamedMessage(f: FindingFacts, owned: string): string {
  const w = f.misnamedWriter!;
  const m = f.manager!.manager;
  const its = f.fields.length === 1 ? 'it' : 'them';
  return `${f.object}: ${owned}, while the manager '${w.manager}' that the RuntimeWriter declares owns nothing on the object: ` +
    'the RuntimeWriter\'s manager is likely not the name its controller writes under. ' +
    `If '${m}' is the controller '${w.writer}' stands for, declare manager: '${m}' on '${constructPath(w.writer)}', so the lock names the manager its controller writes under; ` +
    `else stop that client writing ${its}, and let the runtime writer's controller write ${its} again.`;
}

/** A writer's construct path, as its `manager` prop is declared on it: a runtime writer's name without ` (RuntimeWriter)`. */
function constructPath(writer: string): string {
  return writer.replace(/ \(RuntimeWriter\)$/, '');
}

/**
 * What releases the fields a runtime writer's manager owns outside its fields once its controller stops
 * sending them, as its entry's operation makes it: an `Apply` entry is replaced by its next apply; an
 * `Update` entry keeps what the update did not change until another manager changes their values or they
 * leave the object.
 *
 * @param written true when a writer of the release writes them: the release's apply changes them when their value changes
 */
function release(manager: ManagedFieldsEntry, its: string, written: boolean): string {
  if (manager.operation === 'Apply') return `its next server-side apply without ${its} releases ${its}, and removes ${its} from the object where no other manager owns ${its}`;
  const after = written
    ? `it gives ${its} up when the release next changes ${its}; to drop ${its} now, remove its Update entry`
    : `remove ${its} from the object if nothing needs ${its}, or remove its Update entry`;
  return 'its entry is an Update, and an updater keeps a field it no longer sends until another manager changes its value or it leaves the object: ' +
    `once the controller stops, ${after} from the object's metadata.managedFields (its next update records again what it changes)`;
}

/**
 * What keeps a runtime writer's manager owning a field handed back from it, and what releases it, as its last
 * write (`Apply` or `Update`) makes it: the release's apply with force takes the field only where the values
 * differ, so a controller that held the release's value stays a co-owner.
 */
function handBackFix(manager: ManagedFieldsEntry, its: string): string {
  const stop = `Stop the controller writing ${its} first: while it runs, it writes ${its} again.`;
  if (manager.operation === 'Apply') {
    return 'a field manager keeps its fields until it applies without them, and the release\'s apply (with force) takes a field from it only where their values differ. ' +
      `${stop} Then release ${its}: apply under its manager what the controller still writes of the object, without ${its} (the object's identity alone when it writes nothing else of it: kubectl apply --server-side --field-manager=${manager.manager}).`;
  }
  return 'a field manager whose last write was an Update keeps its fields until another manager changes their values, and the release\'s apply (with force) takes a field from it only where their values differ. ' +
    `${stop} Its entry then changes nothing, and gives ${its} up when the release next changes ${its}; to drop it now, remove its Update entry from the object's metadata.managedFields.`;
}

/** What to do so the admission policy refuses a runtime writer's update of another's field, as the cluster shows the policies. */
function policySentence(p: PolicyState, appliedBy?: string): string {
  switch (p.state) {
    case 'none':
      return "Set CapabilityApp's enforce so the admission policy refuses such an update.";
    case 'missing':
      return `The release's admission policy, which refuses such an update, is not in the cluster (${missingPolicies(p.objects)}): ` +
        `${appliedBy === undefined ? 'apply the release' : `let ${appliedBy} apply the release (its field-ownership Kustomization or first sync wave)`}.`;
    case 'not-deny':
      return `The release's admission policy does not refuse such an update: ${p.bindings.map((b) => `${b.label} has validationActions ${JSON.stringify(b.actions)}`).join(', ')}, without Deny. ` +
        "Set CapabilityApp's enforce.validationActions to ['Deny'].";
    case 'deny':
      return "The release's admission policy is in the cluster with Deny, yet let it through: the update came before the policy, or the controller does not run as the RuntimeWriter's identity.";
    case 'present':
      return "The release's admission policy is in the cluster, yet let it through: check that its binding denies (validationActions Deny) and that the controller runs as the RuntimeWriter's identity.";
  }
}

/**
 * The release's policies and bindings the cluster lacks, as a finding's hint names them: one or two by name; more
 * (a release whose field-ownership step was never applied lacks all of them, two per protected kind) by the first
 * two and how many more, since each is a `missing-object` finding of its own that names it.
 */
function missingPolicies(objects: readonly string[]): string {
  if (objects.length <= 2) return `${objects.join(', ')}: missing-object`;
  return `${objects.slice(0, 2).join(', ')} and ${objects.length - 2} more of its policies and bindings, each a missing-object finding; runtime/0000-field-ownership.yaml holds them`;
}

/** At most five fields, then how many more. */
export function fieldList(fields: readonly FieldPath[]): string {
  const shown = fields.slice(0, 5).map(formatPath).join(', ');
  return fields.length > 5 ? `${shown} and ${fields.length - 5} more` : shown;
}
