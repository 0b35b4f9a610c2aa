import { compareInterfaces, InterfaceChange, majorOf, matchInterfaces } from './interface-compatibility';
import type { InterfaceRecord } from './interface-record';
import { KeyedLeaf, KeyedLeaves, keyedLeaves } from './keyed-leaves';
import { KNOWN_AFTER_DEPLOY, Lock, LockedGitOps, LockedUnit, LockedWriter, SENSITIVE } from './lock';
import { LOCK_KEY_ENV } from './lock-key';
import { indexedLeaves, indexedValues } from './locked-manifest';
import { OrderChange, orderChanges } from './order-changes';
import { lineUpPositionalLists, WholeElement } from './positional-lists';
import type { RuntimeWriterRecord } from './runtime-writer-record';
import { namesBeforeQuoting, unquotedFieldText, unquotedLeafName } from './unquoted-paths';
import { lockedWriterIdentity } from './writer-identity';
import { FieldPath, formatPath } from '../collect/ledger/field-path';
import { writerNameWithoutSite } from '../collect/ledger/writer';
import type { FieldTopology } from '../collect/topology/field-topology';
import { compareText } from '../private/compare';
import { hasToJson } from '../private/manifest-walk';

/** What a changed sensitive leaf shows instead of its values: that it changed, by its keyed digest. */
export const SENSITIVE_CHANGED = '(sensitive, changed)';

/**
 * What a sensitive leaf shows when the lock held it unmasked (written by an earlier version), never the old value;
 * or when the lock digested it under another name and its value cannot be digested under that one (`Redigest`).
 */
export const SENSITIVE_NOT_COMPARED = '(sensitive, not compared)';

/**
 * One changed leaf of a stack's template or an object's manifest, or an element of a keyed list added or
 * removed whole; masked values as the lock holds them.
 */
export interface FieldChange {
  /**
   * The leaf, as the field ledger prints a path: `spec.replicas`, `spec.template.spec.containers[name=web].image`
   * (an element of a keyed list by its keys, a set value by itself), `spec.rules[0].backendRefs[1].weight` (an
   * element of an atomic list by its index). For an element added or removed whole, the element:
   * `spec.template.spec.containers[name=proxy]`.
   */
  readonly path: string;
  /**
   * The locked value; absent when the leaf is added. `(sensitive)` for a masked value. For an element
   * removed whole, the element (its leaves masked as the lock masks them).
   */
  readonly before?: unknown;
  /**
   * The value of this release; absent when the leaf is removed. `(sensitive, changed)` for a masked value
   * whose keyed digest changed. For an element added whole, the element.
   */
  readonly after?: unknown;
}

/** Stacks and objects holding sensitive values the plan could not compare, and why. */
export interface SensitiveNotCompared {
  /** Why, for example `CDK_CAPABILITY_LOCK_KEY is not set`. */
  readonly reason: string;
  /** The stacks and objects (in both releases) that hold sensitive values, as `changed` names them. */
  readonly units: string[];
}

/** The changed leaves of one changed stack or object. */
export interface UnitChanges {
  /** The stack or object, as `changed` names it. */
  readonly unit: string;
  /**
   * The changed leaves, in the order of this release's manifest (removed
   * leaves last); empty when only masked values changed, when the lock holds no values,
   * or when only the digest differs (`note` says which).
   */
  readonly fields: FieldChange[];
  /** Why `fields` cannot show everything, when it cannot. */
  readonly note?: string;
}

/** Where a contract major is published: its version and parameter. */
export interface PublishedMajor {
  /** The semver version. */
  readonly version: string;
  /** The SSM parameter name, which carries the major. */
  readonly parameter: string;
}

/** A contract's version or parameter path that changes, a major added beside the previous one, or a major retired. */
export interface ContractChange {
  /** `<capability>/<contract>`. */
  readonly contract: string;
  /** `changed` (same major, or bumped in place), `added` (a new contract or a major beside the previous one), `retired`. */
  readonly change: 'added' | 'changed' | 'retired';
  /** The locked version and parameter; absent when added. */
  readonly before?: PublishedMajor;
  /** This release's version and parameter; absent when retired. */
  readonly after?: PublishedMajor;
}

/** A route whose traffic split changes: the weight of each backend before and after. */
export interface TrafficChange {
  /** The route, as `changed` names it. */
  readonly route: string;
  /** Each backend's weight in the lock (an `HTTPRoute` backendRef without a weight counts 1, an Istio destination 100 when alone). */
  readonly before: Record<string, number>;
  /** Each backend's weight in this release. */
  readonly after: Record<string, number>;
}

/**
 * Where a leaf's writing moves between the release and the cluster: from a writer of the release (the
 * declarer, a Contribution, a patch: what the deployer applies) to a controller declared as a
 * `RuntimeWriter`, or back.
 */
