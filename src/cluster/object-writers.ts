import type { AppliedWriter, SequencedObject } from './apply-sequence';
import { ARGO_CD_HOOK, ARGO_CD_HOOK_DELETE_POLICY, HELM_HOOK, HELM_HOOK_DELETE_POLICY, syncRole } from './argo-cd-hooks';
import type { ExpectedObject, HandedBackLeaves } from './audit';
import { fieldManagerOf, runtimeFieldManager } from './field-manager';
import { parseFieldsV1 } from './fields-v1';
import { pathKey } from './managed-leaves';
import { RuntimeHandover, runtimeHandovers } from './runtime-handover';
import { LeafSets, WriterSets } from './writer-sets';
import type { FieldWrite, ObjectFact, RuntimeWriterFact } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import type { OwnedLeaf } from '../collect/ledger/leaves';
import { declarationWriter, Writer, writerName } from '../collect/ledger/writer';
import { describeIdentity, identityKey, isClusterScoped, ObjectIdentity } from '../collect/object-identity';
import type { FieldTopology } from '../collect/topology/field-topology';
import type { Lock, LockedHandBack, LockedUnit, LockedWriter } from '../release/lock';
import { policyIdentity, policyUnitId } from '../release/locked-policies';
import type { LeafWriter } from '../release/release-diff';
import { lockedWriterIdentity } from '../release/writer-identity';

/**
 * Every writer of a runtime object with its field manager and leaves, for the lock: the declarer first, then
 * the others in the order they wrote. An object only its declarer writes (the ledger records no leaves for
 * it) is the declarer's whole: its leaves are read off the manifest. `status` is left out: no writer of the
 * composition applies it. A runtime writer (of this object, or of every object of its kind) is recorded with
 * kind `runtime` and the manager its controller writes under (`runtimeFieldManager`), so `audit` knows it.
 *
 * @param object the object
 * @param writes its writes in the ledger, if any
 * @param topology the topology of its kind (`topologyOfManifest`, with the composition's CRDs)
 * @param runtimeManagers the field manager of each runtime writer, by construct path (`runtimeManagersOf`);
 *   one missing gets the manager derived from its path
 * @param sets makes the `fieldsV1` sets of a writer's leaves; a release's lock passes one `WriterSets.shared()`
 *   for all its objects, so objects of one shape share one, made once
 */
export function lockedWritersOf(
  object: ObjectFact,
  writes: readonly FieldWrite[] | undefined,
  topology: FieldTopology,
  runtimeManagers: ReadonlyMap<string, string> = new Map(),
  sets: WriterSets = WriterSets.unshared(),
): LockedWriter[] {
  const declarer = declarationWriter(object.declarer);
  const recorded = (writes ?? []).filter((w) => w.path[0] !== 'status');
  if (recorded.length === 0) return [lockedWriter(declarer, sets.declared(withoutStatus(object.manifest ?? {}), topology), runtimeManagers)];
  const byWriter = new Map<string, { writer: Writer; leaves: OwnedLeaf[] }>([[declarer.id, { writer: declarer, leaves: [] }]]);
  for (const w of recorded) {
    let entry = byWriter.get(w.writer.id);
    if (!entry) {
      entry = { writer: w.writer, leaves: [] };
      byWriter.set(w.writer.id, entry);
    }
    entry.leaves.push(w.presence ? { path: w.path, presence: true } : { path: w.path });
  }
  return [...byWriter.values()].map(({ writer, leaves }) =>
    lockedWriter(
      writer,
      sets.of(
        leaves.map((l) => l.path),
        leaves.filter((l) => l.presence).map((l) => l.path),
      ),
      runtimeManagers,
    ),
  );
}

/** A manifest without its `status`: the manifest itself when it has none. */
function withoutStatus(manifest: any): unknown {
  if (manifest.status === undefined) return manifest;
  const { status: _status, ...rest } = manifest;
  return rest;
}

