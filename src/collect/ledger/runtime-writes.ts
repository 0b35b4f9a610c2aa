import { ApiObject } from 'cdk8s';
import { LedgerBuilder } from './field-ledger';
import { FieldPath } from './field-path';
import { elementKeyOf, leavesOf } from './leaves';
import { mergeFields } from './merge';
import { OwnershipRules } from './ownership-rules';

/** An object while it is being collected: its manifest is merged in place. */
export interface ObjectDraft {
  /** The cdk8s object. */
  readonly apiObject: ApiObject;
  /** The declaring construct's path. */
  readonly declarer: string;
  /** The identity, as `identityKey`. */
  readonly key: string;
  /** How messages name the object. */
  readonly label: string;
  /** The manifest as emitted so far. */
  manifest: any;
  /** For a second declaration of an identity: the index of the first. */
  duplicateOf?: number;
}

/** A contribution's writes to one object. */
export interface ContributionWrite {
  /** The contribution's construct path. */
  readonly writer: string;
  /** The fields written, as given. */
  readonly fields: Readonly<Record<string, unknown>>;
}

const IDENTITY_FIELDS = [['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace']];

/**
 * Records every write to one Kubernetes object in the ledger (its declaration,
 * its JSON patches, its contributions) and merges the contributions into the
 * emitted manifest. Identity fields belong to the declarer: a contribution never
 * changes them (the identity rule reports one that tries). An object with one
 * writer (no patch, no contribution) records only its `status` leaves: one
 * writer cannot conflict with itself, and skipping its leaves keeps the common
 * case cheap.
 */
export function recordRuntimeWrites(draft: ObjectDraft, contributions: readonly ContributionWrite[], ledger: LedgerBuilder): void {
  const rules = OwnershipRules.forManifest(draft.manifest);
  const patches: any[] = (draft.apiObject as any).patches ?? [];
  const declared = patches.length > 0 ? withoutPatches(draft.apiObject, patches) : draft.manifest;
  const record = (writer: string) => (path: FieldPath) => ledger.record(writer, draft.key, draft.label, 'k8s', path);

  if (patches.length === 0 && contributions.length === 0) {
    if (declared?.status !== undefined) leavesOf({ status: declared.status }, rules).forEach(record(draft.declarer));
    return;
  }
  leavesOf(declared, rules).forEach(record(draft.declarer));
  const patchWriter = `${draft.apiObject.node.path} (addJsonPatch)`;
  for (const patch of patches) patchLeaves(patch.operation ?? patch, declared, rules).forEach(record(patchWriter));
  for (const c of contributions) {
    leavesOf(c.fields, rules).forEach(record(c.writer));
    draft.manifest = mergeFields(draft.manifest, withoutIdentity(c.fields), rules);
  }
}

/** A copy of contributed fields without the identity fields, which stay the declarer's. */
function withoutIdentity(fields: Readonly<Record<string, unknown>>): unknown {
  const copy = structuredClone(fields) as any;
  for (const [head, tail] of IDENTITY_FIELDS) {
    const container = tail ? copy[head] : copy;
    if (container && typeof container === 'object') delete container[tail ?? head];
  }
  return copy;
}

/** Renders an object as its declaration alone, without its JSON patches. */
function withoutPatches(apiObject: ApiObject, patches: any[]): any {
  const saved = patches.splice(0, patches.length);
  try {
    return apiObject.toJson();
  } finally {
    patches.push(...saved);
  }
}

/**
 * The leaves one JSON patch operation writes, with list indexes turned into
 * element keys by looking them up in the declared document.
 */
export function patchLeaves(op: { op: string; path: string; from?: string; value?: unknown }, doc: unknown, rules: OwnershipRules): FieldPath[] {
  const target = pointerToPath(op.path, doc, rules, op.value);
  const leaves: FieldPath[] = [];
  if (op.op === 'add' || op.op === 'replace' || op.op === 'copy') {
    leaves.push(...(target.atomic || op.op === 'copy' ? [target.path] : leavesOf(op.value, rules, target.path)));
  } else if (op.op === 'remove' || op.op === 'move') {
    leaves.push(target.path);
  }
  if (op.op === 'move' && op.from) leaves.push(pointerToPath(op.from, doc, rules, undefined).path);
  return leaves;
}

function pointerToPath(pointer: string, doc: unknown, rules: OwnershipRules, value: unknown): { path: FieldPath; atomic: boolean } {
  const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path: string[] = [];
  const names: string[] = [];
  let current: any = doc;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (Array.isArray(current)) {
      const rule = rules.ruleFor(names);
      if (!rule?.keys || rule.atomic) return { path, atomic: true };
      const element = segment === '-' ? undefined : current[Number(segment)];
      const keyed = element ?? (i === segments.length - 1 ? value : undefined);
      path.push(elementKeyOf(keyed, rule.keys, rule.keyDefaults));
      current = element;
    } else {
      path.push(segment);
      names.push(segment);
      current = current?.[segment];
    }
  }
  return { path, atomic: false };
}