export type OwnershipMove = 'deploy-time-to-runtime' | 'runtime-to-deploy-time';

/** A leaf of an object whose writer changes between the locked release and this one. */
export interface Handover {
  /** The object, as the plan names it. */
  readonly unit: string;
  /** The leaf, as the field ledger prints it (`spec.replicas`). */
  readonly path: string;
  /** The locked writer, as the lock names it (its construct path; a runtime writer's with `(RuntimeWriter)`). */
  readonly from: string;
  /** This release's writer, as the lock names it. */
  readonly to: string;
  /**
   * When the leaf moves between deploy time and runtime: `deploy-time-to-runtime` (the release stops
   * applying it, a controller writes it from now on) or `runtime-to-deploy-time` (the release applies it,
   * over what the controller wrote); absent when both writers are of one side.
   */
  readonly moves?: OwnershipMove;
}

/** One leaf of an object with its writer, as the lock's writers record them. */
export interface LeafWriter {
  /** The leaf. */
  readonly path: FieldPath;
  /** Its writer, as the lock names it: what messages show. */
  readonly writer: string;
  /** What tells its writer from another, as `lockedWriterIdentity` gives it: never where a call was made. */
  readonly id: string;
  /** True for a controller that writes it in the cluster (a `RuntimeWriter`). */
  readonly runtime: boolean;
}

/**
 * Every leaf of a locked object with its writer, or undefined when the lock does not record them (written
 * before writers were); the handovers then fall back on `LockedUnit.owners`, which know no runtime writer.
 */
export type LeafWritersOf = (unit: LockedUnit) => readonly LeafWriter[] | undefined;

/**
 * The topology of a locked object's kind (its lists' keys), or undefined for a stack: how the plan names the
 * elements of its lists (`keyedLeaves`).
 */
export type UnitTopology = (unit: LockedUnit) => FieldTopology | undefined;

/**
 * The keyed digest of a masked leaf of this release taken under another name (`LockKey.digest` over the unit, that
 * name and the value), or undefined when this release holds no value behind the leaf: how the plan compares the
 * leaf with a digest the lock took under the leaf's name there (its index path, in a lock of format 1).
 *
 * @param unit the unit of this release
 * @param name the leaf's name in this release's lock
 * @param as the name the locked digest was taken under
 */
export type Redigest = (unit: LockedUnit, name: string, as: string) => string | undefined;

/** A runtime writer added, changed (its target, leaves, identity or field manager) or removed against the lock. */
export interface RuntimeWriterChange {
  /** Its construct path. */
  readonly writer: string;
  /** `added`, `changed` or `removed`. */
  readonly change: 'added' | 'changed' | 'removed';
  /** Its record in the lock; absent when added. */
  readonly before?: RuntimeWriterRecord;
  /** Its record in this release; absent when removed. */
  readonly after?: RuntimeWriterRecord;
}

/**
 * The GitOps output of the locked release that this one does not make again: another engine (or none), or, for Flux,
 * step Kustomizations of the lock that this release does not make. Nothing a release writes deletes them.
 */
export interface GitOpsChange {
  /** What the lock records of the previous release's GitOps output. */
  readonly before: LockedGitOps;
  /** What this release writes; absent when it writes no `gitops/`. */
  readonly after?: LockedGitOps;
  /** The previous release's Flux Kustomizations that this release does not make, by name (in `before.namespace`). */
  readonly kustomizations: string[];
  /**
   * Objects of both releases that move from one Flux step Kustomization to another (a step renumbered, a name reused
   * for other objects), when both locks record the Kustomizations' objects and this release's prune; absent when none
   * does. The one left prunes such an object while it still carries its owner labels.
   */
  readonly moved?: FluxMove[];
}

/** An object that moves from one Flux step Kustomization to another between two releases (`GitOpsChange.moved`). */
export interface FluxMove {
  /** The object, as the plan names it (`Kind namespace/name`). */
  readonly object: string;
  /** The Kustomization that applied it in the previous release. */
  readonly from: string;
  /** The Kustomization that applies it in this release. */
  readonly to: string;
  /**
   * True when the Kustomization it leaves applies this release only after the one it moves to has (it depends on it,
   * directly or through others, by `dependsOn` in both releases), so it never prunes the object; false when it may
   * apply first. Absent when either lock does not record the Kustomizations' `dependsOn` (written before it was).
   */
  readonly safe?: boolean;
}

