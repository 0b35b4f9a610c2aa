import * as fc from 'fast-check';
import * as jsyamlIndex from 'js-yaml';
import { isAmbiguous } from '../src/private/ambiguous-strings';
import { blockYaml } from '../src/private/block-yaml';
import { commonYaml, dumpYaml, toYaml } from '../src/private/yaml';

/** Characters that decide a scalar's style in YAML: indicators, spaces, digits, signs. */
const SIGNIFICANT = [...'-?:,[]{}#&*!|=>\'"%@`~ \\.+_eE0179abxoTtNnYy<'];

/** Strings a reader takes for something else, or that js-yaml quotes for YAML 1.1's sake. */
const LOOKALIKES = ['yes', 'Off', 'y', 'N', 'true', 'NULL', '~', '0', '0123', '0o17', '0b101', '0x1F', '1e3', '1_000', '1:20', '190:20:30.5', '+12', '-0', '.5', '.inf', '.NaN', '2001-12-14', '2001-12-14 21:59:43.10 -5', '<<', '=', ''];

/** Scalars of every kind a manifest holds, and some it should not. */
const text = fc.oneof(
  fc.constantFrom(...LOOKALIKES),
  fc.string(),
  fc.string({ unit: fc.constantFrom(...SIGNIFICANT) }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ maxLength: 1_100, minLength: 1_020 }),
);
const scalar = fc.oneof(
  text,
  fc.integer(),
  fc.constantFrom(-0, 0.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER, 2 ** 60, NaN, Infinity, -Infinity),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

describe('blockYaml', () => {
  test('writes js-yaml`s bytes for any document, or leaves it to js-yaml (fast-check, against jsyaml.dump)', () => {
    // GIVEN random documents: nested maps and lists of any scalar, empty ones, maps without a prototype, dates
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 2, noNullPrototype: false }),
        fc.date({ noInvalidDate: true }),
      ),
    }));
    let written = 0;

    // WHEN / THEN every document it writes is js-yaml's text of it
    fc.assert(
      fc.property(fc.oneof(value, fc.dictionary(text, value, { maxKeys: 6 })), (doc) => {
        const common = commonYaml(doc);
        if (common === undefined) return true;
        written++;
        expect(common).toBe(dumpYaml(doc));
        return true;
      }),
      { numRuns: 5_000 },
    );
    // a quarter of them at least went through it, so the property says something
    expect(written).toBeGreaterThan(5_000 / 4);
  });

  test('on anything fast-check makes (sparse arrays, boxed values, Maps, Sets, Dates, typed arrays), writes js-yaml`s bytes or leaves it', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withSparseArray: true,
          withNullPrototype: true,
          withObjectString: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
        }),
        (doc) => {
          const common = commonYaml(doc);
          return common === undefined || common === dumpYaml(doc);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  test('writes every document of one-line ASCII strings, integers, booleans and nulls itself (fast-check)', () => {
    // GIVEN documents of only what it takes on
    const ascii = fc.oneof(fc.constantFrom(...LOOKALIKES), fc.string({ maxLength: 30 }), fc.string({ unit: fc.constantFrom(...SIGNIFICANT) }));
    const plain = fc.oneof(ascii, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, plain, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(ascii, tie('value'), { maxKeys: 4 })),
    }));

    // WHEN / THEN it writes each one, as js-yaml does
    fc.assert(
      fc.property(fc.dictionary(ascii, value, { maxKeys: 6 }), (doc) => commonYaml(doc) === dumpYaml(doc)),
      { numRuns: 3_000 },
    );
  });

  test.each([
    ['a float', { replicas: 1.5 }],
    ['a string on two lines', { data: { script: 'a\nb' } }],
    ['a string with a tab', { data: { v: 'a\tb' } }],
    ['a string beyond ASCII', { data: { v: 'é' } }],
    ['a key of 1,025 characters', { ['k'.repeat(1_025)]: 1 }],
    ['a Date', { at: new Date(0) }],
    ['a class instance', { spec: new (class Spec {})() }],
    ['a function', { f: () => 1 }],
  ])('leaves a document with %s to js-yaml', (_what, doc) => {
    expect(commonYaml(doc)).toBeUndefined();
  });

  test('quotes what the schema reads as another type, and plain what it reads as a string', () => {
    // GIVEN a schema that reads "x" as something else
    const resolves = (s: string) => s === 'x';

    // WHEN
    const written = blockYaml({ a: 'x', b: 'y1', c: ['x', 'on', '1:30', 'a: b', 'a #b', 'a#b', 'k:', '"q\\"'] }, resolves);

    // THEN
    expect(written).toBe('a: "x"\nb: y1\nc:\n  - "x"\n  - "on"\n  - "1:30"\n  - "a: b"\n  - "a #b"\n  - a#b\n  - "k:"\n  - "\\"q\\\\\\""\n');
  });

  test('every string js-yaml`s default schema reads as another type is ambiguous (fast-check, against js-yaml`s resolvers)', () => {
    // GIVEN js-yaml's own implicit types (null, bool, int, float, timestamp, merge), as its dumper tests a string
    const implicit = (jsyamlIndex.DEFAULT_SCHEMA as unknown as { compiledImplicit: Array<jsyamlIndex.Type & { tag: string }> }).compiledImplicit;
    expect(implicit.map((t) => t.tag.replace('tag:yaml.org,2002:', ''))).toEqual(['null', 'bool', 'int', 'float', 'timestamp', 'merge']);
    const resolved = (s: string) => implicit.some((t) => t.resolve(s));
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789_'), minLength: 1, maxLength: 6 });
    const numeric = fc.oneof(
      fc.tuple(fc.constantFrom('', '-', '+'), fc.constantFrom('', '0b', '0x', '0o', '0', '.'), digits, fc.constantFrom('', '.', 'e5', 'E-2', ':30', ':5:07.5')).map((p) => p.join('')),
      fc.string({ unit: fc.constantFrom(...'0123456789_-+.:eExXoObBabcfABCF'), maxLength: 8 }),
      fc.double().map(String),
    );
    const dated = fc.tuple(fc.date({ noInvalidDate: true, min: new Date(0) }), fc.constantFrom('T', 't', ' ', '  ')).map(([d, t]) => d.toISOString().replace('T', t));
    const worded = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'~nNuUlLtTrReEfFaAsS.iIyYoO<'), maxLength: 6 }),
      fc.constantFrom('true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', '~', '<<', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN'),
    );
    let found = 0;

    // WHEN / THEN whatever js-yaml resolves, isAmbiguous takes in, so blockYaml quotes what js-yaml quotes
    fc.assert(
      fc.property(fc.oneof(numeric, dated, worded, fc.string()), (s) => {
        if (s === '' || !resolved(s)) return true;
        found++;
        return isAmbiguous(s);
      }),
      { numRuns: 50_000 },
    );
    expect(found).toBeGreaterThan(10_000);
  });

  test('toYaml gives js-yaml`s text where blockYaml leaves the document', () => {
    const doc = { data: { script: 'line 1\nline 2\n' }, replicas: 1.5 };
    expect(toYaml(doc)).toBe('data:\n  script: |\n    line 1\n    line 2\nreplicas: 1.5\n');
    expect(toYaml(doc)).toBe(dumpYaml(doc));
  });
});
