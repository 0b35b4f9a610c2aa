import type { ContradictionFact } from '../../collect/facts';
import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { joinAnd } from './text';

/**
 * `CAP010`: a merged object the API server refuses although each writer's
 * fields are valid on their own: two elements of one keyed list with one key
 * (two containers named `api`, two ports `80/TCP`), and more than one member
 * of a one-of struct (`value` beside `valueFrom` in one env entry, two volume
 * sources, two probe handlers). Each writer involved is named.
 */
export const mergedContradictions = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'merged contradictions',
  explanation: 'Writers of different fields can still merge into an object the API server refuses: two list items with one key, or value beside valueFrom.',
  run: ({ facts }) => facts.contradictions.map(describe),
});

function describe(c: ContradictionFact): RuleFinding {
  const paths = c.writers.flat().map((w) => w.path);
  switch (c.kind) {
    case 'duplicate-key': {
      const element = formatPath([...c.path, c.key]).slice(formatPath(c.path).length);
      return {
        message:
          `${formatPath(c.path)} of ${c.object} has ${c.count} elements with the key ${element}, written by ${names(c.writers[0])}. ` +
          'Server-side apply refuses a keyed list with a duplicate key: give each element its own key, or write the element once.',
        paths,
      };
    }
    case 'exclusive-fields': {
      const fields = c.fields.map((f, i) => `${f} (by ${names(c.writers[i])})`);
      return {
        message:
          `${formatPath(c.path)} of ${c.object} sets ${joinAnd(fields)}, of which the API server accepts only one. ` +
          'Keep one: drop the others from their writers.',
        paths,
      };
    }
  }
}

function names(writers: readonly Writer[]): string {
  return joinAnd(writers.map(describeWriter));
}