/** What a release changes against the locked one; written to `plan.json` as `changes`. */
export interface ReleaseDiff {
  /** True when there was no lock: everything is added. */
  readonly firstRelease: boolean;
  /** Stacks and objects added, as `stack <path>` / `Kind ns/name`. */
  readonly added: string[];
  /** Stacks and objects whose template or manifest changed. */
  readonly changed: string[];
  /** Stacks and objects removed. */
  readonly removed: string[];
  /** The changed leaves of each changed stack and object, in the order of `changed`. */
  readonly fields: UnitChanges[];
  /** Contract versions and parameter paths that change. */
  readonly contracts: ContractChange[];
  /** Routes whose weights between backend versions change: shifting and rolling back traffic. */
  readonly traffic: TrafficChange[];
  /** Leaves of objects present in both releases whose owner (writer) changes. */
  readonly handovers: Handover[];
  /** Interface fields added, changed or removed, with the bump each needs. */
  readonly interface: InterfaceChange[];
  /**
   * Runtime writers added, changed or removed: who may write which fields in the cluster, which the
   * admission policy and `cdk-capability audit` follow. Absent when none is.
   */
  readonly runtimeWriters?: RuntimeWriterChange[];
  /**
   * Dependencies between stacks and objects of both releases added or dropped: the apply order changes though
   * no stack or object does. Absent when none is.
   */
  readonly order?: OrderChange[];
  /**
   * The previous release's GitOps output that this release does not make again (another engine, or Flux
   * Kustomizations it no longer makes). Absent when there is none, and when the lock does not record its engine.
   */
  readonly gitops?: GitOpsChange;
  /**
   * What this release's GitOps output is written for, when the lock records no engine for the previous release: it
   * was applied by `cdk-capability apply`, or its lock was written before the engine was recorded, and nothing in the
   * lock tells which, so the plan says the previous engine is unknown and how to check, and guesses nothing. Absent
   * otherwise.
   */
  readonly gitopsUnrecorded?: LockedGitOps;
  /**
   * Sensitive values that could not be compared (no `CDK_CAPABILITY_LOCK_KEY`, or
   * the lock was digested with another key): a change to them is not shown.
   * Absent when every sensitive value was compared.
   */
  readonly sensitiveNotCompared?: SensitiveNotCompared;
}

const ONLY_MASKED = 'only masked values changed';
const NO_RECORDED_DIFFERENCE =
  "its digest differs from the lock's, but none of the values the lock records does: the order of its keys or of a keyed list's elements changed, " +
  'or the lock was edited by hand or written by another version. Write the lock again with CDK_CAPABILITY_UPDATE_LOCK=1';
const NO_VALUES = 'the lock holds no field values (written by an earlier version); the next lock will';

/**
 * Compares two releases by their locks.
 *
 * @param previous the committed lock, or undefined for a first release
 * @param next the lock of this release
 * @param leafWritersOf every leaf of a locked object with its writer (read off `LockedUnit.writers`): with it,
 *   the handovers are exact for objects both locks record writers of, runtime writers included; without it,
 *   they come from `LockedUnit.owners`
 * @param topologyOf the topology of each object's kind: with it, the changed leaves name keyed list elements
 *   by their keys, as the ledger does; without it, by their indexes
 * @param redigest digests a masked value of this release under the name a locked digest was taken under (its
 *   index path in a lock of format 1), so that it is compared; without it, such a value is not compared
 */
export function diffReleases(
  previous: Lock | undefined,
  next: Lock,
  leafWritersOf?: LeafWritersOf,
  topologyOf?: UnitTopology,
  redigest?: Redigest,
): ReleaseDiff {
  if (!previous) {
    return {
      firstRelease: true,
      added: next.units.map((u) => u.label),
      changed: [],
      removed: [],
      fields: [],
      traffic: [],
      handovers: [],
      contracts: next.interfaces.map((r) => ({ contract: nameOf(r), change: 'added' as const, after: majorOfRecord(r) })),
      interface: [],
      ...runtimeWriterChanges(undefined, next),
    };
  }
  const before = new Map(previous.units.map((u) => [u.id, u]));
  const after = new Map(next.units.map((u) => [u.id, u]));
  const notCompared = notComparedReason(previous, next);
  const compared = notCompared === undefined;
  const changedUnits = next.units.filter((u) => {
    const old = before.get(u.id);
    return old !== undefined && (old.digest !== u.digest || (compared && sensitiveChanged(old, u, redigest)));
  });
  const holding = notCompared ? next.units.filter((u) => before.has(u.id) && holdsSensitive(before.get(u.id)!) && holdsSensitive(u)) : [];
  return {
    firstRelease: false,
    added: next.units.filter((u) => !before.has(u.id)).map((u) => u.label),
    changed: changedUnits.map((u) => u.label),
    removed: previous.units.filter((u) => !after.has(u.id)).map((u) => u.label),
    fields: changedUnits.map((u) => unitChanges(before.get(u.id)!, u, compared, topologyOf?.(u), redigest)),
    traffic: changedUnits.flatMap((u) => trafficChange(before.get(u.id)!, u)),
    handovers: next.units.flatMap((u) => (before.has(u.id) ? handovers(before.get(u.id)!, u, leafWritersOf) : [])),
    contracts: contractChanges(previous.interfaces, next.interfaces),
    interface: compareInterfaces(previous.interfaces, next.interfaces).changes,
    ...runtimeWriterChanges(previous, next),
    ...nonEmpty('order', orderChanges(previous, next)),
    ...gitopsChange(previous, next),
    ...(holding.length > 0 ? { sensitiveNotCompared: { reason: notCompared!, units: holding.map((u) => u.label) } } : {}),
  };
}

