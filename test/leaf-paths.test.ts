import * as fc from 'fast-check';
import { LeafPaths, lockValues } from '../src/render/lock-values';

// A lock shares its leaves' paths across its documents (LeafPaths, src/render/lock-values.ts); the values it
// records must be those of each document read alone.
describe('leaf paths shared across the documents of a lock', () => {
  test('a list at a path in one document and a map at it in another keep their own paths', () => {
    const paths = new LeafPaths();
    expect(lockValues({ x: ['a'], y: { 'odd key': 1 } }, undefined, paths).values).toEqual({ 'x[0]': 'a', 'y["odd key"]': 1 });
    expect(lockValues({ x: { 0: 'b', plain: 'c' } }, undefined, paths).values).toEqual({ 'x["0"]': 'b', 'x.plain': 'c' });
    expect(lockValues({ x: ['d', 'e'] }, undefined, paths).values).toEqual({ 'x[0]': 'd', 'x[1]': 'e' });
  });

  test('every document gets the values it gets alone (property)', () => {
    const doc = fc.dictionary(fc.constantFrom('a', 'b', '0', 'odd key', 'x.y'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 6 }), (docs) => {
        const paths = new LeafPaths();
        for (const d of docs) expect(lockValues(d, undefined, paths).values).toEqual(lockValues(d).values);
      }),
      { numRuns: 1000 },
    );
  });
});