/**
 * The field manager of each runtime writer, by construct path: its `manager` prop, else the one derived from
 * its path (`runtimeFieldManager`).
 */
export function runtimeManagersOf(writers: readonly RuntimeWriterFact[]): Map<string, string> {
  return new Map(writers.map((w) => [w.path, runtimeFieldManager(w.path, w.manager)]));
}

/** A writer's record: its manager (named after the writer, or a runtime writer's own) and the `fieldsV1` sets of its leaves. */
function lockedWriter(writer: Writer, sets: LeafSets, runtimeManagers: ReadonlyMap<string, string>): LockedWriter {
  return {
    writer: writerName(writer),
    kind: writer.kind,
    manager: (writer.kind === 'runtime' ? runtimeManagers.get(writer.path) : undefined) ?? fieldManagerOf(writer),
    fields: sets.fields,
    ...(sets.presence ? { presence: sets.presence } : {}),
  };
}

/** The writers of one runtime object in `plan.json`: what `apply` applies under which field manager. */
export interface PlanObjectWriters {
  /** The object's id in the lock, `object:<group>|<kind>|<namespace>|<name>`. */
  readonly object: string;
  /** How messages name it. */
  readonly label: string;
  /** Its writers, the declarer first, as the lock records them. */
  readonly writers: readonly LockedWriter[];
  /**
   * Leaves the previous release applied that a runtime writer owns now, with the values that release gave
   * them: `apply` applies each under the runtime writer's field manager first, so the field keeps its value
   * when the release's managers stop applying it (`runtimeHandovers`).
   */
  readonly handOver?: readonly RuntimeHandover[];
  /**
   * Field managers of the previous release that owned a leaf no writer has now: `apply` makes them release
   * the object before its merged apply, which then removes the leaf (see `applySequence`).
   */
  readonly releaseFirst?: readonly string[];
  /**
   * Field managers that wrote it before and write nothing of it now, which `apply` makes release it: writers
   * of the previous release that are gone, and the capability's one manager of an `apply` from before each
   * writer had its own (only against a lock: a first release had no earlier `apply`).
   */
  readonly released?: readonly string[];
}

/**
 * The writers of every runtime object of a release, with the managers that must release it.
 *
 * @param lock this release's lock
 * @param previous the previous release's lock, if any
 * @param legacyManager the field manager that applied an object before writers had their own (its
 *   capability's), when known; asked only against a previous lock, since without one nothing was applied
 */
export function planWriters(lock: Lock, previous: Lock | undefined, legacyManager: (unit: LockedUnit) => string | undefined): PlanObjectWriters[] {
  const before = new Map((previous?.units ?? []).map((u) => [u.id, u]));
  const out: PlanObjectWriters[] = [];
  for (const unit of lock.units) {
    if (!unit.writers) continue;
    const old = before.get(unit.id);
    if (!old) {
      // new against the lock, or no lock: nothing to hand over or release first (the common case, made cheaply);
      // without a lock there was no earlier apply, and a manager that shares the capability's name is another's
      const legacy = previous ? legacyManager(unit) : undefined;
      const released = legacy !== undefined && !unit.writers.some((w) => w.manager === legacy) ? [legacy] : [];
      out.push({ object: unit.id, label: unit.label, writers: unit.writers, ...(released.length > 0 ? { released } : {}) });
      continue;
    }
    const now = new Set(unit.writers.map((w) => w.manager));
    // writers recorded as they were: every leaf any of them owned is still owned, by the same manager
    const unchanged = old.writers !== undefined && JSON.stringify(old.writers) === JSON.stringify(unit.writers);
    // this release's leaves, parsed only when a previous release recorded other writers to compare with
    const leaves = old.writers && !unchanged ? new Set(unit.writers.flatMap((w) => parseFieldsV1(w.fields).map(pathKey))) : new Set<string>();
    const releaseFirst = (unchanged ? [] : old.writers ?? [])
      .filter((w) => w.manager !== undefined && w.kind !== 'runtime' && parseFieldsV1(w.fields).some((p) => !leaves.has(pathKey(p))))
      .map((w) => w.manager!);
    const candidates = old.writers ? old.writers.filter((w) => w.kind !== 'runtime').map((w) => w.manager) : [legacyManager(unit)];
    const released = [...new Set(candidates.filter((m): m is string => m !== undefined && !now.has(m) && !releaseFirst.includes(m)))];
    const handOver = runtimeHandovers(old, unit, leavesOf);
    out.push({
      object: unit.id,
      label: unit.label,
      writers: unit.writers,
      ...(handOver.length > 0 ? { handOver } : {}),
      ...(releaseFirst.length > 0 ? { releaseFirst: [...new Set(releaseFirst)] } : {}),
      ...(released.length > 0 ? { released } : {}),
    });
  }
  return out;
}