/** `{ [name]: list }`, or nothing when the list is empty: a change kind the plan leaves out when it has none. */
function nonEmpty<K extends string, T>(name: K, list: T[]): { [key in K]?: T[] } {
  return list.length > 0 ? ({ [name]: list } as { [key in K]?: T[] }) : {};
}

/** Why the sensitive values of two locks cannot be compared, or undefined when they can (both digested with one key). */
function notComparedReason(previous: Lock, next: Lock): string | undefined {
  if (next.sensitiveKeyId === undefined) return `${LOCK_KEY_ENV} is not set`;
  if (previous.sensitiveKeyId === undefined) return `the lock was written without ${LOCK_KEY_ENV}`;
  if (previous.sensitiveKeyId !== next.sensitiveKeyId) return `the lock was written with another ${LOCK_KEY_ENV}`;
  return undefined;
}

function holdsSensitive(u: LockedUnit): boolean {
  return Object.values(u.values ?? {}).some((v) => v === SENSITIVE);
}

/**
 * True when a masked leaf of both versions has keyed digests that say its value changed (digests of one key): the
 * leaf as the lock names it, or, in a lock of format 1, by the index path it has in this release too (the digests
 * are equal, so are the manifests' shapes), or, in a lock written before string keys were quoted, by the name it
 * had then (`[name=2]` for `[name="2"]`).
 */
function sensitiveChanged(old: LockedUnit, now: LockedUnit, redigest: Redigest | undefined): boolean {
  if (!old.sensitive || !now.sensitive) return false;
  const named = new Map(indexedLeaves(now.values ?? {}).map((l) => [l.path, l.source]));
  let unquoted: Map<string, string> | undefined;
  const nameBeforeQuoting = (path: string) => (unquoted ??= namesBeforeQuoting(Object.keys(now.sensitive!), unquotedLeafName)).get(path);
  return Object.keys(old.sensitive).some((path) => {
    const name = Object.hasOwn(now.sensitive!, path) ? path : named.get(path) ?? nameBeforeQuoting(path);
    return name !== undefined && sameSecret(old, path, now, name, redigest) === false;
  });
}

/**
 * The changed leaves between two versions of a unit, named as the field ledger names them when the
 * topology of the object's kind is given (`keyedLeaves`): an element of a keyed list by its keys, so an
 * element inserted before others changes none of them, and an element added or removed whole is one change
 * whose value is the element.
 *
 * @param compared whether both were digested with one key, so a masked leaf whose digest differs shows as
 *   `(sensitive, changed)`. A digest covers the leaf's name in its lock: by its keys, in a lock of format 2, so a
 *   masked leaf whose element moved in its list is compared as any other; a lock of format 1 took it under the
 *   leaf's index path, under which `redigest` digests this release's value
 * @param topology the topology of the object's kind; without it (a stack), leaves keep the lock's paths
 * @param redigest digests a masked value of this release under another name (`diffReleases`); without it, a
 *   masked leaf whose digests were taken under two names shows as `(sensitive, not compared)`
 */
