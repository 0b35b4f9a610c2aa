import { LeafPaths, LockedLeaves, lockValues } from './lock-values';
import { sharedFieldsV1 } from '../cluster/fields-v1';
import { lockedWritersOf, runtimeManagersOf } from '../cluster/object-writers';
import type { Facts, FieldWrite, ObjectFact } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import { writerName } from '../collect/ledger/writer';
import { describeIdentity, groupKind } from '../collect/object-identity';
import { CrdTopologies } from '../collect/topology/crd-topology';
import { FieldTopology, topologyOf } from '../collect/topology/field-topology';
import { sha256Hex } from '../private/sha256';
import type { InterfaceArtifact } from '../release/interface-record';
import { keyedValues } from '../release/keyed-leaves';
import { Lock, LOCK_FORMAT_VERSION, LockedPolicy, LockedUnit, objectUnitId, stackUnitId } from '../release/lock';
import type { LockKey } from '../release/lock-key';
import { LockPathSteps } from '../release/locked-manifest';
import { secretEnvValueAt } from '../release/sensitive-env';
import { templateSecretAt } from '../release/sensitive-properties';

/**
 * The lock of this release: the interface artifact (with the runtime writers),
 * and the inventory of stacks and objects with the dependency graph between them, a digest of each
 * template and manifest, and its leaves for the plan's field diff, masked
 * (`lockValues`): no secret and no token is stored. With a key, each masked
 * value keeps a keyed digest (`LockedUnit.sensitive`), so the plan can say
 * `(sensitive, changed)`; a unit that holds a masked value is digested from its
 * masked leaves, so its digest says nothing about the value either.
 *
 * The objects of the field-ownership step (`enforce`: the admission policies and their bindings) are units
 * too, first, as they are applied: with their digest and leaves, so the plan shows each one added, changed
 * or removed and the teardown deletes a removed one; no construct declares them, so their `path` is the
 * step's id and they record no writers (the release applies them whole). `fieldOwnershipPolicies` lists
 * them by kind and name.
 *
 * @param rendered each object's manifest as already rendered (YAML), hashed instead of serializing it again
 * @param key the key of the digests of sensitive values; without one the lock keeps none
 * An object's leaves are recorded by the names the plan gives them (`keyedValues`: keyed list elements by their
 * keys), and so are the keyed digests of its masked values, so that a digest says whether a value changed wherever
 * its element moved in its list.
 *
 * @param policies the objects of the field-ownership step (`enforce`), in the order applied
 * @param masked where to put the value behind each masked leaf, by unit id and the leaf's name in the lock: what
 *   the plan digests again under the name an earlier lock gave the leaf (`diffReleases`); never written
 */
export function buildLock(
  facts: Facts,
  artifact: InterfaceArtifact,
  rendered: ReadonlyMap<ObjectFact, string>,
  key?: LockKey,
  policies: readonly ObjectFact[] = [],
  masked?: Map<string, ReadonlyMap<string, unknown>>,
): Lock {
  const g = facts.graph;
  const writes = new Map(facts.ledger.objects.filter((o) => o.kind === 'k8s').map((o) => [o.label, o.writes]));
  const crds = CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
  const runtimeManagers = runtimeManagersOf(facts.runtimeWriters);
  const fieldsV1 = sharedFieldsV1();
  const paths = new LeafPaths();
  const steps = new LockPathSteps();
  const binds = new Map<number, string>();
  for (const c of facts.contracts) for (const b of c.consumers) if (b.binding !== undefined) binds.set(b.binding, c.parameterName);
  const topology = (manifest: any) => topologyOf(String(manifest?.apiVersion ?? ''), String(manifest?.kind ?? ''), crds);
  const units: LockedUnit[] = policies.map((o) => policyUnit(o, rendered, key, paths, steps, topology(o.manifest), masked));
  const barriers: string[] = [];
  const index = new Int32Array(g.size);
  const barrierNodes: number[] = [];
  for (let n = 0; n < g.size; n++) {
    const unit = g.value(n);
    if (!unit) {
      barrierNodes.push(n);
      continue;
    }
    index[n] = units.length;
    if (unit.kind === 'stack') {
      const stack = facts.stacks[unit.index];
      const id = stackUnitId(stack.path);
      const template = stack.template ?? {};
      const leaves = lockValues(withoutResourceMetadata(template), (at) => templateSecretAt(template, at) !== undefined, paths);
      units.push({
        id,
        label: `stack ${stack.path}`,
        path: stack.path,
        stackName: stack.stackName,
        ...(stack.region !== undefined ? { region: stack.region } : {}),
        ...(stack.pinnedAccount !== undefined ? { account: stack.pinnedAccount } : {}),
        ...digested(id, leaves, () => JSON.stringify(template), key, undefined, steps, masked),
      });
    } else {
      const o = facts.objects[unit.index];
      const { group, kind, namespace, name } = o.identity;
      const isCrd = group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition';
      const id = objectUnitId(o.key);
      const label = describeIdentity(o.identity);
      const written = writes.get(label);
      const isSecret = group === '' && kind === 'Secret';
      const leaves = lockValues(o.manifest, (at) => (isSecret && at.length === 1 && (at[0] === 'data' || at[0] === 'stringData')) || secretEnvValueAt(o.manifest, at) !== undefined, paths);
      const text = () => rendered.get(o) ?? JSON.stringify(o.manifest);
      const { digest, ...values } = digested(id, leaves, text, key, topology(o.manifest), steps, masked);
      units.push({
        id,
        label,
        path: o.declarer,
        digest,
        groupKind: groupKind(group, kind),
        ...(namespace ? { namespace } : {}),
        ...(isCrd ? { defines: groupKind(String(o.manifest.spec?.group ?? ''), String(o.manifest.spec?.names?.kind ?? '')) } : {}),
        ...(group === '' && kind === 'Namespace' ? { namespaceName: name } : {}),
        ...(binds.has(unit.index) ? { binds: binds.get(unit.index) } : {}),
        ...values,
        ...ownersOf(written, o.declarer),
        // who writes which leaf, under which field manager: for apply and audit (docs/cluster.md)
        writers: lockedWritersOf(o, written, crds, runtimeManagers, fieldsV1),
      });
    }
  }
  for (const n of barrierNodes) {
    index[n] = units.length + barriers.length;
    barriers.push(g.label(n));
  }
  const edges: Array<[number, number, string]> = [];
  for (const e of g.edges()) edges.push([index[e.from], index[e.to], e.reason]);
  return {
    formatVersion: LOCK_FORMAT_VERSION,
    ...(key ? { sensitiveKeyId: key.id } : {}),
    interfaces: artifact.interfaces,
    ...(artifact.runtimeWriters ? { runtimeWriters: artifact.runtimeWriters } : {}),
    ...(policies.length > 0 ? { fieldOwnershipPolicies: policies.map((o) => ({ kind: o.identity.kind as LockedPolicy['kind'], name: o.identity.name })) } : {}),
    units,
    barriers,
    edges,
  };
}

