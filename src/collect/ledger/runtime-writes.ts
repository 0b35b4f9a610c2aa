import { ApiObject, JsonPatch } from 'cdk8s';
import { changedLeaves, changedLeavesAt } from './changed-leaves';
import { EscapeHatchWrite, EscapeHatchWrites } from './escape-hatch-writes';
import { LedgerBuilder, LedgerObject, ValueOfWrite, WrittenValue } from './field-ledger';
import { FieldPath, setValueKey } from './field-path';
import { OwnedLeaf, ownedLeaves } from './leaves';
import { libraryDefaultsOf } from './library-defaults';
import { mergeFields } from './merge';
import { deltaLeaves, deltaValue } from './render-delta';
import { ReplacedWrites } from './replaced-writes';
import type { CallbackRun } from './write-callbacks';
import { callWriter, contributionWriter, declarationWriter, runtimeWriter, Writer } from './writer';
import { appendAll } from '../../private/append';
import { once } from '../../private/once';
import { JsonPatchOperation, jsonPatchesOf, patchOperation, renderWithoutPatches } from '../../private/upstream-state';
import { jsonPatchCall } from '../../private/write-calls';
import type { OverrideFact } from '../facts';
import type { RuntimeWrite } from '../runtime-writers';
import { CrdTopologies } from '../topology/crd-topology';
import { FieldTopology, topologyOf } from '../topology/field-topology';
import { elementKeyOf, listTypeOf, valueAt } from '../topology/list-topology';

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

/** A contribution's `fields` written into one object. */
export interface ContributionWrite {
  /** The contribution's construct path. */
  readonly writer: string;
  /** The fields written, as given. */
  readonly fields: Readonly<Record<string, unknown>>;
}

const IDENTITY_FIELDS = [['apiVersion'], ['kind'], ['metadata', 'name'], ['metadata', 'namespace']];

/**
 * Records every write to one Kubernetes object in the ledger and merges the
 * contributions' `fields` into the emitted manifest, both following the
 * object's field topology: the built-in kind's, else the one of its CRD among
 * `crds`, else that of an object without a schema.
 *
 * - the declarer writes what its declaration rendered before any write
 *   callback ran, and whatever changed after the last one;
 * - each write callback writes the leaves its run changed, and what it
 *   changed while another callback's target was this object (a run of its
 *   own here, `BetweenRuns`);
 * - each JSON patch is written by the call that added it: a Contribution's
 *   (`patches`, or `addJsonPatch` inside its callback), a library's for its own
 *   object (the declarer), or a plain call, each plain call its own writer.
 *   A plain patch of a leaf the declaration rendered is the declarer's escape
 *   hatch: the declarer's write of that leaf gives way, and the override is
 *   recorded for the plan; against any other writer it stays a write;
 * - each contribution writes its `fields`.
 *
 * Identity fields belong to the declarer: a contribution never changes them
 * (the identity rule reports one that tries). An object with one writer (no
 * patch, no contribution) records only its `status` leaves: one writer cannot
 * conflict with itself, and skipping its leaves keeps the common case cheap.
 *
 * @param draft the object; its manifest is merged in place
 * @param contributions the `fields` contributions to it, in creation order
 * @param ledger where the writes go
 * @param crds the topologies of the CRDs in the composition
 * @param callbacks the write callbacks that ran on it, in the order they ran
 */