export function unitChanges(old: LockedUnit, now: LockedUnit, compared = false, topology?: FieldTopology, redigest?: Redigest): UnitChanges {
  if (!old.values || !now.values) return { unit: now.label, fields: [], note: NO_VALUES };
  const [oldValues, nowValues] = [old.values, now.values];
  const before = keyedLeaves(oldValues, topology);
  const after = keyedLeaves(nowValues, topology);
  // elements of positional lists (atomic to server-side apply) lined up as a text diff lines up lines
  const linedUp = lineUpPositionalLists(
    before.leaves.map((l) => ({ path: l.path, value: oldValues[l.source] })),
    after.leaves.map((l) => ({ path: l.path, value: nowValues[l.source] })),
  );
  const oldAt = new Map(before.leaves.flatMap((l, n) => (linedUp.oldRemoved.has(n) ? [] : [[linedUp.oldPaths[n], l] as const])));
  const nowAt = new Map(after.leaves.map((l) => [l.path, l]));
  const oldElements = new Set(before.leaves.flatMap((l) => l.elements));
  const nowElements = new Set(after.leaves.flatMap((l) => l.elements));
  const fields: FieldChange[] = [];
  const whole = new Set<string>();
  /** True when the leaf lies in an element the other side does not have: that element is one change, listed once. */
  const inWholeElement = (leaf: KeyedLeaf, other: ReadonlySet<string>, side: KeyedLeaves, which: 'before' | 'after'): boolean => {
    const element = leaf.elements.find((e) => !other.has(e));
    if (element === undefined) return false;
    if (!whole.has(element)) fields.push({ path: element, [which]: side.element(element) });
    whole.add(element);
    return true;
  };
  /** True when the leaf lies in an element of a positional list the other side does not have: listed once, as a whole. */
  const inWholePosition = (element: WholeElement | undefined, which: 'before' | 'after'): boolean => {
    if (element === undefined) return false;
    const key = `${which} ${element.path}`;
    if (!whole.has(key)) fields.push({ path: element.path, [which]: element.value });
    whole.add(key);
    return true;
  };
  after.leaves.forEach((leaf, n) => {
    const value = nowValues[leaf.source];
    const was = oldAt.get(leaf.path);
    if (!was) {
      if (!inWholeElement(leaf, oldElements, after, 'after') && !inWholePosition(linedUp.newAdded.get(n), 'after')) fields.push({ path: leaf.path, after: value });
      return;
    }
    const previous = oldValues[was.source];
    const secret = value === SENSITIVE && compared ? secretChange(old, was.source, now, leaf.source, redigest) : undefined;
    if (value === SENSITIVE && previous !== SENSITIVE) {
      fields.push({ path: leaf.path, before: SENSITIVE, after: SENSITIVE_NOT_COMPARED });
    } else if (!sameValue(previous, value)) {
      fields.push({ path: leaf.path, before: previous, after: value });
    } else if (secret) {
      fields.push({ path: leaf.path, before: SENSITIVE, after: secret });
    }
  });
  before.leaves.forEach((leaf, n) => {
    if (inWholePosition(linedUp.oldRemoved.get(n), 'before')) return;
    const path = linedUp.oldPaths[n];
    if (!nowAt.has(path) && !inWholeElement(leaf, nowElements, before, 'before')) fields.push({ path, before: oldValues[leaf.source] });
  });
  if (fields.length > 0) return { unit: now.label, fields };
  return { unit: now.label, fields, note: holdsMasked(old) || holdsMasked(now) ? ONLY_MASKED : NO_RECORDED_DIFFERENCE };
}

/**
 * What a masked leaf of both versions shows by its keyed digests (one key): `(sensitive, changed)` when they say
 * its value changed, nothing when it is unchanged or a side has no digest, `(sensitive, not compared)` when the
 * digests were taken under other names and this release's value cannot be digested again (`sameSecret`).
 */
function secretChange(old: LockedUnit, oldPath: string, now: LockedUnit, nowPath: string, redigest: Redigest | undefined): string | undefined {
  if (old.sensitive?.[oldPath] === undefined || now.sensitive?.[nowPath] === undefined) return undefined;
  const same = sameSecret(old, oldPath, now, nowPath, redigest);
  if (same === undefined) return SENSITIVE_NOT_COMPARED;
  return same ? undefined : SENSITIVE_CHANGED;
}

/**
 * Whether a masked leaf holds one value in both versions, by keyed digests (one key); undefined when a side has no
 * digest, or when the lock took its digest under another name than this release (its index path, in a lock of
 * format 1) and this release's value cannot be digested under that name (no `redigest`). A digest covers the
 * leaf's name, so two digests under two names say nothing about each other.
 */
function sameSecret(old: LockedUnit, oldPath: string, now: LockedUnit, nowPath: string, redigest: Redigest | undefined): boolean | undefined {
  const a = old.sensitive?.[oldPath];
  const b = oldPath === nowPath ? now.sensitive?.[nowPath] : now.sensitive?.[nowPath] !== undefined ? redigest?.(now, nowPath, oldPath) : undefined;
  return a === undefined || b === undefined ? undefined : a === b;
}

/** True when a unit holds a value the lock masks (`(sensitive)`, `(known after deploy)`), which its digest is taken over. */
function holdsMasked(u: LockedUnit): boolean {
  return Object.values(u.values ?? {}).some((v) => v === SENSITIVE || v === KNOWN_AFTER_DEPLOY);
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || sameJson(a, b);
}

/**
 * True when two values have one JSON text (`JSON.stringify`): at once when they are the same plain data (arrays,
 * plain objects with the same keys in the same order, strings, finite numbers, booleans, null), whose texts are then
 * equal without being written; by their texts otherwise (a value that differs, or any other kind of value).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return samePlainData(a, b, 0) || JSON.stringify(a) === JSON.stringify(b);
}

/** True only when `a` and `b` are the same plain data (`sameJson`), nested 100 deep at most; false when unsure. */
function samePlainData(a: unknown, b: unknown, depth: number): boolean {
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return a === b;
    case 'number':
      return a === b && Number.isFinite(a); // 0 and -0 are both "0"
    case 'object':
      break;
    default:
      return false;
  }
  if (a === null || b === null) return a === b;
  if (typeof b !== 'object' || depth > 100) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || hasToJson(a) || hasToJson(b)) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainData(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a as object) || !isPlainObject(b)) return false;
  const keys = Object.keys(a as object);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== other[i]) return false;
    const x = (a as Record<string, unknown>)[keys[i]];
    const y = (b as Record<string, unknown>)[keys[i]];
    if (x === undefined || y === undefined || !samePlainData(x, y, depth + 1)) return false;
  }
  return true;
}

