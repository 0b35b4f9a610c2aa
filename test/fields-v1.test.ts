/**
 * The `fieldsV1` codec against structured-merge-diff's own serialization tests, ported from
 * kubernetes-sigs/structured-merge-diff@v4.1.2 (87c6f2e7efba6350467ed69b5fe2268c225e18b3), the version the
 * oracle of test/smd/ builds: `fieldpath/serialize_test.go`, `fieldpath/serialize-pe_test.go`,
 * `fieldpath/element_test.go`, `fieldpath/set_test.go` (its random path alphabet).
 */
import * as fc from 'fast-check';
import {
  comparePathElements,
  canonicalSegment,
  FieldsV1Error,
  parseFieldsV1,
  parsePathElement,
  PathElement,
  serializeFieldsV1,
  serializePathElement,
  sharedFieldsV1,
  toFieldsV1,
} from '../src/cluster/fields-v1';

describe('path elements, as fieldpath/serialize-pe_test.go has them', () => {
  // TestPathElementRoundTrip
  test.each([
    'i:0',
    'i:1234',
    'f:',
    'f:spec',
    'f:more-complicated-string',
    'k:{"name":"my-container"}',
    'k:{"port":"8080","protocol":"TCP"}',
    'k:{"optionalField":null}',
    'k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}',
    'k:{"listField":["1","2","3"]}',
    'v:null',
    'v:"some-string"',
    'v:1234',
    'v:{"some":"json"}',
  ])('%s reads and writes back byte for byte', (text) => {
    expect(serializePathElement(parsePathElement(text)!)).toBe(text);
  });

  // TestPathElementIgnoreUnknown
  test('an unknown element type is no element (dropped), not an error', () => {
    expect(parsePathElement('r:Hello')).toBeUndefined();
  });

  // TestDeserializePathElementError
  test.each(['', 'no-colon', 'i:index is not a number', 'i:1.23', 'i:', 'v:invalid json', 'v:', 'k:invalid json', 'k:{"name":invalid}'])(
    '%j is refused',
    (text) => {
      expect(() => parsePathElement(text)).toThrow(FieldsV1Error);
    },
  );

  test('the fields of a key are sorted by name, as DeserializePathElement sorts them', () => {
    expect(serializePathElement(parsePathElement('k:{"protocol":"TCP","port":80}')!)).toBe('k:{"port":80,"protocol":"TCP"}');
    expect(canonicalSegment('k:{"protocol":"TCP","port":80}')).toBe('k:{"port":80,"protocol":"TCP"}');
  });

  test('values escape HTML characters as the JSON writer does, field names do not', () => {
    expect(serializePathElement({ kind: 'value', value: 'a<b>&c\u2028' })).toBe('v:"a\\u003cb\\u003e\\u0026c\\u2028"');
    expect(serializePathElement({ kind: 'field', name: 'a<b>' })).toBe('f:a<b>');
    expect(serializeFieldsV1([['a<b>\u0008']])).toBe('{"f:a<b>\\u0008":{}}');
  });
});

describe('the order of path elements, as fieldpath/element_test.go has it', () => {
  const f = (name: string): PathElement => ({ kind: 'field', name });
  const k = (...kv: Array<string | number>): PathElement => {
    const fields: Array<[string, string | number]> = [];
    for (let i = 0; i < kv.length; i += 2) fields.push([String(kv[i]), kv[i + 1]]);
    return { kind: 'key', fields };
  };
  const v = (value: number): PathElement => ({ kind: 'value', value });
  const i = (index: number): PathElement => ({ kind: 'index', index });

  // TestPathElementLess: a < b, or a == b when eq
  test.each<[string, PathElement, PathElement, boolean]>([
    ['FieldName-1', f('anteater'), f('zebra'), false],
    ['FieldName-2', f('bee'), f('bee'), true],
    ['FieldName-3', f('capybara'), k('dog', 3), false],
    ['FieldName-4', f('elephant'), v(4), false],
    ['FieldName-5', f('falcon'), i(5), false],
    ['Key-1', k('goat', 1), k('goat', 1), true],
    ['Key-2', k('horse', 1), k('horse', 2), false],
    ['Key-3', k('ibex', 1), k('jay', 1), false],
    ['Key-4', k('kite', 1), k('kite', 1, 'kite-2', 1), false],
    ['Key-5', k('kite', 1), v(1), false],
    ['Key-6', k('kite', 1), i(5), false],
    ['Value-1', v(1), v(2), false],
    ['Value-2', v(1), v(1), true],
    ['Value-3', v(1), i(1), false],
    ['Index-1', i(1), i(2), false],
    ['Index-2', i(1), i(1), true],
  ])('%s', (_name, a, b, eq) => {
    expect(comparePathElements(a, b)).toBe(eq ? 0 : -1);
    expect(comparePathElements(b, a)).toBe(eq ? 0 : 1);
    expect(comparePathElements(b, b)).toBe(0);
  });
});

