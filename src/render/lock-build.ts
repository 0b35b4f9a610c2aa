import { holdsSensitiveLeaf, LeafPaths, LockedLeaves, lockValues, maskedValue, mayHoldSensitiveLeaf } from './lock-values';
import { lockedWritersOf, runtimeManagersOf } from '../cluster/object-writers';
import { WriterSets } from '../cluster/writer-sets';
import type { Facts, FieldWrite, ObjectFact } from '../collect/facts';
import { formatPath } from '../collect/ledger/field-path';
import { writerName } from '../collect/ledger/writer';
import { describeIdentity, groupKind } from '../collect/object-identity';
import { CrdTopologies } from '../collect/topology/crd-topology';
import { FieldTopology, topologyOf } from '../collect/topology/field-topology';
import { sha256Hex } from '../private/sha256';
import type { InterfaceArtifact } from '../release/interface-record';
import { keyedValues } from '../release/keyed-leaves';
import { Lock, LOCK_FORMAT_VERSION, LockedGitOps, LockedPolicy, LockedUnit, objectUnitId, stackUnitId } from '../release/lock';
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
 * @param gitops the GitOps engine the output is written for and, for Flux, its step Kustomizations (`Lock.gitops`)
 */
export function buildLock(
  facts: Facts,
  artifact: InterfaceArtifact,
  rendered: ReadonlyMap<ObjectFact, string>,
  key?: LockKey,
  policies: readonly ObjectFact[] = [],
  masked?: Map<string, ReadonlyMap<string, unknown>>,
  gitops?: LockedGitOps,
): Lock {
  const g = facts.graph;
  const writes = new Map(facts.ledger.objects.filter((o) => o.kind === 'k8s').map((o) => [o.label, o.writes]));
  const crds = CrdTopologies.fromManifests(facts.objects.map((o) => o.manifest));
  const runtimeManagers = runtimeManagersOf(facts.runtimeWriters);
  const writerSets = WriterSets.shared();
  // the paths made and parsed so far, shared by the lock's units
  const shared = { paths: new LeafPaths(), steps: new LockPathSteps() };
  const binds = new Map<number, string>();
  for (const c of facts.contracts) for (const b of c.consumers) if (b.binding !== undefined) binds.set(b.binding, c.parameterName);
  const topology = topologiesOf(crds);
  const units: LockedUnit[] = policies.map((o) => policyUnit(o, rendered, key, shared, topology(o.manifest), masked));
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
      const source: UnitSource = { doc: template, template: true, sensitiveAt: templateSecret, shared };
      const { placed } = unitLeaves(id, source, () => JSON.stringify(template), key, masked);
      units.push(
        placed(
          {
            id,
            label: `stack ${stack.path}`,
            path: stack.path,
            stackName: stack.stackName,
            ...(stack.region !== undefined ? { region: stack.region } : {}),
            ...(stack.pinnedAccount !== undefined ? { account: stack.pinnedAccount } : {}),
          },
          {},
        ),
      );
    } else {
      const o = facts.objects[unit.index];
      const { group, kind, namespace, name } = o.identity;
      const isCrd = group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition';
      const id = objectUnitId(o.key);
      const label = describeIdentity(o.identity);
      const written = writes.get(label);
      const isSecret = group === '' && kind === 'Secret';
      const kindTopology = topology(o.manifest);
      const source: UnitSource = { doc: o.manifest, sensitiveAt: isSecret ? secretDataOrEnv : secretEnv, topology: kindTopology, shared };
      const { placed } = unitLeaves(id, source, () => rendered.get(o) ?? JSON.stringify(o.manifest), key, masked);
      const head = placed(
        { id, label, path: o.declarer },
        {
          groupKind: groupKind(group, kind),
          ...(namespace ? { namespace } : {}),
          ...(isCrd ? { defines: groupKind(String(o.manifest.spec?.group ?? ''), String(o.manifest.spec?.names?.kind ?? '')) } : {}),
          ...(group === '' && kind === 'Namespace' ? { namespaceName: name } : {}),
          ...(binds.has(unit.index) ? { binds: binds.get(unit.index) } : {}),
        },
      );
      units.push(
        Object.assign(head, ownersOf(written, o.declarer), {
          // who writes which leaf, under which field manager: for apply and audit (docs/cluster.md)
          writers: lockedWritersOf(o, written, kindTopology, runtimeManagers, writerSets),
        }),
      );
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
    ...(gitops ? { gitops } : {}),
    units,
    barriers,
    edges,
  };
}

