import * as fc from 'fast-check';
import { jsonPieces } from '../src/private/json-pieces';

/** What JSON.stringify does with a value: its text, or the error it throws. */
function stringified(value: unknown): { text?: string; error?: string } {
  try {
    return { text: JSON.stringify(value, undefined, 2) };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
}

function joined(value: unknown, depth?: number): { text?: string; error?: string } {
  try {
    return { text: [...jsonPieces(value, depth)].join('') };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
}

describe('jsonPieces', () => {
  test('splits the outer levels into members and hands deeper values to JSON.stringify', () => {
    // GIVEN a plan-like value
    const plan = { version: 1, writers: [{ object: 'a', fields: { 'f:data': {} } }, { object: 'b' }], teardown: {} };

    // WHEN split at the default depth (2)
    const pieces = [...jsonPieces(plan)];

    // THEN the writers are written by one JSON.stringify call, and the whole is JSON.stringify's text
    expect(pieces).toEqual([
      '{\n  "version": ',
      '1',
      ',\n  "writers": ',
      '[\n',
      '    {\n      "object": "a",\n      "fields": {\n        "f:data": {}\n      }\n    },\n    {\n      "object": "b"\n    }',
      '\n',
      '  ]',
      ',\n  "teardown": ',
      '{}',
      '\n}',
    ]);
    expect(pieces.join('')).toBe(JSON.stringify(plan, undefined, 2));
  });

  test('writes a long list 256 elements per piece, and an element with its own toJSON alone, given its index', () => {
    // GIVEN 600 writers, the 300th with a toJSON
    const writers: unknown[] = Array.from({ length: 600 }, (_, i) => ({ object: `o${i}` }));
    writers[300] = { toJSON: (key: string) => ({ object: `from toJSON(${key})` }) };
    const plan = { writers };

    // WHEN split
    const pieces = [...jsonPieces(plan)];

    // THEN elements 0-255, 256-299, 300 alone, 301-556, 557-599, each with its separator after it
    const elements = pieces.slice(pieces.indexOf('[\n') + 1, pieces.lastIndexOf('  ]')).filter((p) => p !== ',\n' && p !== '\n');
    expect(elements.map((p) => p.split('"object"').length - 1)).toEqual([256, 44, 1, 256, 43]);
    expect(elements[2]).toBe('    {\n      "object": "from toJSON(300)"\n    }');
    expect(pieces.join('')).toBe(JSON.stringify(plan, undefined, 2));
  });

  test('leaves out what JSON leaves out of an object, and writes null for it in an array', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('c'), d: [undefined, () => 1, Symbol('d'), 2], e: { toJSON: (key: string) => `key ${key}` } };
    expect([...jsonPieces(value)].join('')).toBe('{\n  "d": [\n    null,\n    null,\n    null,\n    2\n  ],\n  "e": "key e"\n}');
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value, undefined, 2));
  });

  test('refuses a value JSON gives no text for, as a file needs one', () => {
    expect(() => [...jsonPieces(undefined)]).toThrow(new TypeError('the value has no JSON text (undefined, a function or a symbol)'));
  });

  // The oracle is JSON.stringify itself, on anything fast-check makes: boxed values, Maps, Dates, sparse
  // arrays, objects without a prototype, BigInts (which JSON.stringify refuses, and so must the pieces).
  test('joined, the pieces are JSON.stringify(value, undefined, 2) at every depth (property)', () => {
    const anything = fc.anything({
      maxDepth: 4,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withDate: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
      withBigInt: true,
    });
    fc.assert(
      fc.property(anything, fc.integer({ min: 0, max: 5 }), (value, depth) => {
        const expected = stringified(value);
        const actual = joined(value, depth);
        if (expected.text === undefined && expected.error === undefined) expect(actual).toEqual({ error: 'TypeError' });
        else expect(actual).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test('joined, the pieces of plain JSON data are JSON.stringify(value, undefined, 2) (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value, undefined, 2));
      }),
      { numRuns: 2000 },
    );
  });
});