/**
 * Every leaf of a locked object with its writer, read off its writers (`LeafWritersOf`, for the handovers
 * between releases); undefined for an object the lock records no writers of.
 */
export function leafWritersOf(unit: LockedUnit): LeafWriter[] | undefined {
  return unit.writers?.flatMap((w) => {
    const id = lockedWriterIdentity(w);
    return leavesOf(w).map((l): LeafWriter => ({ path: l.path, writer: w.writer, id, runtime: w.kind === 'runtime' }));
  });
}

/** The leaves of a writer's record, presence marked. */
export function leavesOf(writer: LockedWriter): OwnedLeaf[] {
  const presence = new Set(parseFieldsV1(writer.presence ?? {}).map(pathKey));
  return parseFieldsV1(writer.fields).map((path) => (presence.has(pathKey(path)) ? { path, presence: true } : { path }));
}

/**
 * The objects of one runtime step for `applySequence`: each manifest of the step's files with its writers
 * from `plan.json` (runtime writers left out: they write in the cluster). A manifest the plan has no writers
 * for (a plan written before writers were recorded) gets none, and stays the applier's.
 *
 * @param manifests the step's objects, in the order of its files
 * @param writers the plan's writers of every object
 */
export function sequencedObjects(manifests: readonly any[], writers: readonly PlanObjectWriters[]): SequencedObject[] {
  const byId = writersById(writers);
  return manifests.map((manifest): SequencedObject => {
    const entry = planIdentitiesOf(manifest).map((id) => byId.get(`object:${identityKey(id)}`)).find((e) => e !== undefined);
    const applied: AppliedWriter[] = (entry?.writers ?? [])
      .filter(isAppliedWriter)
      .map((w) => ({ writer: w.writer, manager: w.manager, leaves: leavesOf(w) }));
    return {
      manifest,
      writers: applied,
      ...(entry?.handOver ? { handOver: entry.handOver.map((h) => ({ manager: h.manager, object: h.object })) } : {}),
      ...(entry?.releaseFirst ? { releaseFirst: entry.releaseFirst } : {}),
      ...(entry?.released ? { released: entry.released } : {}),
    };
  });
}

/** True for a writer `apply` applies the leaves of under its own manager: every writer but a runtime writer. */
export function isAppliedWriter(w: LockedWriter): w is LockedWriter & { manager: string } {
  return w.kind !== 'runtime' && w.manager !== undefined;
}

/** The plan's writers by object id, made once per plan: `apply` asks for it at every runtime step. */
const writerIndexes = new WeakMap<readonly PlanObjectWriters[], ReadonlyMap<string, PlanObjectWriters>>();

function writersById(writers: readonly PlanObjectWriters[]): ReadonlyMap<string, PlanObjectWriters> {
  let index = writerIndexes.get(writers);
  if (!index) {
    index = new Map(writers.map((w) => [w.object, w]));
    writerIndexes.set(writers, index);
  }
  return index;
}