/**
 * The topology of a manifest's kind (`topologyOf`, with the composition's CRDs), looked up once per `apiVersion`
 * and `kind`: a release's objects are of a few kinds.
 */
function topologiesOf(crds: CrdTopologies): (manifest: any) => FieldTopology {
  const byVersion = new Map<string, Map<string, FieldTopology>>();
  return (manifest) => {
    const apiVersion = String(manifest?.apiVersion ?? '');
    const kind = String(manifest?.kind ?? '');
    let byKind = byVersion.get(apiVersion);
    if (byKind === undefined) byVersion.set(apiVersion, (byKind = new Map()));
    let topology = byKind.get(kind);
    if (topology === undefined) byKind.set(kind, (topology = topologyOf(apiVersion, kind, crds)));
    return topology;
  };
}

/** The unit of an object of the field-ownership step: its identity, digest and leaves, and no writers. */
function policyUnit(
  o: ObjectFact,
  rendered: ReadonlyMap<ObjectFact, string>,
  key: LockKey | undefined,
  shared: UnitSource['shared'],
  topology: FieldTopology,
  masked: Map<string, ReadonlyMap<string, unknown>> | undefined,
): LockedUnit {
  const id = objectUnitId(o.key);
  const { placed } = unitLeaves(id, { doc: o.manifest, topology, shared }, () => rendered.get(o) ?? JSON.stringify(o.manifest), key, masked);
  const head = placed({ id, label: describeIdentity(o.identity), path: o.declarer }, {});
  return Object.assign(head, { groupKind: groupKind(o.identity.group, o.identity.kind) });
}

/**
 * What a unit's leaves are read from: a stack's template or an object's manifest, and which of its nodes hold a
 * secret. A plain record, so that a unit whose values are made when first read holds no more than this.
 */
interface UnitSource {
  /** The template or manifest. */
  readonly doc: any;
  /** True for a stack's template, whose resources' `Metadata` the leaves leave out (`withoutResourceMetadata`). */
  readonly template?: boolean;
  /** Whether the node at these keys of `doc` holds a secret, with all below it (`lockValues`' `isSensitive`). */
  readonly sensitiveAt?: (doc: any, at: readonly string[]) => boolean;
  /** The topology of an object's kind, by which its leaves are named (`keyedValues`); none for a stack. */
  readonly topology?: FieldTopology;
  /** The paths made and parsed so far, one for the whole lock. */
  readonly shared: { readonly paths: LeafPaths; readonly steps: LockPathSteps };
}

/** A node of a template that takes a secret (`templateSecretAt`). */
const templateSecret = (template: any, at: readonly string[]) => templateSecretAt(template, at) !== undefined;
/** The literal value of a secret-named environment variable (`secretEnvValueAt`). */
const secretEnv = (manifest: any, at: readonly string[]) => secretEnvValueAt(manifest, at) !== undefined;
/** A Secret's `data` and `stringData`, or a secret-named environment variable's value. */
const secretDataOrEnv = (manifest: any, at: readonly string[]) => (at.length === 1 && (at[0] === 'data' || at[0] === 'stringData')) || secretEnv(manifest, at);

/**
 * A Kubernetes object as a printout may show it, masked as the lock masks its leaves (`lockValues`, by the same
 * nodes and `maskedValue`): a Secret's `data` and `stringData` values and a secret-named environment variable's
 * literal value are `(sensitive)`, a value shaped like a secret `(sensitive)`, a token `(known after deploy)`;
 * every key, and every other value, as it is. The object itself is not changed.
 */