describe('sets, as fieldpath/serialize_test.go has them', () => {
  // TestSerializeV1GoldenData
  const GOLDEN = [
    '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}',
    '{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}',
  ];

  test.each(GOLDEN.map((g, n) => [n, g] as const))('golden set %d reads and writes back byte for byte', (_n, golden) => {
    expect(serializeFieldsV1(parseFieldsV1(JSON.parse(golden)))).toBe(golden);
    expect(JSON.stringify(toFieldsV1(parseFieldsV1(JSON.parse(golden))))).toBe(golden);
  });

  // TestDropUnknown
  test('an unknown element type is dropped from a set', () => {
    expect(serializeFieldsV1(parseFieldsV1({ 'f:aaa': {}, 'r:aab': {} }))).toBe('{"f:aaa":{}}');
  });

  test('a node whose every child is of an unknown type is a member, as readIterV1 has it', () => {
    expect(parseFieldsV1({ 'f:a': { 'r:x': {} } })).toEqual([['a']]);
  });

  test('"." marks a node that is a member and has children; a node without it only holds them', () => {
    expect(parseFieldsV1({ 'f:spec': { 'f:timers': { '.': {}, 'f:publishTimeout': {} } } })).toEqual([
      ['spec', 'timers'],
      ['spec', 'timers', 'publishTimeout'],
    ]);
    expect(serializeFieldsV1([['spec', 'timers'], ['spec', 'timers', 'publishTimeout']])).toBe('{"f:spec":{"f:timers":{".":{},"f:publishTimeout":{}}}}');
  });

  test('keyed elements and set values read into the ledger\'s segments', () => {
    const fieldsV1 = {
      'f:metadata': { 'f:finalizers': { 'v:"example.com/a"': {} } },
      'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:targetPort': {} } } },
    };
    expect(parseFieldsV1(fieldsV1)).toEqual([
      ['metadata', 'finalizers', 'v:"example.com/a"'],
      ['spec', 'ports', 'k:{"port":80,"protocol":"TCP"}'],
      ['spec', 'ports', 'k:{"port":80,"protocol":"TCP"}', 'port'],
      ['spec', 'ports', 'k:{"port":80,"protocol":"TCP"}', 'targetPort'],
    ]);
  });

  test.each<[string, unknown]>([
    ['a list', { 'f:a': [] }],
    ['a string', { 'f:a': 'x' }],
    ['null', null],
    ['a malformed element', { 'i:x': {} }],
  ])('%s is refused with where it is', (_what, json) => {
    expect(() => parseFieldsV1(json)).toThrow(FieldsV1Error);
  });

  test('an error names the element', () => {
    expect(() => parseFieldsV1({ 'f:spec': { 'f:a': 3 } })).toThrow(/^fieldsV1\["f:spec"\]\["f:a"\] is 3, expected an object$/);
  });

  // TestSerializeV1: 500 random sets of 50 paths of 2 to 5 elements, from set_test.go's randomPathMaker alphabet
  const ALPHABET = [
    'aaa', 'aab', 'aac', 'aad', 'aae', 'aaf',
    'k:{"name":"first"}', 'k:{"name":"second"}', 'k:{"port":443,"protocol":"tcp"}', 'k:{"port":443,"protocol":"udp"}',
    'v:1', 'v:2', 'v:3', 'v:"aa"', 'v:"ab"', 'v:true',
    'i:1', 'i:2', 'i:3', 'i:4',
  ];
  const path = fc.array(fc.constantFrom(...ALPHABET), { minLength: 2, maxLength: 5 });

  test('a random set reads back as itself (500 sets of 50 paths)', () => {
    fc.assert(
      fc.property(fc.array(path, { minLength: 50, maxLength: 50 }), (paths) => {
        const text = serializeFieldsV1(paths);
        const members = parseFieldsV1(JSON.parse(text));
        const asSet = (ps: readonly (readonly string[])[]) => new Set(ps.map((p) => JSON.stringify(p)));
        expect(asSet(members)).toEqual(asSet(paths));
        expect(serializeFieldsV1(members)).toBe(text);
      }),
      { numRuns: 500, seed: 20261203 },
    );
  });
});

