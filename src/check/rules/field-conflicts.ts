import type { ObjectWrites } from '../../collect/facts';
import { FieldPath, formatPath } from '../../collect/ledger/field-path';
import { compareText } from '../../private/compare';
import { ViolationCode } from '../finding';
import { defineRule } from '../rule';
import { listSome, quoted } from './text';

/** Two writers of one field (or of a field and its ancestor) of one object. */
export interface FieldConflict {
  /** How messages name the object, for example `Deployment web/frontend`. */
  readonly object: string;
  /** The two writers' construct paths, sorted. */
  readonly writers: readonly [string, string];
  /** The contested fields, formatted and sorted (the ancestor where one writer owns a whole subtree). */
  readonly fields: string[];
}

/** `CAP002`: two writers of one field, or of a field and its ancestor, even with equal values. */
export const fieldConflicts = defineRule({
  code: ViolationCode.FIELD_CONFLICT,
  title: 'field conflicts',
  run: ({ facts }) =>
    findFieldConflicts(facts.ledger.objects).map((c) => ({
      message: `${quoted(c.writers).join(' and ')} both write ${listSome(c.fields)} of ${c.object}. Give each field one owner: drop it from one writer (its props, Contribution, addJsonPatch or addPropertyOverride).`,
      paths: c.writers.map((w) => w.replace(/ \((addJsonPatch|addPropertyOverride)\)$/, '')),
    })),
});

/**
 * Every pair of writers that own one leaf, or a leaf and its ancestor, grouped
 * per object and pair: linear in writes times path depth.
 */
export function findFieldConflicts(objects: readonly ObjectWrites[]): FieldConflict[] {
  const found: FieldConflict[] = [];
  for (const object of objects) {
    const owners = new Map<string, string[]>();
    for (const { writer, path } of object.writes) {
      const key = path.join('\u0000');
      const list = owners.get(key);
      if (!list) owners.set(key, [writer]);
      else if (!list.includes(writer)) list.push(writer);
    }
    const pairs = new Map<string, { writers: [string, string]; fields: Set<string> }>();
    const note = (a: string, b: string, path: FieldPath) => {
      const writers = (compareText(a, b) < 0 ? [a, b] : [b, a]) as [string, string];
      const id = writers.join('\u0000');
      let pair = pairs.get(id);
      if (!pair) {
        pair = { writers, fields: new Set() };
        pairs.set(id, pair);
      }
      pair.fields.add(formatPath(path));
    };
    for (const { writer, path } of object.writes) {
      let key = '';
      for (let depth = 0; depth < path.length; depth++) {
        key = depth === 0 ? path[0] : `${key}\u0000${path[depth]}`;
        for (const owner of owners.get(key) ?? []) {
          if (owner !== writer) note(owner, writer, path.slice(0, depth + 1));
        }
      }
    }
    for (const pair of pairs.values()) found.push({ object: object.label, writers: pair.writers, fields: [...pair.fields].sort(compareText) });
  }
  return found;
}
