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
  /** Values that formatPath prints unambiguously (an unquoted value that looks like a number or has "," or "]" reads back otherwise). */
  const plain = fc.stringMatching(/^[a-z][a-z0-9./-]{0,12}$/).filter((v) => !['true', 'false', 'null'].includes(v));
  const key = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
  const segment = fc.oneof(
    key,
    fc.stringMatching(/^[a-z][a-z0-9./ -]{0,12}$/),
    fc.dictionary(key, fc.oneof(plain, fc.integer({ min: 0, max: 65535 })), { minKeys: 1, maxKeys: 3 }).map((keys) => elementKey(keys)),
    plain.map((v) => setValueKey(v)),
  );

  test('parseFieldPath reads back what formatPath writes', () => {
    fc.assert(
      fc.property(fc.tuple(key, fc.array(segment, { maxLength: 5 })), ([first, rest]) => {
        // GIVEN a path, as the ledger spells it, printed
        const path = [first, ...rest];
        const text = formatPath(path);

        // WHEN read back and spelt again
        const again = parseFieldPath(text).map((s) => ('field' in s ? s.field : 'keys' in s ? elementKey(s.keys) : setValueKey(s.value)));

        // THEN
        expect(again).toEqual(path);
      }),
      { numRuns: 300 },
    );
  });
});