describe('the order and the JSON writer on any string (fast-check)', () => {
  // Strings of every kind: ASCII, any UTF-16 (lone surrogates too), and the characters that decide each path.
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.constantFrom('a', 'z', '\ud800', '\udc00', '\ud83d\ude00', '\uffff', '\ue000', '<', '>', '&', '"', '\\', '\n', '\u0001', '\u2028', '\u2029') }),
  );
  const field = (name: string): PathElement => ({ kind: 'field', name });

  test('field names order by code point, as Go orders their UTF-8 bytes', () => {
    const byCodePoint = (a: string, b: string) => {
      const x = Array.from(a, (c) => c.codePointAt(0)!);
      const y = Array.from(b, (c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
      return Math.sign(x.length - y.length);
    };
    fc.assert(fc.property(text, text, (a, b) => comparePathElements(field(a), field(b)) === byCodePoint(a, b)), { numRuns: 5_000 });
  });

  test('a value and a key are written as json-iterator writes a string, HTML characters escaped', () => {
    // json-iterator's writer (ConfigCompatibleWithStandardLibrary, EscapeHTML): `"` `\` by backslash, \n \r \t by
    // letter, other control characters as \u00XX, and < > & U+2028 U+2029 as \uXXXX
    const goJson = (s: string) => `"${Array.from(s, (ch) => {
      const c = ch.codePointAt(0)!;
      if (ch === '"' || ch === '\\') return `\\${ch}`;
      if (ch === '\n') return '\\n';
      if (ch === '\r') return '\\r';
      if (ch === '\t') return '\\t';
      if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) return `\\u${c.toString(16).padStart(4, '0')}`;
      return ch;
    }).join('')}"`;
    fc.assert(
      fc.property(text, (s) => {
        expect(serializePathElement({ kind: 'value', value: s })).toBe(`v:${goJson(s)}`);
        expect(serializePathElement({ kind: 'key', fields: [['name', s]] })).toBe(`k:{"name":${goJson(s)}}`);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('sets shared by a release (sharedFieldsV1)', () => {
  const ALPHABET = ['a', 'b', 'ab', '', 'k:{"name":"b"}', 'k:{"port":80,"name":"a"}', 'v:"a"', 'i:0', 'i:1', '\ud83d\ude00', '\ue000'];
  const paths = fc.array(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 4 }), { maxLength: 8 });

  test('a list of paths gets the set toFieldsV1 makes of it, in its order, each time it is asked for', () => {
    const shared = sharedFieldsV1();
    fc.assert(
      fc.property(paths, (list) => {
        const fields = shared(list);
        expect(JSON.stringify(fields)).toBe(JSON.stringify(toFieldsV1(list)));
        expect(shared(list.map((p) => [...p]))).toBe(fields);
      }),
      { numRuns: 2_000, seed: 20261206 },
    );
  });

  test('lists that split the same segments into other paths get sets of their own', () => {
    // GIVEN one release's shared sets
    const shared = sharedFieldsV1();
    // WHEN lists of the same segments, split into paths differently or with an empty path, are asked for
    const whole = shared([['spec', 'replicas']]);
    const split = shared([['spec'], ['replicas']]);
    const withEmpty = shared([['spec', 'replicas'], []]);
    // THEN each is the set of its own paths
    expect(whole).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(split).toEqual({ 'f:replicas': {}, 'f:spec': {} });
    expect(withEmpty).toEqual(whole);
    expect(withEmpty).not.toBe(whole);
    expect(shared([])).toEqual({});
  });
});
