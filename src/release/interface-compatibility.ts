import type { InterfaceRecord } from './interface-record';
import { appendAll } from '../private/append';
import { compareText } from '../private/compare';
import { semver } from '../private/lazy';
import { isSemverVersion, majorOfVersion } from '../private/semver-version';

/** How big a version bump a change needs. */
export type Bump = 'major' | 'minor' | 'patch';

/** One difference between the locked interface and the current one. */
export interface InterfaceChange {
  /** `<capability>/<contract>`. */
  readonly contract: string;
  /** The field, or undefined for the contract as a whole. */
  readonly field?: string;
  /** What changed, for example `removed`, `retyped from string to number`. */
  readonly change: string;
  /** The bump it needs. */
  readonly needs: 'major' | 'minor' | 'patch';
}

/** A version that does not carry the bump its changes need. */
export interface IncompatibleVersion {
  /** `<capability>/<contract>`. */
  readonly contract: string;
  /** The locked version. */
  readonly from: string;
  /** The current version. */
  readonly to: string;
  /** The changes, largest bump first. */
  readonly changes: InterfaceChange[];
  /** The bump needed (or `backwards` when the version went down). */
  readonly needs: Bump | 'backwards';
  /** The smallest version that would do. */
  readonly suggested: string;
  /** The locked record the current one continues (its readers tell whether a major bump in place is safe). */
  readonly locked: InterfaceRecord;
}

const RANK: Record<Bump, number> = { patch: 0, minor: 1, major: 2 };

/**
 * Compares each contract with its locked version, as API diff tools do for
 * outputs and inputs: removing or retyping a field, making an optional field
 * required, or tightening it (adding or changing a format) needs a major bump;
 * adding a field or loosening one needs at least a minor bump; a version lower
 * than the lock's is refused.
 */
export function compareInterfaces(
  previous: readonly InterfaceRecord[],
  current: readonly InterfaceRecord[],
): { changes: InterfaceChange[]; incompatible: IncompatibleVersion[] } {
  const changes: InterfaceChange[] = [];
  const incompatible: IncompatibleVersion[] = [];
  for (const { old, now } of matchInterfaces(previous, current).pairs) {
    const contract = `${now.capability}/${now.name}`;
    const mine = fieldChanges(contract, old, now);
    appendAll(changes, mine);
    const problem = versionProblem(contract, old.version, now.version, mine);
    if (problem) incompatible.push({ ...problem, locked: old });
  }
  return { changes, incompatible };
}

/** How the records of two releases match up. */
export interface InterfaceMatch {
  /** A locked record and the current record that continues it. */
  readonly pairs: ReadonlyArray<{ readonly old: InterfaceRecord; readonly now: InterfaceRecord }>;
  /** Locked records no current record continues: a contract removed, or a major retired. */
  readonly retired: readonly InterfaceRecord[];
  /** Current records that continue no locked one: a new contract, or a new major beside the previous one. */
  readonly added: readonly InterfaceRecord[];
}

/** The major of a record's version, or -1 when it is not semver. */
export function majorOf(record: { readonly version: string }): number {
  return majorOfVersion(record.version) ?? -1;
}

/**
 * Matches the records of the locked release with the current ones, by
 * capability and contract name: a current record continues the locked record
 * of its own major; else (a major bumped in place) the newest locked major that
 * no current record of the contract carries any more. A locked major still
 * published is never continued by another: a new major beside it is added.
 */
export function matchInterfaces(previous: readonly InterfaceRecord[], current: readonly InterfaceRecord[]): InterfaceMatch {
  const key = (r: InterfaceRecord) => `${r.capability}\u0000${r.name}`;
  const used = new Set<InterfaceRecord>();
  const pairs: Array<{ old: InterfaceRecord; now: InterfaceRecord }> = [];
  const added: InterfaceRecord[] = [];
  const unmatched: InterfaceRecord[] = [];
  for (const now of current) {
    const same = previous.find((r) => !used.has(r) && key(r) === key(now) && majorOf(r) === majorOf(now));
    if (same) {
      used.add(same);
      pairs.push({ old: same, now });
    } else {
      unmatched.push(now);
    }
  }
  for (const now of unmatched) {
    const carried = new Set(current.filter((r) => key(r) === key(now)).map(majorOf));
    const candidates = previous.filter((r) => !used.has(r) && key(r) === key(now) && !carried.has(majorOf(r)));
    const old = candidates.sort((a, b) => majorOf(b) - majorOf(a))[0];
    if (old) {
      used.add(old);
      pairs.push({ old, now });
    } else {
      added.push(now);
    }
  }
  return { pairs, retired: previous.filter((r) => !used.has(r)), added };
}

