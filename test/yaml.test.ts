import * as path from 'path';
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import * as jsyamlIndex from 'js-yaml';
import { parse } from 'yaml';
import { jsyaml } from '../src/private/js-yaml';
import { commonYaml, toYaml } from '../src/private/yaml';

/** Strings that read as something else in YAML 1.1 (kubectl's reader) or 1.2 when written plain. */
const AMBIGUOUS = [
  'yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', 'True', 'FALSE', 'null', 'Null', '~', '0', '0123', '0777', '0o17', '0b101', '0x1F',
  '1e3', 'E0', 'e5', '1_000', '1:20', '190:20:30', '+12', '-0', '.5', '5.', '.', '.inf', '-.inf', '.NaN', '2001-12-14',
  '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '12:30:45', '<<', '=',
];

/** Strings that need quoting or escaping for other reasons. */
const AWKWARD = ['', '-', '?', '#x', 'a: b', 'a #b', ' lead', 'trail ', 'multi\nline', 'multi\nline\n', 'tab\tx', '"q"', "'s'", '@x', '`x', '%x', '!x', '&x', '*x', '|', '>', '[a]', '{a}', 'key:', 'é', '😀', '\u0007bell', '\u2028sep'];

/** What a reader of `yaml` gives back under each YAML version, as JSON. */
function readBack(text: string): Record<string, string> {
  return { 1.1: JSON.stringify(parse(text, { version: '1.1' })), 1.2: JSON.stringify(parse(text, { version: '1.2' })) };
}

describe('toYaml', () => {
  test('writes the manifests cdk8s-plus renders byte for byte as cdk8s itself does', () => {
    // GIVEN a Deployment, a Service, a ConfigMap and a Secret as cdk8s-plus renders them
    const chart = new Chart(new App(), 'c');
    const deployment = new kplus.Deployment(chart, 'Web', {
      metadata: { labels: { 'app.kubernetes.io/name': 'web', 'enabled': 'yes' } },
      containers: [{ image: 'nginx:1.27', portNumber: 8080, envVariables: { MODE: kplus.EnvValue.fromValue('on'), ZIP: kplus.EnvValue.fromValue('0123') } }],
    });
    const service = deployment.exposeViaService();
    const config = new kplus.ConfigMap(chart, 'Config', { data: { flag: 'off', date: '2001-12-14', big: '1_000', multi: 'a\nb\n' } });
    const secret = new kplus.Secret(chart, 'Secret', { stringData: { token: 'null' } });
    const manifests = [deployment, service, config, secret].map((c) => ApiObject.of(c).toJson());

    // WHEN / THEN
    for (const m of manifests) expect(toYaml(m)).toBe(Yaml.stringify(m));
    // the block writer writes all but the ConfigMap, whose value on two lines it leaves to js-yaml
    expect(manifests.map((m) => commonYaml(m) !== undefined)).toEqual([true, true, false, true]);
  });

  test.each(AMBIGUOUS.map((s) => [s]))('quotes %j, as a value and as a key, so every reader reads it back as that string', (s) => {
    // GIVEN
    const doc = { value: s, [s]: 'key' };

    // WHEN
    const text = toYaml(doc);

    // THEN
    expect(readBack(text)).toEqual({ 1.1: JSON.stringify(doc), 1.2: JSON.stringify(doc) });
    expect(text).toContain(`value: ${JSON.stringify(s)}\n`);
  });

  test.each(AWKWARD.map((s) => [s]))('writes %j so that it reads back unchanged', (s) => {
    const doc = { value: s, [s]: 'key' };
    expect(readBack(toYaml(doc))).toEqual({ 1.1: JSON.stringify(doc), 1.2: JSON.stringify(doc) });
  });

  test('writes an undefined map value as null, as cdk8s does', () => {
    const doc = { a: undefined, b: [1, undefined], c: { d: undefined } };
    expect(toYaml(doc)).toBe(Yaml.stringify(doc));
    expect(toYaml(doc)).toBe('a: null\nb:\n  - 1\n  - null\nc:\n  d: null\n');
  });

  test('any document reads back unchanged under YAML 1.1 and 1.2 (fast-check)', () => {
    // GIVEN random documents whose strings lean on the ambiguous and awkward ones
    const text = fc.oneof(fc.constantFrom(...AMBIGUOUS, ...AWKWARD), fc.string(), fc.string({ unit: 'grapheme' }));
    const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(text, tie('value'), { maxKeys: 4 })),
    }));
    let cases = 0;
    let identical = 0;

    // WHEN / THEN each one is read back as written, by both versions' readers
    fc.assert(
      fc.property(fc.dictionary(text, value, { maxKeys: 6 }), (doc) => {
        const written = toYaml(doc);
        const want = JSON.stringify(doc, (_k, v) => (Object.is(v, -0) ? 0 : v));
        const read = readBack(written);
        cases++;
        if (written === Yaml.stringify(doc)) identical++;
        return read['1.1'] === want && read['1.2'] === want;
      }),
      { numRuns: 3_000 },
    );
    // eslint-disable-next-line no-console
    console.log(`toYaml: ${cases} random documents read back unchanged; ${identical} byte-identical to cdk8s' writer`);
    expect(cases).toBe(3_000);
  });
});

describe('the js-yaml copy this library loads', () => {
  test('is the single-file build of the installed js-yaml, with the API of its index', () => {
    // GIVEN the copy, and the index as `import` loads it
    const index = jsyamlIndex;
    const file = require.resolve('js-yaml').replace(/index\.js$/, path.join('dist', 'js-yaml.js'));

    // THEN it is the dist file, not the index
    expect(require.cache[file]?.exports).toBe(jsyaml);
    expect(jsyaml).not.toBe(index);
    // with every name of the index (and an ES module `default`)
    expect(Object.keys(jsyaml).filter((k) => k !== 'default').sort()).toEqual(Object.keys(index).filter((k) => k !== 'default').sort());
    // writing what the index writes, and reading it back
    const doc = { a: 'yes', b: ['0123', 1_000, null], c: { d: '2026-12-04', e: 'plain' } };
    expect(jsyaml.dump(doc)).toBe(index.dump(doc));
    expect(jsyaml.load(jsyaml.dump(doc))).toEqual(doc);
  });
});
