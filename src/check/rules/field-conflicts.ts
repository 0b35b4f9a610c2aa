import type { ObjectWrites } from '../../collect/facts';
import { FieldPath, formatPath } from '../../collect/ledger/field-path';
import { compareText } from '../../private/compare';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { joinAnd, listSome, quoted } from './text';

/** The writers of one or more contested leaves of one object. */
export interface FieldConflict {
  /** How messages name the object, for example `Deployment web/frontend`. */
  readonly object: string;
  /** Every writer of the contested fields, sorted (two or more). */
  readonly writers: readonly string[];
  /** The contested fields, formatted and sorted (the ancestor where one writer owns a whole subtree). */
  readonly fields: string[];
  /** The same fields as paths, in the order of `fields`. */
  readonly leaves: readonly FieldPath[];
}

/**
 * `CAP002`: two or more writers of one field, or of a field and what is below
 * it, even with equal values. One violation per object and set of writers,
 * naming every writer and every field they contest.
 */
export const fieldConflicts = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'field conflicts',
  explanation: 'Two writers of the same field (as server-side apply defines fields) mean one silently loses its value on every apply; each field has exactly one owner, and others write their own fields through a Contribution.',
  run: ({ facts }) =>
    findFieldConflicts(facts.ledger.objects).map((c) => ({
      message: `${joinAnd(quoted(c.writers))} ${c.writers.length === 2 ? 'both' : 'all'} write ${listSome(c.fields)} of ${c.object}. Give each field one owner: drop it from ${c.writers.length === 2 ? 'one writer' : 'all writers but one'} (its props, Contribution, addJsonPatch or addPropertyOverride).`,
      paths: [...new Set(c.writers.map((w) => w.replace(/ \((addJsonPatch|addPropertyOverride)\)$/, '')))],
    })),
});

/**
 * The contested leaves of each object, grouped per object and set of writers.
 *
 * A path is contested when a writer replaces the node there (a scalar, an
 * atomic value: any write that is not a presence write) and some other writer
 * writes that path or below it. Presence writes (an empty map, a key-only list
 * element, a set value) contest nothing among themselves. Linear in writes
 * times path depth: each write looks up each of its prefixes once.
 */
export function findFieldConflicts(objects: readonly ObjectWrites[]): FieldConflict[] {
  const found: FieldConflict[] = [];
  for (const object of objects) {
    const replacers = new Map<string, Set<string>>();
    for (const { writer, path, presence } of object.writes) {
      if (presence) continue;
      const key = path.join('\u0000');
      const set = replacers.get(key);
      if (set) set.add(writer);
      else replacers.set(key, new Set([writer]));
    }
    if (replacers.size === 0) continue;
    const contested = new Map<string, { path: FieldPath; writers: Set<string> }>();
    for (const { writer, path } of object.writes) {
      let key = '';
      for (let depth = 0; depth < path.length; depth++) {
        key = depth === 0 ? path[0] : `${key}\u0000${path[depth]}`;
        const owners = replacers.get(key);
        if (!owners) continue;
        let entry = contested.get(key);
        if (!entry) {
          entry = { path: path.slice(0, depth + 1), writers: new Set(owners) };
          contested.set(key, entry);
        }
        entry.writers.add(writer);
      }
    }
    const groups = new Map<string, { writers: string[]; fields: Array<[string, FieldPath]> }>();
    for (const { path, writers } of contested.values()) {
      if (writers.size < 2) continue;
      const sorted = [...writers].sort(compareText);
      const id = sorted.join('\u0000');
      let group = groups.get(id);
      if (!group) {
        group = { writers: sorted, fields: [] };
        groups.set(id, group);
      }
      group.fields.push([formatPath(path), path]);
    }
    for (const group of groups.values()) {
      const fields = group.fields.sort((a, b) => compareText(a[0], b[0]));
      found.push({ object: object.label, writers: group.writers, fields: fields.map((f) => f[0]), leaves: fields.map((f) => f[1]) });
    }
  }
  return found;
}