/** An object whose JSON text is its own enumerable keys' (no `toJSON`, no prototype but Object's or none). */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !hasToJson(value);
}

function contractChanges(previous: readonly InterfaceRecord[], current: readonly InterfaceRecord[]): ContractChange[] {
  const { pairs, added, retired } = matchInterfaces(previous, current);
  const out: ContractChange[] = [];
  for (const { old, now } of pairs) {
    const a = majorOfRecord(old);
    const b = majorOfRecord(now);
    if (a.version !== b.version || a.parameter !== b.parameter) out.push({ contract: nameOf(now), change: 'changed', before: a, after: b });
  }
  for (const now of added) out.push({ contract: nameOf(now), change: 'added', after: majorOfRecord(now) });
  for (const old of retired) out.push({ contract: nameOf(old), change: 'retired', before: majorOfRecord(old) });
  return out.sort((x, y) => compareText(x.contract, y.contract) || majorOfChange(x) - majorOfChange(y));
}

function majorOfChange(c: ContractChange): number {
  return majorOf(c.after ?? c.before!);
}

function nameOf(r: InterfaceRecord): string {
  return `${r.capability}/${r.name}`;
}

function majorOfRecord(r: InterfaceRecord): PublishedMajor {
  return { version: r.version, parameter: r.parameter?.name ?? '' };
}

/** The weight of each backend of a route, from its locked values; undefined for a unit that is not a route. */
export function routeWeights(unit: LockedUnit): Record<string, number> | undefined {
  if (!unit.values) return undefined;
  const values = indexedValues(unit.values);
  const gateway = unit.groupKind === 'gateway.networking.k8s.io/HTTPRoute';
  const istio = unit.groupKind === 'networking.istio.io/VirtualService';
  if (!gateway && !istio) return undefined;
  const name = gateway ? /^spec\.rules\[(\d+)\]\.backendRefs\[(\d+)\]\.name$/ : /^spec\.http\[(\d+)\]\.route\[(\d+)\]\.destination\.host$/;
  const weights: Record<string, number> = {};
  const counts = new Map<string, number>();
  for (const path of Object.keys(values)) {
    const m = name.exec(path);
    if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  for (const [path, value] of Object.entries(values)) {
    const m = name.exec(path);
    if (!m || typeof value !== 'string') continue;
    const prefix = path.slice(0, path.length - (gateway ? '.name' : '.destination.host').length);
    const w = values[`${prefix}.weight`];
    const fallback = gateway ? 1 : counts.get(m[1]) === 1 ? 100 : 0;
    weights[value] = (weights[value] ?? 0) + (typeof w === 'number' ? w : fallback);
  }
  return weights;
}

function trafficChange(old: LockedUnit, now: LockedUnit): TrafficChange[] {
  const before = routeWeights(old);
  const after = routeWeights(now);
  if (!before || !after || sameJson(before, after)) return [];
  return [{ route: now.label, before, after }];
}

function handovers(old: LockedUnit, now: LockedUnit, leafWritersOf: LeafWritersOf | undefined): Handover[] {
  if (old.groupKind && leafWritersOf && sameWriting(old, now)) return [];
  const before = old.groupKind ? leafWritersOf?.(old) : undefined;
  const after = before ? leafWritersOf?.(now) : undefined;
  if (before && after) return leafHandovers(now.label, before, after);
  if (!old.groupKind || (!old.owners && !now.owners)) return [];
  const found: Handover[] = [];
  const owners = ownersAsNamedNow(old.owners ?? {}, now.owners ?? {});
  const paths = new Set([...Object.keys(owners), ...Object.keys(now.owners ?? {})]);
  for (const path of paths) {
    const from = owners[path] ?? old.path;
    const to = now.owners?.[path] ?? now.path;
    if (writerNameWithoutSite(from) !== writerNameWithoutSite(to)) found.push({ unit: now.label, path, from, to });
  }
  return found;
}

/**
 * The owners of a locked object by the paths this release gives them: a path the lock wrote before string keys were
 * quoted (`[name=2]`) by the path this release names it (`[name="2"]`) where this release has no owner of the old
 * text itself.
 */
function ownersAsNamedNow(old: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const then = namesBeforeQuoting(Object.keys(now), unquotedFieldText);
  if (then.size === 0) return old;
  const renamed = (path: string) => (!Object.hasOwn(now, path) && then.has(path) ? then.get(path)! : path);
  return Object.fromEntries(Object.entries(old).map(([path, writer]) => [renamed(path), writer]));
}

/**
 * True when no leaf of the object can change writer between the two locks, told without reading their
 * leaves: one writer writes every leaf of both, whatever the leaves are (a handover names two writers), or
 * both record the same writers with the same leaves. Most objects of a release are one of these.
 */
function sameWriting(old: LockedUnit, now: LockedUnit): boolean {
  if (!old.writers || !now.writers) return false;
  const all = [...old.writers, ...now.writers];
  const first = all.length > 0 ? lockedWriterIdentity(all[0]) : undefined;
  if (all.every((w) => lockedWriterIdentity(w) === first)) return true;
  return sameLockedWriters(old.writers, now.writers);
}

/** Every property of a locked writer, each of which `sameLockedWriters` compares: a property added to `LockedWriter` must be added here. */
const LOCKED_WRITER_PROPERTIES: { readonly [K in keyof Required<LockedWriter>]: K } = {
  writer: 'writer',
  kind: 'kind',
  manager: 'manager',
  fields: 'fields',
  presence: 'presence',
};

/**
 * True when two lists of locked writers record, in one order, the same writers with the same leaves: each
 * property of `LockedWriter` equal, its `fieldsV1` sets (`fields`, `presence`) as sets (`sameFieldSet`). A
 * `fieldsV1` set is most of a lock's nodes: compared by a loop made for it, not as any JSON.
 */
function sameLockedWriters(a: readonly LockedWriter[], b: readonly LockedWriter[]): boolean {
  if (a.length !== b.length) return false;
  const { writer, kind, manager, fields, presence } = LOCKED_WRITER_PROPERTIES;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x[writer] !== y[writer] || x[kind] !== y[kind] || x[manager] !== y[manager] || !sameFieldSet(x[fields], y[fields])) return false;
    const [p, q] = [x[presence], y[presence]];
    if (p === undefined || q === undefined ? p !== q : !sameFieldSet(p, q)) return false;
  }
  return true;
}