/**
 * The readers that the lock records for a contract (or for some of its fields) and that remain: the objects
 * that read a field, by declaring construct (`readBy`), that are still declared; in a lock written before
 * readers were recorded, the consumer charts that remain. Each once, in the order the fields name them.
 *
 * @param record the locked record, or the part of it that holds the fields to look at
 * @param declarers the construct paths that declare an object in this release
 * @param charts the construct paths of this release's charts
 */
export function lockedReaders(record: Pick<InterfaceRecord, 'fields'>, declarers: ReadonlySet<string>, charts: ReadonlySet<string>): string[] {
  const readers = new Set<string>();
  for (const field of Object.values(record.fields)) {
    if (field.readBy) {
      for (const r of field.readBy) if (declarers.has(r)) readers.add(r);
    } else {
      for (const c of field.consumedBy) if (charts.has(c)) readers.add(c);
    }
  }
  return [...readers];
}

function fieldChanges(contract: string, old: InterfaceRecord, now: InterfaceRecord): InterfaceChange[] {
  const found: InterfaceChange[] = [];
  const oldProps = (old.schema.properties ?? {}) as Record<string, { type?: string; format?: string }>;
  const newProps = (now.schema.properties ?? {}) as Record<string, { type?: string; format?: string }>;
  const oldRequired = new Set((old.schema.required ?? []) as string[]);
  const newRequired = new Set((now.schema.required ?? []) as string[]);
  const add = (field: string, change: string, needs: Bump) => found.push({ contract, field, change, needs });
  for (const field of Object.keys(oldProps)) {
    const a = oldProps[field];
    const b = newProps[field];
    if (!b) {
      add(field, 'removed', 'major');
      continue;
    }
    if (a.type !== b.type) {add(field, `retyped from ${a.type} to ${b.type}`, 'major');} else if (a.format !== b.format) {
      if (b.format) add(field, `tightened from ${a.format ?? 'any ' + a.type} to ${b.format}`, 'major');
      else add(field, `loosened from ${a.format} to any ${b.type}`, 'minor');
    }
    if (!oldRequired.has(field) && newRequired.has(field)) add(field, 'made required', 'major');
    if (oldRequired.has(field) && !newRequired.has(field)) add(field, 'made optional', 'minor');
  }
  for (const field of Object.keys(newProps)) {
    if (!oldProps[field]) add(field, newRequired.has(field) ? 'added (required)' : 'added (optional)', 'minor');
  }
  return found.sort((x, y) => RANK[y.needs] - RANK[x.needs] || compareText(String(x.field), String(y.field)));
}

function versionProblem(contract: string, from: string, to: string, changes: InterfaceChange[]): Omit<IncompatibleVersion, 'locked'> | undefined {
  if (!isSemverVersion(from) || !isSemverVersion(to)) return undefined;
  // an unchanged contract of an unchanged version: no problem, and no semver to load (lt(v, v) is false)
  if (changes.length === 0 && from === to) return undefined;
  const sv = semver();
  if (sv.lt(to, from)) return { contract, from, to, changes, needs: 'backwards', suggested: from };
  const needs = changes.reduce<Bump>((m, c) => (RANK[c.needs] > RANK[m] ? c.needs : m), 'patch');
  if (changes.length === 0) return undefined;
  const majorUp = sv.major(to) > sv.major(from);
  const ok = needs === 'major' ? majorUp : sv.gt(to, from) && (majorUp || sv.minor(to) > sv.minor(from));
  if (ok) return undefined;
  return { contract, from, to, changes, needs, suggested: sv.inc(from, needs)! };
}
