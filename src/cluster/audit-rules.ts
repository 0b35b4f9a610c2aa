import type { AuditFindingKind } from './audit';

/** What a kind of audit finding is, declared once for every report format (SARIF `rules[]` explains it). */
export interface AuditRule {
  /** The kind, as findings and reports name it: `stripped`. */
  readonly id: AuditFindingKind;
  /** A short title: `field stripped`. */
  readonly title: string;
  /** What it means and what to do, in a sentence or two. */
  readonly explanation: string;
  /** How a report shows it: `error` for a leaf of ours changed or lost, `warning` for what only looks off. */
  readonly level: 'error' | 'warning';
}

/** Every kind of audit finding, in the order reports list them. */
export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: 'missing-object',
    title: 'object missing',
    explanation: 'An object of the lock is not in the cluster: the release was not applied, or something deleted the object. Apply the release.',
    level: 'error',
  },
  {
    id: 'stripped',
    title: 'field stripped',
    explanation:
      'A leaf a writer of the composition owns is gone from the object and owned by nobody: the signature of a full-object Update() (PUT) by a client that did not carry it. Make that client use server-side apply with its own fields, or declare it as a RuntimeWriter so the admission policy stops it.',
    level: 'error',
  },
  {
    id: 'overwritten-by-update',
    title: 'field overwritten by an update',
    explanation:
      'A leaf of a writer is now owned by a manager whose last write was an Update (kubectl edit, a controller\'s full-object Update()), which changed it. Declare that client as a RuntimeWriter, or stop it, and apply the release again; a RuntimeWriter\'s leaf its controller writes again, and a RuntimeWriter\'s manager there is its controller writing outside its fields. ' +
      'A RuntimeWriter\'s leaves held by one undeclared manager while the manager it declares owns nothing on the object: declare that manager on the RuntimeWriter.',
    level: 'error',
  },
  {
    id: 'taken-over',
    title: 'field taken over',
    explanation:
      'A leaf of a writer is owned only by a manager that is none of the object\'s writers\', which applied it with --force-conflicts. Declare that writer in the composition, or stop it; a RuntimeWriter\'s leaf its controller writes again. A GitOps engine\'s manager: audit with --applied-by (or with the lock\'s engine). The previous applier\'s manager after a switch of engines: the new one has not applied the release yet; let it apply first, then release the old entry. ' +
      'A RuntimeWriter\'s leaves held by one undeclared manager while the manager it declares owns nothing on the object: declare that manager on the RuntimeWriter (its controller writes under it).',
    level: 'error',
  },
  {
    id: 'unowned',
    title: 'field not owned by its writer',
    explanation: 'A leaf of a writer is in the object but its writer\'s field manager does not own it: an apply stopped inside a step. Run cdk-capability apply again.',
    level: 'error',
  },
  {
    id: 'stale-owner',
    title: 'field owned by a previous writer',
    explanation:
      'A field manager of the composition owns a field the lock gives to another writer or to none: a handover or removal whose apply did not run (to a RuntimeWriter: hand the field over first). Run cdk-capability apply again. A RuntimeWriter\'s manager owning a field outside its fields is its controller writing it: add the field to its fields, or make the controller stop sending it ' +
      '(its next apply releases it; an Update entry keeps it until another manager changes it or it leaves the object). ' +
      'The manager of a RuntimeWriter a field was handed back from still owning it: stop its controller writing it, then release it (an apply under its manager without the field).',
    level: 'error',
  },
  {
    id: 'undeclared-manager',
    title: 'undeclared field manager',
    explanation:
      'A field manager that no writer of the object declares owns fields of it: drift, or a controller the composition does not declare. Declare it as a RuntimeWriter with its fields and manager, or pass --ignore-manager for a controller you accept. ' +
      'Audited with --applied-by, another GitOps engine\'s manager (or, for an engine, cdk-capability\'s) is the previous applier\'s entry, left when the release switched engines: once the new one has applied the release, ' +
      'release it with kubectl apply --server-side --field-manager=<that manager> -f <outdir>/audit/objects.list.',
    level: 'warning',
  },
  {
    id: 'unknown-object',
    title: 'object unknown to the lock',
    explanation: 'An object a field manager of ours wrote, or that carries our labels, is not in the lock: a release removed it and nothing deleted it (cdk-capability plan --teardown), or another composition applied it.',
    level: 'warning',
  },
];

/** The rule of a kind of finding. */
export function auditRule(kind: AuditFindingKind): AuditRule {
  return AUDIT_RULES.find((r) => r.id === kind)!;
}