export function recordRuntimeWrites(
  draft: ObjectDraft,
  contributions: readonly ContributionWrite[],
  ledger: LedgerBuilder,
  crds: CrdTopologies = CrdTopologies.NONE,
  callbacks: readonly CallbackRun[] = [],
  runtime: readonly RuntimeWrite[] = [],
): void {
  const topology = topologyOfManifest(draft.manifest, crds);
  const patches = jsonPatchesOf(draft.apiObject);
  const declared = patches.length > 0 ? renderWithoutPatches(draft.apiObject) : draft.manifest;
  const object: LedgerObject = { key: draft.key, label: draft.label, kind: 'k8s' };
  const record = (writer: Writer, { path, presence, replacing }: OwnedLeaf, value?: ValueOfWrite) =>
    ledger.record({ object, writer, path, presence, replacing, value });
  const declarer = declarationWriter(draft.declarer);

  if (patches.length === 0 && contributions.length === 0 && callbacks.length === 0 && runtime.length === 0) {
    if (declared?.status !== undefined) for (const leaf of ownedLeaves({ status: declared.status }, topology)) record(declarer, leaf);
    return;
  }
  ledger.libraryDefaults(draft.key, libraryDefaultsOf(draft.apiObject, callbacks.length === 0 ? declared : callbacks[0].before, topology));
  const declaredLeaves = callbacks.length === 0
    ? ownedLeaves(declared, topology)
    : [...ownedLeaves(callbacks[0].before, topology), ...changedLeaves(callbacks[callbacks.length - 1].after, declared, topology)];
  const writes: Array<[Writer, OwnedLeaf, EscapeHatchWrite | undefined, ValueOfWrite]> = [];
  for (const run of callbacks) {
    const writer = contributionWriter(run.writer, 'contribution-write');
    for (const leaf of deltaLeaves(run.changes, topology)) writes.push([writer, leaf, undefined, () => deltaValue(run.changes, leaf.path, topology)]);
  }
  // the declared leaves, indexed for the plain patches that may override them only when one asks (`EscapeHatchWrites`)
  const hatches = new EscapeHatchWrites(declaredLeaves);
  const writerOf = patchWriters(draft.apiObject.node.path, declarer);
  const override = (fact: Omit<OverrideFact, 'object' | 'kind' | 'declarer'>) => ledger.override({ object: draft.label, kind: 'k8s', declarer, ...fact });
  const replaced = new ReplacedWrites();
  patches.forEach((patch, i) => {
    const writer = writerOf(patch);
    const op = patchOperation(patch);
    const plain = writer.kind === 'json-patch';
    // a new element of a keyed list or set: beside the declared ones, never over them; one of an atomic list
    // rewrites the list, which its declaration wrote (the declarer's escape hatch when the patch is plain)
    const inserts = isInsertion(op, declared) && !pointerToPath(op.path, declared, topology, op.value, true).atomic;
    const patchedSoFar = once(() => JsonPatch.apply(structuredClone(declared), ...patches.slice(0, i + 1)));
    const owned = patchOwnedLeaves(op, declared, topology);
    const leaves = owned.map((l) => l.path);
    const valueOf = (path: FieldPath) => (): WrittenValue => {
      const value = op.op === 'remove' ? undefined : valueAt(patchedSoFar(), path, topology);
      return value === undefined ? { removes: true } : { value };
    };
    // an empty map (or a key-only element, a set value) a patch creates only makes it exist, as it does in a
    // declaration; over a value already there it replaces that value, so it stays a write that contests
    const before = once(() => attempt(() => JsonPatch.apply(structuredClone(declared), ...patches.slice(0, i))));
    // an `add` or `replace` of a whole map or list deletes the leaves there that its value lacks: it writes
    // them as a `remove` of each would (a removal), so a leaf another writer declared there conflicts
    const removed = (op.op === 'add' || op.op === 'replace') && !inserts ? leavesItDeletes(op, before(), declared, topology, leaves) : [];
    const removes = new Set(removed.map((l) => l.path.join('\u0000')));
    const removal = (path: FieldPath) => op.op === 'remove' || removes.has(path.join('\u0000'));
    const creates = (leaf: OwnedLeaf) => leaf.presence === true && op.op !== 'copy' && before() !== undefined && valueAt(before(), leaf.path, topology) === undefined;
    if ((op.op === 'add' || op.op === 'replace') && !inserts) {
      // a value set over a map drops what earlier patches set in it: this patch writes those leaves too
      const at = pointerToPath(op.path, declared, topology, op.value).path;
      for (const path of replaced.by(writer, at, leaves, plain ? declarer : undefined)) {
        writes.push([writer, { path, replacing: at }, undefined, valueOf(path)]);
      }
    }
    for (const leaf of [...owned, ...removed]) {
      const path = leaf.path;
      // only a `remove` writes no value of its own: a value set over another plain call's leaf stays a conflict
      if (plain && op.op === 'remove') {
        for (const earlier of hatches.removeUnder(writer, path)) {
          override({ path: earlier.path, writer, replaces: earlier.writer, rendered: earlier.value() });
        }
      }
      const hatch: EscapeHatchWrite | undefined = plain && !removal(path)
        ? { writer, path, value: () => valueAt(patchedSoFar(), path, topology) }
        : undefined;
      if (hatch) hatches.note(hatch);
      const written: OwnedLeaf = creates(leaf) ? { path, presence: true } : { path, ...(leaf.replacing ? { replacing: leaf.replacing } : {}) };
      writes.push([writer, written, hatch, valueOf(path)]);
      if (!plain || inserts || !hatches.overDeclared(path, removal(path))) continue;
      const rendered = valueAt(declared, path, topology);
      const patched = valueAt(draft.manifest, path, topology);
      override({ path, writer, ...(rendered !== undefined ? { rendered } : {}), ...(patched !== undefined ? { patched } : {}) });
    }
  });
  for (const leaf of declaredLeaves) if (!hatches.givesWay(leaf.path)) record(declarer, leaf);
  for (const [writer, leaf, hatch, value] of writes) if (!hatch?.removed) record(writer, leaf, value);
  for (const c of contributions) {
    const writer = contributionWriter(c.writer);
    for (const leaf of ownedLeaves(c.fields, topology)) record(writer, leaf, () => ({ value: valueAt(c.fields, leaf.path, topology) }));
    draft.manifest = mergeFields(draft.manifest, withoutIdentity(c.fields), topology);
  }
  for (const w of runtime) record(runtimeWriter(w.writer), w);
}

