import type { ContradictionFact } from '../../collect/facts';
import { formatPath } from '../../collect/ledger/field-path';
import { describeWriter, Writer } from '../../collect/ledger/writer';
import { ViolationCode } from '../finding';
import { defineRule, RuleFinding } from '../rule';
import { joinAnd } from './text';

/**
 * `CAP010`: an object the API server refuses, from one declaration or from a
 * merge of writers each valid on its own: two elements of one keyed list with
 * one key (two containers named `api`, two ports `80/TCP`), a keyed element
 * without a key field that has no default, a value held twice by a set
 * (`finalizers: [a, a]`), and more than one member of a one-of struct (`value`
 * beside `valueFrom` in one env entry, two volume sources, two probe
 * handlers), a Service of several ports not all named. Each writer involved is named.
 */
export const mergedContradictions = defineRule({
  code: ViolationCode.INVALID_OBJECT,
  title: 'merged contradictions',
  explanation:
    'One declaration, or writers of different fields merged, can make an object the API server refuses: two list items with one key, an item without its key, a value twice in a set, or value beside valueFrom.',
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
    case 'missing-key': {
      const elements = c.count === 1 ? 'an element' : `${c.count} elements`;
      return {
        message:
          `${formatPath(c.path)} of ${c.object} has ${elements} without the key ${c.missing.length === 1 ? 'field' : 'fields'} ${joinAnd(c.missing)}, which ${c.missing.length === 1 ? 'has' : 'have'} no default, written by ${names(c.writers[0])}. ` +
          `Server-side apply refuses a keyed list element without its key: give the element ${joinAnd(c.missing)}.`,
        paths,
      };
    }
    case 'duplicate-value': {
      const value = formatPath([c.value]);
      return {
        message:
          `${formatPath(c.path)} of ${c.object} holds the value ${value.slice(2, -1)} ${c.count} times, written by ${names(c.writers[0])}. ` +
          'Server-side apply refuses a set with a repeated value: write each value once.',
        paths,
      };
    }
    case 'unnamed-ports': {
      const ports = c.keys.map((key, i) => `${formatPath([key]).slice(0)} (by ${names(c.writers[i])})`);
      return {
        message:
          `${formatPath(c.path)} of ${c.object} has ${c.count} ports, and ${joinAnd(ports)} ${c.keys.length === 1 ? 'has' : 'have'} no name. ` +
          'The API server requires a name for every port of a Service with more than one: give each port a name.',
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