/**
 * The objects of a lock with their writers, for `auditCluster`; objects recorded without writers (a lock
 * from before they were) are left out. The field-ownership policies and bindings come last, each an object
 * the release applies whole (`ExpectedObject.whole`).
 */
export function expectedObjects(lock: Lock): ExpectedObject[] {
  const out: ExpectedObject[] = [];
  for (const unit of lock.units) {
    if (!unit.writers || !unit.id.startsWith('object:')) continue;
    const [group, kind, namespace, ...name] = unit.id.slice('object:'.length).split('|');
    const role = syncRole(hookAnnotationsOf(unit.values));
    out.push({
      identity: { group, kind, namespace, name: name.join('|') },
      label: unit.label,
      unitId: unit.id,
      ...(role !== 'object' ? { argoCd: role } : {}),
      writers: unit.writers.map((w) => ({
        writer: w.writer,
        ...(w.manager !== undefined ? { manager: w.manager } : {}),
        leaves: leavesOf(w),
        ...(w.kind === 'runtime' ? { runtime: true } : {}),
      })),
      ...(unit.handedBack ? { handedBack: unit.handedBack.map(handedBackLeaves) } : {}),
    });
  }
  const units = new Set(lock.units.map((u) => u.id));
  for (const policy of lock.fieldOwnershipPolicies ?? []) {
    const identity = { ...policyIdentity(policy), namespace: '' };
    const unitId = policyUnitId(policy);
    out.push({ identity, label: describeIdentity(identity), ...(units.has(unitId) ? { unitId } : {}), writers: [], whole: true });
  }
  return out;
}

/** The hook annotations Argo CD reads, by the names the lock gives their values. */
const HOOK_VALUES = [ARGO_CD_HOOK, HELM_HOOK, ARGO_CD_HOOK_DELETE_POLICY, HELM_HOOK_DELETE_POLICY].map((key) => [key, formatPath(['metadata', 'annotations', key])]);

/** A manifest holding only the hook annotations of a locked object's values, as `syncRole` reads them. */
function hookAnnotationsOf(values: Readonly<Record<string, unknown>> | undefined): any {
  const annotations: Record<string, unknown> = {};
  for (const [key, name] of HOOK_VALUES) if (values?.[name] !== undefined) annotations[key] = values[name];
  return { metadata: { annotations } };
}

/** A hand-back of the lock with its leaves parsed, for `auditCluster`. */
function handedBackLeaves(h: LockedHandBack): HandedBackLeaves {
  return { writer: h.writer, manager: h.manager, leaves: parseFieldsV1(h.fields).map((path) => ({ path })) };
}

/**
 * The identities a manifest of a runtime file may have in the plan and the lock, the likelier first. Synth
 * names a cluster-scoped object without the namespace its manifest may still carry (the manifest stays as
 * declared), and a runtime file does not say which kinds are cluster-scoped beyond the built-in ones: a CRD
 * of the composition in another step, or a kind `Reference.clusterScoped` declares. So a manifest of a
 * built-in cluster-scoped kind has the identity without a namespace; any other with a namespace has it with
 * that namespace, else without one.
 */
export function planIdentitiesOf(manifest: unknown): ObjectIdentity[] {
  const id = identityOfManifest(manifest);
  if (isClusterScoped(id.group, id.kind)) return [{ ...id, namespace: '' }];
  return id.namespace === '' ? [id] : [id, { ...id, namespace: '' }];
}

/** The identity of a manifest as the lock keys it (namespace as written, `''` when none). */
function identityOfManifest(manifest: any): ObjectIdentity & { namespace: string } {
  const apiVersion = String(manifest?.apiVersion ?? '');
  const slash = apiVersion.indexOf('/');
  return {
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    kind: String(manifest?.kind ?? ''),
    namespace: String(manifest?.metadata?.namespace ?? ''),
    name: String(manifest?.metadata?.name ?? ''),
  };
}