/** True when two `fieldsV1` sets (maps of maps, `{"f:spec":{"f:replicas":{}}}`) hold the same keys at every level, in any order. */
function sameFieldSet(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  let keys = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (!Object.hasOwn(b, key) || !sameFieldSet(a[key] as Record<string, unknown>, b[key] as Record<string, unknown>)) return false;
    keys++;
  }
  for (const key in b) if (Object.hasOwn(b, key)) keys--;
  return keys === 0;
}

/**
 * The handovers of one object between two releases whose locks record every leaf's writer: each leaf of
 * both whose writer changes, and a runtime writer's leaf that covers leaves of the release's writers in the
 * other release (a controller that writes a whole set or map, say, where the declarer wrote its values),
 * once per writer. Sorted by leaf, then writers.
 *
 * @param unit how the plan names the object
 */
function leafHandovers(unit: string, before: readonly LeafWriter[], after: readonly LeafWriter[]): Handover[] {
  const key = (path: FieldPath) => JSON.stringify(path);
  const old = new Map(before.map((l) => [key(l.path), l]));
  const now = new Map(after.map((l) => [key(l.path), l]));
  const found = new Map<string, Handover>();
  const add = (path: FieldPath, from: LeafWriter, to: LeafWriter) => {
    if (from.id === to.id) return;
    const h: Handover = { unit, path: formatPath(path), from: from.writer, to: to.writer, ...movesOf(from, to) };
    found.set(JSON.stringify([h.path, h.from, h.to]), h);
  };
  for (const to of after) {
    const from = old.get(key(to.path));
    if (from) add(to.path, from, to);
    else if (to.runtime) for (const b of before) if (isBelow(b.path, to.path)) add(to.path, b, to);
  }
  for (const from of before) {
    if (from.runtime && !now.has(key(from.path))) for (const a of after) if (isBelow(a.path, from.path)) add(from.path, from, a);
  }
  return [...found.values()].sort((a, b) => compareText(a.path, b.path) || compareText(a.from, b.from) || compareText(a.to, b.to));
}

/** True when `path` lies strictly below `above`. */
function isBelow(path: FieldPath, above: FieldPath): boolean {
  return path.length > above.length && above.every((segment, i) => path[i] === segment);
}

/** Whether a leaf moves between the release and a controller in the cluster, as a property of its handover. */
function movesOf(from: LeafWriter, to: LeafWriter): { moves?: OwnershipMove } {
  if (from.runtime === to.runtime) return {};
  return { moves: to.runtime ? 'deploy-time-to-runtime' : 'runtime-to-deploy-time' };
}

/**
 * The runtime writers added, changed or removed between two locks, by construct path: this release's in its
 * order, then those removed in the lock's; as a property of the diff only when there are any.
 */