/**
 * Who wrote each JSON patch of an object: the Contribution it was added in,
 * the declarer when a library added it to its own object, else the plain call
 * that added it (numbered in call order; a patch no call was recorded for is
 * a call of its own).
 */
function patchWriters(objectPath: string, declarer: Writer): (patch: JsonPatch) => Writer {
  const plain = new Map<object, Writer>();
  return (patch) => {
    const call = jsonPatchCall(patch);
    if (call?.attribution) return contributionWriter(call.attribution.path, call.attribution.kind);
    if (call?.byLibrary) return declarer;
    const key: object = call ?? patch;
    let writer = plain.get(key);
    if (!writer) {
      writer = callWriter('json-patch', objectPath, { call: plain.size + 1, site: call?.site, package: call?.package, method: 'addJsonPatch' });
      plain.set(key, writer);
    }
    return writer;
  };
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

/** True when a JSON patch `add` inserts an element into a list (`/containers/-`, `/containers/0`) rather than setting a value. */
function isInsertion(op: JsonPatchOperation, doc: unknown): boolean {
  if (op.op !== 'add') return false;
  const segments = op.path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent: unknown = doc;
  for (const segment of segments.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = Array.isArray(parent) ? parent[Number(segment)] : (parent as Record<string, unknown>)[segment];
  }
  return Array.isArray(parent);
}

/**
 * The leaves one JSON patch operation writes, with list indexes turned into
 * element keys by looking them up in the declared document.
 */
export function patchLeaves(op: JsonPatchOperation, doc: unknown, topology: FieldTopology): FieldPath[] {
  return patchOwnedLeaves(op, doc, topology).map((l) => l.path);
}

/** `patchLeaves` with each leaf's presence, as `ownedLeaves` gives it for the value an `add` or `replace` sets. */
function patchOwnedLeaves(op: JsonPatchOperation, doc: unknown, topology: FieldTopology): OwnedLeaf[] {
  const target = pointerToPath(op.path, doc, topology, op.value, op.op === 'add');
  const leaves: OwnedLeaf[] = [];
  if (op.op === 'add' || op.op === 'replace' || op.op === 'copy') {
    if (target.atomic || op.op === 'copy') leaves.push({ path: target.path });
    else appendAll(leaves, ownedLeaves(op.value, topology, target.path));
  } else if (op.op === 'remove' || op.op === 'move') {
    leaves.push({ path: target.path });
  }
  if (op.op === 'move' && op.from) leaves.push({ path: pointerToPath(op.from, doc, topology, undefined).path });
  return leaves;
}

/**
 * The leaves an `add` or `replace` of a whole value deletes: those the
 * document held at its target before it (`before`, the declaration with the
 * earlier patches applied) that the value it sets lacks, each written as a
 * removal. None for a target in an atomic node (the value is one leaf) or a
 * patch that cannot apply.
 *
 * @param written the leaves the patch's value writes
 */
function leavesItDeletes(
  op: JsonPatchOperation, before: unknown, declared: unknown, topology: FieldTopology, written: readonly FieldPath[],
): OwnedLeaf[] {
  if (before === undefined) return [];
  const target = pointerToPath(op.path, declared, topology, op.value, op.op === 'add');
  if (target.atomic) return [];
  const old = valueAt(before, target.path, topology);
  if (old === undefined) return [];
  const kept = new Set(written.map((p) => p.join('\u0000')));
  // a leaf it keeps with another value is among `written`; what is left of the changed leaves is gone
  return changedOnly(old, op.value, topology, target.path).filter((l) => !kept.has(l.path.join('\u0000'))).map((l) => ({ path: l.path, replacing: target.path }));
}

/** `changedLeaves` of the subtree at `path`: the node there found by walking the topology. */
function changedOnly(before: unknown, after: unknown, topology: FieldTopology, path: FieldPath): OwnedLeaf[] {
  let node = topology;
  for (const segment of path) node = node.type === 'list' ? node.element() : node.field(segment);
  const out: OwnedLeaf[] = [];
  changedLeavesAt(before, after, node, [...path], out);
  return out;
}

/** What `run` returns, or undefined when it throws (a patch that cannot apply is the render's CAP010, not this). */
function attempt<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

/**
 * The field path of a JSON pointer: list indexes of associative lists become
 * element keys (looked up in `doc`, or read off the value an `add` appends),
 * indexes of sets their values; a pointer into an atomic node stops at it.
 */
function pointerToPath(pointer: string, doc: unknown, topology: FieldTopology, value: unknown, adds = false): { path: FieldPath; atomic: boolean } {
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
      // an add at a list index inserts there (RFC 6902), beside the element it finds: the new element is the value
      const inserted = adds && i === segments.length - 1;
      const element = inserted || segment === '-' || !Array.isArray(current) ? undefined : current[Number(segment)];
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

