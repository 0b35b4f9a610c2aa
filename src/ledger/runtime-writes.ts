import { ApiObject } from 'cdk8s';
import { FieldLedger } from './field-ledger';
import { FieldPath } from './field-path';
import { elementKeyOf, leavesOf } from './leaves';
import { mergeFields } from './merge';
import { OwnershipRules } from './ownership-rules';
import { Contribution } from '../constructs/contribution';
import { CompositionModel, RuntimeObject } from '../model/composition-model';
import { describeIdentity, identityKey } from '../model/object-identity';

/** Two or more declarations of one Kubernetes object identity. */
export interface DuplicateDeclaration {
  /** How messages name the object. */
  readonly object: string;
  /** The declaring constructs' paths, in creation order. */
  readonly declarers: string[];
}

/** A contribution that writes an identity field of its target with another value. */
export interface IdentityRewrite {
  /** The contribution's path. */
  readonly writer: string;
  /** The declaring construct's path. */
  readonly declarer: string;
  /** How messages name the object. */
  readonly object: string;
  /** The identity field, for example `metadata.name`. */
  readonly field: string;
  /** The value the contribution writes. */
  readonly value: unknown;
}

/** What recording the runtime writes found besides the ledger's own conflicts. */
export interface RuntimeWriteFindings {
  /** Object identities declared more than once. */
  readonly duplicates: DuplicateDeclaration[];
  /** Contributions that would rename or move their target. */
  readonly identityRewrites: IdentityRewrite[];
}

const IDENTITY_FIELDS = [['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace']];

/**
 * Records every write to every Kubernetes object in the ledger (declarations,
 * JSON patches, contributions) and merges contributions into the emitted
 * manifests. A second declaration of an identity is not recorded: it is a
 * duplicate, reported on its own. Identity fields belong to the declarer: a
 * contribution never changes them. An object with one writer (no patch, no
 * contribution) records only its `status` leaves: one writer cannot conflict
 * with itself, and skipping its leaves keeps the common case cheap.
 */
export function recordRuntimeWrites(model: CompositionModel, ledger: FieldLedger): RuntimeWriteFindings {
  const contributions = new Map<ApiObject, Contribution[]>();
  for (const c of model.constructs) {
    if (Contribution.isContribution(c) && c.apiObject) {
      contributions.set(c.apiObject, [...(contributions.get(c.apiObject) ?? []), c]);
    }
  }

  const first = new Map<string, RuntimeObject>();
  const duplicates = new Map<string, DuplicateDeclaration>();
  const identityRewrites: IdentityRewrite[] = [];
  for (const object of model.objects) {
    const key = identityKey(object.identity);
    const earlier = first.get(key);
    if (earlier) {
      const label = describeIdentity(object.identity);
      const dup = duplicates.get(key) ?? { object: label, declarers: [earlier.declarer.node.path] };
      dup.declarers.push(object.declarer.node.path);
      duplicates.set(key, dup);
      continue;
    }
    first.set(key, object);
    identityRewrites.push(...recordObject(object, contributions.get(object.apiObject) ?? [], ledger, key));
  }
  return { duplicates: [...duplicates.values()], identityRewrites };
}

function recordObject(object: RuntimeObject, contributions: Contribution[], ledger: FieldLedger, key: string): IdentityRewrite[] {
  const label = describeIdentity(object.identity);
  const rules = OwnershipRules.forManifest(object.manifest);
  const patches: any[] = (object.apiObject as any).patches ?? [];
  const declared = patches.length > 0 ? withoutPatches(object.apiObject, patches) : object.manifest;
  const record = (writer: string) => (path: FieldPath) => ledger.record(writer, key, label, path);

  if (patches.length === 0 && contributions.length === 0) {
    // One writer cannot conflict with itself: only a status write matters, so only
    // `status` is recorded. This keeps the common case (most objects) linear and cheap.
    if (declared?.status !== undefined) leavesOf({ status: declared.status }, rules).forEach(record(object.declarer.node.path));
    return [];
  }
  leavesOf(declared, rules).forEach(record(object.declarer.node.path));
  const patchWriter = `${object.apiObject.node.path} (addJsonPatch)`;
  for (const patch of patches) patchLeaves(patch.operation ?? patch, declared, rules).forEach(record(patchWriter));
  const rewrites: IdentityRewrite[] = [];
  for (const c of contributions) {
    leavesOf(c.fields, rules).forEach(record(c.node.path));
    const fields = structuredClone(c.fields) as any;
    for (const [head, tail] of IDENTITY_FIELDS) {
      const container = tail ? fields[head] : fields;
      const name = tail ?? head;
      if (!container || typeof container !== 'object' || !(name in container)) continue;
      const current = tail ? object.manifest[head]?.[tail] : object.manifest[head];
      if (container[name] !== current) {
        rewrites.push({ writer: c.node.path, declarer: object.declarer.node.path, object: label, field: tail ? `${head}.${tail}` : head, value: container[name] });
      }
      delete container[name];
    }
    object.manifest = mergeFields(object.manifest, fields, rules);
  }
  return rewrites;
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
