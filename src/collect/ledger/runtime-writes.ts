import { ApiObject } from 'cdk8s';
import { LedgerBuilder, LedgerObject } from './field-ledger';
import { FieldPath, setValueKey } from './field-path';
import { OwnedLeaf, ownedLeaves } from './leaves';
import { mergeFields } from './merge';
import { callWriter, contributionWriter, declarationWriter, Writer } from './writer';
import { JsonPatchOperation, jsonPatchesOf, patchOperation, renderWithoutPatches } from '../../private/upstream-state';
import { CrdTopologies } from '../topology/crd-topology';
import { FieldTopology, topologyOf } from '../topology/field-topology';
import { elementKeyOf, listTypeOf } from '../topology/list-topology';

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
 * emitted manifest, both following the object's field topology: the built-in
 * kind's, else the one of its CRD among `crds`, else that of an object without
 * a schema. Identity fields belong to the declarer: a contribution never
 * changes them (the identity rule reports one that tries). An object with one
 * writer (no patch, no contribution) records only its `status` leaves: one
 * writer cannot conflict with itself, and skipping its leaves keeps the common
 * case cheap.
 *
 * @param draft the object; its manifest is merged in place
 * @param contributions the contributions to it, in creation order
 * @param ledger where the writes go
 * @param crds the topologies of the CRDs in the composition
 */
export function recordRuntimeWrites(
  draft: ObjectDraft,
  contributions: readonly ContributionWrite[],
  ledger: LedgerBuilder,
  crds: CrdTopologies = CrdTopologies.NONE,
): void {
  const topology = topologyOfManifest(draft.manifest, crds);
  const patches = jsonPatchesOf(draft.apiObject);
  const declared = patches.length > 0 ? renderWithoutPatches(draft.apiObject) : draft.manifest;
  const object: LedgerObject = { key: draft.key, label: draft.label, kind: 'k8s' };
  const record = (writer: Writer) => (leaf: OwnedLeaf) => ledger.record({ object, writer, path: leaf.path, presence: leaf.presence });
  const declarer = declarationWriter(draft.declarer);

  if (patches.length === 0 && contributions.length === 0) {
    if (declared?.status !== undefined) ownedLeaves({ status: declared.status }, topology).forEach(record(declarer));
    return;
  }
  ownedLeaves(declared, topology).forEach(record(declarer));
  const patchWriter = callWriter('json-patch', draft.apiObject.node.path);
  for (const patch of patches) patchLeaves(patchOperation(patch), declared, topology).forEach((path) => record(patchWriter)({ path }));
  for (const c of contributions) {
    ownedLeaves(c.fields, topology).forEach(record(contributionWriter(c.writer)));
    draft.manifest = mergeFields(draft.manifest, withoutIdentity(c.fields), topology);
  }
}

/** The field topology of a manifest's kind. */
export function topologyOfManifest(manifest: any, crds: CrdTopologies = CrdTopologies.NONE): FieldTopology {
  return topologyOf(String(manifest?.apiVersion ?? ''), String(manifest?.kind ?? ''), crds);
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

/**
 * The leaves one JSON patch operation writes, with list indexes turned into
 * element keys by looking them up in the declared document.
 */
export function patchLeaves(op: JsonPatchOperation, doc: unknown, topology: FieldTopology): FieldPath[] {
  const target = pointerToPath(op.path, doc, topology, op.value);
  const leaves: FieldPath[] = [];
  if (op.op === 'add' || op.op === 'replace' || op.op === 'copy') {
    if (target.atomic || op.op === 'copy') leaves.push(target.path);
    else leaves.push(...ownedLeaves(op.value, topology, target.path).map((l) => l.path));
  } else if (op.op === 'remove' || op.op === 'move') {
    leaves.push(target.path);
  }
  if (op.op === 'move' && op.from) leaves.push(pointerToPath(op.from, doc, topology, undefined).path);
  return leaves;
}

/**
 * The field path of a JSON pointer: list indexes of associative lists become
 * element keys (looked up in `doc`, or read off the value an `add` appends),
 * indexes of sets their values; a pointer into an atomic node stops at it.
 */
function pointerToPath(pointer: string, doc: unknown, topology: FieldTopology, value: unknown): { path: FieldPath; atomic: boolean } {
  const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path: string[] = [];
  let node = topology;
  let current: any = doc;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (path.length > 0 && node.atomic) return { path, atomic: true };
    if (Array.isArray(current) || (node.type === 'list' && current === undefined)) {
      const listType = listTypeOf(node);
      if (listType === 'atomic') return { path, atomic: true };
      const element = segment === '-' || !Array.isArray(current) ? undefined : current[Number(segment)];
      const keyed = element ?? (i === segments.length - 1 ? value : undefined);
      path.push(listType === 'set' ? setValueKey(keyed) : elementKeyOf(keyed, node));
      node = node.element();
      current = element;
    } else {
      path.push(segment);
      node = node.field(segment);
      current = current?.[segment];
    }
  }
  return { path, atomic: false };
}

