import { appendAll, appendTo } from '../src/private/append';

describe('appendAll', () => {
  test('appends every item in order and returns the target', () => {
    const target = [1];
    expect(appendAll(target, [2, 3])).toBe(target);
    expect(target).toEqual([1, 2, 3]);
  });

  test('appends more items than fit as call arguments', () => {
    // target.push(...items) throws a RangeError well below this many
    const items = Array.from({ length: 500_000 }, (_, i) => i);
    expect(appendAll([], items)).toHaveLength(500_000);
  });
});

describe('appendTo', () => {
  test('makes the list of a new key, then grows that same list in place', () => {
    const byKey = new Map<string, number[]>();
    appendTo(byKey, 'a', 1);
    const first = byKey.get('a');
    appendTo(byKey, 'a', 2);
    appendTo(byKey, 'b', 3);
    expect(first).toEqual([1, 2]);
    // the same array: gathering n items copies nothing
    expect(byKey.get('a')).toBe(first);
    expect([...byKey]).toEqual([['a', [1, 2]], ['b', [3]]]);
  });

  test('keeps keys in first-seen order and items in append order', () => {
    const byKey = new Map<number, string[]>();
    for (const [k, v] of [[2, 'x'], [1, 'y'], [2, 'z']] as const) appendTo(byKey, k, v);
    expect([...byKey]).toEqual([[2, ['x', 'z']], [1, ['y']]]);
  });
});
