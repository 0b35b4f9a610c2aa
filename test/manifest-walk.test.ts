import { MAX_NESTING_DEPTH, walkManifest } from '../src/private/manifest-walk';

/** What `JSON.stringify` of `value` takes in UTF-8. */
function serialized(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

describe('walkManifest: a bound of the serialized bytes, counted on the shared walk', () => {
  test('counts each key, string, number and bracket at its most', () => {
    // GIVEN a map of one string: 2 braces, the key at 6 bytes a unit + quotes, colon and comma, the string at 6 a unit + quotes
    expect(walkManifest({ a: 'xy' }).maxBytes).toBe(2 + (6 + 4) + (12 + 2));
    // a list of a number, a boolean and null: brackets, a comma each, 24, 24 and 4
    expect(walkManifest({ l: [1, true, null] }).maxBytes).toBe(2 + (6 + 4) + 2 + 3 + 24 + 24 + 4);
  });

  test.each([
    ['control characters, escaped as \\uXXXX', { data: { k: '\u0001'.repeat(1000) } }],
    ['lone surrogates, escaped as \\udXXX', { data: { k: '\ud800x'.repeat(500) } }],
    ['emoji, 4 bytes a pair', { data: { k: '\u{1F600}'.repeat(500) } }],
    ['3-byte characters', { data: { ['\u20ac'.repeat(10)]: '\u20ac'.repeat(500) } }],
    ['the longest numbers', { n: [-1.7976931348623157e308, -5e-324, -123456789.12345678, 1e21] }],
    ['quotes and backslashes', { s: '"\\'.repeat(300), t: [['\n\t'], { u: '' }] }],
  ])('is never below what JSON.stringify writes: %s', (_, value) => {
    const bound = walkManifest(value).maxBytes;
    expect(bound).toBeGreaterThanOrEqual(serialized(value));
  });

  test('is absent where the walk cannot bound the text: a toJSON method, a value JSON cannot hold, too deep', () => {
    expect(walkManifest({ at: new Date(0) }).maxBytes).toBeUndefined();
    expect(walkManifest({ f: () => 1 }).maxBytes).toBeUndefined();
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) deep = (deep.x = {}) as Record<string, unknown>;
    expect(walkManifest(top).maxBytes).toBeUndefined();
  });
});