export function maskedManifest(manifest: unknown): unknown {
  const m = manifest as { apiVersion?: unknown; kind?: unknown } | null;
  const isSecret = m?.apiVersion === 'v1' && m?.kind === 'Secret';
  const sensitiveAt = isSecret ? secretDataOrEnv : secretEnv;
  const keys: string[] = [];
  const walk = (v: unknown): unknown => {
    if (keys.length > 0 && sensitiveAt(manifest, keys)) return maskedValue(v, true);
    if (Array.isArray(v)) return v.map((x, i) => under(String(i), x));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, under(k, x)]));
    return maskedValue(v);
  };
  const under = (key: string, v: unknown): unknown => {
    keys.push(key);
    const shown = walk(v);
    keys.pop();
    return shown;
  };
  return walk(manifest);
}

/** The document of a unit as its leaves are read: a template without its resources' `Metadata`. */
function documentOf(source: UnitSource): unknown {
  return source.template ? withoutResourceMetadata(source.doc) : source.doc;
}

/** How `lockValues` tells a sensitive node of the unit's document. */
function isSensitiveIn(source: UnitSource): ((at: readonly string[]) => boolean) | undefined {
  const sensitiveAt = source.sensitiveAt;
  return sensitiveAt && ((at) => sensitiveAt(source.doc, at));
}

/** The leaves of a unit, masked (`lockValues`). */
function leavesOf(source: UnitSource): LockedLeaves {
  return lockValues(documentOf(source), isSensitiveIn(source), source.shared.paths);
}

/** The leaves of a unit by their names (`keyedValues`), and the name of each index path that has another. */
function namedLeaves(source: UnitSource, values: Record<string, unknown>): { values: Record<string, unknown>; names: ReadonlyMap<string, string> } {
  return source.topology ? keyedValues(values, source.topology, source.shared.steps) : { values, names: new Map<string, string>() };
}

/** How a unit's digest and leaves go on it. */
interface UnitLeaves {
  /**
   * `head` with the unit's `digest` after its properties, then the properties of `rest`, then its `values` and,
   * with a key when it holds a sensitive value, the keyed digests of those values (`sensitive`). The digest is of
   * the whole text (as rendered) without a sensitive value; with one, of the masked leaves by index path (as every
   * format of the lock took it), which never hold the value (`digestOf`).
   */
  placed<T extends object, R extends object>(head: T, rest: R): T & Pick<LockedUnit, 'digest'> & R & Pick<LockedUnit, 'values' | 'sensitive'>;
}

/**
 * A unit's digest and leaves. With the topology of an object's kind, its values and digests are by the names the
 * plan gives its leaves (`keyedValues`, the paths parsed once for the whole lock: `steps`).
 *
 * Without a key, nothing is made until read: the digest (and whether the unit holds a sensitive value, which
 * decides what it is taken of) when first read (`DIGEST_WHEN_READ`), the values too (`VALUES_WHEN_READ`). Only
 * the comparison with a previous lock and the lock written read them; a first release that writes no lock takes no
 * digest. With a key, a unit that holds a sensitive value gets them now: its digest is taken over its masked
 * leaves, the keyed digests of its masked values are recorded (`sensitive`, present or not as it holds one), and
 * `masked` gets the value behind each by its name. Any other unit's digest is of its text, and its `values` are
 * made from its document when first read, then kept: naming leaves is most of the cost of a lock, and nothing
 * reads the values of a unit that is unchanged against the previous lock, unless the lock is written. Nothing is
 * held until then but the document the facts hold anyway (holding the leaves made had cost the memory of their
 * strings).
 */
function unitLeaves(
  id: string,
  source: UnitSource,
  text: () => string,
  key: LockKey | undefined,
  masked: Map<string, ReadonlyMap<string, unknown>> | undefined,
): UnitLeaves {
  if (key === undefined) {
    // no keyed digest to record, and the masked values are digested again only with a key (`Redigest`)
    return { placed: (head, rest) => valuesWhenRead(Object.assign(digestWhenRead(head, source, text), rest), source) };
  }
  const whole = text();
  if (!holdsSensitive(source, whole)) {
    const digest = hashText(whole);
    return { placed: (head, rest) => valuesWhenRead(Object.assign(head, { digest }, rest), source) };
  }
  const leaves = leavesOf(source);
  const { values, names } = namedLeaves(source, leaves.values);
  const byName = new Map([...leaves.masked].map(([path, value]) => [names.get(path) ?? path, value]));
  masked?.set(id, byName);
  const sensitive: Record<string, string> = {};
  if (key) for (const [path, value] of byName) sensitive[path] = key.digest(id, path, value);
  const digest = hashText(JSON.stringify(leaves.values));
  return { placed: (head, rest) => Object.assign(head, { digest }, rest, { values }, key ? { sensitive } : {}) };
}

