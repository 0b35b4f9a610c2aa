import * as fc from 'fast-check';
import { elementKey, formatPath, setValueKey } from '../src/collect/ledger/field-path';
import { FieldPathSyntaxError, parseFieldPath, PathStep } from '../src/private/field-path-syntax';

describe('parseFieldPath', () => {
  test.each<[string, PathStep[]]>([
    ['spec.domains', [{ field: 'spec' }, { field: 'domains' }]],
    ['metadata.labels["app.kubernetes.io/name"]', [{ field: 'metadata' }, { field: 'labels' }, { field: 'app.kubernetes.io/name' }]],
    ['["odd key"].x', [{ field: 'odd key' }, { field: 'x' }]],
    ['spec.template.spec.containers[name=web].image', [{ field: 'spec' }, { field: 'template' }, { field: 'spec' }, { field: 'containers' }, { keys: { name: 'web' } }, { field: 'image' }]],
    ['ports[containerPort=80,protocol=TCP]', [{ field: 'ports' }, { keys: { containerPort: 80, protocol: 'TCP' } }]],
    ['env[name="80"].value', [{ field: 'env' }, { keys: { name: '80' } }, { field: 'value' }]],
    ['metadata.finalizers[=example.com/protect]', [{ field: 'metadata' }, { field: 'finalizers' }, { value: 'example.com/protect' }]],
    ['flags[=true]', [{ field: 'flags' }, { value: true }]],
  ])('%s', (text, steps) => {
    expect(parseFieldPath(text)).toEqual(steps);
  });

  test.each([
    ['spec..x', 'a field name (letters, digits, "_") after "."', 6],
    ['spec[name]', '"=" after the key field "name"', 10],
    ['spec[name=]', 'a value (quote it as a JSON string when it is empty or holds "," or "]")', 11],
    ['spec[a=1,a=2]', 'another key field than "a", which is already given', 11],
    ['spec x', '".", "[" or the end of the path', 5],
    ['1spec', 'a field name, or a quoted key in brackets such as ["app.kubernetes.io/name"]', 1],
  ])('%j is refused: expected %s at character %d', (text, expected, character) => {
    expect(() => parseFieldPath(text)).toThrow(new FieldPathSyntaxError(text, character - 1, expected));
    expect(() => parseFieldPath(text)).toThrow(`${JSON.stringify(text)} is not a field path: expected ${expected} at character ${character}`);
  });

  test.each([
    ['spec.', 'a field name (letters, digits, "_") after "."'],
    ['spec[name=web', '"]"'],
    ['spec[name=', 'a value (quote it as a JSON string when it is empty or holds "," or "]")'],
  ])('%j, which ends too early, is refused at the end of the path, not at a character past its last', (text, expected) => {
    expect(() => parseFieldPath(text)).toThrow(new FieldPathSyntaxError(text, text.length, expected));
    expect(() => parseFieldPath(text)).toThrow(new Error(`${JSON.stringify(text)} is not a field path: expected ${expected} at the end of the path`));
  });

  test('the empty path is refused as empty', () => {
    expect(() => parseFieldPath('')).toThrow(
      new Error('"" is not a field path: expected a field name, or a quoted key in brackets such as ["app.kubernetes.io/name"] but the path is empty'),
    );
  });
});

describe('the syntax is the one the ledger prints', () => {
  const key = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
  /** Characters that the syntax reads specially, and text that reads as another type when left unquoted. */
  const SIGNIFICANT = [',', ']', '[', '=', '"', '\\', '.', ' ', '\t', '\n', 'e', 'E', '-', '+', '0', '1', '9', 'true', 'false', 'null', 'k:{', 'v:'];
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: fc.constantFrom(...SIGNIFICANT) }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('2', '8080', '1e3', '-1', '0.5', 'true', 'false', 'null', '', ' web', 'web ', 'a,b', 'a]b', 'a=b', '"q"', '"', 'web'),
  );
  /** Values as JSON holds them: strings, numbers (JSON's: finite, no -0), booleans, null. */
  const scalar = fc.oneof(
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
  );
  /** A map key of any text but the two forms the ledger's own segments take (`k:{...}`, `v:...`). */
  const mapKey = text.filter((k) => !k.startsWith('k:{') && !k.startsWith('v:'));
  const segment = fc.oneof(
    key,
    mapKey,
    fc.dictionary(key, scalar, { minKeys: 1, maxKeys: 3 }).map((keys) => elementKey(keys)),
    scalar.map((v) => setValueKey(v)),
  );

  test('parseFieldPath reads back what formatPath writes: strings, numbers, booleans and null as keys and set values, map keys of any text', () => {
    fc.assert(
      fc.property(fc.tuple(key, fc.array(segment, { maxLength: 5 })), ([first, rest]) => {
        // GIVEN a path, as the ledger spells it, printed
        const path = [first, ...rest];
        const printed = formatPath(path);

        // WHEN read back and spelt again (a syntax error fails the case)
        const again = parseFieldPath(printed).map((s) => ('field' in s ? s.field : 'keys' in s ? elementKey(s.keys) : setValueKey(s.value)));

        // THEN it is the same path
        expect(again).toEqual(path);
      }),
      { numRuns: 2000 },
    );
  });

  test.each<[string, Record<string, unknown> | undefined, unknown, string]>([
    ['a string key that reads as a number', { version: '2' }, undefined, 'spec.releases[version="2"]'],
    ['a number key', { version: 2 }, undefined, 'spec.releases[version=2]'],
    ['a string key that reads as an exponent', { version: '1e3' }, undefined, 'spec.releases[version="1e3"]'],
    ['a string key that reads as a negative number', { version: '-1' }, undefined, 'spec.releases[version="-1"]'],
    ['a string key that reads as null', { version: 'null' }, undefined, 'spec.releases[version="null"]'],
    ['a string key with a comma', { version: 'a,b' }, undefined, 'spec.releases[version="a,b"]'],
    ['a string key with "]"', { version: 'a]b' }, undefined, 'spec.releases[version="a]b"]'],
    ['a string key with "="', { version: 'a=b' }, undefined, 'spec.releases[version="a=b"]'],
    ['a string key with a quote', { version: 'say "hi"' }, undefined, 'spec.releases[version="say \\"hi\\""]'],
    ['a string key with a leading space', { version: ' v2' }, undefined, 'spec.releases[version=" v2"]'],
    ['a string key with a trailing space', { version: 'v2 ' }, undefined, 'spec.releases[version="v2 "]'],
    ['the empty string', { version: '' }, undefined, 'spec.releases[version=""]'],
    ['a plain string key', { name: 'web' }, undefined, 'spec.releases[name=web]'],
    ['two keys, a number and a plain string', { containerPort: 8080, protocol: 'TCP' }, undefined, 'spec.releases[containerPort=8080,protocol=TCP]'],
    ['a string set value that reads as a boolean', undefined, 'true', 'spec.releases[="true"]'],
    ['a boolean set value', undefined, true, 'spec.releases[=true]'],
    ['a string set value that reads as a number', undefined, '8080', 'spec.releases[="8080"]'],
    ['a plain string set value', undefined, 'example.com/protect', 'spec.releases[=example.com/protect]'],
  ])('%s is printed so that it reads back as itself', (_, keys, value, printed) => {
    // GIVEN an element of a keyed list or a value of a set
    const element = keys ? elementKey(keys) : setValueKey(value);

    // WHEN printed
    const shown = formatPath(['spec', 'releases', element]);

    // THEN it is printed as expected, and reads back as itself
    expect(shown).toBe(printed);
    expect(parseFieldPath(shown)[2]).toEqual(keys ? { keys } : { value });
  });
});