function runtimeWriterChanges(previous: Lock | undefined, next: Lock): { runtimeWriters?: RuntimeWriterChange[] } {
  const before = new Map((previous?.runtimeWriters ?? []).map((w) => [w.writer, w]));
  const now = new Set((next.runtimeWriters ?? []).map((w) => w.writer));
  const changes: RuntimeWriterChange[] = [];
  for (const after of next.runtimeWriters ?? []) {
    const old = before.get(after.writer);
    if (!old) changes.push({ writer: after.writer, change: 'added', after });
    else if (!sameRecord(old, after)) changes.push({ writer: after.writer, change: 'changed', before: old, after });
  }
  for (const old of previous?.runtimeWriters ?? []) if (!now.has(old.writer)) changes.push({ writer: old.writer, change: 'removed', before: old });
  return changes.length > 0 ? { runtimeWriters: changes } : {};
}

/**
 * Whether a runtime writer's record in the lock and in this release are one: equal, or equal but for fields the lock
 * wrote before string keys were quoted (`spec.releases[version=2]` for `spec.releases[version="2"]`,
 * `unquotedFieldText`).
 */
function sameRecord(old: RuntimeWriterRecord, now: RuntimeWriterRecord): boolean {
  if (sameValue(old, now)) return true;
  const sameField = (f: string, i: number) => f === now.fields[i] || f === unquotedFieldText(now.fields[i]);
  if (old.fields.length !== now.fields.length || !old.fields.every(sameField)) return false;
  return sameValue({ ...old, fields: now.fields }, now);
}

/**
 * The previous release's GitOps output that this one does not make again, as a property of the diff only when there
 * is some: another engine (or none), or Flux step Kustomizations (in the lock's namespace) this release does not make.
 */
function gitopsChange(previous: Lock, next: Lock): { gitops?: GitOpsChange; gitopsUnrecorded?: LockedGitOps } {
  const before = previous.gitops;
  // no engine in the lock: cdk-capability apply, or a lock written before the engine was recorded; said, never guessed
  if (!before) return next.gitops ? { gitopsUnrecorded: next.gitops } : {};
  const after = next.gitops;
  const made = new Set(after?.engine === 'flux' && after.namespace === before.namespace ? after.kustomizations ?? [] : []);
  const kustomizations = (before.kustomizations ?? []).filter((k) => !made.has(k));
  const moved = after?.engine === 'flux' && after.namespace === before.namespace && after.prune !== false ? fluxMoves(before, after) : [];
  if (after?.engine === before.engine && kustomizations.length === 0 && moved.length === 0) return {};
  return { gitops: { before, ...(after ? { after } : {}), kustomizations, ...(moved.length > 0 ? { moved } : {}) } };
}

/**
 * The objects of both Flux releases whose step Kustomization changes, in this release's Kustomization order, then by
 * object; none when either lock does not record the Kustomizations' objects (a lock written before they were).
 */
function fluxMoves(before: LockedGitOps, after: LockedGitOps): FluxMove[] {
  if (!before.objects || !after.objects) return [];
  const was = new Map<string, string>();
  for (const [k, objects] of Object.entries(before.objects)) for (const o of objects) was.set(o, k);
  const known = before.dependsOn !== undefined && after.dependsOn !== undefined;
  const moves: FluxMove[] = [];
  for (const k of after.kustomizations ?? Object.keys(after.objects)) {
    for (const o of [...after.objects[k] ?? []].sort()) {
      const from = was.get(o);
      if (from === undefined || from === k) continue;
      const safe = known && waitsFor(before.dependsOn!, from, k) && waitsFor(after.dependsOn!, from, k);
      moves.push({ object: o, from, to: k, ...(known ? { safe } : {}) });
    }
  }
  return moves;
}

/**
 * Whether Kustomization `from` waits for `to` by `dependsOn`, directly or through others. kustomize-controller
 * reconciles a Kustomization only once each one it depends on is Ready and, when both read the same source (every
 * step Kustomization of `GitOps.flux` does), has applied the revision it is about to apply (`checkDependencies` in
 * fluxcd/kustomize-controller internal/controller/kustomization_controller.go: "dependency '...' revision is not up
 * to date"), and it prunes only in that reconcile, after its apply. So a Kustomization that waits for the one an
 * object moves to prunes it only once that one has applied it and set its own owner labels. Both releases' records
 * count: on a new revision each step Kustomization reconciles with the spec it has, which the Kustomization pointed
 * at gitops/flux/cluster updates only when it applies that revision.
 */
function waitsFor(dependsOn: Readonly<Record<string, readonly string[]>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const next = [from];
  while (next.length > 0) {
    for (const d of dependsOn[next.pop()!] ?? []) {
      if (d === to) return true;
      if (!seen.has(d)) {
        seen.add(d);
        next.push(d);
      }
    }
  }
  return false;
}