/** The unit of an object of the field-ownership step: its identity, digest and leaves, and no writers. */
function policyUnit(
  o: ObjectFact,
  rendered: ReadonlyMap<ObjectFact, string>,
  key: LockKey | undefined,
  paths: LeafPaths,
  steps: LockPathSteps,
  topology: FieldTopology,
  masked: Map<string, ReadonlyMap<string, unknown>> | undefined,
): LockedUnit {
  const id = objectUnitId(o.key);
  const leaves = lockValues(o.manifest, () => false, paths);
  return {
    id,
    label: describeIdentity(o.identity),
    path: o.declarer,
    ...digested(id, leaves, () => rendered.get(o) ?? JSON.stringify(o.manifest), key, topology, steps, masked),
    groupKind: groupKind(o.identity.group, o.identity.kind),
  };
}

/**
 * A unit's digest, values and keyed digests of its masked values. Without a
 * masked value the digest is of the whole text (as rendered); with one, of the
 * masked leaves by index path (as every format of the lock took it), which never hold the value. With the topology
 * of an object's kind, its values and digests are by the names the plan gives its leaves (`keyedValues`), the
 * paths parsed once for the whole lock (`steps`).
 */
function digested(
  id: string,
  leaves: LockedLeaves,
  text: () => string,
  key: LockKey | undefined,
  topology: FieldTopology | undefined,
  steps: LockPathSteps,
  masked: Map<string, ReadonlyMap<string, unknown>> | undefined,
): Pick<LockedUnit, 'digest' | 'values' | 'sensitive'> {
  const { values, names } = topology ? keyedValues(leaves.values, topology, steps) : { values: leaves.values, names: new Map<string, string>() };
  if (leaves.masked.size === 0) return { digest: hashText(text()), values };
  const byName = new Map([...leaves.masked].map(([path, value]) => [names.get(path) ?? path, value]));
  masked?.set(id, byName);
  const sensitive: Record<string, string> = {};
  if (key) for (const [path, value] of byName) sensitive[path] = key.digest(id, path, value);
  return { digest: hashText(JSON.stringify(leaves.values)), values, ...(key ? { sensitive } : {}) };
}

/** The leaves written by another construct than the declarer, by path: the owners a handover changes. */
function ownersOf(writes: readonly FieldWrite[] | undefined, declarer: string): { owners?: Record<string, string> } {
  const owners: Record<string, string> = {};
  for (const w of writes ?? []) if (w.writer.kind !== 'declaration' || w.writer.path !== declarer) owners[formatPath(w.path)] = writerName(w.writer);
  return Object.keys(owners).length > 0 ? { owners } : {};
}

/** A template without each resource's `Metadata` (construct paths, asset details), which is no change to review. */
function withoutResourceMetadata(template: any): any {
  const resources: Record<string, any> = {};
  for (const [id, r] of Object.entries<any>(template.Resources ?? {})) {
    const { Metadata: _, ...rest } = r ?? {};
    resources[id] = rest;
  }
  return template.Resources ? { ...template, Resources: resources } : template;
}

function hashText(text: string): string {
  return sha256Hex(text, 16);
}
