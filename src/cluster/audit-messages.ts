import type { AuditFindingKind, WriterLeaves } from './audit';
import { APPLIER_FIELD_MANAGER } from './field-manager';
import type { ManagedFieldsEntry } from './live-objects';
import { FieldPath, formatPath } from '../collect/ledger/field-path';

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
}

/**
 * What a finding means and what to do, in a sentence or two, naming the object, the fields, the manager and
 * the writer displaced.
 */
export function auditMessage(f: FindingFacts): string {
  const one = f.fields.length === 1;
  const what = fieldList(f.fields);
  const its = one ? 'it' : 'them';
  const is = one ? 'is' : 'are';
  const whose = f.writer ? ` of '${f.writer.writer}'${f.writerManager ? ` (field manager ${f.writerManager})` : ''}` : '';
  const by = f.manager ? `'${f.manager.manager}' (${f.manager.operation}${f.manager.time ? ` at ${f.manager.time}` : ''})` : '';
  const rw = f.managerWriter;

  switch (f.kind) {
    case 'stripped':
      return rw
        ? `${f.object}: ${what}${whose} ${is} gone and owned by nobody: a full-object update that did not carry ${its} dropped ${its}; the latest update is by ${by}, the field manager of the runtime writer '${rw.writer}', which may change only its own fields. Make that controller send only them (server-side apply, or a patch), and set CapabilityApp's enforce so the admission policy refuses such an update; apply the release again to restore ${its}.`
        : `${f.object}: ${what}${whose} ${is} gone and owned by nobody: a full-object update that did not carry ${its} dropped ${its}${f.manager ? `; the latest update is by ${by}` : ''}. Make that client use server-side apply with its own fields only, or declare it as a RuntimeWriter so the admission policy stops it; apply the release again to restore ${its}.`;
    case 'overwritten-by-update':
      return `${f.object}: ${what}${whose} ${is} now owned by ${by}, whose update changed ${its} (a kubectl edit, or a controller's full-object Update()): the writer no longer owns ${its}. Declare that client as a RuntimeWriter of ${its}, or stop it, and apply the release again.`;
    case 'taken-over':
      return `${f.object}: ${what}${whose} ${is} owned by ${by} alone: an apply took ${its} over (--force-conflicts). Declare that manager's writer in the composition, or stop it, and apply the release again.`;
    case 'unowned':
      return `${f.object}: ${what}${whose} ${is} in the object but owned by ${f.manager ? `'${f.manager.manager}' only` : 'nobody'}, not by the writer's manager: its apply did not run (an apply stopped inside a step). Run cdk-capability apply again.`;
    case 'stale-owner':
      return f.manager?.manager === APPLIER_FIELD_MANAGER || !f.writer
        ? `${f.object}: ${by} owns ${what}, which no writer of the lock has: a release whose apply has not run, or stopped inside its step. Run cdk-capability apply again (every step is idempotent).`
        : `${f.object}: ${by} still owns ${what}, which the lock gives to '${f.writer.writer}': a handover or removal whose release did not run. Apply the release again with cdk-capability apply.`;
    case 'undeclared-manager':
      return `${f.object}: ${by} owns ${what}, and no writer of the composition declares that manager: drift, or a controller the composition does not declare. Declare it as a RuntimeWriter with its fields and manager, pass --ignore-manager for a controller you accept, or remove its writes.`;
    default:
      return `${f.object}: ${f.kind}`;
  }
}

/** At most five fields, then how many more. */
export function fieldList(fields: readonly FieldPath[]): string {
  const shown = fields.slice(0, 5).map(formatPath).join(', ');
  return fields.length > 5 ? `${shown} and ${fields.length - 5} more` : shown;
}
