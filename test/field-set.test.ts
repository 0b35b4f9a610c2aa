import * as fc from 'fast-check';
import { FieldIndex, FieldSet } from '../src/collect/ledger/field-set';

describe('FieldSet', () => {
  test('has is true for a member only, not for its ancestors or descendants', () => {
    // GIVEN
    const set = new FieldSet().insert(['spec', 'replicas']);

    // WHEN / THEN
    expect([['spec', 'replicas'], ['spec'], ['spec', 'replicas', 'x'], []].map((p) => set.has(p))).toEqual([true, false, false, false]);
  });

  test('intersects is true for a member, a path below a member, and a path above one', () => {
    // GIVEN a set with an atomic subtree and a leaf
    const set = FieldSet.of([['spec', 'selector'], ['metadata', 'labels', 'team']]);

    // WHEN / THEN
    expect(set.intersects(['spec', 'selector'])).toBe(true);
    expect(set.intersects(['spec', 'selector', 'matchLabels', 'app'])).toBe(true);
    expect(set.intersects(['metadata'])).toBe(true);
    expect(set.intersects([])).toBe(true);
    expect(set.intersects(['spec', 'replicas'])).toBe(false);
    expect(set.intersects(['metadata', 'labels', 'tier'])).toBe(false);
  });

  test('hasAtOrBelow is true for a member and a path above one, not for a path below a member', () => {
    // GIVEN
    const set = FieldSet.of([['spec', 'timers']]);

    // WHEN / THEN
    expect([['spec', 'timers'], ['spec'], [], ['spec', 'timers', 'drain'], ['metadata']].map((p) => set.hasAtOrBelow(p))).toEqual([true, true, true, false, false]);
  });

  test('ancestorOf is the nearest member strictly above a path, none for a member itself or a path above one', () => {
    // GIVEN
    const set = FieldSet.of([['spec'], ['spec', 'timers', 'rollout'], ['metadata', 'name']]);

    // WHEN / THEN
    expect([['spec', 'timers', 'rollout', 'x'], ['spec', 'replicas'], ['metadata', 'name'], ['metadata'], ['status', 'x']].map((p) => set.ancestorOf(p)))
      .toEqual([['spec', 'timers', 'rollout'], ['spec'], undefined, undefined, undefined]);
  });

  test('the root path as a member intersects everything', () => {
    // GIVEN / WHEN
    const set = new FieldSet().insert([]);

    // THEN
    expect(set.intersects(['anything', 'at', 'all'])).toBe(true);
    expect(set.size).toBe(1);
  });

  test('inserting a path twice keeps one member', () => {
    // GIVEN / WHEN
    const set = new FieldSet().insert(['a', 'b']).insert(['a', 'b']).insert(['a']);

    // THEN
    expect(set.size).toBe(2);
    expect([...set]).toEqual([['a'], ['a', 'b']]);
  });

  test('segments are compared whole: element keys and keys with dots are single segments', () => {
    // GIVEN
    const set = FieldSet.of([['spec', 'containers', 'k:{"name":"web"}', 'image'], ['metadata', 'labels', 'app.kubernetes.io/name']]);

    // WHEN / THEN
    expect(set.intersects(['spec', 'containers', 'k:{"name":"web"}'])).toBe(true);
    expect(set.intersects(['spec', 'containers', 'k:{"name":"api"}'])).toBe(false);
    expect(set.has(['metadata', 'labels', 'app.kubernetes.io/name'])).toBe(true);
    expect(set.intersects(['metadata', 'labels', 'app.kubernetes.io'])).toBe(false);
  });

  test('intersects agrees with a naive prefix comparison for any paths', () => {
    const path = fc.array(fc.constantFrom('a', 'b', 'k:{"name":"x"}'), { maxLength: 4 });
    const isPrefix = (p: readonly string[], q: readonly string[]) => p.length <= q.length && p.every((s, i) => q[i] === s);
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), path, (members, probe) => {
        // GIVEN a set of random members, WHEN asked about a random path, THEN the answer is the naive one
        const set = FieldSet.of(members);
        expect(set.intersects(probe)).toBe(members.some((m) => isPrefix(m, probe) || isPrefix(probe, m)));
        expect(set.has(probe)).toBe(members.some((m) => m.length === probe.length && isPrefix(m, probe)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('FieldIndex', () => {
  test('forEachPrefix visits the members on a path root first, with their depth', () => {
    // GIVEN
    const index = new FieldIndex<string>().set(['spec'], 'a').set(['spec', 'template', 'spec'], 'b').set(['spec', 'replicas'], 'c');

    // WHEN
    const seen: Array<[string, number]> = [];
    index.forEachPrefix(['spec', 'template', 'spec', 'containers'], (v, depth) => seen.push([v, depth]));

    // THEN
    expect(seen).toEqual([['a', 1], ['b', 3]]);
  });

  test('forEachBelow visits the members strictly below a path, not the path itself', () => {
    // GIVEN
    const index = new FieldIndex<string>().set(['data'], 'self').set(['data', 'a'], 'a').set(['data', 'b', 'c'], 'c').set(['metadata'], 'other');

    // WHEN
    const seen: string[] = [];
    index.forEachBelow(['data'], (v) => seen.push(v));

    // THEN
    expect(seen.sort()).toEqual(['a', 'c']);
  });

  test('upsert makes a value once and returns it after', () => {
    // GIVEN
    const index = new FieldIndex<string[]>();

    // WHEN
    index.upsert(['x'], () => []).push('one');
    index.upsert(['x'], () => ['never']).push('two');

    // THEN
    expect(index.get(['x'])).toEqual(['one', 'two']);
    expect(index.size).toBe(1);
  });

  test('set, upsert, get, has and size agree with a map keyed by the whole path, for any paths (property)', () => {
    const path = fc.array(fc.constantFrom('a', 'b', 'k:{"name":"x"}', ''), { maxLength: 4 });
    const op = fc.record({ upsert: fc.boolean(), path, value: fc.integer() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), fc.array(path, { maxLength: 6 }), (ops, probes) => {
        // GIVEN an index and a map of the same writes: `set` replaces, `upsert` keeps the first value
        const index = new FieldIndex<number>();
        const model = new Map<string, number>();
        for (const { upsert, path: p, value } of ops) {
          const key = JSON.stringify(p);
          if (upsert) {
            expect(index.upsert(p, () => value)).toBe(model.has(key) ? model.get(key) : value);
            if (!model.has(key)) model.set(key, value);
          } else {
            index.set(p, value);
            model.set(key, value);
          }
        }
        // THEN every path written and every probe reads as the map does
        expect(index.size).toBe(model.size);
        for (const p of [...ops.map((o) => o.path), ...probes]) {
          const key = JSON.stringify(p);
          expect(index.has(p)).toBe(model.has(key));
          expect(index.get(p)).toBe(model.get(key));
        }
      }),
      { numRuns: 500 },
    );
  });
});
