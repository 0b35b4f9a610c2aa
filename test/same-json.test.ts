import * as fc from 'fast-check';
import { sameJson } from '../src/release/release-diff';

/**
 * The plan compares locked values, weights and writers by their JSON text; `sameJson` tells the same data apart
 * without writing it, and falls back on the texts when unsure. It must agree with comparing the texts.
 */

/** What JSON.stringify of a value gives, or the error's name when it throws. */
function text(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    return `throws ${(e as Error).name}`;
  }
}

/** Values of any kind JSON.stringify takes: plain data, -0, NaN, Infinity, undefined, dates, boxed values, null-prototype objects, maps, sets. */
const valueArb = fc.anything({
  maxDepth: 3,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
});

/** A second value close to `value`: a copy through JSON, a structured clone, the value itself, or another one. */
function nearArb(value: unknown): fc.Arbitrary<unknown> {
  const viaJson = (() => {
    const t = text(value);
    return t === undefined || t.startsWith('throws') ? value : JSON.parse(t);
  })();
  const cloned = (() => {
    try {
      return structuredClone(value);
    } catch {
      return value;
    }
  })();
  return fc.oneof(
    fc.constant(viaJson),
    fc.constant(cloned),
    fc.constant(value),
    fc.constant(reordered(viaJson)),
    fc.constant(appended(viaJson)),
    fc.constant(leafChanged(viaJson)),
    valueArb,
    fc.jsonValue(),
  );
}

/** A copy of plain data with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));
}

/** A copy of plain data with an element added to its first array (or to the value, when it is one). */
function appended(value: unknown): unknown {
  if (Array.isArray(value)) return [...value, value.length];
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const i = entries.findIndex(([, v]) => v !== null && typeof v === 'object');
  if (i >= 0) entries[i] = [entries[i][0], appended(entries[i][1])];
  return Object.fromEntries(entries);
}

/** A copy of plain data with its first scalar leaf changed. */
function leafChanged(value: unknown): unknown {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.length > 0 ? [leafChanged(value[0]), ...value.slice(1)] : value;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length > 0) entries[0] = [entries[0][0], leafChanged(entries[0][1])];
  return Object.fromEntries(entries);
}

describe('sameJson', () => {
  test('agrees with comparing JSON texts on random values and their near copies', () => {
    fc.assert(
      fc.property(
        fc.oneof(valueArb, fc.jsonValue()).chain((a) => fc.tuple(fc.constant(a), nearArb(a))),
        ([a, b]) => {
          const expected = text(a) === text(b) && !String(text(a)).startsWith('throws');
          let actual: boolean | string;
          try {
            actual = sameJson(a, b);
          } catch (e) {
            actual = `throws ${(e as Error).name}`;
          }
          expect(actual).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('tells a key order, a -0, an undefined member and a toJSON apart as JSON.stringify does', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([0], [-0])).toBe(true);
    expect(sameJson({ a: undefined, b: 1 }, { b: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson([NaN], [null])).toBe(true);
    expect(sameJson({ toJSON: () => 1 }, 1)).toBe(true);
    expect(sameJson(Object.assign([1], { toJSON: () => [2] }), [1])).toBe(false);
    expect(sameJson({ spec: { replicas: 2 } }, { spec: { replicas: 3 } })).toBe(false);
  });
});
