import { ApiObject } from 'cdk8s';
import { Contribution } from '../constructs/contribution';
import { CompositionModel, RuntimeObject } from '../model/composition-model';
import { describeIdentity, identityKey } from '../model/object-identity';
import { FieldLedger } from './field-ledger';
import { FieldPath } from './field-path';
import { elementKeyOf, leavesOf } from './leaves';
import { mergeFields } from './merge';
import { OwnershipRules } from './ownership-rules';

/** Two or more declarations of one Kubernetes object identity. */
export interface DuplicateDeclaration {
  /** How messages name the object. */
  readonly object: string;
  /** The declaring constructs' paths, in creation order. */
  readonly declarers: string[];
}

/**
 * Records every write to every Kubernetes object in the ledger (declarations,
 * JSON patches, contributions) and merges contributions into the emitted
 * manifests. A second declaration of an identity is not recorded: it is a
 * duplicate, reported on its own.
 */
export function recordRuntimeWrites(model: CompositionModel, ledger: FieldLedger): DuplicateDeclaration[] {
  const contributions = new Map<ApiObject, Contribution[]>();
  for (const c of model.constructs) {
    if (Contribution.isContribution(c) && c.apiObject) {
      contributions.set(c.apiObject, [...(contributions.get(c.apiObject) ?? []), c]);
    }
  }

  const first = new Map<string, RuntimeObject>();
  const duplicates = new Map<string, DuplicateDeclaration>();
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
    recordObject(object, contributions.get(object.apiObject) ?? [], ledger, key);
  }
  return [...duplicates.values()];
}

function recordObject(object: RuntimeObject, contributions: Contribution[], ledger: FieldLedger, key: string): void {
  const label = describeIdentity(object.identity);
  const rules = OwnershipRules.forManifest(object.manifest);
  const patches: any[] = (object.apiObject as any).patches ?? [];
  const declared = patches.length > 0 ? withoutPatches(object.apiObject, patches) : object.manifest;
  const record = (writer: string) => (path: FieldPath) => ledger.record(writer, key, label, path);

  leavesOf(declared, rules).forEach(record(object.declarer.node.path));
  const patchWriter = `${object.apiObject.node.path} (addJsonPatch)`;
  for (const patch of patches) patchLeaves(patch.operation ?? patch, declared, rules).forEach(record(patchWriter));
  for (const c of contributions) {
    leavesOf(c.fields, rules).forEach(record(c.node.path));
    object.manifest = mergeFields(object.manifest, c.fields, rules);
  }
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