/** The source of each unit whose values are made when first read, until they are (`VALUES_WHEN_READ`). */
const valuesSource = new WeakMap<object, UnitSource>();
/** The values of each unit made when first read, once made (or set). */
const valuesMade = new WeakMap<object, Record<string, unknown> | undefined>();

/**
 * `values` of a unit made when first read (`JSON.stringify`, a spread and a read each read it), the same on every
 * later read. One getter and setter for every unit, and its source beside it: the units keep one shape, as plain
 * objects of one literal do (a getter of each unit's own had taken three times a small unit's memory).
 */
const VALUES_WHEN_READ: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object) {
    if (!valuesMade.has(this)) {
      valuesMade.set(this, namedLeaves(valuesSource.get(this)!, leavesOf(valuesSource.get(this)!).values).values);
      valuesSource.delete(this);
    }
    return valuesMade.get(this);
  },
  set(this: object, value: Record<string, unknown> | undefined) {
    valuesMade.set(this, value);
    valuesSource.delete(this);
  },
};

/** The digest of a unit (`UnitLeaves.digest`): of its text, or of its masked leaves when it holds a sensitive value. */
function digestOf(source: UnitSource, text: () => string): string {
  const t = text();
  return holdsSensitive(source, t) ? hashText(JSON.stringify(leavesOf(source).values)) : hashText(t);
}

/**
 * Whether a unit holds a sensitive value (`holdsSensitiveLeaf` of its document), its document walked only when its
 * text and the nodes that can take a secret say it may (`mayHoldSensitiveLeaf`): most units are told from their text.
 *
 * @param text the unit's text, as its digest is taken of
 */
function holdsSensitive(source: UnitSource, text: string): boolean {
  const nodes = source.sensitiveAt === undefined ? 'none' : source.sensitiveAt === secretEnv ? 'env' : source.sensitiveAt === templateSecret ? 'template' : 'any';
  return mayHoldSensitiveLeaf(source.doc, text, nodes) && holdsSensitiveLeaf(documentOf(source), isSensitiveIn(source));
}

/** The source and text of each unit whose digest is taken when first read, until it is (`DIGEST_WHEN_READ`). */
const digestSource = new WeakMap<object, { readonly source: UnitSource; readonly text: () => string }>();
/** The digest of each unit taken when first read, once taken (or set). */
const digestMade = new WeakMap<object, string>();

/** `digest` of a unit taken when first read (`digestOf`), the same on every later read: one getter for every unit, as `VALUES_WHEN_READ`. */
const DIGEST_WHEN_READ: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object) {
    let digest = digestMade.get(this);
    if (digest === undefined) {
      const { source, text } = digestSource.get(this)!;
      digest = digestOf(source, text);
      digestMade.set(this, digest);
      digestSource.delete(this);
    }
    return digest;
  },
  set(this: object, value: string) {
    digestMade.set(this, value);
    digestSource.delete(this);
  },
};

/**
 * Adds `digest` to `unit`, after the properties it has, taken from `source` and `text` when first read
 * (`DIGEST_WHEN_READ`). Added, not made over a `digest` the unit has: a property made over into a getter would
 * turn the unit into a dictionary, slower to read and to write as JSON.
 */
function digestWhenRead<T extends object>(unit: T, source: UnitSource, text: () => string): T & Pick<LockedUnit, 'digest'> {
  digestSource.set(unit, { source, text });
  return Object.defineProperty(unit, 'digest', DIGEST_WHEN_READ) as T & Pick<LockedUnit, 'digest'>;
}

/** Adds `values` to `unit`, after the properties it has, made from `source` when first read (`VALUES_WHEN_READ`). */
function valuesWhenRead<T extends object>(unit: T, source: UnitSource): T & Pick<LockedUnit, 'values'> {
  valuesSource.set(unit, source);
  return Object.defineProperty(unit, 'values', VALUES_WHEN_READ) as T & Pick<LockedUnit, 'values'>;
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
